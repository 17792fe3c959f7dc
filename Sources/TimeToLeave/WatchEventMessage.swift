/// An event ready for Server-Sent Events: `id`, `event` and the JSON `data` (a `WatchDocument`).
public struct WatchEventMessage: Sendable, Equatable {
    public var id: Int
    public var type: String
    public var data: String

    public init(id: Int, type: String, data: String) {
        self.id = id
        self.type = type
        self.data = data
    }
}
