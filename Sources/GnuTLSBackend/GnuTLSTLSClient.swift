internal import CGnuTLS
import Foundation
import TrustCore
import TrustProbe
#if canImport(Glibc)
import Glibc
#endif

/// GnuTLS's TLS client (`gnutls_handshake`) and its verification of the peer's chain
/// (`gnutls_certificate_verify_peers` with the request's host and the evaluator's key purpose, the
/// back end's verification flags, at the request's time through the per-thread time hook), with
/// the given anchors only. The handshake is not made to fail on an untrusted chain, so the verdict
/// is reported with what was negotiated. The evaluator verifies as this client does (the same
/// GnuTLS call on the chain as the server sent it), so a difference between the two is a finding.
///
/// It asks for a stapled OCSP response (`gnutls_ocsp_status_request_enable_client`), which
/// `gnutls_certificate_verify_peers` then judges itself (`check_ocsp_response` in lib/cert-session.c:
/// revoked gives `GNUTLS_CERT_REVOKED`; a response it cannot use `GNUTLS_CERT_INVALID_OCSP_STATUS`;
/// one past its nextUpdate `GNUTLS_CERT_REVOCATION_DATA_SUPERSEDED`; unknown passes), at the
/// request's time, since its `gnutls_time` is the per-thread hook.
struct GnuTLSTLSClient: TLSClient {
    let settings: GnuTLSBackend.Settings

    func handshake(_ target: TLSTarget, anchors: [[UInt8]], request: EvaluationRequest, timeout: Duration) -> HandshakeReport {
        let clock = HandshakeClock()
        if let refusal = clock.refusal(request) { return refusal }
        var credentials: gnutls_certificate_credentials_t?
        guard gnutls_certificate_allocate_credentials(&credentials) == 0, let credentials else { return clock.failed("setup", "gnutls_certificate_allocate_credentials failed", userError: false) }
        defer { gnutls_certificate_free_credentials(credentials) }
        for (index, der) in anchors.enumerated() {
            let added = der.withUnsafeBufferPointer { buffer -> Int32 in
                var datum = gnutls_datum_t(data: UnsafeMutablePointer(mutating: buffer.baseAddress), size: UInt32(buffer.count))
                return gnutls_certificate_set_x509_trust_mem(credentials, &datum, GNUTLS_X509_FMT_DER)
            }
            guard added >= 0 else { return clock.failed("anchors", "anchor \(index) cannot be imported: \(String(cString: gnutls_strerror(added)))", userError: true) }
        }
        gnutls_certificate_set_verify_flags(credentials, settings.verificationFlags & ~settings.profile.verificationFlags)
        let fd: Int32
        do {
            fd = try TCPConnection.connect(target.address, port: target.port, timeout: timeout)
        } catch {
            return clock.failed("connect", error.message, userError: true)
        }
        defer { close(fd) }
        var created: gnutls_session_t?
        guard gnutls_init(&created, UInt32(GNUTLS_CLIENT)) == 0, let session = created else { return clock.failed("setup", "gnutls_init failed", userError: false) }
        defer { gnutls_deinit(session) }
        guard gnutls_ocsp_status_request_enable_client(session, nil, 0, nil) == 0 else { return clock.failed("setup", "gnutls_ocsp_status_request_enable_client failed", userError: false) }
        // The verification profile goes in the priority string, as a session takes it (as
        // certificate verification flags a session reports every chain as an insecure algorithm).
        if gnutls_priority_set_direct(session, Self.priority(settings.profile), nil) < 0 { gnutls_set_default_priority(session) }
        gnutls_credentials_set(session, GNUTLS_CRD_CERTIFICATE, UnsafeMutableRawPointer(credentials))
        if let name = target.serverName { gnutls_server_name_set(session, GNUTLS_NAME_DNS, name, name.utf8.count) }
        gnutls_transport_set_int2(session, fd, fd)
        let (seconds, attoseconds) = timeout.components
        gnutls_handshake_set_timeout(session, UInt32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000))
        var result: Int32
        repeat {
            errno = 0
            result = gnutls_handshake(session)
        } while result < 0 && gnutls_error_is_fatal(result) == 0 && result != GNUTLS_E_TIMEDOUT
        if result < 0 {
            let message = String(cString: gnutls_strerror(result))
            switch result {
            case GNUTLS_E_TIMEDOUT, GNUTLS_E_PULL_ERROR, GNUTLS_E_PUSH_ERROR:
                return clock.failed("handshake", errno == EAGAIN || result == GNUTLS_E_TIMEDOUT ? "the server did not answer within \(timeout)" : message, userError: true)
            case GNUTLS_E_UNEXPECTED_PACKET_LENGTH, GNUTLS_E_UNEXPECTED_PACKET, GNUTLS_E_UNSUPPORTED_VERSION_PACKET, GNUTLS_E_PREMATURE_TERMINATION:
                return clock.failed("handshake", "the server does not speak TLS or closed the connection: \(message)", userError: true)
            case GNUTLS_E_KEY_USAGE_VIOLATION:
                // GnuTLS checks the leaf's keyUsage against the key exchange during the handshake
                // (TLS 1.3 needs digitalSignature), which chain verification does not: a verdict on
                // the chain the server sent, which is kept when GnuTLS has it.
                return clock.report(.init(stage: "handshake", message: "\(message) (\(result))", userError: false),
                              .rejected([NativeDiagnostic(code: Int(result), name: "GNUTLS_E_KEY_USAGE_VIOLATION", message: message, depth: 0, failure: .purposeMismatch)]),
                              chain: Self.peers(session))
            default:
                return clock.failed("handshake", "\(message) (\(result))", userError: false)
            }
        }
        let version = gnutls_protocol_get_name(gnutls_protocol_get_version(session)).map { String(cString: $0) }
        var cipher: String?
        if let description = gnutls_session_get_desc(session) {
            cipher = String(cString: description)
            CGnuTLS_free(description)
        }
        let kx = gnutls_kx_get(session)
        let forwardSecret = version == "TLS1.3" || [GNUTLS_KX_ECDHE_RSA, GNUTLS_KX_ECDHE_ECDSA, GNUTLS_KX_DHE_RSA, GNUTLS_KX_DHE_DSS, GNUTLS_KX_ECDHE_PSK, GNUTLS_KX_DHE_PSK].contains(kx)
        let chain = Self.peers(session)
        let stapled = Self.stapledResponse(session)
        let displayVersion = version.map { $0.replacingOccurrences(of: "TLS1.", with: "TLSv1.") }
        guard !chain.isEmpty else {
            return clock.report(.init(stage: "handshake", message: "the server sent no certificate", userError: false),
                          .failClosed(.untrusted, name: "NO_PEER_CERTIFICATE", message: "the server sent no certificate", origin: .library),
                          protocolVersion: displayVersion, cipher: cipher, forwardSecret: forwardSecret, stapledResponse: stapled)
        }
        let purpose = GnuTLSEvaluator.keyPurposeOID(for: request.purpose)
        let status: UInt32? = EvaluationScope.run(at: time_t(clamping: request.unixTime)) { _ in
            GnuTLSEvaluator.withTypedData(host: request.host, purpose: purpose) { data, entries -> UInt32 in
                var status: UInt32 = 0
                let verified = gnutls_certificate_verify_peers(session, data, entries, &status)
                return verified < 0 ? UInt32.max : status
            }
        }
        let verdict: Verdict
        switch status {
        case nil:
            verdict = .failClosed(.other, name: "TIME_HOOK_UNAVAILABLE", message: "the per-thread verification time could not be set", origin: .harness)
        case UInt32.max?:
            verdict = .failClosed(.other, name: "VERIFY_PEERS_FAILED", message: "gnutls_certificate_verify_peers could not verify", origin: .library)
        case 0?:
            verdict = .trusted(path: chain)
        case let status?:
            verdict = .rejected(GnuTLSStatus(rawValue: status | GNUTLS_CERT_INVALID.rawValue).diagnostics { false })
        }
        return clock.report(nil, verdict, protocolVersion: displayVersion, cipher: cipher, forwardSecret: forwardSecret, chain: chain, stapledResponse: stapled)
    }
}

