/// How a back end's evaluators trade memory for speed. Never changes a verdict: an evaluator gives
/// the same answer to every request whatever its configuration.
public struct BackendConfiguration: Sendable, Hashable {
    /// How many presented certificates an evaluator keeps parsed, keyed by their exact DER bytes; 0 disables the cache.
    ///
    /// A client that reconnects to one server is presented the same chain again and again; with the
    /// cache, each of its certificates is parsed once per evaluator instead of once per evaluation.
    /// Each kept certificate costs its DER plus the library's parsed form (a few kilobytes); a GnuTLS
    /// evaluator also keeps up to as many built paths, a few words each. When the cache is full, a
    /// certificate not used since the cache last looked at it makes room (CLOCK, an approximation of
    /// least recently used): chains in use stay parsed while one-off chains pass through. Negative
    /// values count as 0.
    public var certificateCacheCapacity: Int

    /// A configuration keeping `certificateCacheCapacity` presented certificates parsed per evaluator.
    public init(certificateCacheCapacity: Int = 1024) {
        self.certificateCacheCapacity = certificateCacheCapacity
    }

    /// Keeps up to 1024 presented certificates parsed per evaluator.
    public static let `default` = BackendConfiguration()

    /// Parses every presented certificate on every evaluation, as a verifier that sees each chain once.
    public static let uncached = BackendConfiguration(certificateCacheCapacity: 0)
}
