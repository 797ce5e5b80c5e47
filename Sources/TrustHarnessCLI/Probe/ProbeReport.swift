import Foundation
import TrustCore
import TrustHarness
import TrustVectors
import X509
import _CryptoExtras
import TrustPolicy
import TrustProbe

/// One back end's probe: its handshake (nil when it has no TLS client), the verdicts and the policy.
struct Probe: Encodable {
    struct Verdict: Codable, Hashable {
        var trusted: Bool
        var failures: [FailureClass]
        var native: [String]

        init(_ verdict: TrustCore.Verdict) {
            trusted = verdict.isTrusted
            failures = verdict.isTrusted ? [] : verdict.failures
            native = verdict.diagnostics.map(\.description)
        }

        var text: String { trusted ? "TRUSTED" : "REJECTED [\(failures.map(\.rawValue).joined(separator: ", "))] \(native.joined(separator: "; "))" }
    }

    struct Sent: Codable, Hashable {
        var subject: String
        var pin: String
    }

    /// One App Transport Security minimum and whether the connection meets it.
    struct ATSCheck: Codable, Hashable {
        var requirement: String
        var met: Bool
        var detail: String
    }

    struct Handshake: Codable, Hashable {
        @ExplicitNull var failure: String?
        var userError: Bool
        @ExplicitNull var protocolVersion: String?
        @ExplicitNull var cipher: String?
        @ExplicitNull var forwardSecret: Bool?
        var chain: [Sent]
        var handshakeVerdict: Verdict
        /// The back end's evaluator on the chain the server sent (nil when none was sent).
        @ExplicitNull var chainVerdict: Verdict?
        @ExplicitNull var policy: String?
        @ExplicitNull var policyTrusted: Bool?
        /// Set when the handshake's verdict and the chain's differ, or, for a stapled OCSP vector,
        /// when the handshake's verdict is not what the standards call for.
        @ExplicitNull var finding: String?
        /// The OCSP response the client received stapled: `N bytes`, or nil when none arrived.
        @ExplicitNull var stapledReceived: String?
        var ats: [ATSCheck]
        var milliseconds: Double
        var trusted: Bool { failure == nil && handshakeVerdict.trusted }
    }

    var backend: BackendInfo
    @ExplicitNull var handshake: Handshake?
    @ExplicitNull var note: String?

    /// - Parameter answer: for a served OCSP vector, what the standards call for, which the
    ///   handshake is judged against (the chain verdict then judges the chain alone, with no response).
    static func run(_ backend: any TrustBackend, target: TLSTarget, anchors: [[UInt8]], request: EvaluationRequest, policy: SecurityPolicy, timeout: Duration, answer: ProfileAnswer? = nil) -> Probe {
        guard let client = TLSClients.of(backend) else {
            return Probe(backend: BackendInfo(backend), handshake: nil, note: "no TLS client: \(backend.name) verifies chains only")
        }
        let report = client.handshake(target, anchors: anchors, request: request, timeout: timeout)
        var chainVerdict: Verdict?
        var decision: PolicyDecision?
        if !report.peerChain.isEmpty {
            var chainRequest = request
            chainRequest.chain = report.peerChain
            chainVerdict = Verdict(backend.evaluatorFailingClosed(anchors: anchors).evaluate(chainRequest))
            decision = (try? policy.evaluator(on: backend, anchors: anchors))?.evaluate(chain: report.peerChain, forDomain: request.host?.description, at: request.time)
        }
        let handshakeVerdict = Verdict(report.verdict)
        var finding: String?
        // A handshake that completed, or that the library ended over the chain (not the network).
        if let answer, report.failure?.userError != true {
            if answer.open == nil && !answer.expected.admits(trusted: handshakeVerdict.trusted, failures: handshakeVerdict.failures) {
                finding = "the handshake's verdict (\(handshakeVerdict.trusted ? "trusted" : "rejected \(handshakeVerdict.failures.map(\.rawValue))")) is not what RFC 6960 and RFC 6066 call for with what was stapled (\(answer.expected.trusted ? "trusted" : "rejected \(answer.expected.failures.map(\.rawValue))"))"
            }
        } else if let chainVerdict, report.failure?.userError != true, chainVerdict.trusted != handshakeVerdict.trusted || Set(chainVerdict.failures) != Set(handshakeVerdict.failures) {
            finding = "the handshake's verdict (\(handshakeVerdict.trusted ? "trusted" : "rejected \(handshakeVerdict.failures.map(\.rawValue))")) differs from the chain's (\(chainVerdict.trusted ? "trusted" : "rejected \(chainVerdict.failures.map(\.rawValue))"))"
        }
        let handshake = Handshake(
            failure: report.failure?.description, userError: report.failure?.userError ?? false,
            protocolVersion: report.protocolVersion, cipher: report.cipher, forwardSecret: report.forwardSecret,
            chain: report.peerChain.map { Sent(subject: SubjectText.of($0), pin: SPKIPin.of(certificate: $0).map { "\($0)" } ?? "(no key)") },
            handshakeVerdict: handshakeVerdict, chainVerdict: chainVerdict,
            policy: decision.map { "\($0.trusted ? "trusted" : "rejected") at \($0.step.rawValue): \($0.sentence(host: request.host?.description, time: request.time))" }, policyTrusted: decision?.trusted,
            finding: finding, stapledReceived: report.stapledResponse.map { "\($0.count) bytes" },
            ats: report.failure == nil ? ats(report) : [], milliseconds: report.milliseconds
        )
        return Probe(backend: BackendInfo(backend), handshake: handshake, note: nil)
    }

