import Synchronization

/// Per-minute allowances as token buckets, one per name: a name may burst up to its allowance,
/// then spends tokens as they refill (allowance / 60 a second). Used for each key's requests,
/// matrix cells and probe points, and for the server-wide request cap.
final class TokenBuckets: Sendable {
    struct Bucket { var tokens: Double; var updated: Double }
    private let buckets = Mutex<[String: Bucket]>([:])
    let clock: @Sendable () -> Double

    init(clock: @escaping @Sendable () -> Double) { self.clock = clock }

    /// Takes `amount` tokens from `name`'s bucket of `perMinute`. Nil when they were there;
    /// otherwise the whole seconds to wait before they will be (nothing is taken then). An
    /// amount above the whole allowance can never be met: it waits a full minute and is refused
    /// again, which callers report as too big.
    func take(_ amount: Double, from name: String, perMinute: Double) -> Int? {
        let now = clock()
        let wait: Double? = buckets.withLock { buckets in
            var b = buckets[name] ?? Bucket(tokens: perMinute, updated: now)
            b.tokens = min(perMinute, b.tokens + max(0, now - b.updated) * perMinute / 60)
            b.updated = now
            defer { buckets[name] = b }
            if b.tokens >= amount { b.tokens -= amount; return nil }
            return min(60, (amount - b.tokens) * 60 / perMinute)
        }
        return wait.map { max(1, Int($0.rounded(.up))) }
    }
}

/// Counted slots (open event streams): at most `perName` for one name and `total` in all.
final class Slots: Sendable {
    private let held = Mutex<(byName: [String: Int], total: Int)>(([:], 0))
    let perName: Int
    let total: Int

    init(perName: Int, total: Int) {
        self.perName = perName
        self.total = total
    }

    enum Refusal: Sendable { case nameFull, serverFull }

    /// Takes a slot for `name`, or says which cap refused it.
    func acquire(_ name: String) -> Refusal? {
        held.withLock { h in
            if h.total >= total { return .serverFull }
            if h.byName[name, default: 0] >= perName { return .nameFull }
            h.byName[name, default: 0] += 1
            h.total += 1
            return nil
        }
    }

    func release(_ name: String) {
        held.withLock { h in
            guard let n = h.byName[name], n > 0 else { return }
            h.byName[name] = n == 1 ? nil : n - 1
            h.total -= 1
        }
    }

    var count: Int { held.withLock { $0.total } }
}
