extension MbedTLSBackend {
    /// How the back end asks mbedTLS: the certificate profile given to
    /// `mbedtls_x509_crt_verify_with_profile` and whether the leaf must allow a TLS server, the
    /// choices a user of mbedTLS's TLS client makes (`mbedtls_ssl_conf_cert_profile`, the preset of
    /// `mbedtls_ssl_config_defaults`).
    public struct Settings: Sendable, Hashable {
        /// The back end's name in reports and on the command line (`--backend NAME`).
        public var name: String
        /// The certificate profile: which hashes, signature algorithms, curves and RSA sizes are
        /// acceptable in the path.
        public var profile: Profile
        /// Whether a request for a TLS server also gets the TLS client's usage check of the leaf
        /// (`mbedtls_ssl_check_cert_usage`, library/ssl_tls.c); without it the back end answers
        /// `mbedtls_x509_crt_verify_with_profile` alone. Requests for any purpose never get it.
        public var checksServerUsage: Bool

        /// mbedTLS's named certificate profiles (library/x509_crt.c, 2.28).
        public enum Profile: String, Sendable, Hashable {
            /// `mbedtls_x509_crt_profile_default`: SHA-224 to SHA-512, any key type and curve, RSA
            /// keys of 2048 bits or more. What `MBEDTLS_SSL_PRESET_DEFAULT` configures.
            case `default`
            /// `mbedtls_x509_crt_profile_next`: SHA-256 and up, curves of 128-bit security or more
            /// (P-256, P-384, P-521, secp256k1, the Brainpool curves), RSA 2048 or more.
            case next
            /// `mbedtls_x509_crt_profile_suiteb`: NSA Suite B, ECDSA with SHA-256 or SHA-384 on P-256
            /// or P-384 only. What `MBEDTLS_SSL_PRESET_SUITEB` configures.
            case suiteB
        }

        /// Settings with the given name; the defaults are ``tlsClient``'s.
        public init(name: String, profile: Profile = .default, checksServerUsage: Bool = true) {
            self.name = name
            self.profile = profile
            self.checksServerUsage = checksServerUsage
        }

        /// As mbedTLS's TLS client verifies a server with `MBEDTLS_SSL_PRESET_DEFAULT`: `mbedtls`.
        public static let tlsClient = Settings(name: "mbedtls")
        /// The same with `mbedtls_x509_crt_profile_next`, the profile the library offers for
        /// stricter deployments: `mbedtls-next`.
        public static let next = Settings(name: "mbedtls-next", profile: .next)
        /// The same with `mbedtls_x509_crt_profile_suiteb`, as `MBEDTLS_SSL_PRESET_SUITEB` configures
        /// it: `mbedtls-suiteb`.
        public static let suiteB = Settings(name: "mbedtls-suiteb", profile: .suiteB)
    }
}
