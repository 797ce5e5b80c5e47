/// The closed taxonomy every back end's failures are normalised into.
///
/// The raw values are the names used in code, in JSON and in `Vectors/manifest.json`; they are
/// stable. A back end that reports something fitting none of the specific classes uses ``other``
/// and keeps its own code in the ``NativeDiagnostic``.
public enum FailureClass: String, Sendable, Hashable, Codable, CaseIterable, Comparable, CustomStringConvertible {
    /// A certificate of the path is past its notAfter (RFC 5280 §4.1.2.5, §6.1.3 (a)(2)).
    case expired
    /// A certificate of the path is before its notBefore.
    case notYetValid
    /// No path to a trust anchor: a self-signed certificate that is not an anchor, an unknown issuer,
    /// a missing intermediate, an untrusted root.
    case untrusted
    /// The end-entity certificate does not identify the requested host (RFC 9525 §6).
    case hostnameMismatch
    /// A pathLenConstraint of an issuer is exceeded (RFC 5280 §4.2.1.9, §6.1.4 (l)).
    case pathLengthExceeded
    /// An issuer without the cA bit or without basicConstraints (RFC 5280 §4.2.1.9, §6.1.4 (k)).
    case notCA
    /// A signature in the path does not verify.
    case badSignature
    /// The end-entity certificate is not valid for the requested purpose (extended or plain key usage).
    case purposeMismatch
    /// A certificate of the path is listed as revoked on a CRL of its issuer (RFC 5280 §6.3).
    case revoked
    /// The input could not be parsed: bad DER, an empty chain, an unusable host.
    case malformed
    /// Anything a back end reports that fits none of the above; the native code says what.
    case other

    /// The raw value (`notCA`).
    public var description: String { rawValue }

    /// Taxonomy order: the order of the cases above, in which ``Verdict/failures`` lists them.
    public static func < (lhs: FailureClass, rhs: FailureClass) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
