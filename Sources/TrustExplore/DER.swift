import TrustVectors

/// The DER builders the mutations use, shared with the generator's revocation data.
typealias DER = DERBuilder
