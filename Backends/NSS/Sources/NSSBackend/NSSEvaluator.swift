import Foundation
import TrustBackendKit
internal import CNSSBridge

/// Evaluates requests against one set of anchors with NSS (see ``NSSBackend``). Holds only DER:
/// NSS runs in worker processes (``NSSWorkers``).
struct NSSEvaluator: TrustEvaluator {
    let backend: String
    let anchors: [[UInt8]]
    let features: Set<BackendFeature>
    let checksHostName: Bool

    func evaluate(_ request: EvaluationRequest) -> Verdict {
        // The guard has refused requests no library can be asked and features this back end does
        // not honour; the bytes and the host are the library's to read.
        for (index, der) in request.chain.enumerated() {
            if der.count > NSSBackend.maximumCertificateBytes {
                return .failClosed(.other, name: "NSS_RESOURCE_LIMIT", message: "presented certificate \(index) is \(der.count) bytes; NSS's libpkix exhausts memory on large name sets (a 279 KB leaf with 10,000 subjectAltNames takes more than 3 GB in CERT_PKIXVerifyCert), so certificates over \(NSSBackend.maximumCertificateBytes) bytes are refused before NSS reads them", depth: index, origin: .harness)
            }
        }
        // PRTime 0 means "now" to cert_pi_date (cert_pkixSetParam, lib/certhigh/certvfypkix.c).
        let microseconds = request.unixTime.multipliedReportingOverflow(by: 1_000_000)
        guard !microseconds.overflow, microseconds.partialValue != 0 else {
            return .failClosed(.other, name: "UNSUPPORTED_TIME", message: "NSS reads the validation time 1970-01-01T00:00:00Z as \"now\" (cert_pi_date 0), so it cannot be asked at that instant; not evaluated, so not trusted", origin: .harness)
        }
        let host: String? = checksHostName ? request.host?.description : nil
        if host != nil, let variable = Self.shellExpressionNames {
            return .failClosed(.other, name: "UNSUPPORTED_HOST_CHECK", message: "\(variable) is set in this process's environment, which makes NSS match certificate names as shell expressions (cert_TestHostName, lib/certdb/certdb.c) instead of RFC 6125 names; the host check would not be NSS's default one, so nothing with a host is evaluated", origin: .harness)
        }
        guard var names = NSSWorkers.names(anchors: anchors, chain: request.chain) else {
            return .failClosed(.malformed, name: "NAMES_UNREADABLE", message: "a certificate's issuer and subject cannot be read, and NSS's process-wide certificate database is shared by name (NSSWorkers), so the request cannot be put to NSS safely; not evaluated", origin: .harness)
        }
        let revocationLists = request.revocationLists
        let crlNames = NSSWorkers.names(revocationLists: revocationLists)
        names += crlNames.names
        let revocation = Self.revocationPolicy(request)
        let anyPurpose = request.purpose == .anyPurpose
        let key = NSSWorkers.RequestKey(anchors: anchors, chain: request.chain, time: microseconds.partialValue, anyPurpose: anyPurpose, revocationLists: revocationLists, revocation: revocation)
        let outcome = NSSWorkers.shared.run(names: names, key: key) { worker -> Result<(Verdict, validated: Bool), NSSUnavailable> in
            // A CRL whose issuer could not be read here may have left NSS a CRL cache under a name
            // no record holds: the worker is reset before its next request.
            if crlNames.unread { worker.enterUnrecorded() }
            return worker.verify(anchors: anchors, chain: request.chain, revocationLists: revocationLists, revocation: revocation, host: host, time: microseconds.partialValue, anyPurpose: anyPurpose).map { result, path, errors in
                (verdict(result, path: path, errors: errors), result.trusted == 1 || result.step == 3)
            }
        }
        switch outcome {
        case .failure(let unavailable):
            return .failClosed(.other, name: unavailable.workerEnded ? "NSS_WORKER_ENDED" : "NSS_UNAVAILABLE", message: unavailable.message, origin: .harness)
        case .success(let verdict):
            return verdict
        }
    }

    /// The revocation policy NSS is asked for (`CNSS_REVOCATION_*`, cnss_bridge.h): hard-fail when
    /// asked (NSS's NIST policy, CERT_GetPKIXVerifyNistRevocationPolicy, without the network); with
    /// CRLs or soft-fail asked, NSS's classic policy (CERT_GetClassicOCSPDisabledPolicy), under which
    /// a certificate no CRL covers passes; otherwise none.
    static func revocationPolicy(_ request: EvaluationRequest) -> Int32 {
        switch request.revocationMode {
        case .hardFail?: return Int32(CNSS_REVOCATION_HARD)
        case .softFail?: return Int32(CNSS_REVOCATION_SOFT)
        case nil: return request.revocationLists.isEmpty ? Int32(CNSS_REVOCATION_NONE) : Int32(CNSS_REVOCATION_SOFT)
        }
    }

