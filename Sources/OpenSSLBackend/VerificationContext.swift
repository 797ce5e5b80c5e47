internal import COpenSSL
import TrustCore

/// One verification: an OpenSSL `X509_STORE_CTX` over an evaluator's store and a presented chain.
///
/// Owns the context and frees it in deinit. The context points at the store, the leaf and the
/// untrusted stack without taking references, so this object keeps the evaluator and the chain alive.
final class VerificationContext {
    private let ref: OpaquePointer
    private let evaluator: OpenSSLEvaluator
    private let chain: PresentedChain
    /// When the leaf is an anchor: a stack holding only the leaf (not owning it), set as the
    /// context's trusted stack so that OpenSSL looks nowhere else and the path is the leaf alone.
    /// The request's CRLs, which the context points at without owning them.
    private var revocationLists: RevocationLists?

    private init(ref: OpaquePointer, evaluator: OpenSSLEvaluator, chain: PresentedChain) {
        self.ref = ref
        self.evaluator = evaluator
        self.chain = chain
    }

    deinit {
        X509_STORE_CTX_free(ref)
    }

    /// A context ready to verify `chain` against `evaluator`'s anchors for `request`: purpose,
    /// flags, security level, time and host set as the evaluator's settings say.
    ///
    /// - Throws: ``VerificationSetupError`` when OpenSSL cannot allocate or initialise the context,
    ///   or refuses the request's host.
    static func make(evaluator: OpenSSLEvaluator, chain: PresentedChain, request: EvaluationRequest, revocationLists: RevocationLists? = nil) throws(VerificationSetupError) -> VerificationContext {
        guard let ref = X509_STORE_CTX_new() else {
            throw .library("X509_STORE_CTX_new", OpenSSLErrorQueue.drain())
        }
        let initialised = evaluator.withUnsafeStore { store in
            chain.withUnsafePointers { leaf, untrusted in
                X509_STORE_CTX_init(ref, store, leaf, untrusted)
            }
        }
        // From here on the context is owned, so every early exit frees it.
        let context = VerificationContext(ref: ref, evaluator: evaluator, chain: chain)
        guard initialised == 1 else {
            throw .library("X509_STORE_CTX_init", OpenSSLErrorQueue.drain())
        }
        if let revocationLists {
            context.revocationLists = revocationLists
            revocationLists.withUnsafeStack { X509_STORE_CTX_set0_crls(ref, $0) }
        }
        try context.configure(for: request)
        return context
    }

