import Foundation
import TrustCore
import TrustDER
internal import CBotanBridge

/// Botan 2 as a back end: `Botan::x509_path_validate` as Botan's own TLS client calls it
/// (`TLS::Callbacks::tls_verify_cert_chain`, src/lib/tls/tls_callbacks.cpp): the request's anchors
/// in a `Certificate_Store_In_Memory`, `Path_Validation_Restrictions` with the policy's minimum
/// signature strength, the host name, `Usage_Type::TLS_SERVER_AUTH` and the request's time. A small
/// C++ bridge (CBotanBridge) calls it, because Botan's C interface (`botan_x509_cert_verify`,
/// src/lib/ffi/ffi_cert.cpp) validates with `Usage_Type::UNSPECIFIED` and returns no path.
///
/// Every call builds its own Botan objects from DER, so evaluations share nothing and may run on
/// any number of tasks at once; the cost is a parse of every certificate on every evaluation (the
/// evaluator keeps DER only), measured by `bench` against Botan's bare loop.
public struct BotanBackend: TrustBackend {
    /// How the back end asks Botan.
    public struct Settings: Sendable, Hashable {
        /// The back end's name in reports.
        public var name: String
        /// `Path_Validation_Restrictions`' minimum key strength in bits (RSA and DSA keys count
        /// their size, EC keys the curve's bits); Botan's `TLS::Policy::minimum_signature_strength()`
        /// is 110, which refuses SHA-1 signatures and RSA keys under 2048 bits.
        public var minimumStrength: Int
        /// Whether the leaf must allow TLS server authentication (`Usage_Type::TLS_SERVER_AUTH`:
        /// its key usage and extended key usage); off, Botan validates for no particular usage.
        public var requiresServerUsage: Bool

        public init(name: String, minimumStrength: Int = 110, requiresServerUsage: Bool = true) {
            self.name = name
            self.minimumStrength = minimumStrength
            self.requiresServerUsage = requiresServerUsage
        }

        /// As Botan's TLS client verifies a server with the default `TLS::Policy`.
        public static let tlsClient = Settings(name: "botan")
    }

    public let settings: Settings
    public let configuration: BackendConfiguration

    public init(configuration: BackendConfiguration = .default, settings: Settings = .tlsClient) {
        self.configuration = configuration
        self.settings = settings
    }

    public var name: String { settings.name }

    public var libraryVersion: String { Self.version }

    private static let version: String = {
        let version = cbotan_version().map { String(validatingCString: $0) ?? "Botan" } ?? "Botan (unknown version)"
        if let package = InstalledLibrary.debianPackage(providing: "botan_ffi_api_version") {
            return "\(version) (Debian \(package))"
        }
        return version
    }()

    /// Validation for any purpose (`Usage_Type::UNSPECIFIED`). Not maximum chain depth (no such
    /// restriction), not CRLs (not wired through the bridge yet), not RFC 5280 policy inputs (Botan
    /// does no certificate policy processing).
    public var features: Set<BackendFeature> { [.anyPurpose] }

    public func makeEvaluator(anchors: [[UInt8]]) throws -> any TrustEvaluator {
        for (index, anchor) in anchors.enumerated() {
            if let problem = DERCertificate.encodingProblem(anchor) {
                throw TrustBackendError(backend: name, message: "anchor \(index) is not a DER certificate: \(problem)")
            }
            var message = [CChar](repeating: 0, count: 512)
            let failed = anchor.withUnsafeBufferPointer { cbotan_decode($0.baseAddress, $0.count, &message, message.count) }
            if failed != 0 {
                throw TrustBackendError(backend: name, message: "anchor \(index) cannot be read by Botan: \(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
            }
        }
        return BotanEvaluator(backend: name, anchors: anchors, features: features, settings: settings)
    }
}
