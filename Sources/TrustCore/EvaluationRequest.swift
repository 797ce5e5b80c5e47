import Foundation

/// What a certificate is being validated for.
public enum TrustPurpose: String, Sendable, Hashable, Codable {
    /// id-kp-serverAuth (RFC 5280 §4.2.1.12): the certificate of a TLS server.
    case serverAuthentication
    /// RFC 5280 path validation alone, for no particular purpose: any extended key usage is
    /// accepted and no TLS-specific check is made (how NIST PKITS validates). Needs
    /// ``BackendFeature/anyPurpose``.
    case anyPurpose = "any"
}

/// The RFC 5280 §6.1.1 policy inputs of path validation (c, e, f, g): the user-initial-policy-set
/// (policy OIDs, dotted; `2.5.29.32.0` is anyPolicy), initial-explicit-policy,
/// initial-policy-mapping-inhibit and initial-any-policy-inhibit. A request that carries them asks
/// for certificate policy processing (§6.1.3(d)-(f), §6.1.4(a)-(b), (h)-(j), §6.1.5): needs
/// ``BackendFeature/policyProcessing``.
public struct PolicyInputs: Sendable, Hashable, Codable {
    /// The OID of anyPolicy (RFC 5280 §4.2.1.4).
    public static let anyPolicy = "2.5.29.32.0"

    /// user-initial-policy-set: the policies the relying party accepts, dotted OIDs.
    public var initialPolicySet: [String]
    /// initial-explicit-policy: whether the path must be valid for a policy of the set.
    public var explicitPolicy: Bool
    /// initial-policy-mapping-inhibit: whether policy mapping is refused from the start.
    public var inhibitPolicyMapping: Bool
    /// initial-any-policy-inhibit: whether anyPolicy in a certificate is ignored from the start.
    public var inhibitAnyPolicy: Bool

    /// RFC 5280's defaults (any policy, nothing explicit, nothing inhibited) unless given.
    public init(initialPolicySet: [String] = [PolicyInputs.anyPolicy], explicitPolicy: Bool = false, inhibitPolicyMapping: Bool = false, inhibitAnyPolicy: Bool = false) {
        self.initialPolicySet = initialPolicySet
        self.explicitPolicy = explicitPolicy
        self.inhibitPolicyMapping = inhibitPolicyMapping
        self.inhibitAnyPolicy = inhibitAnyPolicy
    }
}

/// What a certificate whose revocation status cannot be determined (RFC 5280 §6.3.3's
/// UNDETERMINED: no CRL or OCSP response covers it, or none the library accepts) means.
public enum RevocationMode: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Not trusted: every certificate the library checks needs current, valid status (NIST PKITS
    /// §4.4's rule; OpenSSL's `X509_V_FLAG_CRL_CHECK`, Botan's `require_revocation_information`).
    case hardFail = "hard-fail"
    /// Not revoked: only a status that says revoked rejects (GnuTLS's trust list, swift-certificates'
    /// `OCSPFailureMode.soft`, a browser's soft-fail OCSP).
    case softFail = "soft-fail"

    public var description: String { rawValue }
}

