import TrustBackendKit

extension BotanBackend {
    /// How the back end asks Botan: the arguments of `x509_path_validate` and
    /// `Path_Validation_Restrictions` (src/lib/x509/x509path.h) a user of Botan would choose.
    ///
    /// ``tlsClient`` is what Botan's TLS client asks with the default `TLS::Policy`
    /// (`TLS::Callbacks::tls_verify_cert_chain`, src/lib/tls/tls_callbacks.cpp), with one exception:
    /// the policy's `require_cert_revocation_info()` is true, which without a stapled OCSP response
    /// or a CRL rejects every chain (`NO_REVOCATION_DATA` at the leaf, `PKIX::merge_revocation_status`).
    /// So a request without revocation inputs or a mode is asked with `require_rev` false; see
    /// ``Revocation`` for the rest.
    public struct Settings: Sendable, Hashable {
        /// The back end's name in reports and on the command line (`--backend NAME`).
        public var name: String
        /// `Path_Validation_Restrictions`' `minimum_key_strength`: the least `estimated_strength()`
        /// (bits of security, not key size) of each issuer's key, and at 80 or less SHA-1 signatures
        /// are trusted too (the restrictions' trusted hashes). Botan's `TLS::Policy::
        /// minimum_signature_strength()` is 110: RSA and DSA keys of 2048 bits or more (an RSA-2048
        /// key estimates 111, RSA-1024 80), any of Botan's elliptic curves from P-224 up, and SHA-2 signatures.
        public var minimumStrength: Int
        /// The usage the leaf must allow.
        public var usage: Usage
        /// The most work Botan's path search may take for one request, in certificates visited
        /// plus certificates of the candidate paths it would check; a chain over it is rejected
        /// (`BOTAN_PATH_SEARCH_LIMIT`, class `other`) before Botan runs; 0: no limit. Not Botan's:
        /// `PKIX::build_all_certificate_paths` (src/lib/x509/x509path.cpp) enumerates every path
        /// to every trusted root, keeps them all and checks each, which grows exponentially with
        /// presented certificates that share a subject. Real chains take a few units; 4,096 leaves
        /// every vector and x509-limbo's longest chains (101 certificates) to Botan.
        public var pathSearchLimit: Int

        /// Which revocation inputs and modes reach Botan, as the API these settings stand for takes them.
        public var revocation: Revocation

        /// How revocation is asked of Botan: the C++ path validation of its TLS client, or its C
        /// interface.
        public enum Revocation: String, Sendable, Hashable {
            /// `x509_path_validate` as Botan's TLS client calls it (src/lib/x509/x509path.cpp): the
            /// request's CRLs in a `Certificate_Store_In_Memory` beside the anchors (searched by
            /// `PKIX::check_crl` with `find_crl_for`: issuer name, and authority key identifier when
            /// both have one; `add_crl` keeps one CRL per issuer name, the latest `thisUpdate`), its
            /// OCSP responses as `ocsp_resp` (`PKIX::check_ocsp` takes them by position, response
            /// `i` for certificate `i` of the path, as the client passes its one stapled response
            /// for the leaf), both judged at the request's time. Modes through
            /// `Path_Validation_Restrictions(require_rev, minimum_key_strength, ocsp_all_intermediates)`:
            /// ``TrustCore/RevocationMode/hardFail`` sets both flags (`PKIX::merge_revocation_status`
            /// then requires a checked CRL or a good OCSP response of the leaf and of every
            /// intermediate, else `NO_REVOCATION_DATA`), ``TrustCore/RevocationMode/softFail`` neither
            /// (a certificate without data passes; data that is there is still judged, so an
            /// expired CRL or a response for another certificate fails). No mode, with revocation
            /// inputs: the TLS client's own restrictions, `require_rev` from
            /// `TLS::Policy::require_cert_revocation_info()` (true) and `ocsp_all_intermediates`
            /// false (the leaf needs data; intermediates are checked where data covers them).
            case tlsClient
            /// `botan_x509_cert_verify_with_crl` (src/lib/ffi/ffi_cert.cpp), Botan's C interface:
            /// the CRLs in a store of their own, `Path_Validation_Restrictions(false, strength)`, so
            /// soft-fail is its one mode, and no OCSP responses (the C interface takes none).
            case ffi
        }

        /// A leaf's usage, as Botan's `Usage_Type` (src/lib/x509/pkix_enums.h).
        public enum Usage: String, Sendable, Hashable {
            /// `Usage_Type::TLS_SERVER_AUTH` for requests for a TLS server (a key usage allowing
            /// digitalSignature, keyEncipherment or keyAgreement, and an extended key usage, when
            /// present, allowing id-kp-serverAuth), as Botan's TLS client asks;
            /// `Usage_Type::UNSPECIFIED` for requests for any purpose.
            case tlsServer
            /// `Usage_Type::UNSPECIFIED` always: no key usage or extended key usage check of the
            /// leaf, as Botan's C interface (`botan_x509_cert_verify`) validates. The host is still
            /// checked when a request names one.
            case unspecified
        }

        /// Settings with the given name; the defaults are ``tlsClient``'s.
        public init(name: String, minimumStrength: Int = 110, usage: Usage = .tlsServer, pathSearchLimit: Int = 4_096, revocation: Revocation = .tlsClient) {
            self.name = name
            self.minimumStrength = max(0, minimumStrength)
            self.usage = usage
            self.pathSearchLimit = max(0, pathSearchLimit)
            self.revocation = revocation
        }

        /// What the revocation API of ``revocation`` takes (see ``Revocation``).
        var revocationFeatures: Set<BackendFeature> {
            switch revocation {
            case .tlsClient: [.revocationLists, .ocspResponses, .hardFailRevocation, .softFailRevocation]
            case .ffi: [.revocationLists, .softFailRevocation]
            }
        }

        /// `Path_Validation_Restrictions`' `require_rev` and `ocsp_all_intermediates` for `request`
        /// (see ``Revocation``); the preflight has refused a mode ``revocationFeatures`` lacks.
        func revocationRestrictions(for request: EvaluationRequest) -> (requireRevocation: Bool, ofIntermediates: Bool) {
            switch (request.revocationMode, revocation) {
            case (.hardFail?, _): return (true, true)
            case (.softFail?, _), (nil, .ffi): return (false, false)
            case (nil, .tlsClient):
                // TLS::Policy::require_cert_revocation_info() is true, and without any revocation
                // input it would reject every chain: asked only of requests that bring some.
                let hasInputs = !request.revocationLists.isEmpty || !request.ocspResponses.isEmpty
                return (hasInputs, false)
            }
        }

        /// As Botan's TLS client verifies a server with the default `TLS::Policy`: `botan`.
        public static let tlsClient = Settings(name: "botan")
        /// Botan's C interface: no usage check (`botan_x509_cert_verify`, src/lib/ffi/ffi_cert.cpp,
        /// passes `Usage_Type::UNSPECIFIED`) and revocation as `botan_x509_cert_verify_with_crl` takes
        /// it (CRLs, soft-fail; ``Revocation/ffi``); otherwise as ``tlsClient``: `botan-ffi`.
        public static let ffi = Settings(name: "botan-ffi", usage: .unspecified, revocation: .ffi)
        /// Minimum strength 80: issuer keys down to 1024-bit RSA (an estimate of 80), and SHA-1
        /// signatures, which `Path_Validation_Restrictions` trusts at a strength of 80 or less
        /// (src/lib/x509/x509path.cpp): `botan-legacy`.
        public static let legacy = Settings(name: "botan-legacy", minimumStrength: 80)
    }
}
