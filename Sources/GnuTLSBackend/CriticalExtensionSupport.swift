internal import CGnuTLS
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which critical extensions the linked GnuTLS itself accepts in a certificate it verifies, found by
/// asking that GnuTLS rather than by keeping a list of our own.
///
/// GnuTLS checks critical extensions against a private table (`supported_exts.gperf`, behind
/// `is_ext_oid_supported` in lib/x509/verify.c) that no public function exposes, and which changes
/// between releases: 3.7 lacks policyMappings and policyConstraints, for one. A list copied into the
/// back end drifts from it silently, and then a pinned leaf, which GnuTLS never verifies itself, is
/// trusted with an extension GnuTLS would reject on any other path. So for each OID the answer is a
/// probe: GnuTLS mints a self-signed certificate carrying only that extension, critical, and verifies
/// it against itself; the OID is supported exactly when GnuTLS does not report
/// `GNUTLS_CERT_UNKNOWN_CRIT_EXTENSIONS`. Answers are kept for the process (GnuTLS's table is fixed
/// for a linked library), so each OID costs one probe; evaluators ask once per anchor, when made. A probe that
/// cannot be made answers "not supported": fail closed.
enum CriticalExtensionSupport {
    private static let answers = Mutex<[String: Bool]>([:])

    /// Whether GnuTLS verifies a certificate carrying extension `oid` (dotted text) marked critical.
    static func isSupported(_ oid: String) -> Bool {
        // Probes run under the lock: they are few, and one key then never signs on two threads at once.
        answers.withLock { answers in
            if let known = answers[oid] { return known }
            let answer = probe(oid)
            answers[oid] = answer
            return answer
        }
    }

    /// Whether `handle` carries a critical extension this GnuTLS does not support; an extension list
    /// GnuTLS cannot read counts as one, as in GnuTLS's own `check_for_unknown_exts`.
    static func hasUnsupportedCriticalExtension(_ handle: gnutls_x509_crt_t) -> Bool {
        var index: UInt32 = 0
        // A certificate of at most 1 MiB cannot hold more extensions than this.
        while index < 65_536 {
            var oid = [CChar](repeating: 0, count: 256)
            var size = oid.count
            var critical: UInt32 = 0
            let result = gnutls_x509_crt_get_extension_info(handle, index, &oid, &size, &critical)
            if result == GNUTLS_E_REQUESTED_DATA_NOT_AVAILABLE { return false }
            guard result >= 0 else { return true }
            if critical != 0 {
                let text = String(decoding: oid.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if !isSupported(text) { return true }
            }
            index += 1
        }
        return true
    }

    /// One probe: nil-safe all the way, `false` on any GnuTLS error.
    private static func probe(_ oid: String) -> Bool {
        guard let key = probeKey else { return false }
        var created: gnutls_x509_crt_t?
        guard gnutls_x509_crt_init(&created) == GNUTLS_E_SUCCESS, let certificate = created else { return false }
        defer { gnutls_x509_crt_deinit(certificate) }
        var serial: [UInt8] = [0x01]
        // The value is a DER NULL: GnuTLS's check looks only at the OID and the critical flag.
        var value: [UInt8] = [0x05, 0x00]
        var error: UnsafePointer<CChar>?
        let made = gnutls_x509_crt_set_version(certificate, 3) >= 0
            && gnutls_x509_crt_set_serial(certificate, &serial, serial.count) >= 0
            && gnutls_x509_crt_set_dn(certificate, "CN=TrustHarness extension probe", &error) >= 0
            && gnutls_x509_crt_set_issuer_dn(certificate, "CN=TrustHarness extension probe", &error) >= 0
            && gnutls_x509_crt_set_key(certificate, key.handle) >= 0
            && gnutls_x509_crt_set_activation_time(certificate, 0) >= 0
            && gnutls_x509_crt_set_expiration_time(certificate, 0) >= 0
            && gnutls_x509_crt_set_extension_by_oid(certificate, oid, &value, value.count, 1) >= 0
            && gnutls_x509_crt_sign2(certificate, certificate, key.handle, GNUTLS_DIG_UNKNOWN, 0) >= 0
        guard made else { return false }
        var status: UInt32 = 0
        // DO_NOT_ALLOW_SAME: verify the certificate against itself as issuer, so that GnuTLS runs its
        // extension check on both roles instead of accepting the trusted copy as is.
        let flags = GNUTLS_VERIFY_DO_NOT_ALLOW_SAME.rawValue | GNUTLS_VERIFY_DISABLE_TIME_CHECKS.rawValue
            | GNUTLS_VERIFY_DISABLE_TRUSTED_TIME_CHECKS.rawValue
        var issuers: [gnutls_x509_crt_t?] = [certificate]
        guard gnutls_x509_crt_verify(certificate, &issuers, 1, flags, &status) >= 0 else { return false }
        return status & GNUTLS_CERT_UNKNOWN_CRIT_EXTENSIONS.rawValue == 0
    }

    /// The probes' signing key, made once (Ed25519: fast, and any key type will do).
    private static let probeKey: ProbeKey? = ProbeKey()

    private final class ProbeKey: @unchecked Sendable {
        // @unchecked Sendable: never changed after init, and used only by probes, under the answers' lock.
        let handle: gnutls_x509_privkey_t

        init?() {
            var created: gnutls_x509_privkey_t?
            guard gnutls_x509_privkey_init(&created) == GNUTLS_E_SUCCESS, let created else { return nil }
            guard gnutls_x509_privkey_generate(created, GNUTLS_PK_EDDSA_ED25519, 256, 0) >= 0 else {
                gnutls_x509_privkey_deinit(created)
                return nil
            }
            handle = created
        }

        deinit {
            gnutls_x509_privkey_deinit(handle)
        }
    }
}