extension GnuTLSTLSClient {
    /// The certificates the server sent, DER, as GnuTLS kept them (empty before its Certificate).
    static func peers(_ session: gnutls_session_t) -> [[UInt8]] {
        var count: UInt32 = 0
        guard let peers = gnutls_certificate_get_peers(session, &count) else { return [] }
        return (0..<Int(count)).map { Array(UnsafeBufferPointer(start: peers[$0].data, count: Int(peers[$0].size))) }
    }

    /// The OCSP response the server stapled for its leaf, DER (a copy: GnuTLS keeps its own), or nil.
    static func stapledResponse(_ session: gnutls_session_t) -> [UInt8]? {
        var datum = gnutls_datum_t()
        guard gnutls_ocsp_status_request_get2(session, 0, &datum) == 0, let data = datum.data, datum.size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: Int(datum.size)))
    }

    /// `NORMAL` with the back end's verification profile.
    static func priority(_ profile: GnuTLSBackend.Profile) -> String {
        switch profile {
        case .none: return "NORMAL"
        case .veryWeak: return "NORMAL:%PROFILE_VERY_WEAK"
        case .low: return "NORMAL:%PROFILE_LOW"
        case .legacy: return "NORMAL:%PROFILE_LEGACY"
        case .medium: return "NORMAL:%PROFILE_MEDIUM"
        case .high: return "NORMAL:%PROFILE_HIGH"
        case .ultra: return "NORMAL:%PROFILE_ULTRA"
        case .future: return "NORMAL:%PROFILE_FUTURE"
        case .suiteB128: return "NORMAL:%PROFILE_SUITEB128"
        case .suiteB192: return "NORMAL:%PROFILE_SUITEB192"
        }
    }
}

extension GnuTLSBackend: TLSClientProviding {
    /// GnuTLS's TLS client with this back end's settings.
    public var tlsClient: any TLSClient { GnuTLSTLSClient(settings: settings) }
}
