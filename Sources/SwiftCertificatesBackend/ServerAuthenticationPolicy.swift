import SwiftASN1
import X509

/// The request's purpose, TLS server authentication, as a `VerifierPolicy`: swift-certificates ships
/// no extended-key-usage policy, so a TLS client must add one; this is that policy, written against
/// the library's public API only.
///
/// The leaf's extendedKeyUsage, when it has one, must contain id-kp-serverAuth or
/// anyExtendedKeyUsage (RFC 5280 §4.2.1.12: a certificate without the extension is not restricted;
/// anyExtendedKeyUsage restricts nothing). An extension that cannot be decoded fails the chain.
/// Handling the extension, it also lets a leaf carry it as critical.
public struct ServerAuthenticationPolicy: VerifierPolicy, Sendable {
    public init() {}

    public var verifyingCriticalExtensions: [ASN1ObjectIdentifier] { [.X509ExtensionID.extendedKeyUsage] }

    public func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
        let leaf = chain.leaf
        do {
            guard let usages = try leaf.extensions.extendedKeyUsage else { return .meetsPolicy }
            if usages.contains(.serverAuth) || usages.contains(.any) { return .meetsPolicy }
            return .failsToMeetPolicy(reason: "\(Self.prefix) the leaf's extendedKeyUsage \(usages) allows no TLS server authentication")
        } catch {
            return .failsToMeetPolicy(reason: "\(Self.prefix) the leaf's extendedKeyUsage cannot be decoded: \(error)")
        }
    }

    /// How this policy's failure reasons begin.
    static let prefix = "ServerAuthenticationPolicy:"
    /// The native names its reasons are reported under (``FailureReasons``): a layer of ours, named
    /// `serverauth`, never the library's.
    static let reasonNames: Set<String> = ["EKU_NOT_SERVER_AUTH", "EKU_UNREADABLE"]
}
