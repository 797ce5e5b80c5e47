import Foundation
import TrustCore
import TrustPolicy

/// The vector catalogue: every certificate and every case, once, independent of key type.
///
/// Each case becomes one vector per ``KeyType`` (`<case>/<key type>`). Expectations are derived from
/// RFC 5280 (path validation), RFC 9525 (service identity) and RFC 8446 (what a peer may send), never
/// from a library's output. Cases whose outcome the standards leave open (an expired trust anchor, a
/// CA certificate used as a server certificate, anyExtendedKeyUsage) are deliberately absent.
package enum Catalogue {
    /// The instant every vector is evaluated at: 2025-06-01T00:00:00Z.
    static let validationTime = Date(timeIntervalSince1970: 1_748_736_000)
    /// ``validationTime`` as the manifest writes it.
    static let validationTimeText = "2025-06-01T00:00:00Z"
    /// The organisation of every subject name; the key type's label follows as organizational unit.
    static let organization = "TrustHarness Test PKI"
    /// The name the ordinary server certificates are for (RFC 2606 reserves `.test`).
    static let host = "www.example.test"

    static let ipv4Address = "192.0.2.10"
    static let ipv6Address = "2001:db8::10"
    /// The addresses a client connected to in the connected-address cases: loopback, where the
    /// handshakes' servers listen.
    static let loopbackIPv4 = "127.0.0.1"
    static let loopbackIPv6 = "::1"
    /// A DNS name of the same PKI that is not ``host``.
    static let otherHost = "other.example.test"

    // MARK: - Certificates

    /// Every certificate, issuers before the certificates they issue.
    static let certificates: [CertificateSpec] = [
        // The main PKI: root > intermediate (pathLen 0) > leaf.
        authority("root", commonName: "Root CA", issuer: nil, pathLength: nil, validity: (-days(3650), days(3650))),
        authority("intermediate", commonName: "Intermediate CA", issuer: "root", pathLength: 0),
        server("leaf"),

        // A four-level PKI under the same root: root > 1 (pathLen 1) > 2 > leaf.
        authority("chain4-intermediate-1", commonName: "Four-Level Intermediate CA 1", issuer: "root", pathLength: 1),
        authority("chain4-intermediate-2", commonName: "Four-Level Intermediate CA 2", issuer: "chain4-intermediate-1", pathLength: nil),
        server("chain4-leaf", issuer: "chain4-intermediate-2"),

        // An unrelated PKI that is never an anchor.
        authority("other-root", commonName: "Other Root CA", issuer: nil, pathLength: nil, validity: (-days(3650), days(3650))),
        authority("other-intermediate", commonName: "Other Intermediate CA", issuer: "other-root", pathLength: 0),
        server("other-leaf", issuer: "other-intermediate"),

        // A root with exactly the trusted root's subject name but its own key.
        authority("impostor-root", commonName: "Root CA", issuer: nil, pathLength: nil, validity: (-days(3650), days(3650))),
        authority("impostor-intermediate", commonName: "Impostor Intermediate CA", issuer: "impostor-root", pathLength: 0),
        server("impostor-leaf", issuer: "impostor-intermediate"),

        // Validity periods relative to the validation time T.
        server("expired-leaf", validity: (-days(91), -days(1))),
        server("not-yet-valid-leaf", validity: (days(1), days(91))),
        server("leaf-not-after-equals-time", validity: (-days(30), 0)),
        server("leaf-not-after-one-second-before", validity: (-days(30), -1)),
        server("leaf-not-before-equals-time", validity: (0, days(90))),
        server("leaf-not-before-one-second-after", validity: (1, days(90))),
        authority("expired-intermediate", commonName: "Expired Intermediate CA", issuer: "root", pathLength: 0, validity: (-days(730), -days(1))),
        server("expired-intermediate-leaf", issuer: "expired-intermediate"),
        authority("not-yet-valid-intermediate", commonName: "Not-Yet-Valid Intermediate CA", issuer: "root", pathLength: 0, validity: (days(1), days(730))),
        server("not-yet-valid-intermediate-leaf", issuer: "not-yet-valid-intermediate"),

        // A self-signed end-entity certificate: cA FALSE, no keyCertSign, its own key.
        server("self-signed-leaf", issuer: nil, key: "self-signed-leaf"),

        // Identities.
        server("wildcard-leaf", names: [.dns("*.example.test")]),
        server("partial-wildcard-leaf", names: [.dns("w*.example.test")]),
        server("leading-partial-wildcard-leaf", names: [.dns("*ww.example.test")]),
        server("ip-leaf", names: [.ipAddress(ipv4Address), .ipAddress(ipv6Address)]),
        // The addresses a client on this machine connects to (loopback, so real handshakes connect
        // to exactly them): alone, beside the host's DNS name, beside another DNS name.
        server("loopback-ip-leaf", names: [.ipAddress(loopbackIPv4), .ipAddress(loopbackIPv6)]),
        server("loopback-ip-dns-leaf", names: [.dns(host), .ipAddress(loopbackIPv4), .ipAddress(loopbackIPv6)]),
        server("loopback-ip-other-dns-leaf", names: [.dns(otherHost), .ipAddress(loopbackIPv4), .ipAddress(loopbackIPv6)]),
        server("ip-in-dns-name-leaf", names: [.dns(ipv4Address)]),
        server("cn-only-leaf", commonName: host, names: []),
        server("cn-not-in-san-leaf", commonName: host, names: [.dns("other.example.test")]),

        // Purposes and extensions.
        server("client-auth-leaf") { $0.extendedKeyUsage = [.clientAuthentication] },
        server("content-commitment-key-usage-leaf") { $0.keyUsage = .contentCommitmentOnly },
        server("no-eku-leaf") { $0.extendedKeyUsage = nil },
        server("unknown-critical-extension-leaf") { $0.unknownCriticalExtension = true },
        // policyConstraints, critical as RFC 5280 §4.2.1.11 requires, is one of the extensions every
        // conforming verifier must recognise (§4.2), even on an end-entity certificate.
        server("policy-constraints-leaf") { $0.criticalPolicyConstraints = true },
        authority("unknown-critical-extension-intermediate", commonName: "Intermediate with an Unknown Critical Extension", issuer: "root", pathLength: 0) {
            $0.unknownCriticalExtension = true
        },
        server("unknown-critical-extension-intermediate-leaf", issuer: "unknown-critical-extension-intermediate"),
        server("unknown-extension-not-der-leaf") { $0.unknownNonDERExtension = true },
        authority("unknown-extension-not-der-intermediate", commonName: "Intermediate with a Non-DER Unknown Extension", issuer: "root", pathLength: 0) {
            $0.unknownNonDERExtension = true
        },
        server("unknown-extension-not-der-intermediate-leaf", issuer: "unknown-extension-not-der-intermediate"),

        // Copies of the intermediate (same subject, same key, so the same key identifier) that are
        // unfit as issuers: expired, or with cA FALSE. As anchors they shadow the presented intermediate.
        authority("intermediate-expired-copy", commonName: "Intermediate CA", issuer: "root", pathLength: 0, validity: (-days(730), -days(1)), key: "intermediate"),
        authority("intermediate-not-ca-copy", commonName: "Intermediate CA", issuer: "root", pathLength: nil, key: "intermediate") {
            $0.basicConstraints = .endEntity
        },

        // Path length: root > A (pathLen 0) > B (CA) > leaf.
        authority("pathlen-zero-intermediate", commonName: "PathLen-0 Intermediate CA", issuer: "root", pathLength: 0),
        authority("pathlen-zero-sub-intermediate", commonName: "Intermediate CA below PathLen-0", issuer: "pathlen-zero-intermediate", pathLength: nil),
        server("pathlen-zero-leaf", issuer: "pathlen-zero-sub-intermediate"),

        // Issuers that may not issue certificates.
        authority("not-ca-intermediate", commonName: "Intermediate with cA FALSE", issuer: "root", pathLength: nil) {
            $0.basicConstraints = .endEntity
        },
        server("not-ca-intermediate-leaf", issuer: "not-ca-intermediate"),
        authority("no-basic-constraints-intermediate", commonName: "Intermediate without Basic Constraints", issuer: "root", pathLength: nil) {
            $0.basicConstraints = .absent
        },
        server("no-basic-constraints-intermediate-leaf", issuer: "no-basic-constraints-intermediate"),
        authority("no-keycertsign-intermediate", commonName: "Intermediate without keyCertSign", issuer: "root", pathLength: 0) {
            $0.keyUsage = .authorityWithoutCertificateSigning
        },
        server("no-keycertsign-intermediate-leaf", issuer: "no-keycertsign-intermediate"),

        // Broken signatures, derived bit for bit from the valid certificates.
        CertificateSpec(name: "bad-signature-leaf", origin: .flippedSignatureBit(of: "leaf")),
        CertificateSpec(name: "bad-signature-intermediate", origin: .flippedSignatureBit(of: "intermediate")),

        // For the pinning policy (PolicyCatalogue): the leaf re-issued with its key, subject and SAN but
        // a new serial number and validity period, and a self-signed certificate that names no host.
        server("reissued-leaf", validity: (-days(10), days(355))),
        nameless("self-signed-no-names"),
    ] + revocationCertificates

    // MARK: - Cases

    static let cases: [VectorCase] = [
        // Path building.
        accept(
            "valid-chain",
            "A server certificate sent with its intermediate, under a trusted root, checked for the name in its SAN.",
            chain: ["leaf", "intermediate"], path: ["leaf", "intermediate", "root"],
            references: [rfc5280Validation, rfc9525DNS]
        ),
        accept(
            "no-host-check",
            "The valid chain evaluated without a host: path validation alone decides.",
            chain: ["leaf", "intermediate"], host: nil, path: ["leaf", "intermediate", "root"],
            references: [rfc5280Validation]
        ),
        accept(
            "valid-chain-out-of-order",
            "A four-level chain whose two intermediates are sent in reverse order; the verifier must reorder them.",
            chain: ["chain4-leaf", "chain4-intermediate-1", "chain4-intermediate-2"],
            path: ["chain4-leaf", "chain4-intermediate-2", "chain4-intermediate-1", "root"],
            references: [rfc8446Order, rfc5280Validation]
        ),
        accept(
            "valid-chain-root-sent-first",
            "The trusted root is sent before the intermediate; the path still ends at the anchor.",
            chain: ["leaf", "root", "intermediate"], path: ["leaf", "intermediate", "root"],
            references: [rfc8446Order, rfc5280Validation]
        ),
        accept(
            "valid-chain-extra-certificate",
            "An intermediate of an unrelated PKI is sent between the leaf and its intermediate; it must be ignored.",
            chain: ["leaf", "other-intermediate", "intermediate"], path: ["leaf", "intermediate", "root"],
            references: [rfc8446Order, rfc5280Validation]
        ),
        accept(
            "intermediate-as-anchor",
            "The intermediate itself is the only anchor: a trust anchor need not be self-signed, and the path ends there.",
            chain: ["leaf", "intermediate"], anchors: ["intermediate"], path: ["leaf", "intermediate"],
            references: [rfc5280Anchor, rfc5280Validation]
        ),
        accept(
            "leaf-as-anchor",
            "The (non-self-signed) leaf itself is the only anchor, as when a server certificate is pinned: the path is the leaf alone, still checked for time, host and purpose.",
            chain: ["leaf", "intermediate"], anchors: ["leaf"], path: ["leaf"],
            references: [rfc5280Anchor, rfc5280Validation]
        ),
        accept(
            "leaf-as-anchor-beside-expired-issuer-anchor",
            "The leaf is an anchor and so is its own expired issuing CA: the path ends at the first anchor, the leaf, so the CA's expiry does not matter.",
            chain: ["expired-intermediate-leaf", "expired-intermediate"], anchors: ["expired-intermediate-leaf", "expired-intermediate"],
            path: ["expired-intermediate-leaf"],
            references: [rfc5280Anchor, rfc5280Validation]
        ),
        accept(
            "leaf-as-anchor-beside-not-ca-issuer-anchor",
            "The leaf is an anchor and so is its issuing CA, whose cA is FALSE: the path ends at the first anchor, the leaf, so its issuer's fitness does not matter.",
            chain: ["not-ca-intermediate-leaf", "not-ca-intermediate"], anchors: ["not-ca-intermediate-leaf", "not-ca-intermediate"],
            path: ["not-ca-intermediate-leaf"],
            references: [rfc5280Anchor, rfc5280Validation]
        ),
        accept(
            "leaf-as-anchor-beside-unknown-critical-issuer-anchor",
            "The leaf is an anchor and so is its issuing CA, which carries an unknown critical extension: the path ends at the leaf, and the issuer is never processed.",
            chain: ["unknown-critical-extension-intermediate-leaf", "unknown-critical-extension-intermediate"],
            anchors: ["unknown-critical-extension-intermediate-leaf", "unknown-critical-extension-intermediate"],
            path: ["unknown-critical-extension-intermediate-leaf"],
            references: [rfc5280Anchor, rfc5280Validation]
        ),
        reject(
            "unknown-critical-extension-leaf-as-anchor",
            "The leaf is the only anchor and carries a critical extension with an unregistered OID: pinning a certificate does not make an extension no verifier recognises acceptable.",
            chain: ["unknown-critical-extension-leaf"], anchors: ["unknown-critical-extension-leaf"], failures: [.other],
            references: [rfc5280UnknownCritical, rfc5280Anchor]
        ),
        accept(
            "policy-constraints-leaf-as-anchor",
            "The leaf is the only anchor and carries a critical policyConstraints, an extension RFC 5280 §4.2 requires every verifier to recognise: trusted as a pinned leaf, as when presented with its chain.",
            chain: ["policy-constraints-leaf"], anchors: ["policy-constraints-leaf"], path: ["policy-constraints-leaf"],
            references: [rfc5280Recognised, rfc5280PolicyConstraints, rfc5280Anchor]
        ),
        accept(
            "anchor-copy-of-intermediate-expired",
            "Anchors: an expired copy of the presented intermediate (same name and key) and the root. Two paths are valid: the copy is a trust anchor by its name and key alone (RFC 5280 §6.1.1(d): its certificate's validity is not processed), and the presented intermediate leads to the root. A verifier that takes the copy and processes its certificate's validity rejects a valid chain.",
            chain: ["leaf", "intermediate"], anchors: ["intermediate-expired-copy", "root"], path: [],
            references: [rfc5280Validation, rfc5280Anchor]
        ),
        accept(
            "anchor-copy-of-intermediate-not-ca",
            "Anchors: a copy of the presented intermediate with cA FALSE (same name and key) and the root. Two paths are valid: the copy is a trust anchor by its name and key alone (RFC 5280 §6.1.1(d): its basicConstraints are not processed), and the presented intermediate leads to the root.",
            chain: ["leaf", "intermediate"], anchors: ["intermediate-not-ca-copy", "root"], path: [],
            references: [rfc5280Validation, rfc5280Anchor]
        ),
        reject(
            "missing-intermediate",
            "Only the leaf is sent; its issuer is neither sent nor an anchor, and the leaf names no place to fetch it from.",
            chain: ["leaf"], failures: [.untrusted],
            references: [rfc5280Validation, rfc5280Chaining]
        ),
        reject(
            "untrusted-root",
            "A complete chain, root included, from a PKI whose root is not an anchor.",
            chain: ["other-leaf", "other-intermediate", "other-root"], failures: [.untrusted],
            references: [rfc5280Validation, rfc5280Anchor]
        ),
        reject(
            "impostor-root-same-name",
            "A chain from a root with the trusted root's exact subject name but another key, root sent: either no path reaches the anchor's key or the intermediate's signature fails under it.",
            chain: ["impostor-leaf", "impostor-intermediate", "impostor-root"], failures: [.untrusted, .badSignature],
            references: [rfc5280Anchor, rfc5280Signature]
        ),
        reject(
            "self-signed-leaf-untrusted",
            "A self-signed end-entity certificate that is not among the anchors.",
            chain: ["self-signed-leaf"], failures: [.untrusted],
            references: [rfc5280Validation, rfc5280Anchor]
        ),
        accept(
            "self-signed-leaf-is-anchor",
            "The self-signed end-entity certificate is the only anchor: the path is the certificate itself.",
            chain: ["self-signed-leaf"], anchors: ["self-signed-leaf"], path: ["self-signed-leaf"],
            references: [rfc5280Anchor, rfc5280Validation]
        ),

        // Signatures.
        reject(
            "bad-signature-leaf",
            "The valid leaf with one bit of its signature value flipped.",
            chain: ["bad-signature-leaf", "intermediate"], failures: [.badSignature],
            references: [rfc5280Signature]
        ),
        reject(
            "bad-signature-intermediate",
            "The valid intermediate with one bit of its signature value flipped; the leaf's own signature is intact.",
            chain: ["leaf", "bad-signature-intermediate"], failures: [.badSignature],
            references: [rfc5280Signature]
        ),

        // Validity periods.
        reject(
            "expired-leaf",
            "The leaf's notAfter is one day before the validation time.",
            chain: ["expired-leaf", "intermediate"], failures: [.expired],
            references: [rfc5280Validity, rfc5280ValidityCheck]
        ),
        reject(
            "expired-intermediate",
            "The intermediate's notAfter is one day before the validation time; the leaf is within its validity.",
            chain: ["expired-intermediate-leaf", "expired-intermediate"], failures: [.expired],
            references: [rfc5280Validity, rfc5280ValidityCheck]
        ),
        reject(
            "not-yet-valid-leaf",
            "The leaf's notBefore is one day after the validation time.",
            chain: ["not-yet-valid-leaf", "intermediate"], failures: [.notYetValid],
            references: [rfc5280Validity, rfc5280ValidityCheck]
        ),
        reject(
            "not-yet-valid-intermediate",
            "The intermediate's notBefore is one day after the validation time; the leaf is within its validity.",
            chain: ["not-yet-valid-intermediate-leaf", "not-yet-valid-intermediate"], failures: [.notYetValid],
            references: [rfc5280Validity, rfc5280ValidityCheck]
        ),
        accept(
            "leaf-not-after-equals-time",
            "The leaf's notAfter is exactly the validation time: the validity period includes notAfter.",
            chain: ["leaf-not-after-equals-time", "intermediate"], path: ["leaf-not-after-equals-time", "intermediate", "root"],
            references: [rfc5280Validity, rfc5280ValidityCheck]
        ),
        reject(
            "leaf-not-after-one-second-before",
            "The leaf's notAfter is one second before the validation time.",
            chain: ["leaf-not-after-one-second-before", "intermediate"], failures: [.expired],
            references: [rfc5280Validity, rfc5280ValidityCheck]
        ),
        accept(
            "leaf-not-before-equals-time",
            "The leaf's notBefore is exactly the validation time: the validity period includes notBefore.",
            chain: ["leaf-not-before-equals-time", "intermediate"], path: ["leaf-not-before-equals-time", "intermediate", "root"],
            references: [rfc5280Validity, rfc5280ValidityCheck]
        ),
        reject(
            "leaf-not-before-one-second-after",
            "The leaf's notBefore is one second after the validation time.",
            chain: ["leaf-not-before-one-second-after", "intermediate"], failures: [.notYetValid],
            references: [rfc5280Validity, rfc5280ValidityCheck]
        ),

        // Host names (RFC 9525).
        reject(
            "hostname-mismatch",
            "The valid chain checked for a name its leaf does not carry.",
            chain: ["leaf", "intermediate"], host: "other.example.test", failures: [.hostnameMismatch],
            references: [rfc9525DNS, rfc9525Outcome]
        ),
        accept(
            "hostname-case-insensitive",
            "The host differs from the SAN dNSName only in letter case; DNS names compare case-insensitively.",
            chain: ["leaf", "intermediate"], host: "WWW.Example.TEST", path: ["leaf", "intermediate", "root"],
            references: [rfc9525DNS, rfc4343CaseInsensitive]
        ),
        accept(
            "wildcard-one-label",
            "SAN *.example.test matches www.example.test: the wildcard stands for exactly the left-most label.",
            chain: ["wildcard-leaf", "intermediate"], path: ["wildcard-leaf", "intermediate", "root"],
            references: [rfc9525DNS]
        ),
        reject(
            "wildcard-two-labels",
            "SAN *.example.test checked for a.b.example.test: a wildcard matches one label only.",
            chain: ["wildcard-leaf", "intermediate"], host: "a.b.example.test", failures: [.hostnameMismatch],
            references: [rfc9525DNS, "RFC 9525 §7.1"]
        ),
        reject(
            "wildcard-apex",
            "SAN *.example.test checked for example.test: a wildcard must match a label, not nothing.",
            chain: ["wildcard-leaf", "intermediate"], host: "example.test", failures: [.hostnameMismatch],
            references: [rfc9525DNS]
        ),
        reject(
            "partial-wildcard",
            "SAN w*.example.test checked for www.example.test: '*' that is not the complete left-most label makes the identifier invalid.",
            chain: ["partial-wildcard-leaf", "intermediate"], failures: [.hostnameMismatch],
            references: [rfc9525DNS]
        ),
        reject(
            "partial-wildcard-leading",
            "SAN *ww.example.test checked for www.example.test: a wildcard followed by other characters in the left-most label is a partial wildcard, not the complete label.",
            chain: ["leading-partial-wildcard-leaf", "intermediate"], failures: [.hostnameMismatch],
            references: [rfc9525DNS]
        ),
        reject(
            "cn-only-no-san",
            "The host is only in the subject commonName and there is no SAN: the CN is not an identifier.",
            chain: ["cn-only-leaf", "intermediate"], failures: [.hostnameMismatch],
            references: [rfc9525NoCN, rfc9110Identity]
        ),
        reject(
            "cn-ignored-when-san-present",
            "The host is in the subject commonName but not in the SAN, which names another host.",
            chain: ["cn-not-in-san-leaf", "intermediate"], failures: [.hostnameMismatch],
            references: [rfc9525NoCN, rfc9525DNS]
        ),
        accept(
            "ip-san-match",
            "An IPv4 host matched against an iPAddress SAN entry, octet for octet.",
            chain: ["ip-leaf", "intermediate"], host: ipv4Address, path: ["ip-leaf", "intermediate", "root"],
            references: [rfc9525IP, rfc5280SAN]
        ),
        reject(
            "ip-san-mismatch",
            "An IPv4 host that differs from the iPAddress SAN entry in the last octet.",
            chain: ["ip-leaf", "intermediate"], host: "192.0.2.11", failures: [.hostnameMismatch],
            references: [rfc9525IP]
        ),
        accept(
            "ipv6-san-match",
            "An IPv6 host matched against an iPAddress SAN entry, octet for octet.",
            chain: ["ip-leaf", "intermediate"], host: ipv6Address, path: ["ip-leaf", "intermediate", "root"],
            references: [rfc9525IP, rfc5280SAN]
        ),
        reject(
            "ipv6-san-mismatch",
            "An IPv6 host that differs from the iPAddress SAN entry in the last octet.",
            chain: ["ip-leaf", "intermediate"], host: "2001:db8::11", failures: [.hostnameMismatch],
            references: [rfc9525IP]
        ),
        reject(
            "dns-host-ip-only-san",
            "A DNS host checked against a leaf whose SAN holds only IP addresses.",
            chain: ["ip-leaf", "intermediate"], failures: [.hostnameMismatch],
            references: [rfc9525DNS]
        ),
        reject(
            "ip-host-in-dns-name-san",
            "An IP host checked against a leaf that carries the address only as a dNSName: an IP reference identifier matches iPAddress entries only.",
            chain: ["ip-in-dns-name-leaf", "intermediate"], host: ipv4Address, failures: [.hostnameMismatch],
            references: ["RFC 9525 §6.2", rfc9525IP]
        ),

        // Basic constraints and key usage of issuers.
        reject(
            "pathlen-zero-exceeded",
            "An intermediate with pathLenConstraint 0 issues another CA, which issues the leaf; intermediates sent in order.",
            chain: ["pathlen-zero-leaf", "pathlen-zero-sub-intermediate", "pathlen-zero-intermediate"],
            failures: [.pathLengthExceeded],
            references: [rfc5280PathLength, rfc5280MaxPathLength, rfc5280PathLengthConstraint]
        ),
        accept(
            "pathlen-one-satisfied",
            "An intermediate with pathLenConstraint 1 issues another CA, which issues the leaf: one intermediate below it is allowed.",
            chain: ["chain4-leaf", "chain4-intermediate-2", "chain4-intermediate-1"],
            path: ["chain4-leaf", "chain4-intermediate-2", "chain4-intermediate-1", "root"],
            references: [rfc5280PathLength, rfc5280MaxPathLength, rfc5280PathLengthConstraint]
        ),
        reject(
            "issuer-not-ca",
            "The leaf's issuer has basicConstraints with cA FALSE, though its keyUsage asserts keyCertSign.",
            chain: ["not-ca-intermediate-leaf", "not-ca-intermediate"], failures: [.notCA],
            references: [rfc5280BasicConstraints, rfc5280IssuerIsCA]
        ),
        reject(
            "issuer-without-basic-constraints",
            "The leaf's issuer is a v3 certificate without basicConstraints, though its keyUsage asserts keyCertSign.",
            chain: ["no-basic-constraints-intermediate-leaf", "no-basic-constraints-intermediate"], failures: [.notCA],
            references: [rfc5280BasicConstraints, rfc5280IssuerIsCA]
        ),
        reject(
            "issuer-without-keycertsign",
            "The leaf's issuer is a CA (cA TRUE) whose keyUsage lacks keyCertSign, so its key may not verify certificate signatures. The taxonomy has no key-usage class for issuers: notCA or other.",
            chain: ["no-keycertsign-intermediate-leaf", "no-keycertsign-intermediate"], failures: [.notCA, .other],
            references: [rfc5280KeyUsageCertSign, rfc5280KeyCertSign]
        ),

        // Purpose and extensions of the leaf.
        reject(
            "leaf-key-usage-without-digital-signature",
            "The leaf's keyUsage (critical) asserts only contentCommitment, not digitalSignature: its key may not sign a TLS handshake, though its extendedKeyUsage says serverAuth.",
            chain: ["content-commitment-key-usage-leaf", "intermediate"], failures: [.purposeMismatch],
            references: [rfc5280DigitalSignature, rfc8446CertificateVerify, rfc5280EKUWithKeyUsage]
        ),
        reject(
            "client-auth-only-leaf",
            "The leaf's extendedKeyUsage allows TLS client authentication only, not server authentication.",
            chain: ["client-auth-leaf", "intermediate"], failures: [.purposeMismatch],
            references: [rfc5280EKU]
        ),
        accept(
            "leaf-without-eku",
            "The leaf has no extendedKeyUsage extension: its key is not restricted to any purpose.",
            chain: ["no-eku-leaf", "intermediate"], path: ["no-eku-leaf", "intermediate", "root"],
            references: [rfc5280EKU]
        ),
        reject(
            "unknown-critical-extension-leaf",
            "The leaf carries a critical extension with an unregistered OID (1.3.6.1.4.1.32473.1, RFC 5612 documentation arc), which a verifier must reject. No specific class fits.",
            chain: ["unknown-critical-extension-leaf", "intermediate"], failures: [.other],
            references: [rfc5280UnknownCritical, rfc5280LeafCritical]
        ),
        reject(
            "unknown-critical-extension-intermediate",
            "The intermediate carries a critical extension with an unregistered OID: a certificate of the path that no verifier can process.",
            chain: ["unknown-critical-extension-intermediate-leaf", "unknown-critical-extension-intermediate"], failures: [.other],
            references: [rfc5280UnknownCritical, rfc5280IntermediateCritical]
        ),
        accept(
            "unknown-extension-not-der-leaf",
            "The leaf carries a non-critical extension with an unregistered OID (1.3.6.1.4.1.32473.2) whose value is the four bytes 01 02 03 04, not DER: a verifier may ignore a non-critical extension it does not recognise, so the valid chain is trusted; the bytes no verifier reads give the certificate no second encoding.",
            chain: ["unknown-extension-not-der-leaf", "intermediate"], path: ["unknown-extension-not-der-leaf", "intermediate", "root"],
            references: [rfc5280UnknownNonCritical, rfc5280Validation]
        ),
        accept(
            "unknown-extension-not-der-intermediate",
            "The intermediate carries a non-critical extension with an unregistered OID whose value (01 02 03 04) is not DER: ignored like any unrecognised non-critical extension, so the valid chain is trusted.",
            chain: ["unknown-extension-not-der-intermediate-leaf", "unknown-extension-not-der-intermediate"],
            path: ["unknown-extension-not-der-intermediate-leaf", "unknown-extension-not-der-intermediate", "root"],
            references: [rfc5280UnknownNonCritical, rfc5280Validation]
        ),
        accept(
            "policy-constraints-leaf",
            "The leaf carries a critical policyConstraints (inhibitPolicyMapping 5, which constrains nothing below a leaf): RFC 5280 §4.2 requires every verifier to recognise the extension, so the valid chain is trusted.",
            chain: ["policy-constraints-leaf", "intermediate"], path: ["policy-constraints-leaf", "intermediate", "root"],
            references: [rfc5280Recognised, rfc5280PolicyConstraints, rfc5280Validation]
        ),
    ] + connectedAddressCases("ipv4", loopbackIPv4) + connectedAddressCases("ipv6", loopbackIPv6) + revocationCases

    // MARK: - Manifest

    /// The manifest of the whole catalogue: each case for each key type, in catalogue order, then the
    /// policy vectors of ``PolicyCatalogue``.
    /// - Parameter pin: the `sha256/` pin of a catalogue certificate of a key type, for the policy
    ///   vectors' pins (the generator takes it from the certificate it has just minted).
    /// - Throws: whatever `pin` throws.
    /// - Parameter der: a catalogue certificate's DER, from which each vector's Web PKI answer is
    ///   derived (``WebPKIRules``); nil gives no Web PKI answers (the manifest's structure alone).
    static func manifest(pin: (_ certificate: String, _ keyType: KeyType) throws -> SPKIPin, der: ((_ certificate: String, _ keyType: KeyType) -> [UInt8]?)? = nil) throws -> VectorManifest {
        var entries: [VectorEntry] = []
        for vectorCase in cases {
            for keyType in KeyType.allCases {
                let files = { (names: [String]) in names.map { certificatePath($0, keyType) } }
                let expected: Expectation
                switch vectorCase.outcome {
                // An empty path: more than one path is valid, and any of them answers.
                case .trusted(let path): expected = path.isEmpty ? Expectation(trusted: true) : .trusted(path: files(path))
                case .rejected(let failures): expected = Expectation(trusted: false, failures: failures)
                }
                var entry = VectorEntry(
                    id: "\(vectorCase.name)/\(keyType.rawValue)",
                    description: vectorCase.description,
                    chain: files(vectorCase.chain),
                    anchors: files(vectorCase.anchors),
                    host: vectorCase.host,
                    time: validationTimeText,
                    expected: expected,
                    references: vectorCase.references,
                    address: vectorCase.address
                )
                entry.open = vectorCase.open
                entry.handshake = vectorCase.handshake
                if let revocation = vectorCase.revocation {
                    entry.revocation = RevocationFiles(
                        crls: revocation.crls.map { crlPath($0, keyType) },
                        ocspResponses: revocation.ocspResponses.map { ocspPath($0, keyType) },
                        mode: revocation.mode
                    )
                }
                if let der {
                    let rfc5280 = entry.answer(for: .rfc5280)
                    let certificates = { (names: [String]) in names.compactMap { der($0, keyType) } }
                    var webpki = WebPKIRules.answer(chain: certificates(vectorCase.chain), anchors: certificates(vectorCase.anchors), rfc5280: rfc5280, time: validationTime)
                    if webpki != rfc5280 { webpki.expected.path = nil }
                    entry.setAnswers(rfc5280: rfc5280, webpki: webpki)
                }
                entries.append(entry)
            }
        }
        return VectorManifest(vectors: entries, policies: try PolicyCatalogue.entries(pin: pin))
    }

    /// The path of a certificate file relative to `Vectors/`.
    static func certificatePath(_ name: String, _ keyType: KeyType) -> String {
        "certs/\(keyType.rawValue)/\(name).pem"
    }

    /// The path of a key file relative to `Vectors/`.
    static func keyPath(_ name: String, _ keyType: KeyType) -> String {
        "keys/\(keyType.rawValue)/\(name).pem"
    }

    /// The names of every key the certificates use, in first-use order.
    static var keyNames: [String] {
        var seen = Set<String>()
        return certificates.compactMap { spec in
            guard case .minted(let minting) = spec.origin, seen.insert(minting.key).inserted else { return nil }
            return minting.key
        }
    }

    // MARK: - Building blocks

    private static let rfc5280Validation = "RFC 5280 §6.1 (Basic Path Validation): a prospective certification path satisfies \"(a) for all x in {1, ..., n-1}, the subject of certificate x is the issuer of certificate x+1; (b) certificate 1 is issued by the trust anchor; (c) certificate n is the certificate to be validated (i.e., the target certificate); and (d) for all x in {1, ..., n}, the certificate was valid at the time in question.\""
    private static let rfc5280Anchor = "RFC 5280 §6.1.1(d) (Inputs): \"When the trust anchor information is provided in the form of a certificate, the name in the subject field is used as the trusted issuer name and the contents of the subjectPublicKeyInfo field is used as the source of the trusted public key algorithm and the trusted public key.\""
    private static let rfc5280Signature = "RFC 5280 §6.1.3(a)(1) (Basic Certificate Processing): \"The signature on the certificate can be verified using working_public_key_algorithm, the working_public_key, and the working_public_key_parameters.\""
    private static let rfc5280ValidityCheck = "RFC 5280 §6.1.3(a)(2) (Basic Certificate Processing): \"The certificate validity period includes the current time.\""
    private static let rfc5280Chaining = "RFC 5280 §6.1.3(a)(4) (Basic Certificate Processing): \"The certificate issuer name is the working_issuer_name.\""
    private static let rfc5280Validity = "RFC 5280 §4.1.2.5 (Validity): \"The validity period for a certificate is the period of time from notBefore through notAfter, inclusive.\""
    private static let rfc5280SAN = "RFC 5280 §4.2.1.6 (Subject Alternative Name): \"For IP version 4, as specified in [RFC791], the octet string MUST contain exactly four octets. For IP version 6, as specified in [RFC2460], the octet string MUST contain exactly sixteen octets.\""
    private static let rfc5280BasicConstraints = "RFC 5280 §4.2.1.9 (Basic Constraints): \"If the basic constraints extension is not present in a version 3 certificate, or the extension is present but the cA boolean is not asserted, then the certified public key MUST NOT be used to verify certificate signatures.\""
    private static let rfc5280PathLength = "RFC 5280 §4.2.1.9 (Basic Constraints): pathLenConstraint \"gives the maximum number of non-self-issued intermediate certificates that may follow this certificate in a valid certification path\""
    private static let rfc5280MaxPathLength = "RFC 5280 §6.1.4(l) (Preparation for Certificate i+1): \"If the certificate was not self-issued, verify that max_path_length is greater than zero and decrement max_path_length by 1.\""
    private static let rfc5280PathLengthConstraint = "RFC 5280 §6.1.4(m) (Preparation for Certificate i+1): \"If pathLenConstraint is present in the certificate and is less than max_path_length, set max_path_length to the value of pathLenConstraint.\""
    private static let rfc5280IssuerIsCA = "RFC 5280 §6.1.4(k) (Preparation for Certificate i+1): \"If certificate i is a version 3 certificate, verify that the basicConstraints extension is present and that cA is set to TRUE.\""
    private static let rfc5280KeyUsageCertSign = "RFC 5280 §4.2.1.3 (Key Usage): \"If the keyUsage extension is present, then the subject public key MUST NOT be used to verify signatures on certificates or CRLs unless the corresponding keyCertSign or cRLSign bit is set.\""
    private static let rfc5280KeyCertSign = "RFC 5280 §6.1.4(n) (Preparation for Certificate i+1): \"If a key usage extension is present, verify that the keyCertSign bit is set.\""
    private static let rfc5280DigitalSignature = "RFC 5280 §4.2.1.3 (Key Usage): \"The digitalSignature bit is asserted when the subject public key is used for verifying digital signatures, other than signatures on certificates (bit 5) and CRLs (bit 6), such as those used in an entity authentication service, a data origin authentication service, and/or an integrity service.\""
    private static let rfc5280EKU = "RFC 5280 §4.2.1.12 (Extended Key Usage): \"If the extension is present, then the certificate MUST only be used for one of the purposes indicated.\""
    private static let rfc5280EKUWithKeyUsage = "RFC 5280 §4.2.1.12 (Extended Key Usage): \"If a certificate contains both a key usage extension and an extended key usage extension, then both extensions MUST be processed independently and the certificate MUST only be used for a purpose consistent with both extensions.\""
    private static let rfc5280UnknownCritical = "RFC 5280 §4.2 (Certificate Extensions): \"A certificate-using system MUST reject the certificate if it encounters a critical extension it does not recognize or a critical extension that contains information that it cannot process.\""
    private static let rfc5280UnknownNonCritical = "RFC 5280 §4.2 (Certificate Extensions): \"A non-critical extension MAY be ignored if it is not recognized, but MUST be processed if it is recognized.\""
    private static let rfc5280Recognised = "RFC 5280 §4.2 (Certificate Extensions): \"At a minimum, applications conforming to this profile MUST recognize the following extensions: key usage (Section 4.2.1.3), certificate policies (Section 4.2.1.4), subject alternative name (Section 4.2.1.6), basic constraints (Section 4.2.1.9), name constraints (Section 4.2.1.10), policy constraints (Section 4.2.1.11), extended key usage (Section 4.2.1.12), and inhibit anyPolicy (Section 4.2.1.14).\""
    private static let rfc5280PolicyConstraints = "RFC 5280 §4.2.1.11 (Policy Constraints): \"Conforming applications MUST be able to process the requireExplicitPolicy field and SHOULD be able to process the inhibitPolicyMapping field.\""
    private static let rfc5280LeafCritical = "RFC 5280 §6.1.5(f) (Wrap-Up Procedure): \"Recognize and process any other critical extension present in the certificate n.\""
    private static let rfc5280IntermediateCritical = "RFC 5280 §6.1.4(o) (Preparation for Certificate i+1): \"Recognize and process any other critical extension present in the certificate.\""
    private static let rfc8446Order = "RFC 8446 §4.4.2 (Certificate): \"For maximum compatibility, all implementations SHOULD be prepared to handle potentially extraneous certificates and arbitrary orderings from any TLS version, with the exception of the end-entity certificate which MUST be first.\""
    private static let rfc8446CertificateVerify = "RFC 8446 §4.4.3 (Certificate Verify): \"Servers MUST send this message when authenticating via a certificate.\" §4.4.2.2 (Server Certificate Selection): \"the digitalSignature bit MUST be set if the Key Usage extension is present\""
    private static let rfc4343CaseInsensitive = "RFC 4343 §3 (Name Lookup, Label Types, and CLASS): \"a lookup string octet with a value in the inclusive range from 0x41 to 0x5A, the uppercase ASCII letters, MUST match the identical value and also match the corresponding value in the inclusive range from 0x61 to 0x7A, the lowercase ASCII letters.\""
    private static let rfc6125SourceDomain = "RFC 6125 §6.2.1 (Constructing a List of Reference Identifiers): \"Each reference identifier in the list SHOULD be based on the source domain and SHOULD NOT be based on a derived domain (e.g., a host name or domain name discovered through DNS resolution of the source domain).\" (the reference identity is the name the client was asked to reach, not an address it resolved to; RFC 9525, which obsoletes RFC 6125, is not stored in Vectors/standards to quote)"
    private static let brIPAddress = "CA/B Forum Baseline Requirements §3.2.2.5 (Authentication for an IP Address): \"The CA SHALL confirm that prior to issuance, the CA has validated each IP Address listed in the Certificate using at least one of the methods specified in this section.\" (an iPAddress SAN attests control of the address, not of any DNS name that resolves to it)"
    private static let rfc9525NoCN = "RFC 9525 §2"
    private static let rfc9525DNS = "RFC 9525 §6.3"
    private static let rfc9525IP = "RFC 9525 §6.4"
    private static let rfc9525Outcome = "RFC 9525 §6.6"
    private static let rfc9110Identity = "RFC 9110 §4.3.4"

    /// The connected address: the client asked for a DNS name and reached `address`, which the leaf
    /// names. The reference identity is the name asked for, never the address it resolved to, so
    /// only a DNS-ID can match: alone the address is trusted for nothing, beside the host's DNS name
    /// the name is, beside another DNS name neither is.
    private static func connectedAddressCases(_ family: String, _ address: String) -> [VectorCase] {
        [
            reject(
                "connected-address-only-\(family)",
                "A DNS host reached at \(address), whose leaf names only that address (iPAddress SANs, no dNSName): the reference identity is the DNS name, which no DNS-ID matches; the address it resolved to identifies nothing.",
                chain: ["loopback-ip-leaf", "intermediate"], address: address, failures: [.hostnameMismatch],
                references: [rfc9525DNS, rfc6125SourceDomain, brIPAddress]
            ),
            accept(
                "connected-address-beside-dns-\(family)",
                "A DNS host reached at \(address), whose leaf names the host as a dNSName beside that address: trusted by the DNS-ID.",
                chain: ["loopback-ip-dns-leaf", "intermediate"], address: address, path: ["loopback-ip-dns-leaf", "intermediate", "root"],
                references: [rfc9525DNS]
            ),
            reject(
                "connected-address-beside-other-dns-\(family)",
                "A DNS host reached at \(address), whose leaf names that address beside another DNS name: neither identifies the host asked for.",
                chain: ["loopback-ip-other-dns-leaf", "intermediate"], address: address, failures: [.hostnameMismatch],
                references: [rfc9525DNS, rfc6125SourceDomain, brIPAddress]
            ),
        ]
    }

    static func days(_ count: Double) -> TimeInterval { count * 86_400 }

    /// A CA certificate; by default with a key of its own, named after it.
    static func authority(
        _ name: String,
        commonName: String,
        issuer: String?,
        pathLength: Int?,
        validity: (notBefore: TimeInterval, notAfter: TimeInterval) = (-days(1825), days(1825)),
        key: String? = nil,
        adjust: (inout CertificateSpec.Profile) -> Void = { _ in }
    ) -> CertificateSpec {
        var profile = CertificateSpec.Profile.authority(pathLength: pathLength)
        adjust(&profile)
        let minting = CertificateSpec.Minting(
            commonName: commonName, issuer: issuer, key: key ?? name,
            notBefore: validity.notBefore, notAfter: validity.notAfter, profile: profile
        )
        return CertificateSpec(name: name, origin: .minted(minting))
    }

    /// A server certificate; by default issued by `intermediate` for ``host`` with the shared leaf key.
    static func server(
        _ name: String,
        issuer: String? = "intermediate",
        key: String = "leaf",
        commonName: String? = nil,
        names: [CertificateSpec.Profile.AlternativeName] = [.dns(host)],
        validity: (notBefore: TimeInterval, notAfter: TimeInterval) = (-days(30), days(335)),
        adjust: (inout CertificateSpec.Profile) -> Void = { _ in }
    ) -> CertificateSpec {
        var profile = CertificateSpec.Profile.server(names)
        adjust(&profile)
        let firstName: String? = names.first.map {
            switch $0 {
            case .dns(let name), .ipAddress(let name): return name
            }
        }
        let minting = CertificateSpec.Minting(
            commonName: commonName ?? firstName ?? host, issuer: issuer, key: key,
            notBefore: validity.notBefore, notAfter: validity.notAfter, profile: profile
        )
        return CertificateSpec(name: name, origin: .minted(minting))
    }

    /// A self-signed server certificate with its own key whose subject has no commonName and which
    /// has no subjectAltName: it names no host at all.
    private static func nameless(_ name: String) -> CertificateSpec {
        let minting = CertificateSpec.Minting(
            commonName: nil, issuer: nil, key: name,
            notBefore: -days(30), notAfter: days(335), profile: .server([])
        )
        return CertificateSpec(name: name, origin: .minted(minting))
    }

    static func accept(
        _ name: String, _ description: String, chain: [String], anchors: [String] = ["root"],
        host: String? = Catalogue.host, address: String? = nil, path: [String], references: [String]
    ) -> VectorCase {
        VectorCase(
            name: name, description: description, chain: chain, anchors: anchors, host: host, address: address,
            outcome: .trusted(path: path), references: references
        )
    }

    static func reject(
        _ name: String, _ description: String, chain: [String], anchors: [String] = ["root"],
        host: String? = Catalogue.host, address: String? = nil, failures: [FailureClass], references: [String]
    ) -> VectorCase {
        VectorCase(
            name: name, description: description, chain: chain, anchors: anchors, host: host, address: address,
            outcome: .rejected(failures.sorted()), references: references
        )
    }
}