    /// NSS reads `NSS_USE_SHEXP_IN_CERT_NAME` once per process and then matches host names as shell
    /// expressions: the variable's name when it is set (the worker processes inherit it).
    private static let shellExpressionNames: String? = ProcessInfo.processInfo.environment["NSS_USE_SHEXP_IN_CERT_NAME"] == nil ? nil : "NSS_USE_SHEXP_IN_CERT_NAME"

    private func verdict(_ outcome: cnss_outcome, path: [[UInt8]], errors: ErrorNames) -> Verdict {
        if outcome.trusted == 1 {
            return .trusted(path: path)
        }
        switch outcome.step {
        case 1:
            let index = Int(outcome.failed_index)
            let which = index < anchors.count ? "anchor \(index)" : "presented certificate \(index - anchors.count)"
            let error = errors.error(outcome.error)
            return .rejected([NativeDiagnostic(code: Int(outcome.error), name: error.name, message: "NSS could not import \(which) (CERT_NewTempCertificate): \(error.text)", depth: index < anchors.count ? nil : index - anchors.count, failure: Self.failure(outcome.error, validity: 0, importing: true))])
        case 2:
            var diagnostics: [NativeDiagnostic] = []
            var seen = Set<[Int32]>()
            let codes = withUnsafeBytes(of: outcome.log_errors) { Array($0.bindMemory(to: Int32.self)) }
            let depths = withUnsafeBytes(of: outcome.log_depths) { Array($0.bindMemory(to: Int32.self)) }
            let validity = withUnsafeBytes(of: outcome.log_validity) { Array($0.bindMemory(to: Int32.self)) }
            for i in 0..<Int(outcome.log_count) where seen.insert([codes[i], depths[i]]).inserted {
                diagnostics.append(Self.diagnostic(codes[i], depth: Int(depths[i]), validity: validity[i], errors: errors))
            }
            // libpkix's own error is its summary of every failed candidate path (often
            // SEC_ERROR_UNKNOWN_ISSUER: "no path"); the verify log names what failed on each
            // certificate, so the log is the answer when there is one.
            if diagnostics.isEmpty {
                diagnostics.append(Self.diagnostic(outcome.error, depth: nil, validity: outcome.leaf_validity, errors: errors))
            }
            return .rejected(diagnostics)
        case 3:
            let error = errors.error(outcome.error)
            return .rejected([NativeDiagnostic(code: Int(outcome.error), name: error.name, message: "CERT_VerifyCertName: \(error.text)", depth: 0, failure: Self.failure(outcome.error, validity: 0))])
        case 5:
            // NSS would not take a CRL of the request (CERT_CacheCRL decodes it first): fail closed
            // with NSS's reason rather than verify without it.
            let error = errors.error(outcome.error)
            let failure = Self.failure(outcome.error, validity: 0)
            return .rejected([NativeDiagnostic(code: Int(outcome.error), name: error.name, message: "NSS would not take revocation list \(outcome.failed_index) (CERT_CacheCRL): \(error.text)", depth: nil, failure: failure == .other ? .malformed : failure)])
        default:
            let error = errors.error(outcome.error)
            return .failClosed(.other, code: Int(outcome.error), name: "NSS_INTERNAL", message: "NSS failed before verifying: \(error)", origin: .harness)
        }
    }

    private static func diagnostic(_ code: Int32, depth: Int?, validity: Int32, errors: ErrorNames) -> NativeDiagnostic {
        let error = errors.error(code)
        var message = error.text
        if validity == 2 { message += " (CERT_CheckCertValidTimes: not yet valid at the validation time)" }
        if validity == 1 { message += " (CERT_CheckCertValidTimes: expired at the validation time)" }
        return NativeDiagnostic(code: Int(code), name: error.name, message: message, depth: depth, failure: failure(code, validity: validity, depth: depth))
    }

    /// NSS reports a certificate before its notBefore with the expired errors; NSS's own
    /// CERT_CheckCertValidTimes tells the two apart.
    private static func failure(_ code: Int32, validity: Int32, depth: Int? = nil, importing: Bool = false) -> FailureClass {
        switch cnss_error_class(code) {
        case 1: return validity == 2 ? .notYetValid : .expired
        case 2: return .untrusted
        case 3: return .notCA
        case 4: return .pathLengthExceeded
        case 5: return .badSignature
        // Key usage of an issuer (no keyCertSign) is not a purpose of the request: an issuer that may
        // not sign certificates is the taxonomy's "other"; at the leaf it is the purpose.
        case 6: return (depth ?? 0) > 0 ? .other : .purposeMismatch
        case 7: return .revoked
        case 8: return .malformed
        case 9: return .hostnameMismatch
        default: return importing ? .malformed : .other
        }
    }
}
