/// Why a `.osm.pbf` file could not be read, and where.
///
/// `offset` is the byte offset in the file of the blob (or blob header) that failed; `detail`
/// says what was wrong in words a user can act on.
public struct PBFError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case cannotOpen
        case truncated
        case malformed
        case unsupported
        case tooLarge
    }

    public var kind: Kind
    public var offset: Int
    public var detail: String
    public var path: String?

    public init(_ kind: Kind, offset: Int, _ detail: String, path: String? = nil) {
        self.kind = kind
        self.offset = offset
        self.detail = detail
        self.path = path
    }

    public var description: String {
        let place = path.map { "\($0): " } ?? ""
        switch kind {
        case .cannotOpen: return "\(place)cannot open: \(detail)"
        default: return "\(place)corrupt or unsupported PBF at byte \(offset): \(detail)"
        }
    }
}
