import Foundation
import TrustHarness
internal import CBotanBridge

/// Botan called as the back end calls it, in C++ (`cbotan_loop`): x509_path_validate with the TLS
/// client's restrictions, parsing every certificate each time when cold, once when warm.
struct BotanBaselineLoop: BaselineLoop {
    var label: String { "botan-c++" }

    func run(chain: [[UInt8]], anchors: [[UInt8]], host: String?, unixTime: Int64, cold: Bool, iterations: UInt64) -> UInt64? {
        let strength = BotanBackend.Settings.tlsClient.minimumStrength
        let nanoseconds = withPointers(anchors) { anchorPointers, anchorLengths in
            withPointers(chain) { chainPointers, chainLengths in
                if let host {
                    return host.withCString { cbotan_loop(anchorPointers, anchorLengths, anchors.count, chainPointers, chainLengths, chain.count, $0, unixTime, strength, cold ? 1 : 0, iterations) }
                }
                return cbotan_loop(anchorPointers, anchorLengths, anchors.count, chainPointers, chainLengths, chain.count, nil, unixTime, strength, cold ? 1 : 0, iterations)
            }
        }
        return nanoseconds == 0 ? nil : nanoseconds
    }
}
