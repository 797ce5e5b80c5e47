import TrustBackendKit
internal import CBotanShim

/// Evaluates requests with Botan against one set of anchors, parsed once into one store
/// (``BotanAnchors``).
///
/// Each evaluation hands Botan the presented certificates, parsed (and kept parsed in a
/// ``BoundedCache`` keyed by their exact DER, ``BackendConfiguration/certificateCacheCapacity``),
/// the request's CRLs, OCSP responses, revocation mode, host, time and purpose, and
/// `x509_path_validate` builds and checks the path
/// (see ``BotanBackend``). Trusted only when Botan reports a successful validation; then the verdict
/// carries Botan's path (`Path_Validation_Result::cert_path`), leaf first, ending at the anchor.
/// Every other outcome is a rejection with Botan's status codes, or a fail-closed diagnostic when
/// Botan threw or the chain was refused before Botan ran.
///
/// Safe on any number of tasks at once: the anchors' store and the kept certificates are immutable
/// Botan objects that validation only reads (see cbotan_shim.cpp), each call builds its own CRL
/// store, OCSP responses and result, and the cache is ``BoundedCache``'s own lock-guarded table.
final class BotanEvaluator: TrustEvaluator, Sendable {
    private let backend: String
    private let features: Set<BackendFeature>
    private let settings: BotanBackend.Settings
    private let anchors: BotanAnchors
    private let cache: BoundedCache<DERBytes, BotanCertificate>

    init(anchors: BotanAnchors, settings: BotanBackend.Settings, features: Set<BackendFeature>, configuration: BackendConfiguration) {
        self.backend = settings.name
        self.features = features
        self.settings = settings
        self.anchors = anchors
        self.cache = BoundedCache(configuration)
    }

    func evaluate(_ request: EvaluationRequest) -> Verdict {
        // The guard has refused requests no library can be asked and features this back end does
        // not honour; the bytes and the host are the library's to read.
        var chain: [BotanCertificate] = []
        chain.reserveCapacity(request.chain.count)
        for (index, der) in request.chain.enumerated() {
            do {
                chain.append(try cache.certificate(for: der, parse: Self.parsePresented))
            } catch {
                switch error {
                case .botan(let reason):
                    return .failClosed(.malformed, name: "BOTAN_DECODING_ERROR", message: "Botan could not read presented certificate \(index): \(reason)", depth: index, origin: .library)
                }
            }
        }
        guard BotanBackend.representableTimes.contains(request.unixTime) else {
            return .failClosed(.other, name: "UNSUPPORTED_TIME", message: "Botan takes the validation time as a std::chrono::system_clock time point, nanoseconds in 64 bits, which reach only from 1677-09-21 to 2262-04-11 (converting a later time overflows: UndefinedBehaviorSanitizer, cbotan_shim.cpp); not evaluated, so not trusted", origin: .harness)
        }
        var parameters = cbotan_parameters()
        parameters.seconds = request.unixTime
        parameters.minimum_strength = settings.minimumStrength
        parameters.usage = request.purpose == .serverAuthentication && settings.usage == .tlsServer
            ? Int32(CBOTAN_USAGE_TLS_SERVER_AUTH) : Int32(CBOTAN_USAGE_UNSPECIFIED)
        let restrictions = settings.revocationRestrictions(for: request)
        parameters.require_revocation = restrictions.requireRevocation ? 1 : 0
        parameters.require_revocation_of_intermediates = restrictions.ofIntermediates ? 1 : 0
        parameters.search_limit = settings.pathSearchLimit
        let host: String? = switch request.host {
        case .dns(let name)?: name
        case .ipAddress?: request.host?.description  // dotted quad or RFC 5952 text; see BotanBackend
        case nil: nil
        }
        let (outcome, path) = verify(chain, crls: request.revocationLists, ocsp: request.ocspResponses, host: host, parameters: &parameters)
        withExtendedLifetime(chain) {}
        return verdict(outcome, path: Self.inGivenBytes(path, presented: request.chain, anchors: anchors.ders), request: request)
    }

    /// The path Botan verified, each certificate in the bytes it was given as. Botan reports a
    /// certificate re-encoded (`X509_Object::BER_encode`, src/lib/x509/x509_obj.cpp: the stored
    /// tbsCertificate, then the signature algorithm and signature written anew), which differs from
    /// the input when the input's outer encoding is not Botan's own (a signature BIT STRING with
    /// unused bits, say); its tbsCertificate is kept byte for byte, so a certificate is found by it.
    static func inGivenBytes(_ path: [[UInt8]], presented: [[UInt8]], anchors: [[UInt8]]) -> [[UInt8]] {
        // Almost always every certificate is as given: no copy and no search beyond the comparison.
        path.map { der in
            if presented.contains(der) || anchors.contains(der) { return der }
            guard let tbs = tbsCertificate(der) else { return der }
            return presented.first { tbsCertificate($0) == tbs } ?? anchors.first { tbsCertificate($0) == tbs } ?? der
        }
    }

