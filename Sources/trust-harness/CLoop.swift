import CBaselines
import Foundation
import GnuTLSBackend
import TrustHarness

/// The raw C loops of `CBaselines` (the libraries called as the back ends call them, with nothing
/// around them) as the `bench` subcommand's baselines.
struct CLoop: BaselineLoop {
    enum Kind { case openssl, gnutls, opensslSignatures }

    let kind: Kind

    static let openssl = CLoop(kind: .openssl)
    static let gnutls = CLoop(kind: .gnutls)
    /// OpenSSL verifying the chain's signatures alone: the floor of any verifier.
    static let opensslSignatures = CLoop(kind: .opensslSignatures)

    var label: String {
        switch kind {
        case .openssl: return "openssl-c"
        case .gnutls: return "gnutls-c"
        case .opensslSignatures: return "signatures"
        }
    }

    func run(chain: [[UInt8]], anchors: [[UInt8]], host: String?, unixTime: Int64, cold: Bool, iterations: UInt64) -> UInt64? {
        var elapsed: UInt64 = 0
        let result: Int32 = Self.withInput(chain: chain, anchors: anchors, host: host, unixTime: unixTime) { input in
            withUnsafePointer(to: input) { pointer in
                switch kind {
                case .openssl:
                    return th_openssl_baseline_run(pointer, cold ? 1 : 0, iterations, &elapsed)
                case .gnutls:
                    // GnuTLS reads the time through the process-wide hook the back end installs.
                    return GnuTLSBackend.withValidationTime(unixTime) {
                        th_gnutls_baseline_run(pointer, cold ? 1 : 0, iterations, &elapsed)
                    }
                case .opensslSignatures:
                    return th_openssl_signatures_run(pointer, iterations, &elapsed)
                }
            }
        }
        return result == 1 ? elapsed : nil
    }

    /// Lends the DER as the C loops' input structure for the duration of `body`.
    static func withInput<R>(chain: [[UInt8]], anchors: [[UInt8]], host: String?, unixTime: Int64, _ body: (th_baseline_input) -> R) -> R {
        let chainData = chain.map { Data($0) as NSData }
        let anchorData = anchors.map { Data($0) as NSData }
        let chainPointers: [UnsafePointer<UInt8>?] = chainData.map { $0.bytes.assumingMemoryBound(to: UInt8.self) }
        let anchorPointers: [UnsafePointer<UInt8>?] = anchorData.map { $0.bytes.assumingMemoryBound(to: UInt8.self) }
        let chainLengths = chainData.map(\.length)
        let anchorLengths = anchorData.map(\.length)
        return withExtendedLifetime((chainData, anchorData)) {
            chainPointers.withUnsafeBufferPointer { cp in
                anchorPointers.withUnsafeBufferPointer { ap in
                    chainLengths.withUnsafeBufferPointer { cl in
                        anchorLengths.withUnsafeBufferPointer { al in
                            (host ?? "").withCString { cHost in
                                body(th_baseline_input(
                                    chain: cp.baseAddress, chain_lengths: cl.baseAddress, chain_count: cp.count,
                                    anchors: ap.baseAddress, anchor_lengths: al.baseAddress, anchor_count: ap.count,
                                    host: host == nil ? nil : cHost, unix_time: unixTime
                                ))
                            }
                        }
                    }
                }
            }
        }
    }
}
