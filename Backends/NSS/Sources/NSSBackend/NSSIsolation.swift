import Foundation
internal import CNSSBridge

/// NSS keeps its certificates in one process-wide store and libpkix caches in process-wide tables:
/// every certificate imported as a temporary certificate is a path-building candidate for every
/// other verification while it lives (CERT_CreateSubjectCertList through libpkix's PK11 cert store,
/// lib/libpkix/pkix_pl_nss/module/pkix_pl_pk11certstore.c), a certificate with the issuer and serial
/// of a live one cannot be imported (SEC_ERROR_REUSED_ISSUER_AND_SERIAL, CERT_NewTempCertificate in
/// lib/certdb/stanpcertdb.c, and between its lookup and nssCertificateStore_FindOrAdd another
/// thread's certificate can be returned in its place), and libpkix reuses a chain it built for the
/// same leaf and anchors (pkix_Build_CheckInCache, lib/libpkix/pkix/top/pkix_build.c) even when the
/// request presents other intermediates. Left alone, a verdict would depend on which requests ran
/// before and beside it.
///
/// So every NSS call runs inside ``run(certificates:_:)``, which guarantees that NSS's state holds
/// no certificate but the request's own: requests run side by side only when they import exactly
/// the same certificates (the same request on many tasks), and before a request whose certificates
/// do not include everything imported since the last reset, NSS is shut down and initialised again
/// (NSS_Shutdown calls PKIX_Shutdown, which empties libpkix's caches, and releases the temporary
/// store). A verdict is therefore the one a fresh process would give. The cost is that different
/// requests are serialised in NSS; the harness's other back ends are not affected.
final class NSSIsolation: @unchecked Sendable {  // every field is guarded by `condition`
    static let shared = NSSIsolation()

    private let condition = NSCondition()
    /// Requests inside NSS now, all with `running` as their certificates.
    private var inFlight = 0
    private var running: Set<[UInt8]> = []
    /// Requests that joined the current batch: capped, so that a waiting request is not starved.
    private var joined = 0
    /// Every certificate imported since NSS was last initialised.
    private var seen: Set<[UInt8]> = []
    private var initialised = false
    /// Why NSS cannot be used (it failed to initialise or to reset): every request fails closed.
    private var broken: String?

    private static let maximumJoined = 64

    /// Runs `body` with NSS initialised and holding no certificate but `certificates` (imported by
    /// `body` itself), or returns the reason NSS cannot be used.
    func run<T>(certificates: Set<[UInt8]>, _ body: () -> T) -> Result<T, NSSUnavailable> {
        condition.lock()
        while true {
            if let broken {
                condition.unlock()
                return .failure(NSSUnavailable(message: broken))
            }
            if inFlight == 0 {
                if !initialised || (!certificates.isEmpty && !seen.isSubset(of: certificates)) {
                    let error = initialised ? cnss_reset() : cnss_initialize()
                    guard error == 0 else {
                        broken = "NSS could not be \(initialised ? "reset" : "initialised") (\(NSSError(code: error))), so no NSS verification can be isolated from the others"
                        continue
                    }
                    initialised = true
                    seen = []
                }
                running = certificates
                joined = 0
                break
            }
            // A request importing nothing (decoding anchors) cannot disturb a batch.
            if certificates.isEmpty || (running == certificates && joined < Self.maximumJoined) {
                joined += 1
                break
            }
            condition.wait()
        }
        inFlight += 1
        seen.formUnion(certificates)
        condition.unlock()
        defer {
            condition.lock()
            inFlight -= 1
            if inFlight == 0 { condition.broadcast() }
            condition.unlock()
        }
        return .success(body())
    }
}

/// NSS could not be initialised or reset.
struct NSSUnavailable: Error {
    let message: String
}

/// An NSPR/NSS error code with its name and text.
struct NSSError: CustomStringConvertible {
    let code: Int32

    var name: String { cnss_error_name(code).map { String(cString: $0) } ?? "NSS_ERROR_\(code)" }
    var text: String { cnss_error_text(code).map { String(cString: $0) } ?? "NSS error \(code)" }
    var description: String { "\(name): \(text)" }
}
