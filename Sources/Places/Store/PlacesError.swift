/// Failures opening or reading a places index (bad input is answered with empty results instead).
public struct PlacesError: Error, CustomStringConvertible, Sendable {
    enum Reason: Sendable {
        case missingFile
        case incompatibleFormat(found: Int, expected: Int)
        case storage(String)
    }

    let reason: Reason
    public let path: String

    init(_ reason: Reason, path: String) {
        self.reason = reason
        self.path = path
    }

    public var description: String {
        switch reason {
        case .missingFile: "\(path): no places index here (run the import first)"
        case .incompatibleFormat(let found, let expected):
            "\(path): places index format \(found), this build reads \(expected) (re-run the import)"
        case .storage(let message): "\(path): \(message)"
        }
    }
}
