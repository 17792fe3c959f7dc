import SQLite
import GeoCore

/// One read-only connection to a places index with what queries need beside it: the FTS tokenizer
/// (so query words fold exactly as indexed words did) and the category codes. Used by one thread at a time.
final class PlaceSession {
    let database: Database
    let tokenizer: FTS5Tokenizer
    /// Category string id → code in `place_category`.
    let categoryCodes: [String: Int64]

    init(path: String) throws {
        database = try Database(path: Self.immutableURI(path), mode: .readOnly)
        try database.exec("PRAGMA query_only=1; PRAGMA mmap_size=268435456; PRAGMA cache_size=-16384;")
        tokenizer = try FTS5Tokenizer(database: database)
        try FTS5RankFunction.register(on: database, columns: 3)
        var codes: [String: Int64] = [:]
        let statement = try database.prepare("SELECT code, id FROM category")
        while try statement.step() { codes[statement.text(1)] = statement.int64(0) }
        categoryCodes = codes
    }

    /// `file:` URI with `immutable=1`: the index never changes under a reader (a new import renames a new file
    /// into place), so SQLite can skip locking.
    static func immutableURI(_ path: String) -> String {
        var escaped = ""
        for ch in path.unicodeScalars {
            switch ch {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            case " ": escaped += "%20"
            default: escaped.unicodeScalars.append(ch)
            }
        }
        return "file:\(escaped)?immutable=1"
    }

    /// Folded words of `text`, as the index tokenizes them (after the same `TextFolding`).
    func words(_ text: String) -> [String] { tokenizer.tokens(TextFolding.fold(text)) }
}
