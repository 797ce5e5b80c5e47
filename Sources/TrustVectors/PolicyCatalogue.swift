import TrustCore
import TrustPolicy

/// The pinning-policy cases: chains, anchors, domains and ``SecurityPolicy`` settings, with the step
/// the policy's documented semantics (AFNetworking's `AFSecurityPolicy`, plus TrustHarness's
/// signature-linked-path hardening) say decides.
///
/// Each case becomes one policy vector per ``KeyType`` (`policy/<case>/<key type>`), on the
/// certificates of ``Catalogue/certificates``. Unless a case says otherwise the domain is
/// ``Catalogue/host``, the only anchor is `root`, and the time is the catalogue's validation time.
/// Expectations come from the numbered steps documented on ``SecurityPolicy``, never from an
/// evaluation. No case expects ``PolicyStep/certificatePinNotMatched``: with the pinned certificates
/// as the only anchors, a verified path ends at a pinned certificate, so step 5 either matches or
/// finds no valid path.
///
/// Every server certificate of the catalogue except the self-signed ones shares the `leaf` key, so a
/// public-key pin of `leaf` matches all of them; a pin meant to match nothing is taken from a CA with
/// its own key.
enum PolicyCatalogue {
    static let cases: [PolicyCase] = [
        // Mode none: the chain's validity against the anchors decides, host included.
        policy(
            "none-valid",
            "Mode none: a valid chain for the name in its leaf's SAN is trusted.",
            mode: .none, expect: .validChain,
            references: [afStep3, rfc5280Validation, rfc9525DNS]
        ),
        policy(
            "none-invalid-chain",
            "Mode none: a chain whose leaf expired one day before the validation time is rejected.",
            mode: .none, chain: expiredChain, expect: .invalidChain,
            references: [afStep3, rfc5280ValidityCheck]
        ),
        policy(
            "none-no-domain",
            "Mode none without a domain: no host is checked and the valid chain is trusted.",
            mode: .none, domain: nil, expect: .validChain,
            references: [afStep2, afStep3]
        ),
        policy(
            "none-wrong-domain",
            "Mode none: the valid chain evaluated for a domain its leaf does not name is rejected.",
            mode: .none, domain: otherHost, expect: .invalidChain,
            references: [afStep2, afStep3, rfc9525DNS]
        ),
        policy(
            "none-domain-not-validated",
            "Mode none with validatesDomainName false: a domain the leaf does not name is not checked, so the valid chain is trusted.",
            mode: .none, validatesDomainName: false, domain: otherHost, expect: .validChain,
            references: [afStep2, afStep3]
        ),
        policy(
            "none-allow-invalid-no-domain",
            "Mode none with allowInvalidCertificates and no domain: a self-signed leaf that is not an anchor is trusted without evaluation.",
            mode: .none, allowInvalid: true, chain: selfSigned, domain: nil, expect: .allowInvalidWithoutPinning,
            references: [afStep1, afStep3]
        ),
        policy(
            "none-allow-invalid-domain-not-validated",
            "Mode none with allowInvalidCertificates and validatesDomainName false: step 1 does not apply although a domain is given, and the self-signed leaf is trusted without evaluation.",
            mode: .none, allowInvalid: true, validatesDomainName: false, chain: selfSigned, expect: .allowInvalidWithoutPinning,
            references: [afStep1, afStep3]
        ),
        policy(
            "none-ignores-pins",
            "Mode none with a pinned certificate and a sha256 pin, both of an unrelated CA: pins play no part without a pinning mode, so the valid chain is trusted.",
            mode: .none, pinning: ["other-intermediate"], pinningKeysOf: ["other-intermediate"], expect: .validChain,
            references: [afStep3, hasPinsRule]
        ),

        // Step 1: validating a domain while allowing invalid certificates requires something pinned.
        policy(
            "step1-none-allow-invalid-with-domain",
            "Mode none with allowInvalidCertificates, validatesDomainName and a domain: rejected before any evaluation (\"to validate a domain name for self signed certificates, you must use pinning\").",
            mode: .none, allowInvalid: true, chain: selfSigned, expect: .domainValidationRequiresPinning,
            references: [afStep1]
        ),
        policy(
            "step1-none-with-pinned-certificate",
            "Mode none with the presented self-signed leaf pinned, allowInvalidCertificates and a domain to validate: mode none never counts as pinning, so step 1 rejects.",
            mode: .none, pinning: ["self-signed-leaf"], allowInvalid: true, chain: selfSigned, expect: .domainValidationRequiresPinning,
            references: [afStep1, hasPinsRule]
        ),
        policy(
            "step1-public-key-no-pins",
            "Mode publicKey with nothing pinned, allowInvalidCertificates and a domain to validate: rejected at step 1.",
            mode: .publicKey, allowInvalid: true, chain: selfSigned, expect: .domainValidationRequiresPinning,
            references: [afStep1, hasPinsRule]
        ),
        policy(
            "step1-certificate-no-pins",
            "Mode certificate with nothing pinned, allowInvalidCertificates and a domain to validate: rejected at step 1.",
            mode: .certificate, allowInvalid: true, chain: selfSigned, expect: .domainValidationRequiresPinning,
            references: [afStep1, hasPinsRule]
        ),
        policy(
            "step1-certificate-sha256-pins-only",
            "Mode certificate with only a sha256 pin (of the presented self-signed leaf), allowInvalidCertificates and a domain to validate: certificate mode pins certificates, so nothing counts as pinned and step 1 rejects.",
            mode: .certificate, pinningKeysOf: ["self-signed-leaf"], allowInvalid: true, chain: selfSigned,
            expect: .domainValidationRequiresPinning,
            references: [afStep1, hasPinsRule, rfc7469Pins]
        ),

        // Public-key pins on a valid chain: any certificate of the verified path, anchor included.
        policy(
            "public-key-pin-leaf",
            "Mode publicKey with the leaf certificate pinned: the leaf of the verified path has the pinned key.",
            mode: .publicKey, pinning: ["leaf"], expect: .publicKeyPinMatched,
            references: [afStep4, afStep6]
        ),
        policy(
            "public-key-pin-intermediate",
            "Mode publicKey with the intermediate certificate pinned: the intermediate of the verified path has the pinned key.",
            mode: .publicKey, pinning: ["intermediate"], expect: .publicKeyPinMatched,
            references: [afStep4, afStep6]
        ),
        policy(
            "public-key-pin-root-not-sent",
            "Mode publicKey with the root certificate pinned; the peer sends only leaf and intermediate: the verified path ends at the root anchor, whose key is pinned.",
            mode: .publicKey, pinning: ["root"], expect: .publicKeyPinMatched,
            references: [afStep4, afStep6, rfc7469Validation]
        ),
        policy(
            "public-key-sha256-pin-root-not-sent",
            "Mode publicKey with the root pinned only by its sha256 SPKI pin, not sent by the peer: the verified path ends at the root, whose key is pinned.",
            mode: .publicKey, pinningKeysOf: ["root"], expect: .publicKeyPinMatched,
            references: [afStep4, afStep6, rfc7469Pins, rfc7469Validation]
        ),
        policy(
            "public-key-sha256-pin-leaf",
            "Mode publicKey with the leaf pinned only by its sha256 SPKI pin: the leaf of the verified path has the pinned key.",
            mode: .publicKey, pinningKeysOf: ["leaf"], expect: .publicKeyPinMatched,
            references: [afStep4, afStep6, rfc7469Pins]
        ),
        policy(
            "public-key-one-of-several-pins",
            "Mode publicKey with an unrelated CA pinned by certificate and the intermediate by sha256 pin: one configured pin on the path is enough.",
            mode: .publicKey, pinning: ["other-intermediate"], pinningKeysOf: ["intermediate"], expect: .publicKeyPinMatched,
            references: [afStep6, rfc7469Pins, rfc7469Validation]
        ),
        policy(
            "public-key-pin-domain-not-validated",
            "Mode publicKey with the intermediate pinned and validatesDomainName false: a domain the leaf does not name is not checked, and the pin matches.",
            mode: .publicKey, pinning: ["intermediate"], validatesDomainName: false, domain: otherHost, expect: .publicKeyPinMatched,
            references: [afStep2, afStep4, afStep6]
        ),

        // Certificate pins on a valid chain: the pinned certificates become the only anchors.
        policy(
            "certificate-pin-leaf",
            "Mode certificate with the leaf pinned: with the leaf as the only anchor the chain is valid and the verified path is the pinned leaf.",
            mode: .certificate, pinning: ["leaf"], expect: .certificatePinMatched,
            references: [afStep4, afStep5, rfc5280Anchor]
        ),
        policy(
            "certificate-pin-intermediate",
            "Mode certificate with the intermediate pinned: with it as the only anchor the verified path is leaf, intermediate.",
            mode: .certificate, pinning: ["intermediate"], expect: .certificatePinMatched,
            references: [afStep4, afStep5, rfc5280Anchor]
        ),
        policy(
            "certificate-pin-root-not-sent",
            "Mode certificate with the root pinned, not sent by the peer: with the root as the only anchor the verified path ends at it.",
            mode: .certificate, pinning: ["root"], expect: .certificatePinMatched,
            references: [afStep4, afStep5, rfc5280Anchor]
        ),

        // Pins that do not match, or are missing, on a valid chain.
        policy(
            "public-key-pin-matches-nothing",
            "Mode publicKey with only an unrelated CA pinned: no certificate of the valid chain's verified path has its key.",
            mode: .publicKey, pinning: ["other-intermediate"], expect: .publicKeyPinNotMatched,
            references: [afStep6, rfc7469Validation]
        ),
        policy(
            "certificate-pin-matches-nothing",
            "Mode certificate with only an unrelated CA pinned: the valid chain does not chain to it as the only anchor.",
            mode: .certificate, pinning: ["other-intermediate"], expect: .invalidAgainstPinnedCertificates,
            references: [afStep5, rfc5280Anchor]
        ),
        policy(
            "public-key-empty-pin-set",
            "Mode publicKey with nothing pinned and invalid certificates not allowed: step 1 does not apply, the chain is valid, and an empty pin set matches nothing.",
            mode: .publicKey, expect: .publicKeyPinNotMatched,
            references: [afStep1, afStep4, afStep6]
        ),
        policy(
            "certificate-empty-pin-set",
            "Mode certificate with nothing pinned and invalid certificates not allowed: the chain is valid, but there is no pinned certificate to anchor it.",
            mode: .certificate, expect: .invalidAgainstPinnedCertificates,
            references: [afStep1, afStep4, afStep5]
        ),
        policy(
            "certificate-sha256-pins-only",
            "Mode certificate with only a sha256 pin, of the intermediate: certificate mode anchors on pinned certificates only, and there is none.",
            mode: .certificate, pinningKeysOf: ["intermediate"], expect: .invalidAgainstPinnedCertificates,
            references: [afStep5, hasPinsRule]
        ),

        // Without allowInvalidCertificates the chain must be valid against the anchors first.
        policy(
            "public-key-pin-wrong-domain",
            "Mode publicKey with the intermediate pinned, for a domain the leaf does not name: the chain is invalid for the host, so rejected before pins are looked at.",
            mode: .publicKey, pinning: ["intermediate"], domain: otherHost, expect: .invalidChain,
            references: [afStep2, afStep4, rfc9525DNS]
        ),
        policy(
            "certificate-pin-wrong-domain",
            "Mode certificate with the intermediate pinned, for a domain the leaf does not name: the chain is invalid for the host, so rejected before the pinned anchors are tried.",
            mode: .certificate, pinning: ["intermediate"], domain: otherHost, expect: .invalidChain,
            references: [afStep2, afStep4, rfc9525DNS]
        ),
        policy(
            "public-key-pin-untrusted-chain",
            "Mode publicKey with a root that is not an anchor pinned, its whole chain sent: invalid certificates are not allowed, so the pin is never looked at.",
            mode: .publicKey, pinning: ["other-root"], chain: otherChainWithRoot, expect: .invalidChain,
            references: [afStep4, rfc5280Anchor]
        ),
        policy(
            "certificate-pin-untrusted-chain",
            "Mode certificate with a root that is not an anchor pinned, its whole chain sent: invalid certificates are not allowed, so the pinned anchors are never tried.",
            mode: .certificate, pinning: ["other-root"], chain: otherChainWithRoot, expect: .invalidChain,
            references: [afStep4, rfc5280Anchor]
        ),

        // A pinned self-signed certificate with allowInvalidCertificates.
        policy(
            "public-key-self-signed-matching-host",
            "Mode publicKey with allowInvalidCertificates and the presented self-signed leaf (not an anchor) pinned: its key is pinned.",
            mode: .publicKey, pinning: ["self-signed-leaf"], allowInvalid: true, chain: selfSigned, expect: .publicKeyPinMatched,
            references: [afStep1, afStep4, afStep6]
        ),
        policy(
            "public-key-self-signed-other-host",
            "Mode publicKey with allowInvalidCertificates and the self-signed leaf pinned, for a domain it does not name: publicKey mode with invalid certificates allowed never evaluates the host (AFNetworking's semantics), so the pin decides.",
            mode: .publicKey, pinning: ["self-signed-leaf"], allowInvalid: true, chain: selfSigned, domain: otherHost,
            expect: .publicKeyPinMatched,
            references: [afStep4, afStep6]
        ),
        policy(
            "public-key-self-signed-no-names",
            "Mode publicKey with allowInvalidCertificates and a pinned self-signed certificate that has neither a SAN nor a commonName: the host is never evaluated, so the pin decides.",
            mode: .publicKey, pinning: ["self-signed-no-names"], allowInvalid: true, chain: ["self-signed-no-names"],
            expect: .publicKeyPinMatched,
            references: [afStep4, afStep6]
        ),
        policy(
            "public-key-sha256-pin-self-signed",
            "Mode publicKey with allowInvalidCertificates and the self-signed leaf pinned only by its sha256 pin: in publicKey mode a sha256 pin counts as pinning for step 1, and it matches.",
            mode: .publicKey, pinningKeysOf: ["self-signed-leaf"], allowInvalid: true, chain: selfSigned, expect: .publicKeyPinMatched,
            references: [afStep1, hasPinsRule, afStep6, rfc7469Pins]
        ),
        policy(
            "certificate-self-signed-matching-host",
            "Mode certificate with allowInvalidCertificates and the presented self-signed leaf pinned: with it as the only anchor the chain is valid for the name in its SAN.",
            mode: .certificate, pinning: ["self-signed-leaf"], allowInvalid: true, chain: selfSigned, expect: .certificatePinMatched,
            references: [afStep1, afStep5, rfc5280Anchor, rfc9525DNS]
        ),
        policy(
            "certificate-self-signed-other-host",
            "Mode certificate with allowInvalidCertificates and the self-signed leaf pinned, for a domain it does not name: the pinned-anchor evaluation checks the host even when invalid certificates are allowed.",
            mode: .certificate, pinning: ["self-signed-leaf"], allowInvalid: true, chain: selfSigned, domain: otherHost,
            expect: .invalidAgainstPinnedCertificates,
            references: [afStep2, afStep5, rfc9525DNS]
        ),
        policy(
            "certificate-self-signed-no-names",
            "Mode certificate with allowInvalidCertificates and a pinned self-signed certificate with neither a SAN nor a commonName: it cannot be valid for the domain.",
            mode: .certificate, pinning: ["self-signed-no-names"], allowInvalid: true, chain: ["self-signed-no-names"],
            expect: .invalidAgainstPinnedCertificates,
            references: [afStep2, afStep5, rfc9525DNS]
        ),
        policy(
            "certificate-self-signed-no-names-domain-not-validated",
            "Mode certificate with allowInvalidCertificates, validatesDomainName false and the pinned self-signed certificate that names no host: no host is checked, and it is valid as its own anchor.",
            mode: .certificate, pinning: ["self-signed-no-names"], allowInvalid: true, validatesDomainName: false,
            chain: ["self-signed-no-names"], expect: .certificatePinMatched,
            references: [afStep1, afStep2, afStep5]
        ),

        // A private CA pinned with allowInvalidCertificates: its root is not among the anchors.
        policy(
            "private-ca-certificate",
            "Mode certificate with allowInvalidCertificates and a root that is not an anchor pinned; the peer sends leaf and intermediate: with the pinned root as the only anchor the chain is valid and ends at it.",
            mode: .certificate, pinning: ["other-root"], allowInvalid: true, chain: otherChain, expect: .certificatePinMatched,
            references: [afStep5, rfc5280Anchor]
        ),
        policy(
            "private-ca-public-key-root-sent",
            "Mode publicKey with allowInvalidCertificates and a root that is not an anchor pinned, sent by the peer: the signature-linked path leaf, intermediate, root contains it.",
            mode: .publicKey, pinning: ["other-root"], allowInvalid: true, chain: otherChainWithRoot, expect: .publicKeyPinMatched,
            references: [afStep6, hardening]
        ),
        policy(
            "private-ca-public-key-root-not-sent",
            "Mode publicKey with allowInvalidCertificates and a root that is not an anchor pinned, not sent: the signature-linked path ends at the intermediate (the root is neither presented nor an anchor), so no certificate on it has the pinned key.",
            mode: .publicKey, pinning: ["other-root"], allowInvalid: true, chain: otherChain, expect: .publicKeyPinNotMatched,
            references: [afStep6, hardening]
        ),

        // Appended pins: a pinned certificate sent along with a chain it is not part of.
        policy(
            "appended-pin-public-key-allow-invalid",
            "Mode publicKey with allowInvalidCertificates and the real intermediate pinned; the peer sends a self-signed leaf with the intermediate appended. The intermediate did not sign the leaf, so it is not on the signature-linked path and its pin does not count.",
            mode: .publicKey, pinning: ["intermediate"], allowInvalid: true, chain: ["self-signed-leaf", "intermediate"],
            expect: .publicKeyPinNotMatched,
            references: [afStep6, hardening, rfc7469Validation]
        ),
        policy(
            "appended-pin-public-key-valid-chain",
            "Mode publicKey with the intermediate pinned; the peer sends a valid four-level chain with the pinned intermediate appended. The verified path (four-level leaf, its two intermediates, root) does not contain it.",
            mode: .publicKey, pinning: ["intermediate"],
            chain: ["chain4-leaf", "chain4-intermediate-2", "chain4-intermediate-1", "intermediate"],
            expect: .publicKeyPinNotMatched,
            references: [afStep4, afStep6, hardening, rfc7469Validation]
        ),
        policy(
            "appended-pin-public-key-untrusted-chain",
            "Mode publicKey with allowInvalidCertificates and the intermediate pinned; the peer sends a chain from a PKI that is not trusted with the pinned intermediate appended. The signature-linked path is the untrusted leaf and its intermediate only.",
            mode: .publicKey, pinning: ["intermediate"], allowInvalid: true, chain: otherChain + ["intermediate"],
            expect: .publicKeyPinNotMatched,
            references: [afStep6, hardening, rfc7469Validation]
        ),
        policy(
            "appended-pin-certificate-allow-invalid",
            "Mode certificate with allowInvalidCertificates and the intermediate pinned; the peer sends a self-signed leaf with the intermediate appended. The leaf does not chain to the pinned intermediate as the only anchor.",
            mode: .certificate, pinning: ["intermediate"], allowInvalid: true, chain: ["self-signed-leaf", "intermediate"],
            expect: .invalidAgainstPinnedCertificates,
            references: [afStep5, rfc5280Anchor]
        ),
        policy(
            "appended-pin-certificate-valid-chain",
            "Mode certificate with the intermediate pinned; the peer sends a valid four-level chain with the pinned intermediate appended. The chain is valid against the root, but not with the pinned intermediate as the only anchor.",
            mode: .certificate, pinning: ["intermediate"],
            chain: ["chain4-leaf", "chain4-intermediate-2", "chain4-intermediate-1", "intermediate"],
            expect: .invalidAgainstPinnedCertificates,
            references: [afStep4, afStep5, rfc5280Anchor]
        ),

        // A leaf re-issued with the same key, name and SAN.
        policy(
            "reissued-public-key",
            "Mode publicKey with the original leaf pinned; the peer sends the leaf re-issued with the same key (new serial and validity): the key is what is pinned, so it matches.",
            mode: .publicKey, pinning: ["leaf"], chain: ["reissued-leaf", "intermediate"], expect: .publicKeyPinMatched,
            references: [afStep4, afStep6, rfc7469Pins]
        ),
        policy(
            "reissued-certificate",
            "Mode certificate with the original leaf pinned; the peer sends the leaf re-issued with the same key, subject and SAN: the original leaf, the only anchor, did not issue the re-issued one, and it is not the same certificate.",
            mode: .certificate, pinning: ["leaf"], chain: ["reissued-leaf", "intermediate"], expect: .invalidAgainstPinnedCertificates,
            references: [afStep4, afStep5, rfc5280Anchor]
        ),

        // An expired chain with a matching pin.
        policy(
            "expired-pinned-public-key",
            "Mode publicKey with the intermediate pinned; the leaf expired one day before the validation time: without allowInvalidCertificates the invalid chain is rejected before pins are looked at.",
            mode: .publicKey, pinning: ["intermediate"], chain: expiredChain, expect: .invalidChain,
            references: [afStep4, rfc5280ValidityCheck]
        ),
        policy(
            "expired-pinned-certificate",
            "Mode certificate with the intermediate pinned; the leaf expired one day before the validation time: without allowInvalidCertificates the invalid chain is rejected before the pinned anchors are tried.",
            mode: .certificate, pinning: ["intermediate"], chain: expiredChain, expect: .invalidChain,
            references: [afStep4, rfc5280ValidityCheck]
        ),
        policy(
            "expired-pinned-public-key-allow-invalid",
            "Mode publicKey with allowInvalidCertificates and the intermediate pinned; the leaf is expired: the expired leaf is signed by the pinned intermediate, which is on the signature-linked path.",
            mode: .publicKey, pinning: ["intermediate"], allowInvalid: true, chain: expiredChain, expect: .publicKeyPinMatched,
            references: [afStep4, afStep6, hardening]
        ),
        policy(
            "expired-pinned-certificate-allow-invalid",
            "Mode certificate with allowInvalidCertificates and the intermediate pinned; the leaf is expired: the evaluation against the pinned anchors still checks validity, even with invalid certificates allowed.",
            mode: .certificate, pinning: ["intermediate"], allowInvalid: true, chain: expiredChain,
            expect: .invalidAgainstPinnedCertificates,
            references: [afStep5, rfc5280ValidityCheck]
        ),
    ]

