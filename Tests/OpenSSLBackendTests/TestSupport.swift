import Foundation
@testable import OpenSSLBackend
import TestPKI
import Testing
import TrustCore

/// OpenSSL's own evaluator of `anchors` for `backend`, without the kit's preflight in front
/// (``BackendPreflight``, tested in TrustBackendKitTests): what these tests check is what OpenSSL
/// does with what reaches it, malformed input included.
func unguardedEvaluator(_ backend: OpenSSLBackend = OpenSSLBackend(), anchors: [[UInt8]]) throws -> OpenSSLEvaluator {
    try OpenSSLEvaluator(anchors: anchors, settings: backend.settings, configuration: backend.configuration)
}

/// An evaluator trusting exactly `anchors`.
func makeEvaluator(_ anchors: [TestPKI.Node]) throws -> any TrustEvaluator {
    try OpenSSLBackend().makeEvaluator(anchors: anchors.map(\.der))
}

/// A request for `chain` (leaf first) at `time`, checking `host`.
func request(_ chain: [TestPKI.Node], host: HostIdentity? = .dns("www.example.com"), at time: Date = TestPKI.start) -> EvaluationRequest {
    EvaluationRequest(chain: chain.map(\.der), host: host, time: time)
}

/// Expects `verdict` to be trusted with exactly `path`.
func expectTrusted(_ verdict: Verdict, path: [TestPKI.Node], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(verdict.diagnostics == [], sourceLocation: sourceLocation)
    #expect(verdict.path == path.map(\.der), "path differs", sourceLocation: sourceLocation)
}

/// Expects `verdict` to be a rejection with one diagnostic of class `failure`, named `name` and,
/// when given, at `depth`.
func expectRejected(_ verdict: Verdict, _ failure: FailureClass, name: String, depth: Int?? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(!verdict.isTrusted, sourceLocation: sourceLocation)
    #expect(verdict.failures == [failure], "\(verdict.diagnostics)", sourceLocation: sourceLocation)
    #expect(verdict.diagnostics.first?.name == name, "\(verdict.diagnostics)", sourceLocation: sourceLocation)
    if let depth {
        #expect(verdict.diagnostics.first?.depth == depth, "\(verdict.diagnostics)", sourceLocation: sourceLocation)
    }
}
