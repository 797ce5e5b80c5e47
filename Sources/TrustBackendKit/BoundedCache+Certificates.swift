/// Presented certificates an evaluator has already parsed, keyed by their exact DER bytes, so that a
/// chain presented again is not parsed again.
extension BoundedCache where Key == DERBytes {
    /// An empty cache of as many certificates as `configuration` allows.
    public convenience init(_ configuration: BackendConfiguration) {
        self.init(capacity: configuration.certificateCacheCapacity)
    }

    /// The certificate kept for exactly the bytes `der`, or else `parse(der)`, which is then kept if
    /// `isShareable` allows it.
    ///
    /// The DER is hashed before the lock (``DERBytes``) and `parse` runs outside it. Two tasks that
    /// miss on the same DER at once both parse it, and each uses its own; the later insert is kept.
    /// A parse that fails is never kept, so the same bytes fail again next time; a certificate that
    /// is not shareable goes to its caller alone.
    ///
    /// - Throws: whatever `parse` throws.
    public func certificate<Failure: Error>(
        for der: [UInt8],
        parse: ([UInt8]) throws(Failure) -> Value,
        isShareable: (Value) -> Bool = { _ in true }
    ) throws(Failure) -> Value {
        guard capacity > 0 else { return try parse(der) }
        let key = DERBytes(der)
        if let kept = value(for: key) { return kept }
        let parsed = try parse(der)
        if isShareable(parsed) {
            insert(parsed, for: key)
        }
        return parsed
    }
}
