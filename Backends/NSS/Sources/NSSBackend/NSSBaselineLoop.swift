import Foundation
import TrustBackendKit
internal import CNSSBridge

/// NSS called as the back end calls it, in C (`cnss_loop`): import the anchors and the chain as
/// temporary certificates, CERT_PKIXVerifyCert, CERT_VerifyCertName, release. NSS keeps nothing
/// parsed between verifications, so cold and warm loops are the same loop. It runs in a worker process
/// like the back end, in a fresh NSS (``NSSWorkers/runAlone(_:)``), timed inside the worker and
/// without a reset between iterations: the cost of an application's own calls.
struct NSSBaselineLoop: BaselineLoop {
    var label: String { "nss-c" }

    /// An IP host arrives as text, checked as the back end checks the same text.
    var takesIPAddressText: Bool { true }

    func run(chain: [[UInt8]], anchors: [[UInt8]], host: String?, unixTime: Int64, cold: Bool, iterations: UInt64) -> UInt64? {
        let time = unixTime.multipliedReportingOverflow(by: 1_000_000)
        guard !time.overflow, time.partialValue != 0, !chain.isEmpty else { return nil }
        let outcome = NSSWorkers.shared.runAlone { worker in
            worker.loop(anchors: anchors, chain: chain, host: host, time: time.partialValue, iterations: iterations)
        }
        guard case .success(let nanoseconds) = outcome, nanoseconds != 0 else { return nil }
        return nanoseconds
    }
}
