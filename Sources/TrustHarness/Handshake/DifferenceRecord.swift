/// A file of recorded differences between a column and something that should agree with it (a real
/// handshake, `Vectors/handshake.json`; the library called plainly, `Vectors/fidelity.json`): a version
/// and the differences, each with its reason. One shape for both records, read by one decoder.
public struct DifferenceRecord<Difference: Codable & Sendable & Hashable>: Sendable, Codable, Hashable {
    public var version = 1
    public var differences: [Difference]

    public init(differences: [Difference]) {
        self.differences = differences
    }
}
