import Foundation
import Testing
import TrustVectors

/// The name-constraints cases written here from BetterTLS's design are BetterTLS's: the same count
/// and, case by case, the expected results its own manifests publish (Vectors/bettertls/manifests,
/// made by BetterTLS's `get-manifest` at each revision).
@Suite struct BetterTLSNameConstraintsTests {
    static func manifest(_ revision: BetterTLSNameConstraints.Revision) throws -> BetterTLSManifest {
        try BetterTLSManifest.committed(revision.rawValue)
    }

    @Test(arguments: BetterTLSNameConstraints.Revision.allCases)
    func everyCaseExpectsWhatBetterTLSsManifestSays(revision: BetterTLSNameConstraints.Revision) throws {
        let manifest = try Self.manifest(revision)
        // 081fb7c's manifest was made from a working copy: its revision reads "081fb7c...-dirty".
        #expect(manifest.betterTlsRevision.hasPrefix(revision.rawValue))
        let published = try #require(manifest.suiteManifests["nameconstraints"]?.expectedResults)
        let cases = BetterTLSNameConstraints.cases(revision)
        #expect(cases.count == published.count)
        let differing = zip(cases.indices, zip(cases, published)).filter { $0.1.0.expected.rawValue != $0.1.1 }
        #expect(differing.isEmpty, "\(differing.count) cases differ, first: \(differing.prefix(3).map { "\($0.0): \($0.1.0) expects \($0.1.0.expected), manifest \($0.1.1)" })")
    }

    @Test func theCurrentSuiteHas9491CasesAndTheDecember2021One8754() {
        #expect(BetterTLSNameConstraints.cases().count == 9_491)
        #expect(BetterTLSNameConstraints.cases(.december2021).count == 8_754)
    }
}