    // MARK: - Manifest

    /// The policy vectors: each case for each key type, in catalogue order.
    /// - Parameter pin: the `sha256/` pin of a catalogue certificate of a key type (the generator takes
    ///   it from the certificate it has just minted).
    /// - Throws: whatever `pin` throws.
    static func entries(pin: (_ certificate: String, _ keyType: KeyType) throws -> SPKIPin) throws -> [PolicyVectorEntry] {
        var entries: [PolicyVectorEntry] = []
        for policyCase in cases {
            for keyType in KeyType.allCases {
                let files = { (names: [String]) in names.map { Catalogue.certificatePath($0, keyType) } }
                var pins: [String] = []
                for name in policyCase.pinnedKeys {
                    pins.append(try pin(name, keyType).description)
                }
                let settings = PolicySettings(
                    pinningMode: policyCase.pinningMode,
                    pinnedCertificates: files(policyCase.pinnedCertificates),
                    pins: pins,
                    allowInvalidCertificates: policyCase.allowInvalidCertificates,
                    validatesDomainName: policyCase.validatesDomainName
                )
                entries.append(
                    PolicyVectorEntry(
                        id: "policy/\(policyCase.name)/\(keyType.rawValue)",
                        description: policyCase.description,
                        chain: files(policyCase.chain),
                        anchors: files(policyCase.anchors),
                        domain: policyCase.domain,
                        time: Catalogue.validationTimeText,
                        policy: settings,
                        expected: PolicyExpectation(step: policyCase.step),
                        references: policyCase.references
                    )
                )
            }
        }
        return entries
    }

