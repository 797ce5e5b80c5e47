import Foundation
import TrustBackendKit
internal import CNSSBridge

/// NSS called as the back end calls it, in C (`cnss_loop`): import the anchors and the chain as
/// temporary certificates, CERT_PKIXVerifyCert, CERT_VerifyCertName, release. NSS keeps nothing
/// parsed between verifications, so cold and warm loops are the same loop, without a reset between
/// iterations: the cost of an application's own calls.
///
/// It runs where the back end ran the same request: in the program's own NSS when that NSS admits
/// the request without a reset (``NSSWorkers/runAtHome(names:key:resetting:_:)``: `bench` asks every
/// back end its scenario before measuring, so the loop meets the NSS, caches included, that the back
/// end met, in the same process, and callgrind counts both), else in a fresh NSS in a worker process
/// (``NSSWorkers/runAlone(_:)``), timed inside the worker. (Until issue 47 it always ran in a worker,
/// where `bench --instructions` cannot count it, and the two figures came from two processes.)
struct NSSBaselineLoop: BaselineLoop {
    var label: String { "nss-c" }

    /// An IP host arrives as text, checked as the back end checks the same text.
    var takesIPAddressText: Bool { true }

    func run(chain: [[UInt8]], anchors: [[UInt8]], host: String?, unixTime: Int64, cold: Bool, iterations: UInt64) -> UInt64? {
        let time = unixTime.multipliedReportingOverflow(by: 1_000_000)
        guard !time.overflow, time.partialValue != 0, !chain.isEmpty else { return nil }
        if let names = NSSWorkers.names(anchors: anchors, chain: chain) {
            // The back end's key for the same request (the loop asks for the server purpose, as it does).
            let key = NSSWorkers.RequestKey(anchors: anchors, chain: chain, time: time.partialValue, anyPurpose: false)
            let home = NSSWorkers.shared.runAtHome(names: names, key: key, resetting: false) { _ -> Result<(UInt64, validated: Bool), NSSUnavailable> in
                let nanoseconds = withCBufferArrays(anchors) { anchorPointers, anchorLengths in
                    withCBufferArrays(chain) { chainPointers, chainLengths in
                        withOptionalCString(host) { hostPointer in
                            cnss_loop(anchorPointers, anchorLengths, anchors.count, chainPointers, chainLengths, chain.count, hostPointer, time.partialValue, iterations)
                        }
                    }
                }
                return .success((nanoseconds, validated: nanoseconds != 0))
            }
            if let home {
                guard case .success(let nanoseconds) = home, nanoseconds != 0 else { return nil }
                return nanoseconds
            }
        }
        let outcome = NSSWorkers.shared.runAlone { worker in
            worker.loop(anchors: anchors, chain: chain, host: host, time: time.partialValue, iterations: iterations)
        }
        guard case .success(let nanoseconds) = outcome, nanoseconds != 0 else { return nil }
        return nanoseconds
    }
}