    private func configure(for request: EvaluationRequest) throws(VerificationSetupError) {
        let parameters = evaluator.parameters
        switch request.purpose {
        case .serverAuthentication:
            // X509_PURPOSE_SSL_SERVER also sets the trust setting X509_TRUST_SSL_SERVER; anchors carry
            // no trust settings of their own, so every anchor is trusted for it.
            guard X509_STORE_CTX_set_purpose(ref, parameters.purpose) == 1 else {
                throw .library("X509_STORE_CTX_set_purpose", OpenSSLErrorQueue.drain())
            }
        case .anyPurpose:
            // X509_PURPOSE_ANY: every certificate is fit for the path's purpose; RFC 5280 path
            // validation alone (keyUsage of CAs, basicConstraints, ...) still applies.
            guard X509_STORE_CTX_set_purpose(ref, X509_PURPOSE_ANY) == 1 else {
                throw .library("X509_STORE_CTX_set_purpose", OpenSSLErrorQueue.drain())
            }
        }
        let param = X509_STORE_CTX_get0_param(ref)
        // The settings' flags (see OpenSSLBackend.Settings); set_flags adds to the "default"
        // parameters X509_STORE_CTX_init gave, so TRUSTED_FIRST is cleared when the settings say so.
        var flags = parameters.verifyFlags
        if revocationLists != nil || request.revocationMode == .hardFail {
            // Every certificate of the path, not only the leaf, must be covered by a CRL of its issuer:
            // OpenSSL's one mode, hard-fail (X509_V_ERR_UNABLE_TO_GET_CRL for a certificate no CRL
            // covers; there is no setting that lets such a certificate through).
            flags |= UInt(X509_V_FLAG_CRL_CHECK | X509_V_FLAG_CRL_CHECK_ALL)
            // Indirect CRLs and CRL-signing keys apart from the certificate-signing key
            // (X509_V_FLAG_EXTENDED_CRL_SUPPORT), and delta CRLs (X509_V_FLAG_USE_DELTAS): without
            // them OpenSSL reports such a CRL missing rather than checking it.
            flags |= UInt(X509_V_FLAG_EXTENDED_CRL_SUPPORT | X509_V_FLAG_USE_DELTAS)
        }
        if let policy = request.policy {
            // RFC 5280 §6.1 policy processing with the request's inputs (§6.1.1 (c), (e)-(g)).
            flags |= UInt(X509_V_FLAG_POLICY_CHECK)
            if policy.explicitPolicy { flags |= UInt(X509_V_FLAG_EXPLICIT_POLICY) }
            if policy.inhibitAnyPolicy { flags |= UInt(X509_V_FLAG_INHIBIT_ANY) }
            if policy.inhibitPolicyMapping { flags |= UInt(X509_V_FLAG_INHIBIT_MAP) }
        }
        guard X509_VERIFY_PARAM_set_flags(param, flags) == 1 else {
            throw .library("X509_VERIFY_PARAM_set_flags", OpenSSLErrorQueue.drain())
        }
        if flags & UInt(X509_V_FLAG_TRUSTED_FIRST) == 0 {
            guard X509_VERIFY_PARAM_clear_flags(param, UInt(X509_V_FLAG_TRUSTED_FIRST)) == 1 else {
                throw .library("X509_VERIFY_PARAM_clear_flags", OpenSSLErrorQueue.drain())
            }
        }
        // Without a level, X509_verify_cert alone checks no key sizes at all (auth level -1) and
        // accepts RSA-1024; libssl sets the SSL's security level (2 on Debian 12) for a TLS peer.
        for oid in request.policy?.initialPolicySet ?? [] {
            // The user-initial-policy-set; X509_VERIFY_PARAM_add0_policy takes the object.
            guard let object = OBJ_txt2obj(oid, 1) else {
                throw .library("OBJ_txt2obj(\(oid))", OpenSSLErrorQueue.drain())
            }
            guard X509_VERIFY_PARAM_add0_policy(param, object) == 1 else {
                ASN1_OBJECT_free(object)
                throw .library("X509_VERIFY_PARAM_add0_policy", OpenSSLErrorQueue.drain())
            }
        }
        X509_VERIFY_PARAM_set_auth_level(param, parameters.authLevel)
        X509_VERIFY_PARAM_set_time(param, .init(request.unixTime))
        if let depth = request.maximumChainDepth {
            // Checked non-negative by inputRejection; anything past Int32 is no limit at all.
            X509_VERIFY_PARAM_set_depth(param, Int32(clamping: depth))
        }
        // For every request, not only a DNS name's: the flags also decide whether check_name_constraints
        // (crypto/x509/x509_vfy.c) reads a subject CN that looks like a host name as a dNSName when the
        // leaf has none (X509_CHECK_FLAG_NEVER_CHECK_SUBJECT). Set only for DNS names, the hardened
        // profile's "never the CN" held for host matching but not for constraints: an IP host's leaf
        // with CN 127.0.0.1 failed a permitted dNSName subtree (BetterTLS nameconstraints, 30 cases).
        X509_VERIFY_PARAM_set_hostflags(param, parameters.hostFlags)
        switch request.host {
        case nil:
            break
        case .dns(let name):
            // Names no library may see were refused by request.inputRejection, checked first.
            var name = name
            let accepted = name.withUTF8 { utf8 in
                utf8.withMemoryRebound(to: CChar.self) { X509_VERIFY_PARAM_set1_host(param, $0.baseAddress, $0.count) }
            }
            guard accepted == 1 else {
                throw .hostRefused(request.host, reason: "X509_VERIFY_PARAM_set1_host refused it", OpenSSLErrorQueue.drain())
            }
        case .ipAddress(let bytes):
            // 4 or 16 bytes: checked by request.inputRejection.
            let accepted = bytes.withUnsafeBufferPointer { X509_VERIFY_PARAM_set1_ip(param, $0.baseAddress, $0.count) }
            guard accepted == 1 else {
                throw .hostRefused(request.host, reason: "X509_VERIFY_PARAM_set1_ip refused it", OpenSSLErrorQueue.drain())
            }
        }
    }

