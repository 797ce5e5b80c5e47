import Foundation
import TrustCore

/// A certificate revocation list of the catalogue (RFC 5280 §5), independent of key type: the
/// generator signs it once per ``KeyType`` as `crls/<key type>/<name>.pem`.
///
/// Dates are offsets from the catalogue's validation time, like certificates'. A v2 CRL with the
/// issuer's authorityKeyIdentifier and a cRLNumber (both required by §5.2.1 and §5.2.3), and the
/// entries' reason codes as given; the variations are the defects and scopes the vectors test.
struct CRLSpec: Sendable, Hashable {
    /// The file stem, unique among CRLs.
    var name: String
    /// The certificate whose subject is the CRL's issuer and, unless ``signer`` says otherwise, whose
    /// key signs it.
    var issuer: String
    /// A certificate whose key signs the CRL instead of the issuer's (a CRL signed by another key).
    var signer: String? = nil
    var thisUpdate: TimeInterval = -86_400
    var nextUpdate: TimeInterval = 6 * 86_400
    /// The certificates listed as revoked (their serial numbers), with a reason code or none.
    var revoked: [Entry] = []
    /// A critical CRL extension with an unregistered OID, which §5.2 forbids using the CRL with.
    var unknownCriticalExtension = false
    /// A critical issuingDistributionPoint (§5.2.5) limiting the CRL's scope.
    var scope: Scope? = nil
    /// The cRLNumber (§5.2.3).
    var number = 1
    /// Serial numbers of no certificate of the catalogue listed before ``revoked`` (a large CA's
    /// CRL, for the benchmarks), without reason codes.
    var filler = 0

    struct Entry: Sendable, Hashable {
        var certificate: String
        /// CRLReason (§5.3.1), or nil for no reasonCode entry extension.
        var reason: Reason?
    }

    /// CRLReason values (RFC 5280 §5.3.1) the vectors use.
    enum Reason: UInt8, Sendable, Hashable {
        case keyCompromise = 1
        case certificateHold = 6
        case removeFromCRL = 8
    }

    /// The issuingDistributionPoint booleans (§5.2.5).
    enum Scope: Sendable, Hashable {
        case onlyUserCertificates
        case onlyCACertificates
    }
}

/// An OCSP response of the catalogue (RFC 6960 §4.2.1), independent of key type: the generator signs
/// it once per ``KeyType`` as `ocsp/<key type>/<name>.der`. A successful response with one
/// SingleResponse for ``certificate`` (CertID with SHA-1, as §4.3 and the Baseline Requirements
/// §7.3 use), responder by name, producedAt the validation time unless said otherwise.
struct OCSPSpec: Sendable, Hashable {
    /// The file stem, unique among OCSP responses.
    var name: String
    /// The certificate whose status the response gives.
    var certificate: String
    /// Its issuer, whose name and key the CertID hashes.
    var issuer: String
    /// The responder whose certificate's key signs: the issuer itself, or a delegated responder
    /// (§4.2.2.2), whose certificate the response then carries in `certs`.
    var responder: String
    /// A certificate whose key signs instead of the responder's (a bad signature).
    var signer: String? = nil
    var status: Status
    var thisUpdate: TimeInterval = -3_600
    /// nil: no nextUpdate (§2.4: newer information is always available).
    var nextUpdate: TimeInterval? = 4 * 86_400

    enum Status: Sendable, Hashable {
        case good
        case revoked(reason: CRLSpec.Reason?)
        case unknown
    }
}

/// The revocation inputs of a case: CRLs and OCSP responses by name, and the caller's mode.
struct RevocationInputs: Sendable, Hashable {
    var crls: [String] = []
    var ocspResponses: [String] = []
    var mode: RevocationMode? = nil
}
