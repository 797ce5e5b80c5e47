import Foundation
import TrustCore
import TrustDER
internal import CBotanBridge

/// Evaluates requests against one set of anchors with Botan (see ``BotanBackend``).
struct BotanEvaluator: TrustEvaluator {
    let backend: String
    let anchors: [[UInt8]]
    let features: Set<BackendFeature>
    let settings: BotanBackend.Settings

    func evaluate(_ request: EvaluationRequest) -> Verdict {
        if let rejection = request.inputRejection ?? request.rejection(unlessHonouredBy: features, backend: backend) {
            return rejection
        }
        for (index, der) in request.chain.enumerated() {
            if let problem = DERCertificate.encodingProblem(der) {
                return .failClosed(.malformed, name: "NOT_DER", message: "presented certificate \(index) is not DER (\(problem)); refused before Botan reads it", depth: index)
            }
        }
        let host = request.host?.description
        let (outcome, path) = Self.verify(anchors: anchors, chain: request.chain, host: host, seconds: request.unixTime, settings: settings, purpose: request.purpose)
        switch outcome.trusted {
        case 1:
            return .trusted(path: path)
        case 0:
            var diagnostics: [NativeDiagnostic] = []
            let codes = withUnsafeBytes(of: outcome.codes) { Array($0.bindMemory(to: Int32.self)) }
            let depths = withUnsafeBytes(of: outcome.depths) { Array($0.bindMemory(to: Int32.self)) }
            for i in 0..<Int(outcome.count) {
                diagnostics.append(Self.diagnostic(codes[i], depth: Int(depths[i])))
            }
            if diagnostics.isEmpty {
                diagnostics.append(Self.diagnostic(outcome.result, depth: nil))
            }
            return .rejected(diagnostics)
        default:
            let message = withUnsafeBytes(of: outcome.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let index = Int(outcome.failed_index)
            if index >= 0 {
                let which = index < anchors.count ? "anchor \(index)" : "presented certificate \(index - anchors.count)"
                return .failClosed(.malformed, name: "BOTAN_DECODING_ERROR", message: "Botan could not read \(which): \(message)", depth: index < anchors.count ? nil : index - anchors.count)
            }
            return .failClosed(.other, name: "BOTAN_EXCEPTION", message: "Botan's path validation threw: \(message)")
        }
    }

    private static func verify(anchors: [[UInt8]], chain: [[UInt8]], host: String?, seconds: Int64, settings: BotanBackend.Settings, purpose: TrustPurpose) -> (cbotan_outcome, [[UInt8]]) {
        final class PathSink { var certificates: [[UInt8]] = [] }
        let sink = PathSink()
        var outcome = cbotan_outcome()
        let usage: Int32 = purpose == .serverAuthentication && settings.requiresServerUsage ? 1 : 0
        withPointers(anchors) { anchorPointers, anchorLengths in
            withPointers(chain) { chainPointers, chainLengths in
                withUnsafeMutablePointer(to: &outcome) { outcomePointer in
                    let context = Unmanaged.passUnretained(sink).toOpaque()
                    let collect: cbotan_path_sink = { context, der, length in
                        guard let context, let der else { return }
                        Unmanaged<PathSink>.fromOpaque(context).takeUnretainedValue().certificates.append(Array(UnsafeBufferPointer(start: der, count: length)))
                    }
                    if let host {
                        host.withCString { cbotan_verify(anchorPointers, anchorLengths, anchors.count, chainPointers, chainLengths, chain.count, $0, seconds, settings.minimumStrength, usage, outcomePointer, collect, context) }
                    } else {
                        cbotan_verify(anchorPointers, anchorLengths, anchors.count, chainPointers, chainLengths, chain.count, nil, seconds, settings.minimumStrength, usage, outcomePointer, collect, context)
                    }
                }
            }
        }
        withExtendedLifetime(sink) {}
        return (outcome, sink.certificates)
    }

    private static func diagnostic(_ code: Int32, depth: Int?) -> NativeDiagnostic {
        let text = cbotan_status_text(code).map { String(cString: $0) } ?? "Botan status \(code)"
        return NativeDiagnostic(code: Int(code), name: "BOTAN_\(code)", message: text, depth: depth, failure: failure(code, depth: depth))
    }

    /// Botan's `Certificate_Status_Code` (src/lib/x509/pkix_enums.h) in the taxonomy.
    private static func failure(_ code: Int32, depth: Int?) -> FailureClass {
        switch code {
        case 2000: return .notYetValid                                   // CERT_NOT_YET_VALID
        case 2001: return .expired                                       // CERT_HAS_EXPIRED
        case 3000, 3001, 3002, 3003, 3004: return .untrusted             // issuer not found, no trust, loop, no root, name mismatch
        case 4001: return (depth ?? 0) > 0 ? .other : .purposeMismatch   // INVALID_USAGE
        case 4002: return .pathLengthExceeded                            // CERT_CHAIN_TOO_LONG
        case 4003: return .notCA                                         // CA_CERT_NOT_FOR_CERT_ISSUER
        case 4008: return .hostnameMismatch                              // CERT_NAME_NOMATCH
        case 5000: return .revoked                                       // CERT_IS_REVOKED
        case 5002: return .badSignature                                  // SIGNATURE_ERROR
        case 1000, 1001, 5004, 5005: return .badSignature                // weak or unknown signature algorithm, bad parameters
        case 5003: return .malformed                                     // CERT_PUBKEY_INVALID
        default: return .other
        }
    }
}

/// Calls `body` with C arrays of pointers to and lengths of `buffers`.
func withPointers<R>(_ buffers: [[UInt8]], _ body: (UnsafePointer<UnsafePointer<UInt8>?>?, UnsafePointer<Int>?) -> R) -> R {
    var pointers: [UnsafePointer<UInt8>?] = []
    pointers.reserveCapacity(buffers.count)
    var lengths: [Int] = []
    lengths.reserveCapacity(buffers.count)
    func nest(_ index: Int) -> R {
        if index == buffers.count {
            return pointers.withUnsafeBufferPointer { p in lengths.withUnsafeBufferPointer { l in body(p.baseAddress, l.baseAddress) } }
        }
        return buffers[index].withUnsafeBufferPointer { buffer in
            pointers.append(buffer.baseAddress)
            lengths.append(buffer.count)
            return nest(index + 1)
        }
    }
    return nest(0)
}
