import Foundation
import X509

/// One certificate of the catalogue, independent of key type: the generator mints it once per
/// ``KeyType`` as `certs/<key type>/<name>.pem`.
///
/// Validity is given as offsets from the catalogue's validation time, so every expiry case is
/// defined relative to the one instant the vectors are evaluated at.
struct CertificateSpec: Sendable, Hashable {
    /// The file stem, unique in the catalogue.
    var name: String
    var origin: Origin

    enum Origin: Sendable, Hashable {
        /// Minted from a profile and signed by the issuer's key.
        case minted(Minting)
        /// The DER of another certificate of the catalogue with the least significant bit of the last
        /// octet of its signature value flipped: the TBSCertificate is untouched, the signature no
        /// longer verifies. Derived from the other certificate's bytes, so it is reproducible even for
        /// randomised (ECDSA) signatures.
        case flippedSignatureBit(of: String)
    }

    struct Minting: Sendable, Hashable {
        /// The subject's commonName, or nil for a subject without one; the organisation and key type
        /// complete the name.
        var commonName: String?
        /// The spec name of the issuing certificate, or nil for a self-signed certificate.
        var issuer: String?
        /// The name of the key pair (shared by all certificates naming it), `keys/<key type>/<key>.pem`.
        var key: String
        var notBefore: TimeInterval
        var notAfter: TimeInterval
        var profile: Profile
    }

    /// The extensions of a certificate, as choices the catalogue varies.
    struct Profile: Sendable, Hashable {
        var basicConstraints: BasicConstraintsChoice
        var keyUsage: KeyUsageChoice
        /// nil: no extendedKeyUsage extension.
        var extendedKeyUsage: [Purpose]?
        /// Empty: no subjectAltName extension.
        var subjectAlternativeNames: [AlternativeName]
        /// Adds a critical extension with an unregistered OID, which RFC 5280 §4.2 requires a
        /// certificate-using system to reject.
        var unknownCriticalExtension: Bool
        /// Adds a critical policyConstraints extension (RFC 5280 §4.2.1.11) with only
        /// inhibitPolicyMapping 5, which constrains nothing in the catalogue's paths.
        var criticalPolicyConstraints = false
        /// Adds a non-critical extension with an unregistered OID whose value is the four bytes
        /// 01 02 03 04, which are not DER (a BOOLEAN of two octets): RFC 5280 §4.2 lets a verifier
        /// ignore a non-critical extension it does not recognise, value and all.
        var unknownNonDERExtension = false
        /// An authorityInformationAccess with this OCSP responder URL (RFC 5280 §4.2.2.1), which
        /// OCSP clients that query by the certificate's own pointer need.
        var ocspResponderURL: String? = nil
        /// A TLS feature extension (RFC 7633) naming status_request (5): "must-staple", binding a
        /// TLS client that asked for status to refuse a handshake that brings none.
        var mustStaple = false

        enum BasicConstraintsChoice: Sendable, Hashable {
            case authority(pathLength: Int?)
            case endEntity
            /// The extension is left out.
            case absent
        }

        enum KeyUsageChoice: Sendable, Hashable {
            /// keyCertSign and cRLSign.
            case authority
            /// digitalSignature and cRLSign: an issuer that may not sign certificates.
            case authorityWithoutCertificateSigning
            /// digitalSignature, plus keyEncipherment for RSA.
            case endEntity
            /// contentCommitment (nonRepudiation) only: an end-entity key that may not sign a handshake.
            case contentCommitmentOnly
        }

        enum Purpose: Sendable, Hashable {
            case serverAuthentication
            case clientAuthentication
            /// id-kp-OCSPSigning: a delegated OCSP responder (RFC 6960 §4.2.2.2).
            case ocspSigning
        }

        enum AlternativeName: Sendable, Hashable {
            case dns(String)
            /// An IP address in text form; the generator stores its octets (RFC 5280 §4.2.1.6).
            case ipAddress(String)
        }

        static func authority(pathLength: Int?) -> Profile {
            Profile(
                basicConstraints: .authority(pathLength: pathLength),
                keyUsage: .authority,
                extendedKeyUsage: nil,
                subjectAlternativeNames: [],
                unknownCriticalExtension: false
            )
        }

        static func server(_ names: [AlternativeName]) -> Profile {
            Profile(
                basicConstraints: .endEntity,
                keyUsage: .endEntity,
                extendedKeyUsage: [.serverAuthentication],
                subjectAlternativeNames: names,
                unknownCriticalExtension: false
            )
        }
    }
}
