import Synchronization

/// The live event streams of every watch: who listens, and delivery in the order events are made.
final class WatchEventBus: Sendable {
    private let subscribers = Mutex<[String: [Subscriber]]>([:])
    private let nextToken = Atomic<Int>(0)

    final class Subscriber: Sendable {
        let token: Int
        let deliver: @Sendable (WatchEventMessage) -> Bool
        let finish: @Sendable () -> Void
        init(token: Int, deliver: @escaping @Sendable (WatchEventMessage) -> Bool, finish: @escaping @Sendable () -> Void) {
            self.token = token
            self.deliver = deliver
            self.finish = finish
        }
    }

    /// Adds a listener to a watch's stream; the subscription's `cancel()` removes it.
    func add(_ id: String, deliver: @escaping @Sendable (WatchEventMessage) -> Bool, finish: @escaping @Sendable () -> Void) -> WatchSubscription {
        let token = nextToken.add(1, ordering: .relaxed).newValue
        subscribers.withLock { $0[id, default: []].append(Subscriber(token: token, deliver: deliver, finish: finish)) }
        return WatchSubscription { [weak self] in self?.remove(id, token: token) }
    }

    /// Open event streams across all watches.
    var count: Int { subscribers.withLock { $0.values.reduce(0) { $0 + $1.count } } }

    private func remove(_ id: String, token: Int) {
        subscribers.withLock { all in
            all[id]?.removeAll { $0.token == token }
            if all[id]?.isEmpty == true { all[id] = nil }
        }
    }

    /// Sends events to their watches' subscribers (callers hold the service's write lock, so order
    /// is kept), dropping the ones whose client is gone.
    func deliver(_ events: [StoredEvent]) {
        guard !events.isEmpty else { return }
        let all = subscribers.withLock { $0 }
        for e in events {
            let message = WatchEventMessage(id: e.id, type: e.type, data: e.data)
            for s in all[e.watchID] ?? [] where !s.deliver(message) { remove(e.watchID, token: s.token) }
        }
    }

    /// Ends the streams of watches that are over (expired, deleted or removed).
    func finish(_ ids: [String]) {
        guard !ids.isEmpty else { return }
        let finished = subscribers.withLock { all in ids.flatMap { all.removeValue(forKey: $0) ?? [] } }
        for s in finished { s.finish() }
    }
}

/// A live event stream's registration; `cancel()` ends it (idempotent).
public final class WatchSubscription: Sendable {
    private let action: Mutex<(@Sendable () -> Void)?>

    init(_ cancel: @escaping @Sendable () -> Void) { action = Mutex(cancel) }

    public func cancel() {
        let a = action.withLock { a -> (@Sendable () -> Void)? in defer { a = nil }; return a }
        a?()
    }
}
