import Synchronization

/// A table of at most ``capacity`` values that many tasks may share: what a back end's evaluator
/// keeps between evaluations (parsed certificates, built paths). Public for back-end authors: the
/// built-in back ends keep their parsed certificates in one keyed by ``DERBytes`` (see
/// ``certificate(for:parse:isShareable:)``), sized by ``BackendConfiguration/certificateCacheCapacity``.
///
/// When full, it evicts with CLOCK (second chance): a hit marks its entry, and the eviction hand
/// clears marks until it meets an unmarked entry. An entry used once is evicted before one used
/// again since the hand last passed, so a stream of one-off chains does not push out the chains a
/// client keeps reconnecting with; a hit costs a dictionary probe and one flag write.
///
/// One `Mutex` guards the table and is held for a single probe or insert, never while a value is
/// made; a value evicted or replaced is released after the lock is given up.
public final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The most entries kept; with 0, nothing is kept.
    public let capacity: Int
    private let state: Mutex<State>

    /// An empty cache of `capacity` entries (a negative capacity counts as 0).
    public init(capacity: Int) {
        self.capacity = max(0, capacity)
        state = Mutex(State())
    }

    /// How many entries are kept now, at most ``capacity``.
    public var count: Int {
        state.withLock { $0.index.count }
    }

    /// The value kept for `key`, marking it used; `nil` when there is none.
    public func value(for key: Key) -> Value? {
        guard capacity > 0 else { return nil }
        return state.withLock { $0.lookup(key) }
    }

    /// Keeps `value` for `key`, replacing any value kept for it, evicting another entry when full.
    public func insert(_ value: Value, for key: Key) {
        guard capacity > 0 else { return }
        let capacity = capacity
        // Whatever is evicted or replaced comes back out of the lock and is released only then:
        // releasing a parsed certificate calls into its library and must not hold up other tasks.
        _ = state.withLock { $0.insert(value, for: key, capacity: capacity) }
    }

    private struct Slot {
        var key: Key
        var value: Value
        /// Set by a hit, cleared by the eviction hand passing over it.
        var referenced: Bool
    }

    private struct State {
        var slots: [Slot] = []
        var index: [Key: Int] = [:]
        var hand = 0

        mutating func lookup(_ key: Key) -> Value? {
            guard let position = index[key] else { return nil }
            slots[position].referenced = true
            return slots[position].value
        }

        /// Keeps `value` for `key` and returns the value it replaced or evicted, if any.
        mutating func insert(_ value: Value, for key: Key, capacity: Int) -> Value? {
            if let position = index[key] {
                let replaced = slots[position].value
                slots[position].value = value
                return replaced
            }
            if slots.count < capacity {
                index[key] = slots.count
                slots.append(Slot(key: key, value: value, referenced: false))
                return nil
            }
            // Ends within one turn of the hand: it clears every mark it passes.
            while slots[hand].referenced {
                slots[hand].referenced = false
                hand = (hand + 1) % capacity
            }
            let evicted = slots[hand]
            index[evicted.key] = nil
            slots[hand] = Slot(key: key, value: value, referenced: false)
            index[key] = hand
            hand = (hand + 1) % capacity
            return evicted.value
        }
    }
}
