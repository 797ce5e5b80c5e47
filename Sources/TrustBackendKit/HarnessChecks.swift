import TrustCore
import TrustDER

/// TrustHarness's own checks, which no library makes the way we do: the `checks` layer a user can
/// put in front of any library (``CheckedBackend``, the column `NAME+checks`). Its refusals are ours,
/// reported with origin ``DiagnosticOrigin/layer`` and layer ``name``, never as a library's
/// verdict.
///
/// In this order, the first that applies answers (class `malformed`):
/// 1. Input limits: more than ``maximumPresentedCertificates`` certificates or
///    ``maximumPresentedBytes`` bytes presented (`CHAIN_TOO_LONG`, `CHAIN_TOO_LARGE`).
/// 2. Host syntax: a DNS reference identity a library would read more loosely than it checks
///    (``HostIdentity/unusableDNSNameReason(_:)``: empty, a leading dot, a wildcard,
///    non-ASCII, a port, a bad label, a number as the last label; `HOST_REFUSED`).
/// 3. Strict DER and the certificate schema of every presented certificate
///    (``DERCertificate/encodingProblem(_:)``, `NOT_DER`): a library that also reads BER
///    accepts byte-different copies of a certificate, defeating pins and deny lists keyed by bytes.
///
/// What passes reaches the library with one change: a DNS name loses its one trailing dot
/// (``HostIdentity/forComparison``: `www.example.com.` names the same host, and Go,
/// rustls and curl match it so, while OpenSSL and GnuTLS would compare the dot). Anchors are held to
/// strict DER when the evaluator is made (``anchorProblem(_:backend:)``).
public enum HarnessChecks {
    /// The layer's name in diagnostics and in its columns (`openssl+checks`).
    public static let name = "checks"

    /// The suffix of a column with the layer in front of a library: `NAME+checks`.
    public static let columnSuffix = "+" + name

    /// The diagnostic name of a presented certificate that is not DER.
    public static let notDERName = "NOT_DER"

    /// The most certificates a presented chain may have. Parsing costs each library about 0.1-0.2
    /// ms a certificate, so without a limit a peer could make one evaluation take seconds; real chains
    /// have 2 to 5, x509-limbo's pathological ones 101.
    public static let maximumPresentedCertificates = 1_000
    /// The most bytes a presented chain may have in all: 1 MiB, ten times OpenSSL's default limit
    /// on a TLS peer's certificate list (`SSL_CTX_set_max_cert_list`, 100 KiB).
    public static let maximumPresentedBytes = 1 << 20

    /// The layer's refusal of `request` before `backend`'s library sees it, or nil when it passes.
    /// Costs about 0.5 µs per presented certificate (the DER reading).
    public static func refusal(of request: EvaluationRequest, backend: String) -> Verdict? {
        func refused(_ diagnostic: String, _ message: String, depth: Int? = nil) -> Verdict {
            .failClosed(.malformed, name: diagnostic, message: message, depth: depth, origin: .layer, layer: name)
        }
        if request.chain.count > maximumPresentedCertificates {
            return refused("CHAIN_TOO_LONG", "the presented chain has \(request.chain.count) certificates, more than the \(maximumPresentedCertificates) the checks layer lets through; refused before \(backend) parses it")
        }
        let bytes = request.chain.reduce(0) { $0 + $1.count }
        if bytes > maximumPresentedBytes {
            return refused("CHAIN_TOO_LARGE", "the presented chain is \(bytes) bytes, more than the \(maximumPresentedBytes) the checks layer lets through; refused before \(backend) parses it")
        }
        if case .dns(let name)? = request.host?.forComparison, let reason = HostIdentity.unusableDNSNameReason(name) {
            return refused("HOST_REFUSED", "host \"\(name.debugDescription.dropFirst().dropLast())\" refused: \(reason)")
        }
        for (index, der) in request.chain.enumerated() {
            if let problem = DERCertificate.encodingProblem(der) {
                return refused(notDERName, "presented certificate \(index) is not DER (\(problem)); refused before \(backend) reads it", depth: index)
            }
        }
        return nil
    }

    /// `request` as the layer hands it to the library: a DNS name without its one trailing dot.
    public static func prepared(_ request: EvaluationRequest) -> EvaluationRequest {
        guard let host = request.host, host.forComparison != host else { return request }
        var prepared = request
        prepared.host = host.forComparison
        return prepared
    }

    /// Why the layer will not make an evaluator of `anchors`, or nil: an anchor that is not strict
    /// DER (an anchor is what everything else is trusted through, so it is held to the same encoding).
    public static func anchorProblem(_ anchors: [[UInt8]], backend: String) -> TrustBackendError? {
        for (index, anchor) in anchors.enumerated() {
            if let problem = DERCertificate.encodingProblem(anchor) {
                return TrustBackendError(backend: backend, message: "anchor \(index) is not DER (\(problem)); refused by the checks layer before the library reads it", layer: name)
            }
        }
        return nil
    }
}

/// A library with the `checks` layer in front of it (``HarnessChecks``): the column `NAME+checks`,
/// which shows what the library decides behind TrustHarness's own checks and says, in every result
/// the layer decided, that it was the layer.
///
/// Any registered back end gets one by name (`--backend openssl+checks`, ``BackendRegistry``), and a
/// user can put it in front of a back end in code: `CheckedBackend(OpenSSLBackend())`.
public struct CheckedBackend: BackendWrapper {
    /// The library behind the layer.
    public let base: any TrustBackend

    /// `base` behind the layer (as it is, when it already is behind it).
    public init(_ base: any TrustBackend) {
        if let checked = base as? CheckedBackend {
            self = checked
        } else {
            self.base = base
        }
    }

    /// `NAME+checks`.
    public var name: String { base.name + HarnessChecks.columnSuffix }
    /// The library's version.
    public var libraryVersion: String { base.libraryVersion }
    /// The library's features: the layer adds none.
    public var features: Set<BackendFeature> { base.features }
    /// Whether the library names its verified path: the layer changes nothing there.
    public var reportsVerifiedPath: Bool { base.reportsVerifiedPath }

    /// The library's evaluator behind the layer.
    /// - Throws: ``TrustBackendError`` for an anchor that is not DER (the layer's refusal),
    ///   or whatever the library's back end throws.
    public func makeEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
        if let problem = HarnessChecks.anchorProblem(anchors, backend: name) { throw problem }
        let evaluator = try base.makeEvaluator(anchors: anchors)
        return try BackendPreflight.guardedEvaluator(of: self, anchors: anchors) {
            CheckedEvaluator(base: evaluator, backend: base.name)
        }
    }
}

/// An evaluator behind the `checks` layer.
struct CheckedEvaluator: TrustEvaluator {
    let base: any TrustEvaluator
    let backend: String

    func evaluate(_ request: EvaluationRequest) -> Verdict {
        if let refusal = HarnessChecks.refusal(of: request, backend: backend) { return refusal }
        return base.evaluate(HarnessChecks.prepared(request))
    }
}
