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

/// One evaluation: a presented chain, the identity to check, when, and for what.
public struct EvaluationRequest: Sendable, Hashable {
    /// The certificates the peer presented, DER, leaf first. The rest may be in any order and may
    /// include certificates unrelated to the path; back ends build the path themselves.
    public var chain: [[UInt8]]
    /// The host to check the leaf against, or `nil` for no host check. Kept in the form back ends
    /// compare (``HostIdentity/forComparison``: a DNS name without its trailing dot).
    public var host: HostIdentity? {
        get { comparedHost }
        set { comparedHost = newValue?.forComparison }
    }
    private var comparedHost: HostIdentity?
    /// The instant at which validity periods are checked. Every back end honours it per request.
    public var time: Date
    /// What the leaf is validated for: a TLS server by default.
    public var purpose: TrustPurpose
    /// The most CA certificates allowed between the leaf and the trust anchor, neither counted (the
    /// verify depth of OpenSSL's `X509_VERIFY_PARAM_set_depth`, x509-limbo's `max_chain_depth`):
    /// 0 allows only a leaf issued by an anchor. `nil`: the library's own limit. Needs
    /// ``BackendFeature/maximumChainDepth``.
    public var maximumChainDepth: Int?
    /// Certificate revocation lists, DER (RFC 5280 §5), to check the path against (§6.3): when any
    /// are given, every certificate of the path but the anchor must be covered by a valid, current
    /// CRL of its issuer and not be listed on it; a certificate no given CRL covers cannot be
    /// checked, so it is not trusted. Empty: no revocation checking. Needs
    /// ``BackendFeature/revocationLists``.
    public var revocationLists: [[UInt8]] = []
    /// The RFC 5280 policy inputs, when certificate policies are to be processed (nil: the back end's
    /// own behaviour for TLS, which for every built-in one is not to process them; see the README's
    /// known deviations). Needs ``BackendFeature/policyProcessing``.
    public var policy: PolicyInputs?

    /// A request to evaluate `chain` (DER, leaf first) for `host` at `time`; no revocation lists and
    /// no policy inputs (set ``revocationLists`` and ``policy`` after).
    public init(chain: [[UInt8]], host: HostIdentity?, time: Date, purpose: TrustPurpose = .serverAuthentication, maximumChainDepth: Int? = nil) {
        self.chain = chain
        self.comparedHost = host?.forComparison
        self.time = time
        self.purpose = purpose
        self.maximumChainDepth = maximumChainDepth
    }

    /// The optional features this request needs a back end to honour.
    public var requiredFeatures: Set<BackendFeature> {
        var features: Set<BackendFeature> = []
        if maximumChainDepth != nil { features.insert(.maximumChainDepth) }
        if !revocationLists.isEmpty { features.insert(.revocationLists) }
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
            message: "\(backend) cannot honour the \(missing) this request sets; not evaluated, so not trusted (evaluating without the constraint could trust what it forbids)"
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

    /// The most certificates a presented chain may have. Parsing costs each library about 0.1-0.2
    /// ms a certificate, so without a limit a peer could make one evaluation take seconds; real chains
    /// have 2 to 5, x509-limbo's pathological ones 101.
    public static let maximumPresentedCertificates = 1_000
    /// The most bytes a presented chain may have in all: 1 MiB, ten times OpenSSL's default limit
    /// on a TLS peer's certificate list (`SSL_CTX_set_max_cert_list`, 100 KiB).
    public static let maximumPresentedBytes = 1 << 20

    /// The instants X.509 can express: 0001-01-01T00:00:00Z through 9999-12-31T23:59:59Z
    /// (GeneralizedTime, RFC 5280 §4.1.2.5.2).
    public static let validTimeRange: ClosedRange<Int64> = -62_135_596_800...253_402_300_799

    /// Why this request cannot be evaluated faithfully by any back end, as a rejection of class
    /// `malformed`, or nil when it can. Back ends call this before touching their library so that bad
    /// input gets the same class of answer everywhere: an empty chain, a chain longer than
    /// ``maximumPresentedCertificates`` or ``maximumPresentedBytes``, a validation time X.509 cannot
    /// express, or a DNS name a library would check less strictly than it reads (see
    /// ``HostIdentity/unusableDNSNameReason(_:)``).
    public var inputRejection: Verdict? {
        if chain.isEmpty {
            return .failClosed(.malformed, name: "EMPTY_CHAIN", message: "the presented chain is empty: there is no certificate to evaluate")
        }
        if chain.count > Self.maximumPresentedCertificates {
            return .failClosed(.malformed, name: "CHAIN_TOO_LONG", message: "the presented chain has \(chain.count) certificates, more than the \(Self.maximumPresentedCertificates) any TLS peer may send here; refused before parsing")
        }
        let bytes = chain.reduce(0) { $0 + $1.count }
        if bytes > Self.maximumPresentedBytes {
            return .failClosed(.malformed, name: "CHAIN_TOO_LARGE", message: "the presented chain is \(bytes) bytes, more than the \(Self.maximumPresentedBytes) any TLS peer may send here; refused before parsing")
        }
        let seconds = time.timeIntervalSince1970
        if !seconds.isFinite || seconds < Double(Self.validTimeRange.lowerBound) || seconds >= Double(Self.validTimeRange.upperBound) + 1 {
            return .failClosed(.malformed, name: "TIME_OUT_OF_RANGE", message: "the validation time \(seconds) s since 1970 is outside what the harness evaluates (years 1 to 9999, the range the libraries' time types share)")
        }
        if let depth = maximumChainDepth, depth < 0 {
            return .failClosed(.malformed, name: "DEPTH_OUT_OF_RANGE", message: "the maximum chain depth \(depth) is negative")
        }
        switch host {
        case .dns(let name)?:
            if let reason = HostIdentity.unusableDNSNameReason(name) {
                return .failClosed(.malformed, name: "HOST_REFUSED", message: "host \"\(name.debugDescription.dropFirst().dropLast())\" refused: \(reason)")
            }
        case .ipAddress(let bytes)?:
            if bytes.count != 4 && bytes.count != 16 {
                return .failClosed(.malformed, name: "HOST_REFUSED", message: "an IP address host is 4 (IPv4) or 16 (IPv6) bytes, not \(bytes.count)")
            }
        case nil:
            break
        }
        return nil
    }
}