    // MARK: - Building blocks

    /// A domain none of the ordinary leaves names.
    static let otherHost = "other.example.test"

    private static let validChain = ["leaf", "intermediate"]
    private static let expiredChain = ["expired-leaf", "intermediate"]
    private static let selfSigned = ["self-signed-leaf"]
    /// A complete chain of the PKI that is never an anchor, without and with its root.
    private static let otherChain = ["other-leaf", "other-intermediate"]
    private static let otherChainWithRoot = ["other-leaf", "other-intermediate", "other-root"]

    // The steps as `SecurityPolicy` documents them, in AFNetworking's order.
    private static let afStep1 = "AFSecurityPolicy evaluateServerTrust:forDomain: step 1"
    private static let afStep2 = "AFSecurityPolicy evaluateServerTrust:forDomain: step 2"
    private static let afStep3 = "AFSecurityPolicy evaluateServerTrust:forDomain: step 3"
    private static let afStep4 = "AFSecurityPolicy evaluateServerTrust:forDomain: step 4"
    private static let afStep5 = "AFSecurityPolicy evaluateServerTrust:forDomain: step 5"
    private static let afStep6 = "AFSecurityPolicy evaluateServerTrust:forDomain: step 6"
    private static let hasPinsRule = "TrustHarness SecurityPolicy.hasPins: certificate mode counts pinned certificates, publicKey mode any pin, none nothing"
    private static let hardening = "TrustHarness hardening: pins count only on the signature-linked path"
    private static let rfc7469Pins = "RFC 7469 §2.4"
    private static let rfc7469Validation = "RFC 7469 §2.6"
    private static let rfc5280Validation = "RFC 5280 §6.1"
    private static let rfc5280Anchor = "RFC 5280 §6.1.1(d)"
    private static let rfc5280ValidityCheck = "RFC 5280 §6.1.3(a)(2)"
    private static let rfc9525DNS = "RFC 9525 §6.3"

    private static func policy(
        _ name: String,
        _ description: String,
        mode: PinningMode,
        pinning pinnedCertificates: [String] = [],
        pinningKeysOf pinnedKeys: [String] = [],
        allowInvalid: Bool = false,
        validatesDomainName: Bool = true,
        chain: [String] = validChain,
        anchors: [String] = ["root"],
        domain: String? = Catalogue.host,
        expect step: PolicyStep,
        references: [String]
    ) -> PolicyCase {
        PolicyCase(
            name: name, description: description, chain: chain, anchors: anchors, domain: domain,
            pinningMode: mode, pinnedCertificates: pinnedCertificates, pinnedKeys: pinnedKeys,
            allowInvalidCertificates: allowInvalid, validatesDomainName: validatesDomainName,
            step: step, references: references
        )
    }
}