/// One evaluation: a presented chain, the identity to check, when, and for what.
public struct EvaluationRequest: Sendable, Hashable {
    /// The certificates the peer presented, DER, leaf first. The rest may be in any order and may
    /// include certificates unrelated to the path; back ends build the path themselves.
    public var chain: [[UInt8]]
    /// The host to check the leaf against, or `nil` for no host check, exactly as the application
    /// would pass it to the library: a back end hands it on unchanged (a trailing dot included), and
    /// only the `checks` layer (`HarnessChecks` in TrustBackendKit) rewrites or refuses hosts.
    public var host: HostIdentity?
    /// The instant at which validity periods are checked. Every back end honours it per request.
    public var time: Date
    /// What the leaf is validated for: a TLS server by default.
    public var purpose: TrustPurpose
    /// The most CA certificates allowed between the leaf and the trust anchor, neither counted (the
    /// verify depth of OpenSSL's `X509_VERIFY_PARAM_set_depth`, x509-limbo's `max_chain_depth`):
    /// 0 allows only a leaf issued by an anchor. `nil`: the library's own limit. Needs
    /// ``BackendFeature/maximumChainDepth``.
    public var maximumChainDepth: Int?
    /// Certificate revocation lists, DER (RFC 5280 §5), for the library to check the path against
    /// (§6.3) by its own rules: which certificates it checks (the leaf, every one), which CRLs it
    /// believes (signed by the issuer, current, in scope) and what a certificate no CRL covers means
    /// (``revocationMode``) are its verdict, reported as it gives them. Empty, with no
    /// ``ocspResponses`` and no ``revocationMode``: no revocation checking. Needs
    /// ``BackendFeature/revocationLists``.
    public var revocationLists: [[UInt8]] = []
    /// OCSP responses, DER `OCSPResponse` (RFC 6960 §4.2.1), for certificates of the chain: the one a
    /// TLS server stapled for its leaf (RFC 6066 §8) or ones the client fetched. The library matches
    /// each to a certificate and judges it (signer, freshness, status) by its own rules. Needs
    /// ``BackendFeature/ocspResponses``.
    public var ocspResponses: [[UInt8]] = []
    /// What a certificate without usable revocation status means: ``RevocationMode/hardFail`` (not
    /// trusted) or ``RevocationMode/softFail`` (not revoked), asked of the library through its own
    /// setting; nil: the library's default for the inputs given. A library with no such setting
    /// lacks the feature (``BackendFeature/hardFailRevocation``, ``BackendFeature/softFailRevocation``)
    /// and is not asked: the mode is never emulated. A mode with no revocation inputs asks for
    /// checking without data (hard-fail: nothing can be trusted; soft-fail: nothing is revoked).
    public var revocationMode: RevocationMode?
    /// The RFC 5280 policy inputs, when certificate policies are to be processed (nil: the back end's
    /// own behaviour for TLS, which for every built-in one is not to process them; see the README's
    /// known deviations). Needs ``BackendFeature/policyProcessing``.
    public var policy: PolicyInputs?
    /// The private key of the leaf (`chain[0]`), PKCS#8 DER, when the harness has it: what a back end
    /// that judges by a real TLS handshake needs to serve the chain (an HTTP client's back end:
    /// the server must sign with the leaf's key). Every other back end ignores it; it is no input to a
    /// verification and changes no verdict. nil for chains from suites without keys (x509-limbo, PKITS).
    public var leafPrivateKey: [UInt8]?
    /// The address the client connected to, 4 (IPv4) or 16 (IPv6) bytes, when the request models a
    /// connection: a client that asked for a DNS name reached one of the addresses it resolved to.
    /// It is no reference identity (RFC 9525 takes that from what the user asked for, never from a
    /// resolution), but some libraries' host checks read it: swift-nio-ssl's `validIdentityForService`
    /// matches iPAddress SAN entries against the socket's remote address even when a DNS name was
    /// asked. A back end whose library takes no address (OpenSSL, GnuTLS, NSS, ...) ignores it; nil:
    /// no connection is modelled (for an IP host, the host is the address).
    public var connectedAddress: [UInt8]?

    /// A request to evaluate `chain` (DER, leaf first) for `host` at `time`; no revocation lists and
    /// no policy inputs (set ``revocationLists``, ``ocspResponses``, ``revocationMode`` and ``policy``
    /// after).
    public init(chain: [[UInt8]], host: HostIdentity?, time: Date, purpose: TrustPurpose = .serverAuthentication, maximumChainDepth: Int? = nil) {
        self.chain = chain
        self.host = host
        self.time = time
        self.purpose = purpose
        self.maximumChainDepth = maximumChainDepth
    }

    /// The optional features this request needs a back end to honour.
    public var requiredFeatures: Set<BackendFeature> {
        var features: Set<BackendFeature> = []
        if maximumChainDepth != nil { features.insert(.maximumChainDepth) }
        if !revocationLists.isEmpty { features.insert(.revocationLists) }
        if !ocspResponses.isEmpty { features.insert(.ocspResponses) }
        switch revocationMode {
        case .hardFail?: features.insert(.hardFailRevocation)
        case .softFail?: features.insert(.softFailRevocation)
        case nil: break
        }
        if purpose == .anyPurpose { features.insert(.anyPurpose) }
        if policy != nil { features.insert(.policyProcessing) }
        return features
    }