    /// The tbsCertificate element of a certificate's definite-length encoding, or nil.
    static func tbsCertificate(_ der: [UInt8]) -> ArraySlice<UInt8>? {
        func header(at index: Int) -> (content: Int, length: Int)? {
            guard index + 1 < der.count else { return nil }
            let first = Int(der[index + 1])
            if first < 0x80 { return (index + 2, first) }
            let count = first & 0x7f
            guard count > 0, count <= 4, index + 2 + count <= der.count else { return nil }
            let length = der[(index + 2)..<(index + 2 + count)].reduce(0) { $0 << 8 | Int($1) }
            return (index + 2 + count, length)
        }
        guard der.first == 0x30, let outer = header(at: 0), outer.content < der.count, der[outer.content] == 0x30,
              let inner = header(at: outer.content), inner.content + inner.length <= der.count else { return nil }
        return der[outer.content..<(inner.content + inner.length)]
    }

    /// A presented certificate as Botan reads it (BER too: strict DER is the `checks` layer's).
    private static func parsePresented(_ der: [UInt8]) throws(PresentedCertificateError) -> BotanCertificate {
        do {
            return try BotanCertificate(der: der)
        } catch {
            throw .botan(error.reason)
        }
    }

    private func verify(_ chain: [BotanCertificate], crls: [[UInt8]], ocsp: [[UInt8]], host: String?, parameters: inout cbotan_parameters) -> (cbotan_outcome, [[UInt8]]) {
        final class PathSink { var certificates: [[UInt8]] = [] }
        let sink = PathSink()
        var outcome = cbotan_outcome()
        let handles: [OpaquePointer?] = chain.map(\.handle)
        let collect: cbotan_path_sink = { context, der, length in
            guard let context, let der else { return }
            Unmanaged<PathSink>.fromOpaque(context).takeUnretainedValue().certificates.append(Array(UnsafeBufferPointer(start: der, count: length)))
        }
        withCBufferArrays(crls) { crlPointers, crlLengths in
            withCBufferArrays(ocsp) { ocspPointers, ocspLengths in
                withUnsafeMutablePointer(to: &outcome) { outcomePointer in
                    withUnsafePointer(to: &parameters) { parametersPointer in
                        withExtendedLifetime(sink) {
                            let context = Unmanaged.passUnretained(sink).toOpaque()
                            if let host {
                                host.withCString { cbotan_verify(anchors.handle, handles, handles.count, crlPointers, crlLengths, crls.count, ocspPointers, ocspLengths, ocsp.count, $0, parametersPointer, outcomePointer, collect, context) }
                            } else {
                                cbotan_verify(anchors.handle, handles, handles.count, crlPointers, crlLengths, crls.count, ocspPointers, ocspLengths, ocsp.count, nil, parametersPointer, outcomePointer, collect, context)
                            }
                        }
                    }
                }
            }
        }
        return (outcome, sink.certificates)
    }

    private func verdict(_ outcome: cbotan_outcome, path: [[UInt8]], request: EvaluationRequest) -> Verdict {
        switch outcome.trusted {
        case 1:
            return .trusted(path: path)
        case 0:
            let codes = withUnsafeBytes(of: outcome.codes) { Array($0.bindMemory(to: Int32.self)) }
            let depths = withUnsafeBytes(of: outcome.depths) { Array($0.bindMemory(to: Int32.self)) }
            var diagnostics = (0..<Int(outcome.count)).map { BotanStatus.diagnostic(codes[$0], depth: Int(depths[$0])) }
            if diagnostics.isEmpty {
                guard outcome.result >= 1000 else {
                    return .failClosed(.other, code: Int(outcome.result), name: "BOTAN_UNEXPLAINED", message: "Botan did not validate the path but reported no error status (overall \(outcome.result)); not trusted", origin: .library, inferred: true)
                }
                diagnostics.append(BotanStatus.diagnostic(outcome.result, depth: nil))
            }
            return .rejected(diagnostics)
        case Int32(CBOTAN_SEARCH_LIMIT):
            return .failClosed(.other, name: "BOTAN_PATH_SEARCH_LIMIT", message: "Botan's path search (PKIX::build_all_certificate_paths) would visit and check more than \(outcome.result) certificates for this chain (presented certificates sharing subjects multiply the paths it tries); refused before validation, so not trusted", origin: .harness)
        default:
            let message = withUnsafeBytes(of: outcome.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let index = Int(outcome.failed_index)
            if index >= 0 && index < request.revocationLists.count {
                return .failClosed(.malformed, name: "BOTAN_CRL_DECODING_ERROR", message: "Botan could not read CRL \(index) of the request (X509_CRL, \(request.revocationLists[index].count) bytes): \(message); no revocation checking possible, so not trusted", origin: .library)
            }
            let response = Int(outcome.failed_ocsp_index)
            if response >= 0 && response < request.ocspResponses.count {
                return .failClosed(.malformed, name: "BOTAN_OCSP_DECODING_ERROR", message: "Botan could not read OCSP response \(response) of the request (OCSP::Response, \(request.ocspResponses[response].count) bytes): \(message); revocation data that cannot be read is not ignored, so not trusted (Botan's TLS client, tls_client.cpp, drops a stapled response that throws Decoding_Error before validating)", origin: .library)
            }
            return .failClosed(.other, name: "BOTAN_EXCEPTION", message: "Botan's path validation threw: \(message); not trusted", origin: .library)
        }
    }
}

/// Why a presented certificate was not parsed.
enum PresentedCertificateError: Error {
    case botan(String)
}
