@_exported import BaselineLoops

extension RawBaseline {
    /// ``RawBaseline/evaluate(_:chain:anchors:host:unixTime:parseEachTime:iterations:)`` at the
    /// vectors' validation time, the time every benchmark verifies at.
    public static func evaluate(
        _ library: Library,
        chain: [[UInt8]],
        anchors: [[UInt8]],
        host: String?,
        parseEachTime: Bool,
        iterations: UInt64
    ) throws(RawBaselineError) -> Run {
        try evaluate(library, chain: chain, anchors: anchors, host: host, unixTime: VectorPKI.validationUnixTime, parseEachTime: parseEachTime, iterations: iterations)
    }
}
