import GnuTLSBackend
import OpenSSLBackend
import SwiftCertificatesBackend
import TrustHarness

/// The built-in back ends, registered as the `trust-harness` executable registers them.
enum BuiltIn {
    static let registry = try! BackendRegistry([
        .init(name: "openssl") { OpenSSLBackend(configuration: $0) },
        .init(name: "gnutls") { GnuTLSBackend(configuration: $0) },
        .init(name: "swift-certificates") { SwiftCertificatesBackend(configuration: $0) },
        .init(name: "openssl-default", isDefault: false) { OpenSSLBackend(configuration: $0, settings: .clientDefault) },
        .init(name: "gnutls-default", isDefault: false) { GnuTLSBackend(configuration: $0, settings: .clientDefault) },
        .init(name: "swift-certificates-bare", isDefault: false) { SwiftCertificatesBackend(configuration: $0, settings: .libraryPoliciesOnly) },
    ])
}