    /// Runs `X509_verify_cert` once.
    ///
    /// - Returns: ``Verdict/trusted(path:)`` with the verified path (leaf first, ending at the anchor)
    ///   in the DER each certificate was parsed from (`i2d_X509` for any other); otherwise ``Verdict/rejected(_:)`` with the `X509_V_ERR_*` code
    ///   OpenSSL recorded and the depth it blamed. A result that contradicts its own error code, or a
    ///   path that cannot be read back, is a rejection of class ``FailureClass/other``.
    func verify() -> Verdict {
        let result = X509_verify_cert(ref)
        let code = X509_STORE_CTX_get_error(ref)
        if result == 1 {
            guard code == X509_V_OK else {
                return .failClosed(
                    .other, code: Int(code), name: X509VerifyErrorCode.name(of: code),
                    message: "internal surprise: X509_verify_cert returned 1 (verified) but recorded \(X509VerifyErrorCode.name(of: code)) (\(String(cString: X509_verify_cert_error_string(Int(code))))); failing closed",
                    depth: Int(X509_STORE_CTX_get_error_depth(ref)), origin: .harness
                )
            }
            return verifiedPath()
        }
        guard code != X509_V_OK else {
            let errors = OpenSSLErrorQueue.drain()
            let stack = errors.isEmpty ? "no OpenSSL error queued" : errors.map(\.description).joined(separator: "; ")
            return .failClosed(
                .other, code: Int(code), name: "X509_V_OK",
                message: "internal surprise: X509_verify_cert returned \(result) (not verified) but recorded no verification error; failing closed (\(stack))", origin: .harness
            )
        }
        return .rejected([X509VerifyErrorCode.diagnostic(code: code, depth: Int(X509_STORE_CTX_get_error_depth(ref)))])
    }

    private func verifiedPath() -> Verdict {
        guard let stack = X509_STORE_CTX_get0_chain(ref) else {
            return .failClosed(.other, name: "NO_VERIFIED_CHAIN", message: "internal surprise: X509_verify_cert succeeded but X509_STORE_CTX_get0_chain returned no chain; failing closed", origin: .harness)
        }
        let count = Int(COpenSSL_sk_X509_num(stack))
        var path: [[UInt8]] = []
        path.reserveCapacity(count)
        for index in 0..<count {
            // Presented certificates and anchors are reported in the bytes they were parsed from.
            guard let x509 = COpenSSL_sk_X509_value(stack, Int32(index)) else {
                return .failClosed(.other, name: "PATH_NOT_ENCODABLE", message: "internal surprise: certificate \(index) of the verified path is missing; failing closed", depth: index, origin: .harness)
            }
            if index == 0, let anchor = evaluator.anchorDER(of: x509) {
                // With partial chains, a leaf OpenSSL finds in the store (check_trust's
                // lookup_cert_match, crypto/x509/x509_vfy.c) replaces the presented leaf at the head
                // of a chain that keeps the untrusted issuers it had built: OpenSSL trusts the leaf
                // itself, so its path is the leaf, and what follows it was not needed.
                path.append(anchor)
                break
            }
            guard let der = chain.der(of: x509) ?? evaluator.anchorDER(of: x509) ?? Self.encode(x509) else {
                return .failClosed(.other, name: "PATH_NOT_ENCODABLE", message: "internal surprise: i2d_X509 could not re-encode certificate \(index) of the verified path; failing closed", depth: index, origin: .harness)
            }
            path.append(der)
        }
        guard !path.isEmpty else {
            return .failClosed(.other, name: "NO_VERIFIED_CHAIN", message: "internal surprise: X509_verify_cert succeeded with an empty chain; failing closed", origin: .harness)
        }
        return .trusted(path: path)
    }

    /// `x509` as DER via `i2d_X509`, or `nil` when OpenSSL cannot encode it.
    static func encode(_ x509: OpaquePointer) -> [UInt8]? {
        let length = Int(i2d_X509(x509, nil))
        guard length > 0 else { return nil }
        let der = [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
            var cursor = buffer.baseAddress
            initialized = Int(i2d_X509(x509, &cursor)) == length ? length : 0
        }
        return der.count == length ? der : nil
    }
}

/// Why a verification could not start; always a rejection, never a crash.
enum VerificationSetupError: Error {
    /// An OpenSSL call failed (allocation or initialisation), with its error stack.
    case library(_ function: String, [OpenSSLError])
    /// The request's host cannot be checked as given.
    case hostRefused(HostIdentity?, reason: String, [OpenSSLError] = [])

    /// The fail-closed verdict: ``FailureClass/malformed`` for an unusable host,
    /// ``FailureClass/other`` for a library failure.
    var verdict: Verdict {
        switch self {
        case .library(let function, let errors):
            return .rejected(
                [NativeDiagnostic(code: 0, name: function, message: "OpenSSL could not set up the verification: \(function) failed", failure: .other)]
                    + errors.map { $0.diagnostic(.other) }
            )
        case .hostRefused(let host, let reason, let errors):
            let shown = host.map { String(reflecting: $0.description) } ?? "nil"
            return .rejected(
                [NativeDiagnostic(code: 0, name: "HOST_REFUSED", message: "the host \(shown) cannot be checked: \(reason)", failure: .malformed)]
                    + errors.map { $0.diagnostic(.malformed) }
            )
        }
    }
}
