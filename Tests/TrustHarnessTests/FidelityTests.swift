import BuiltInBackends
import Foundation
import Testing
import TrustBackendKit
import TrustCore
@testable import TrustHarness
import TrustVectors

/// Each built-in column beside its library called the plain way (`trust-harness fidelity`): every
/// difference is named (a layer, a limit, the harness, or a record in Vectors/fidelity.json), and the
/// library columns are the library on every request the reference answers.
@Suite struct FidelityTests {
    static func rows(_ names: [String], vectors: (LoadedVector) -> Bool = { _ in true }) async throws -> (rows: [FidelityComparison.Row], record: FidelityComparison.Record) {
        let suite = try Fixtures.suite()
        let url = suite.directory.appendingPathComponent("fidelity.json")
        let record = FileManager.default.fileExists(atPath: url.path) ? try FidelityComparison.readRecord(url) : .init(differences: [])
        let comparison = FidelityComparison(backends: try BuiltInBackends.registry.named(names), baselines: BuiltInBackends.benchmarks)
        return (await comparison.run(suite.vectors.filter(vectors), record: record), record)
    }

    @Test func theCColumnsAndTheirChecksLayerAreTheLibraryOrSayWhyNot() async throws {
        let (rows, record) = try await Self.rows(["openssl", "gnutls", "openssl+checks", "gnutls+checks"])
        let problems = FidelityComparison.problems(rows, record: record)
        #expect(problems.isEmpty, "\(problems.prefix(10).joined(separator: "\n"))")
        let summaries = FidelityComparison.summaries(rows, backends: ["openssl", "gnutls", "openssl+checks", "gnutls+checks"])
        for summary in summaries {
            #expect(summary.compared > 500, "\(summary.backend) is compared on almost every chain vector")
        }
        // The layer changes some verdicts, and says so: those differences are never the library's.
        for name in ["openssl+checks", "gnutls+checks"] {
            let layered = rows.filter { $0.backend == name && $0.agreement == .layer }
            #expect(!layered.isEmpty)
            #expect(layered.allSatisfy { $0.column.contains("by layer checks") })
        }
        #expect(!rows.contains { !$0.backend.hasSuffix("+checks") && $0.agreement == .layer })
    }

    /// swift-certificates' column beside its Verifier awaited plainly, on the catalogue's vectors (a
    /// debug build verifies in pure Swift at about 10 ms a chain, so not on every explored one here;
    /// `trust-harness fidelity` runs them all).
    @Test func swiftCertificatesIsItsVerifier() async throws {
        let (rows, record) = try await Self.rows(["swift-certificates"]) { !$0.id.hasPrefix("explored/") }
        #expect(rows.count > 150)
        let problems = FidelityComparison.problems(rows, record: record)
        #expect(problems.isEmpty, "\(problems.prefix(10).joined(separator: "\n"))")
        // Not asked: what the Verifier takes no input for (CRLs); OCSP and the modes are compared.
        let unasked = rows.filter { $0.agreement == .noReference }
        #expect(unasked.allSatisfy { $0.why?.contains("this request sets revocationLists") == true }, "\(unasked.prefix(3))")
        #expect(rows.contains { $0.vector.hasPrefix("revocation-ocsp-") && $0.agreement == .agrees })
        #expect(rows.allSatisfy { $0.agreement == .agrees || $0.agreement == .recorded || $0.agreement == .noReference }, "\(rows.filter { $0.agreement != .agrees }.prefix(5))")
    }

    /// A column that departs from its reference without a name fails, and a record that no longer
    /// holds fails too.
    @Test func anUnnamedDifferenceIsAProblem() {
        let row = FidelityComparison.Row(vector: "v", backend: "b", reference: "b-c", column: "trusted", referenceAnswer: "rejected", agreement: .unexplained, why: nil)
        #expect(FidelityComparison.problems([row], record: .init(differences: [])).count == 1)
        let agreeing = FidelityComparison.Row(vector: "v", backend: "b", reference: "b-c", column: "trusted", referenceAnswer: "trusted", agreement: .agrees, why: nil)
        let stale = FidelityComparison.Record(differences: [.init(backend: "b", vector: "v", reference: "rejected", reason: "r")])
        #expect(FidelityComparison.problems([agreeing], record: stale).first?.contains("no longer seen") == true)
    }

    /// A library's recorded difference names the same difference in its column behind the checks
    /// layer, which changes nothing where it lets the request through.
    @Test func aLibrarysRecordAppliesBehindTheChecksLayer() {
        let record = FidelityComparison.Record(differences: [.init(backend: "b", vector: "v", reference: "rejected", reason: "r")])
        #expect(FidelityComparison.recorded(in: record, backend: "b+checks", vector: "v")?.reason == "r")
        #expect(FidelityComparison.recorded(in: record, backend: "b", vector: "v")?.reason == "r")
        #expect(FidelityComparison.recorded(in: record, backend: "c+checks", vector: "v") == nil)
        #expect(FidelityComparison.recorded(in: record, backend: "b", vector: "w") == nil)
    }
}

/// `fidelity` covers the variants a plain client gets, each beside the library called as a plain
/// client calls it (not beside the hardened loop).
@Suite struct DefaultVariantFidelityTests {
    @Test func everyBuiltInVariantHasAReference() {
        let comparison = FidelityComparison(backends: [], baselines: BuiltInBackends.benchmarks)
        for name in BuiltInBackends.registry.names {
            #expect(comparison.reference(for: name) != nil, "\(name) has no fidelity reference")
        }
        #expect(comparison.reference(for: "openssl-default")?.label == "openssl-plain-client-c")
        #expect(comparison.reference(for: "gnutls-default")?.label == "gnutls-plain-client-c")
    }
}
