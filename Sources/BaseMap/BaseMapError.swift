public import BinaryIO

/// Why a base map could not be built or opened.
public enum BaseMapError: Error, CustomStringConvertible, Sendable {
    case file(ColumnSetError)
    case io(FileIOError)
    case damaged(String, String)
    case tooLarge(String)

    public var description: String {
        switch self {
        case .file(let e): return e.description
        case .io(let e): return e.description
        case .damaged(let path, let why): return "\(path) is damaged (\(why)); re-import the dataset"
        case .tooLarge(let why): return "the extract is too large for one base map file (\(why))"
        }
    }
}