    /// App Transport Security's minimums, from what the handshake negotiated and the chain sent.
    static func ats(_ report: HandshakeReport) -> [ATSCheck] {
        var checks: [ATSCheck] = []
        let version = report.protocolVersion ?? "?"
        checks.append(ATSCheck(requirement: "TLS 1.2 or later", met: version == "TLSv1.2" || version == "TLSv1.3", detail: version))
        checks.append(ATSCheck(requirement: "forward-secret key exchange", met: report.forwardSecret == true, detail: report.cipher ?? "?"))
        let certificates = report.peerChain.compactMap { try? Certificate(derEncoded: $0) }
        // The certificates that are signed by someone else: a self-signed root's own signature is not checked.
        let signed = certificates.filter { $0.issuer != $0.subject }
        // SHA-1 (and MD5) in any spelling swift-certificates gives: sha1WithRSAEncryption, ecdsaWithSHA1.
        let weakSignatures = signed.filter { ["sha1", "md5"].contains(where: "\($0.signatureAlgorithm)".lowercased().contains) }
        checks.append(ATSCheck(requirement: "certificates signed with SHA-256 or better", met: weakSignatures.isEmpty,
                               detail: signed.map { "\($0.signatureAlgorithm)" }.joined(separator: ", ")))
        var keyDetails: [String] = []
        var keysMet = true
        for certificate in certificates {
            if let rsa = _RSA.Signing.PublicKey(certificate.publicKey) {
                keyDetails.append("RSA-\(rsa.keySizeInBits)")
                if rsa.keySizeInBits < 2048 { keysMet = false }
            } else {
                let description = "\(certificate.publicKey)"
                keyDetails.append(description.contains("P256") ? "P-256" : description.contains("P384") ? "P-384" : description.contains("P521") ? "P-521" : description.contains("Ed25519") ? "Ed25519" : description)
            }
        }
        checks.append(ATSCheck(requirement: "RSA keys of 2048 bits or more, EC keys of 256 or more", met: keysMet, detail: keyDetails.joined(separator: ", ")))
        return checks
    }
}

/// Everything `probe` found, for text and JSON.
struct ProbeReport: Encodable {
    var target: String
    @ExplicitNull var serverName: String?
    @ExplicitNull var host: String?
    var time: String
    @ExplicitNull var vector: String?
    /// For a served OCSP vector: the response stapled (a file of `Vectors/`, or `none`) and what the
    /// standards call for, which each handshake is judged against.
    @ExplicitNull var stapled: String?
    @ExplicitNull var expected: String?
    var probes: [Probe]

    /// The probe as a document of the one model: per back end, its handshake, the handshake's and
    /// the chain's verdicts (and the finding when they differ), the policy, the chain the server
    /// sent with each key's pin, and App Transport Security's minimums.
    func document(provenance: Provenance) -> ReportDocument {
        typealias Cell = ReportDocument.Table.Cell
        let sections = probes.enumerated().map { index, probe -> ReportDocument.Section in
            var blocks: [ReportDocument.Block] = []
            guard let handshake = probe.handshake else {
                return .init(id: "backend-\(index)", title: "\(probe.backend.name) (\(probe.backend.version))", blocks: [.paragraph(probe.note ?? "no handshake")])
            }
            if let failure = handshake.failure {
                blocks.append(.callout(.rejects, "handshake FAILED, \(failure)"))
            } else {
                blocks.append(.paragraph("\(handshake.protocolVersion ?? "?") \(handshake.cipher ?? "?")\(handshake.forwardSecret == true ? " (forward secret)" : ""), \(String(format: "%.1f", handshake.milliseconds)) ms"))
            }
            if handshake.failure == nil || !handshake.userError {
                blocks.append(.paragraph("handshake verdict: \(handshake.handshakeVerdict.text)"))
                if let chain = handshake.chainVerdict { blocks.append(.paragraph("chain verdict: \(chain.text)")) }
                if stapled != nil { blocks.append(.paragraph("stapled OCSP response received: \(handshake.stapledReceived ?? "none")")) }
                if let finding = handshake.finding { blocks.append(.callout(.accepts, "FINDING: \(finding)")) }
            }
            if handshake.failure == nil {
                if let policy = handshake.policy { blocks.append(.paragraph("policy: \(policy)")) }
                if !handshake.chain.isEmpty {
                    blocks.append(.table(.init(headers: ["#", "subject the server sent", "SPKI pin"],
                                               cells: handshake.chain.enumerated().map { [Cell("\($0.offset)"), Cell($0.element.subject), Cell($0.element.pin, code: true)] }, numeric: [0])))
                }
                let ats = handshake.ats
                blocks.append(.callout(ats.allSatisfy(\.met) ? .pass : .rejects,
                                       "App Transport Security: " + (ats.allSatisfy(\.met) ? "meets every minimum" : "does NOT meet: " + ats.filter { !$0.met }.map(\.requirement).joined(separator: "; "))))
                blocks.append(.table(.init(headers: ["minimum", "met", "what the connection has"],
                                           cells: ats.map { [Cell($0.requirement), Cell($0.met ? "ok" : "NO", tone: $0.met ? .pass : .rejects), Cell($0.detail)] },
                                           legend: [.pass: "met", .rejects: "not met"])))
            }
            return .init(id: "backend-\(index)", title: "\(probe.backend.name) (\(probe.backend.version))", blocks: blocks)
        }
        return ReportDocument(
            title: "TrustHarness probe",
            provenance: provenance,
            summary: "probe \(target)\(vector.map { " (serving vector \($0))" } ?? ""): SNI \(serverName ?? "(none)"), host \(host ?? "(none)"), at \(time)"
                + (stapled.map { "; stapling \($0), the standards: \(expected ?? "?")" } ?? ""),
            sections: sections)
    }
}
