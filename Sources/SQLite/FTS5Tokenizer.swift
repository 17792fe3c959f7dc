import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// An FTS5 tokenizer (by default `unicode61 remove_diacritics 2`) called directly, so that code
/// outside SQL splits and folds text exactly as an FTS5 index does ("Töölö" → "toolo").
/// Belongs to its connection: same threading rules, and it keeps the connection alive.
public final class FTS5Tokenizer {
    private let database: Database
    private var module = fts5_tokenizer()
    private var instance: OpaquePointer?

    /// The pointer type FTS5 checks in `SELECT fts5(?)`; it must outlive the statement's step.
    nonisolated(unsafe) private static let apiPointerType: UnsafeMutablePointer<CChar> = strdup("fts5_api_ptr")

    public init(database: Database, name: String = "unicode61", arguments: [String] = ["remove_diacritics", "2"]) throws(SQLiteError) {
        self.database = database
        let api = try Self.api(database)
        var context: UnsafeMutableRawPointer?
        var module = fts5_tokenizer()
        let found = api.pointee.xFindTokenizer(api, name, &context, &module)
        guard found == SQLITE_OK, let create = module.xCreate else {
            throw SQLiteError(code: found, message: "no FTS5 tokenizer named \(name)")
        }
        var cArguments: [UnsafePointer<CChar>?] = arguments.map { UnsafePointer(strdup($0)) }
        defer { for a in cArguments { free(UnsafeMutableRawPointer(mutating: a)) } }
        var tokenizer: OpaquePointer?
        let rc = cArguments.withUnsafeMutableBufferPointer { create(context, $0.baseAddress, Int32(arguments.count), &tokenizer) }
        guard rc == SQLITE_OK, tokenizer != nil else {
            throw SQLiteError(code: rc, message: "cannot create FTS5 tokenizer \(name) \(arguments.joined(separator: " "))")
        }
        self.module = module
        instance = tokenizer
    }

    deinit {
        if let instance { module.xDelete?(instance) }
    }

    /// The connection's FTS5 API (for tokenizers and auxiliary functions).
    static func api(_ database: Database) throws(SQLiteError) -> UnsafeMutablePointer<fts5_api> {
        let statement = try database.prepare("SELECT fts5(?1)")
        let slot = UnsafeMutablePointer<UnsafeMutablePointer<fts5_api>?>.allocate(capacity: 1)
        slot.initialize(to: nil)
        defer { slot.deallocate() }
        sqlite3_bind_pointer(statement.handle, 1, slot, apiPointerType, nil)
        _ = try statement.step()
        guard let api = slot.pointee else { throw SQLiteError(code: SQLITE_ERROR, message: "FTS5 is not available in this SQLite") }
        return api
    }

    private final class Collector {
        var tokens: [String] = []
    }

    /// The folded tokens of `text`, in order.
    public func tokens(_ text: String) -> [String] {
        guard let instance, let tokenize = module.xTokenize, !text.isEmpty else { return [] }
        let collector = Collector()
        let context = Unmanaged.passUnretained(collector).toOpaque()
        var copy = text
        copy.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return }
            base.withMemoryRebound(to: CChar.self, capacity: utf8.count) { chars in
                _ = tokenize(instance, context, FTS5_TOKENIZE_QUERY, chars, Int32(utf8.count)) { context, _, token, count, _, _ in
                    guard let context, let token, count > 0 else { return SQLITE_OK }
                    let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
                    let bytes = UnsafeRawPointer(token).assumingMemoryBound(to: UInt8.self)
                    collector.tokens.append(String(decoding: UnsafeBufferPointer(start: bytes, count: Int(count)), as: UTF8.self))
                    return SQLITE_OK
                }
            }
        }
        return withExtendedLifetime(collector) { collector.tokens }
    }
}
