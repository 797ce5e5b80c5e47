import TrustBackendKit
internal import CMbedTLSBridge

/// Evaluates requests with mbedTLS against one set of anchors, parsed once into one list
/// (``MbedTLSAnchors``; see ``MbedTLSBackend``).
///
/// Each evaluation parses the presented chain anew (an `mbedtls_x509_crt` list is linked through its
/// certificates' own `next` fields, so a parsed certificate cannot sit in two requests' chains at
/// once), and verifies it with this thread's mbedTLS clock pinned to the request's time. Trusted only
/// when mbedTLS verified the chain with no flag set and the usage check passed; then the verdict
/// carries mbedTLS's chain, leaf first, ending at the anchor. Every other outcome is a rejection with
/// mbedTLS's flags or error code.
///
/// Safe on any number of tasks at once: the anchor list is only read (see cmbedtls_verify), each
/// call has its own presented list and outcome, and the clock pin is thread-local.
final class MbedTLSEvaluator: TrustEvaluator, Sendable {
    private let backend: String
    private let features: Set<BackendFeature>
    private let settings: MbedTLSBackend.Settings
    private let anchors: MbedTLSAnchors

    init(anchors: MbedTLSAnchors, settings: MbedTLSBackend.Settings, features: Set<BackendFeature>) {
        self.backend = settings.name
        self.features = features
        self.settings = settings
        self.anchors = anchors
    }

    func evaluate(_ request: EvaluationRequest) -> Verdict {
        // The guard has refused requests no library can be asked and features this back end does
        // not honour; the bytes and the host are the library's to read.
        guard MbedTLSClock.reachesMbedTLS else {
            return .failClosed(.other, name: "MBEDTLS_CLOCK_NOT_PINNED", message: MbedTLSClock.unavailableReason, origin: .harness)
        }
        let usage = request.purpose == .serverAuthentication && settings.checksServerUsage ? Int32(CMBEDTLS_USAGE_TLS_SERVER) : Int32(CMBEDTLS_USAGE_ANY)
        // mbedTLS 2.28 compares `cn` with dNSName entries (and, without a subjectAltName, common
        // names) only (x509_crt_check_san: "We may handle other types here later"): an IP address is
        // given in its text form, so it matches only a name spelling it.
        let host: String? = request.host?.description
        // CRLs in mbedTLS's one mode (soft-fail: a certificate no CRL covers passes), so a request
        // that names no mode or soft-fail is asked the same; the preflight has refused hard-fail.
        let (outcome, path) = verify(request.chain, crls: request.revocationLists, host: host, unixTime: request.unixTime, usage: usage)
        return verdict(outcome, path: path, crls: request.revocationLists)
    }

    private func verify(_ chain: [[UInt8]], crls: [[UInt8]], host: String?, unixTime: Int64, usage: Int32) -> (cmbedtls_outcome, [[UInt8]]) {
        final class PathSink { var certificates: [[UInt8]] = [] }
        let sink = PathSink()
        var outcome = cmbedtls_outcome()
        let profile = Self.profile(settings.profile)
        let collect: cmbedtls_path_sink = { context, der, length in
            guard let context, let der else { return }
            Unmanaged<PathSink>.fromOpaque(context).takeUnretainedValue().certificates.append(Array(UnsafeBufferPointer(start: der, count: length)))
        }
        withCBufferArrays(chain) { chainPointers, chainLengths in
            withCBufferArrays(crls) { crlPointers, crlLengths in
                withUnsafeMutablePointer(to: &outcome) { outcomePointer in
                    withExtendedLifetime(sink) {
                        let context = Unmanaged.passUnretained(sink).toOpaque()
                        if let host {
                            host.withCString { cmbedtls_verify(anchors.handle, chainPointers, chainLengths, chain.count, crlPointers, crlLengths, crls.count, $0, unixTime, profile, usage, outcomePointer, collect, context) }
                        } else {
                            cmbedtls_verify(anchors.handle, chainPointers, chainLengths, chain.count, crlPointers, crlLengths, crls.count, nil, unixTime, profile, usage, outcomePointer, collect, context)
                        }
                    }
                }
            }
        }
        withExtendedLifetime(anchors) {}
        return (outcome, sink.certificates)
    }

