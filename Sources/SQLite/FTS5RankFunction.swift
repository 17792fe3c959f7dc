import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// FTS5's `bm25()`, computed the same way, where the caller may give each phrase's number of matching rows.
///
/// `bm25()` counts those rows itself on each query, which reads the phrase's whole doclist: for a word in
/// most rows (a city's name in its addresses) that costs more than the rest of the query. A caller that
/// already knows the count (from an `fts5vocab` copy) passes it, and the score is the same.
///
/// SQL: `bm25_counted(table, weight₀, …, weightₙ₋₁, counts)`, with one weight per column and `counts` a
/// comma-separated list with one entry per phrase of the MATCH expression, in its order: the number of rows
/// the phrase matches, or `-1` for "count it" (as `bm25()` does). A list of another length counts every phrase.
public enum FTS5RankFunction {
    public static let name = "bm25_counted"

    /// Registers the function on `database` (once per connection).
    public static func register(on database: Database, columns: Int) throws(SQLiteError) {
        let api = try FTS5Tokenizer.api(database)
        let columnCount = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        columnCount.initialize(to: Int32(columns))
        let rc = api.pointee.xCreateFunction(api, name, columnCount, { api, fts, context, count, values in
            guard let api, let fts, let values else { return }
            let columns = Int(api.pointee.xUserData(fts)!.assumingMemoryBound(to: Int32.self).pointee)
            FTS5RankFunction.score(api, fts, context, Int(count), values, columns: columns)
        }, { $0?.deallocate() })
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, message: "cannot register the FTS5 function \(name)") }
    }

    /// Per query: the phrase count, each phrase's IDF, the average row length and room for the frequencies.
    private struct Statistics {
        var phrases: Int
        var averageLength: Double
        /// IDF of each phrase, then the phrase frequencies of the current row.
        var buffer: UnsafeMutablePointer<Double>
    }

    private static func score(_ api: UnsafePointer<Fts5ExtensionApi>, _ fts: OpaquePointer, _ context: OpaquePointer?, _ count: Int,
                              _ values: UnsafeMutablePointer<OpaquePointer?>, columns: Int) {
        let k1 = 1.2, b = 0.75
        guard let statistics = statistics(api, fts, count > columns ? values[columns] : nil) else {
            sqlite3_result_error_code(context, SQLITE_ERROR)
            return
        }
        let n = statistics.phrases
        let idf = statistics.buffer, frequency = statistics.buffer + n
        frequency.update(repeating: 0, count: n)
        var instances: Int32 = 0
        guard api.pointee.xInstCount(fts, &instances) == SQLITE_OK else { return sqlite3_result_error_code(context, SQLITE_ERROR) }
        for i in 0..<instances {
            var phrase: Int32 = 0, column: Int32 = 0, offset: Int32 = 0
            guard api.pointee.xInst(fts, i, &phrase, &column, &offset) == SQLITE_OK else { return sqlite3_result_error_code(context, SQLITE_ERROR) }
            let w = min(count, columns) > Int(column) ? sqlite3_value_double(values[Int(column)]) : 1.0
            frequency[Int(phrase)] += w
        }
        var tokens: Int32 = 0
        guard api.pointee.xColumnSize(fts, -1, &tokens) == SQLITE_OK else { return sqlite3_result_error_code(context, SQLITE_ERROR) }
        let d = Double(tokens)
        var score = 0.0
        for i in 0..<n {
            score += idf[i] * ((frequency[i] * (k1 + 1.0)) / (frequency[i] + k1 * (1 - b + b * d / statistics.averageLength)))
        }
        sqlite3_result_double(context, -1.0 * score)
    }

    /// The query's statistics, computed on its first row and kept as the query's auxiliary data.
    private static func statistics(_ api: UnsafePointer<Fts5ExtensionApi>, _ fts: OpaquePointer, _ countsValue: OpaquePointer?) -> Statistics? {
        let phrases = Int(api.pointee.xPhraseCount(fts))
        if let kept = api.pointee.xGetAuxdata(fts, 0) {
            let header = kept.assumingMemoryBound(to: Double.self)
            return Statistics(phrases: phrases, averageLength: header[0], buffer: header + 1)
        }
        var rows: Int64 = 0, tokens: Int64 = 0
        guard api.pointee.xRowCount(fts, &rows) == SQLITE_OK, api.pointee.xColumnTotalSize(fts, -1, &tokens) == SQLITE_OK,
              let memory = malloc(MemoryLayout<Double>.stride * (1 + 2 * max(phrases, 1))) else { return nil }
        let header = memory.assumingMemoryBound(to: Double.self)
        header[0] = Double(tokens) / Double(rows)
        var given = countsValue.flatMap { sqlite3_value_text($0) }.map { String(cString: $0) }?
            .split(separator: ",").map { Int64($0) ?? -1 } ?? []
        if given.count != phrases { given = Array(repeating: -1, count: phrases) }
        for i in 0..<phrases {
            var hits = given[i]
            if hits < 0 {
                hits = 0
                let rc = api.pointee.xQueryPhrase(fts, Int32(i), &hits) { _, _, user in
                    user!.assumingMemoryBound(to: Int64.self).pointee += 1
                    return SQLITE_OK
                }
                guard rc == SQLITE_OK else { free(memory); return nil }
            }
            var idf = log((Double(rows - hits) + 0.5) / (Double(hits) + 0.5))
            if idf <= 0.0 { idf = 1e-6 }
            header[1 + i] = idf
        }
        guard api.pointee.xSetAuxdata(fts, memory, { free($0) }) == SQLITE_OK else { return nil }
        return Statistics(phrases: phrases, averageLength: header[0], buffer: header + 1)
    }
}
