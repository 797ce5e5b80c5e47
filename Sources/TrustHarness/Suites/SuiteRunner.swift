import Foundation
import TrustCore
import TrustVectors

/// Runs the cases of a suite in the x509-limbo format (x509-limbo itself, NIST PKITS) on back ends,
/// each configured as a careful production client
/// configures it for TLS server authentication (the back ends' own settings: strict X.509 checks,
/// subjectAltName only and never the subject CN, no partial wildcards, purpose serverAuth).
///
/// A case is evaluated only when every constraint it sets is honoured faithfully; otherwise it is
/// SKIPPED with the reason (``skipReason(_:backend:)``), never guessed. Everything that goes wrong
/// while evaluating (a certificate that will not decode, anchors a library refuses, a peer name
/// that is not an address) is a FAILURE whose context says so: nothing unreadable is trusted.
public struct SuiteRunner: Sendable {
    public let backends: [any TrustBackend]
    /// The time for cases without a validation time, fixed once per run so every back end sees the
    /// same instant.
    public let now: Date
    /// How long one evaluation may take before it is a hang (an error naming the case and back end):
    /// the harness's one limit, ``GuardedEvaluation/limit``, unless a caller sets another.
    public var evaluationLimit: TimeInterval = GuardedEvaluation.limit

    /// `backends` should be uncached (every case has its own anchors, so a cache would only fill up).
    public init(backends: [any TrustBackend], now: Date = Date()) {
        self.backends = backends
        self.now = now
    }

    /// Every selected case on every back end, concurrently; results in case order, then back-end order.
    public func run(_ testcases: [LimboTestcase], progress: (@Sendable (Int, Int) -> Void)? = nil) async -> [SuiteResult] {
        let jobs = testcases.flatMap { testcase in backends.map { (testcase, $0) } }
        return await ParallelJobs.run(count: jobs.count, progress: progress) { index in
            self.evaluate(jobs[index].0, on: jobs[index].1)
        }
    }

    /// Why `backend` cannot evaluate `testcase` faithfully, or nil when it can.
    public func skipReason(_ testcase: LimboTestcase, backend: any TrustBackend) -> String? {
        if testcase.validationKind == "PATH" {
            // PKITS: RFC 5280 path validation for any purpose, no host.
            if !backend.features.contains(.anyPurpose) {
                return "validation for any purpose: \(backend.name) validates for TLS server authentication only (BackendFeature.anyPurpose), whose extra checks are not the suite's"
            }
            if testcase.needsPolicyProcessing && !backend.features.contains(.policyProcessing) {
                return "certificate policy processing: the expected result rests on RFC 5280 policy processing (or on policy inputs other than the defaults), which \(backend.name) does not do (BackendFeature.policyProcessing); run without it, the answer would mean nothing"
            }
        } else if testcase.validationKind != "SERVER" {
            return "\(testcase.validationKind) validation: the back ends evaluate TLS server certificates (serverAuth) only; client certificates and email names are out of scope"
        }
        if !testcase.expectedPeerNames.isEmpty {
            return "several expected peer names (\(testcase.expectedPeerNames.map(\.kind).joined(separator: ", "))): a TLS server is checked against one name"
        }
        if let name = testcase.expectedPeerName, name.kind != "DNS" && name.kind != "IP" {
            return "peer name of kind \(name.kind): a TLS server is identified by a DNS name or an IP address"
        }
        if !testcase.signatureAlgorithms.isEmpty {
            return "signature algorithm constraint (\(testcase.signatureAlgorithms.joined(separator: ", "))): no back end restricts algorithms per request"
        }
        if !testcase.keyUsage.isEmpty {
            return "key usage constraint (\(testcase.keyUsage.joined(separator: ", "))): a request has no key usage to require; back ends check the leaf's keyUsage only as their TLS server purpose implies, which is not the constraint as stated"
        }
        let otherUsages = testcase.extendedKeyUsage.filter { $0 != "serverAuth" }
        if !otherUsages.isEmpty {
            return "extended key usage \(otherUsages.joined(separator: ", ")): the back ends require serverAuth, nothing else"
        }
        if (!testcase.crls.isEmpty || testcase.features.contains("has-crl")) && testcase.needsRevocation && !backend.features.contains(.revocationLists) {
            return "CRLs: \(backend.name) does not honour revocation lists (BackendFeature.revocationLists), so it would refuse the request"
        }
        if testcase.maxChainDepth != nil && !backend.features.contains(.maximumChainDepth) {
            return "maximum chain depth: \(backend.name) does not honour a depth limit (BackendFeature.maximumChainDepth; the case sets \(testcase.maxChainDepth!)), so it would refuse the request"
        }
        return nil
    }