    /// A rejection naming the first feature this request needs that `features` lacks, or nil when
    /// the back end can honour all of it. Back ends call this with their ``TrustBackend/features``.
    public func rejection(unlessHonouredBy features: Set<BackendFeature>, backend: String) -> Verdict? {
        guard let missing = requiredFeatures.subtracting(features).sorted(by: { $0.rawValue < $1.rawValue }).first else { return nil }
        return .failClosed(
            .other, name: "UNSUPPORTED_CONSTRAINT",
            message: "\(backend) cannot honour the \(missing) this request sets; not evaluated, so not trusted (evaluating without the constraint could trust what it forbids)",
            origin: .harness
        )
    }

    /// `time` as whole seconds since 1970, rounded down: the resolution of X.509 times and of both
    /// libraries' clocks. Never traps: a time outside ``validTimeRange`` (or not finite) is clamped
    /// here and refused by ``inputRejection``, which back ends check first.
    public var unixTime: Int64 {
        let seconds = time.timeIntervalSince1970
        guard seconds.isFinite else { return seconds < 0 ? Self.validTimeRange.lowerBound : Self.validTimeRange.upperBound }
        let clamped = min(max(seconds.rounded(.down), Double(Self.validTimeRange.lowerBound)), Double(Self.validTimeRange.upperBound))
        return Int64(clamped)
    }

    /// The checks layer's limit on presented certificates (`HarnessChecks.maximumPresentedCertificates`
    /// in TrustBackendKit); no request is refused for it any more unless that layer is in front.
    @available(*, deprecated, message: "a limit of the checks layer now: use HarnessChecks.maximumPresentedCertificates (TrustBackendKit)")
    public static let maximumPresentedCertificates = 1_000
    /// The checks layer's limit on presented bytes (`HarnessChecks.maximumPresentedBytes`).
    @available(*, deprecated, message: "a limit of the checks layer now: use HarnessChecks.maximumPresentedBytes (TrustBackendKit)")
    public static let maximumPresentedBytes = 1 << 20

    /// The instants X.509 can express: 0001-01-01T00:00:00Z through 9999-12-31T23:59:59Z
    /// (GeneralizedTime, RFC 5280 §4.1.2.5.2).
    public static let validTimeRange: ClosedRange<Int64> = -62_135_596_800...253_402_300_799

    /// Why this request cannot be put to any library at all, as a rejection of class `malformed`
    /// whose origin is ``DiagnosticOrigin/harness``, or nil when it can: an empty chain, a validation
    /// time X.509 cannot express, a negative depth, an IP address that is neither 4 nor 16 bytes, a DNS
    /// name with a NUL byte (C APIs that take a NUL-terminated name would read another name). Nothing
    /// else is refused here: what a library makes of any other input is its verdict. The stricter
    /// checks TrustHarness can add (strict DER, host syntax, input limits) are the `checks` layer.
    public var inputRejection: Verdict? {
        func refused(_ name: String, _ message: String) -> Verdict {
            .failClosed(.malformed, name: name, message: message, origin: .harness)
        }
        if chain.isEmpty {
            return refused("EMPTY_CHAIN", "the presented chain is empty: there is no certificate to evaluate")
        }
        let seconds = time.timeIntervalSince1970
        if !seconds.isFinite || seconds < Double(Self.validTimeRange.lowerBound) || seconds >= Double(Self.validTimeRange.upperBound) + 1 {
            return refused("TIME_OUT_OF_RANGE", "the validation time \(seconds) s since 1970 is outside what the harness evaluates (years 1 to 9999, the range the libraries' time types share)")
        }
        if let depth = maximumChainDepth, depth < 0 {
            return refused("DEPTH_OUT_OF_RANGE", "the maximum chain depth \(depth) is negative")
        }
        switch host {
        case .dns(let name)?:
            if name.utf8.contains(0) {
                return refused("HOST_REFUSED", "host \"\(name.debugDescription.dropFirst().dropLast())\" refused: the DNS name contains a NUL byte, which a library taking a C string would read as the end of another name")
            }
        case .ipAddress(let bytes)?:
            if bytes.count != 4 && bytes.count != 16 {
                return refused("HOST_REFUSED", "an IP address host is 4 (IPv4) or 16 (IPv6) bytes, not \(bytes.count)")
            }
        case nil:
            break
        }
        return nil
    }
}
