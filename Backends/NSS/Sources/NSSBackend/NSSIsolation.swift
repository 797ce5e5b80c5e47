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
/// So every NSS call runs inside ``run(imports:_:)``, which guarantees that NSS's state holds
/// nothing but the request's own certificates: one request at a time is inside NSS, and before each
/// one that imports certificates NSS is shut down and initialised again when anything was imported
/// since (NSS_Shutdown calls PKIX_Shutdown, which empties libpkix's caches, and releases the
/// temporary store). A verdict is therefore the one a fresh process gives. Not even two copies of
/// one request share NSS: libpkix's caches warmed by the first change the verify log of the second
/// (a cached candidate list skips a lookup that logs SEC_ERROR_EXTENSION_NOT_FOUND), so its
/// diagnostics would differ. The cost, a reset (about a millisecond) per evaluation and NSS
/// evaluations one at a time, is measured by `bench` against NSS's bare loop.
final class NSSIsolation: @unchecked Sendable {  // every field is guarded by `condition`
    static let shared = NSSIsolation()

    private let condition = NSCondition()
    /// Requests inside NSS now: at most one that imports certificates, beside any that import none.
    private var inFlight = 0
    private var importing = false
    /// Whether anything was imported since NSS was last initialised.
    private var dirty = false
    private var initialised = false
    /// Why NSS cannot be used (it failed to initialise or to reset): every request fails closed.
    private var broken: String?

    /// Runs `body` with NSS initialised and, when `imports` (body imports certificates), alone in
    /// NSS and after a reset if anything was imported before; or returns why NSS cannot be used.
    func run<T>(imports: Bool, _ body: () -> T) -> Result<T, NSSUnavailable> {
        condition.lock()
        while true {
            if let broken {
                condition.unlock()
                return .failure(NSSUnavailable(message: broken))
            }
            if !imports && initialised {
                // Decoding an anchor touches no store: it may run beside anything but a reset,
                // which waits for it.
                break
            }
            if inFlight == 0 {
                if !initialised || dirty {
                    let error = initialised ? cnss_reset() : cnss_initialize()
                    guard error == 0 else {
                        broken = "NSS could not be \(initialised ? "reset" : "initialised") (\(NSSError(code: error))), so no NSS verification can be isolated from the others"
                        continue
                    }
                    initialised = true
                    dirty = false
                }
                if imports {
                    importing = true
                    dirty = true
                }
                break
            }
            condition.wait()
        }
        inFlight += 1
        condition.unlock()
        defer {
            condition.lock()
            inFlight -= 1
            if imports { importing = false }
            condition.broadcast()
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