    /// One case on one back end.
    public func evaluate(_ testcase: LimboTestcase, on backend: any TrustBackend) -> SuiteResult {
        func result(_ actual: SuiteResult.Actual, _ context: String?, _ failures: [FailureClass] = [], _ milliseconds: Double = 0) -> SuiteResult {
            var result = SuiteResult(id: testcase.id, backend: backend.name, expected: testcase.expectedResult, actual: actual, context: context, failures: failures, milliseconds: milliseconds)
            result.caseDescription = testcase.description.isEmpty ? nil : testcase.description
            result.group = testcase.group
            result.failureIsWarning = testcase.features.contains("failure-is-warning") ? true : nil
            return result
        }
        if let reason = skipReason(testcase, backend: backend) {
            return result(.skipped, reason)
        }
        let input: (anchors: [[UInt8]], request: EvaluationRequest)
        do {
            input = try self.input(testcase, on: backend)
        } catch {
            return result(.failure, "not evaluated, so not trusted: \(error)", [.malformed])
        }
        let evaluator = backend.evaluatorFailingClosed(anchors: input.anchors)
        let request = input.request
        let start = ContinuousClock.now
        let label = GuardedEvaluation.label(vector: testcase.id, backend: backend.name)
        guard let verdict = GuardedEvaluation.run(label: label, limit: evaluationLimit, { evaluator.evaluate(request) }) else {
            // No answer at all: a hang is the back end's defect, an error that fails the run,
            // never a skip (a back end that never answers must not pass its own tests).
            return result(.error, GuardedEvaluation.hangMessage(label, limit: evaluationLimit))
        }
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
        if verdict.isTrusted {
            return result(.success, nil, [], milliseconds)
        }
        switch verdict.origin {
        case .limit:
            // Neither a pass nor the library's verdict: a limit stopped it before it answered.
            return result(.skipped, "stopped by a limit before the library answered: " + verdict.diagnostics.filter { $0.origin == .limit }.map(\.description).joined(separator: "; "), [], milliseconds)
        case .harness:
            return result(.skipped, "not put to the library: " + verdict.diagnostics.map(\.description).joined(separator: "; "), [], milliseconds)
        case .library, .layer:
            return result(.failure, verdict.diagnostics.map(\.description).joined(separator: "; "), verdict.failures, milliseconds)
        }
    }

    /// The anchors and the request `backend` is asked for `testcase` (which must not be skipped for
    /// it, ``skipReason(_:backend:)``): how ``evaluate(_:on:)`` and `stress` ask it.
    /// - Throws: ``SuiteInputError`` when the case's input cannot be used.
    public func input(_ testcase: LimboTestcase, on backend: any TrustBackend) throws -> (anchors: [[UInt8]], request: EvaluationRequest) {
        let prepared = try prepare(testcase)
        var request = EvaluationRequest(
            chain: prepared.chain, host: prepared.host, time: testcase.validationTime ?? now,
            maximumChainDepth: testcase.maxChainDepth
        )
        // CRLs go to every back end that checks them; one that does not runs only the cases whose
        // result does not rest on them (skipReason), without them.
        request.revocationLists = backend.features.contains(.revocationLists) || testcase.needsRevocation ? prepared.crls : []
        // The suite's revocation mode where the library has a setting for it; otherwise its own mode
        // (never emulated), so that what the library's mode makes of the case is its result.
        if !request.revocationLists.isEmpty, let mode = testcase.revocationMode, backend.features.contains(mode.feature) {
            request.revocationMode = mode
        }
        if testcase.validationKind == "PATH" { request.purpose = .anyPurpose }
        // The policy inputs go to every back end that processes policies; one that does not runs
        // only the cases whose result does not rest on them (skipReason).
        if backend.features.contains(.policyProcessing) { request.policy = testcase.policy }
        // The peer's key, where the suite gives one (TrustHarness's BetterTLS export), for back ends
        // that serve the chain in a real handshake; a key that is not PEM is as good as none.
        request.leafPrivateKey = testcase.peerPrivateKeyDER
        return (prepared.anchors, request)
    }

    /// The anchors, the presented chain (peer first, then the intermediates in suite order) and the
    /// host of a case, decoded from its PEM.
    /// - Throws: ``SuiteInputError`` naming the field that could not be used.
    public func prepare(_ testcase: LimboTestcase) throws -> (anchors: [[UInt8]], chain: [[UInt8]], host: HostIdentity?, crls: [[UInt8]]) {
        func certificates(_ pems: [String], _ field: String, blockType: String = "CERTIFICATE") throws -> [[UInt8]] {
            try pems.enumerated().flatMap { index, pem in
                do {
                    return try CertificateFile.decode(Array(pem.utf8), file: "\(field)[\(index)]", blockType: blockType)
                } catch {
                    throw SuiteInputError(id: testcase.id, problem: "\(error)")
                }
            }
        }
        let anchors = try certificates(testcase.trustedCerts, "trusted_certs")
        let peer = try certificates([testcase.peerCertificate], "peer_certificate")
        let intermediates = try certificates(testcase.untrustedIntermediates, "untrusted_intermediates")
        var host: HostIdentity?
        if let name = testcase.expectedPeerName {
            if name.kind == "IP" {
                guard let address = IPAddressParser.parse(name.value) else {
                    throw SuiteInputError(id: testcase.id, problem: "expected_peer_name \"\(name.value)\" is not an IP address")
                }
                host = .ipAddress(address)
            } else {
                host = .dns(name.value)
            }
        }
        return (anchors, peer + intermediates, host, try certificates(testcase.crls, "crls", blockType: "X509 CRL"))
    }
}

/// A case whose input could not be used: the case and what was wrong.
public struct SuiteInputError: Error, Sendable, Hashable, CustomStringConvertible {
    public var id: String
    public var problem: String

    public var description: String { problem }
}