    /// The bridge's `CMBEDTLS_PROFILE_*` for `profile` (the evaluator's and the bare loop's).
    static func profile(_ profile: MbedTLSBackend.Settings.Profile) -> Int32 {
        switch profile {
        case .default: Int32(CMBEDTLS_PROFILE_DEFAULT)
        case .next: Int32(CMBEDTLS_PROFILE_NEXT)
        case .suiteB: Int32(CMBEDTLS_PROFILE_SUITEB)
        }
    }

    private func verdict(_ outcome: cmbedtls_outcome, path: [[UInt8]], crls: [[UInt8]]) -> Verdict {
        if outcome.trusted == 1 {
            return .trusted(path: path)
        }
        switch Int(outcome.step) {
        case Int(CMBEDTLS_STEP_PARSE):
            let error = MbedTLSError(code: outcome.error)
            return .failClosed(.malformed, code: Int(outcome.error), name: error.name, message: "mbedTLS could not read presented certificate \(outcome.failed_index) (mbedtls_x509_crt_parse_der): \(error.text)", depth: Int(outcome.failed_index), origin: .library)
        case Int(CMBEDTLS_STEP_CRL_PARSE):
            let error = MbedTLSError(code: outcome.error)
            let index = Int(outcome.failed_index)
            let size = crls.indices.contains(index) ? "\(crls[index].count) bytes" : "?"
            return .failClosed(.malformed, code: Int(outcome.error), name: error.name, message: "mbedTLS could not read CRL \(index) of the request (mbedtls_x509_crl_parse_der, \(size)): \(error.text); revocation data that cannot be read is not ignored, so not trusted", origin: .library)
        case Int(CMBEDTLS_STEP_FATAL):
            let error = MbedTLSError(code: outcome.error)
            var message = "mbedtls_x509_crt_verify_with_profile could not examine the chain: \(error.text)"
            if outcome.error == -0x3000 {  // MBEDTLS_ERR_X509_FATAL_ERROR
                message += " (without a verify callback that fails and without a CA callback, its one cause is a path over MBEDTLS_X509_MAX_INTERMEDIATE_CA = 8 intermediates, x509_crt_verify_chain)"
            }
            return .failClosed(.other, code: Int(outcome.error), name: error.name, message: message, origin: .library)
        case Int(CMBEDTLS_STEP_FLAGS):
            return .rejected(diagnostics(outcome))
        default:
            let error = MbedTLSError(code: outcome.error)
            return .failClosed(.other, code: Int(outcome.error), name: "MBEDTLS_INTERNAL", message: "the mbedTLS bridge failed before verifying: \(error)", origin: .harness)
        }
    }

    private func diagnostics(_ outcome: cmbedtls_outcome) -> [NativeDiagnostic] {
        let depthFlags = withUnsafeBytes(of: outcome.depth_flags) { Array($0.bindMemory(to: UInt32.self)) }
        let presented = withUnsafeBytes(of: outcome.depth_presented_index) { Array($0.bindMemory(to: Int32.self)) }
        var diagnostics: [NativeDiagnostic] = []
        var reported: UInt32 = 0
        for depth in 0..<min(Int(outcome.depth_count), depthFlags.count) {
            var flags = depthFlags[depth]
            if depth == 0 { flags |= outcome.usage_flags }
            reported |= flags
            let which = presented[depth] >= 0 ? " (presented certificate \(presented[depth]))" : " (an anchor)"
            diagnostics += MbedTLSFlag.diagnostics(flags, depth: depth, which: which, untrustedNote: anchors.unreadableNote)
        }
        // Flags mbedTLS set without a chain to hang them on: reported without a depth.
        diagnostics += MbedTLSFlag.diagnostics(outcome.flags & ~reported, depth: nil, which: "", untrustedNote: anchors.unreadableNote)
        if diagnostics.isEmpty {
            return [NativeDiagnostic(code: Int(outcome.flags), name: "MBEDTLS_UNEXPLAINED", message: "mbedTLS did not verify the chain but set no flag this back end knows (flags 0x\(String(outcome.flags, radix: 16))); not trusted", failure: .other)]
        }
        return diagnostics
    }
}
