import Foundation
import Testing
import TrustCore
import X509
@testable import TrustVectors
import TrustPolicy

/// The pinning-policy vectors are complete, well formed, and their pins are the keys they name.
@Suite struct PolicyCatalogueTests {
    let policies: [PolicyVectorEntry]

    init() throws {
        policies = try PolicyCatalogue.entries(pin: VectorsFolder.pin)
    }

    @Test func idsAreUniqueAndFollowThePolicyCaseKeyTypeScheme() throws {
        let ids = policies.map(\.id)
        #expect(Set(ids).count == ids.count)
        for id in ids {
            let parts = id.split(separator: "/", omittingEmptySubsequences: false)
            #expect(parts.count == 3 && parts[0] == "policy" && KeyType(rawValue: String(parts[2])) != nil, "\(id)")
        }
        let chainIDs = Set(try Catalogue.manifest(pin: VectorsFolder.pin).vectors.map(\.id))
        #expect(chainIDs.isDisjoint(with: ids), "policy ids never collide with chain vector ids")
    }

    @Test func everyCaseIsPresentForEveryKeyType() {
        let ids = Set(policies.map(\.id))
        #expect(policies.count == PolicyCatalogue.cases.count * KeyType.allCases.count)
        for policyCase in PolicyCatalogue.cases {
            for keyType in KeyType.allCases {
                #expect(ids.contains("policy/\(policyCase.name)/\(keyType.rawValue)"))
            }
        }
    }

    /// The cases the policy semantics were specified with, and the step each must expect. A change
    /// to one of these expectations has to be made here as well, on purpose.
    @Test func specifiedCasesExpectTheirSteps() {
        let specified: [String: PolicyStep] = [
            "none-valid": .validChain,
            "none-invalid-chain": .invalidChain,
            "none-no-domain": .validChain,
            "none-wrong-domain": .invalidChain,
            "none-domain-not-validated": .validChain,
            "none-allow-invalid-no-domain": .allowInvalidWithoutPinning,
            "step1-none-allow-invalid-with-domain": .domainValidationRequiresPinning,
            "step1-public-key-no-pins": .domainValidationRequiresPinning,
            "step1-certificate-no-pins": .domainValidationRequiresPinning,
            "public-key-pin-leaf": .publicKeyPinMatched,
            "public-key-pin-intermediate": .publicKeyPinMatched,
            "public-key-pin-root-not-sent": .publicKeyPinMatched,
            "public-key-sha256-pin-root-not-sent": .publicKeyPinMatched,
            "certificate-pin-leaf": .certificatePinMatched,
            "certificate-pin-intermediate": .certificatePinMatched,
            "certificate-pin-root-not-sent": .certificatePinMatched,
            "public-key-pin-matches-nothing": .publicKeyPinNotMatched,
            "certificate-pin-matches-nothing": .invalidAgainstPinnedCertificates,
            "public-key-empty-pin-set": .publicKeyPinNotMatched,
            "certificate-empty-pin-set": .invalidAgainstPinnedCertificates,
            "public-key-self-signed-matching-host": .publicKeyPinMatched,
            "public-key-self-signed-other-host": .publicKeyPinMatched,
            "public-key-self-signed-no-names": .publicKeyPinMatched,
            "certificate-self-signed-matching-host": .certificatePinMatched,
            "certificate-self-signed-other-host": .invalidAgainstPinnedCertificates,
            "certificate-self-signed-no-names": .invalidAgainstPinnedCertificates,
            "appended-pin-public-key-allow-invalid": .publicKeyPinNotMatched,
            "appended-pin-public-key-valid-chain": .publicKeyPinNotMatched,
            "appended-pin-certificate-allow-invalid": .invalidAgainstPinnedCertificates,
            "reissued-public-key": .publicKeyPinMatched,
            "reissued-certificate": .invalidAgainstPinnedCertificates,
            "expired-pinned-public-key": .invalidChain,
            "expired-pinned-certificate": .invalidChain,
            "expired-pinned-public-key-allow-invalid": .publicKeyPinMatched,
        ]
        let steps = Dictionary(uniqueKeysWithValues: PolicyCatalogue.cases.map { ($0.name, $0.step) })
        for (name, step) in specified {
            #expect(steps[name] == step, "\(name)")
        }
    }

    @Test func everyReferencedFileExists() throws {
        let folder = try VectorsFolder.committed()
        for entry in policies {
            for path in entry.chain + entry.anchors + entry.policy.pinnedCertificates {
                #expect(
                    FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path),
                    "\(entry.id): \(path)"
                )
            }
        }
    }

    @Test func entriesAreWellFormed() {
        for entry in policies {
            #expect(!entry.chain.isEmpty && !entry.anchors.isEmpty, "\(entry.id)")
            #expect(!entry.description.isEmpty && !entry.references.isEmpty, "\(entry.id)")
            #expect(entry.expected.trusted == entry.expected.step.trusts, "\(entry.id)")
            #expect(entry.time == Catalogue.validationTimeText, "\(entry.id)")
            let keyType = entry.id.split(separator: "/").last.map(String.init) ?? ""
            for path in entry.chain + entry.anchors + entry.policy.pinnedCertificates {
                #expect(path.hasPrefix("certs/\(keyType)/"), "\(entry.id): \(path) is of another key type")
            }
        }
    }

    @Test(arguments: KeyType.allCases)
    func pinsParseAndAreTheKeysOfTheCertificatesNamed(_ keyType: KeyType) throws {
        let entries = Dictionary(uniqueKeysWithValues: policies.map { ($0.id, $0) })
        for policyCase in PolicyCatalogue.cases {
            let id = "policy/\(policyCase.name)/\(keyType.rawValue)"
            guard let entry = entries[id] else {
                Issue.record("\(id) is missing")
                continue
            }
            #expect(entry.policy.pins.count == policyCase.pinnedKeys.count, "\(id)")
            for (text, name) in zip(entry.policy.pins, policyCase.pinnedKeys) {
                let pin = try SPKIPin(text)
                #expect(pin == (try VectorsFolder.pin(name, keyType)), "\(id): \(text) is not the key of \(name)")
                #expect(pin.description == text, "\(id): \(text) is not canonical")
            }
        }
    }

    @Test func settingsBuildAPolicy() throws {
        let folder = try VectorsFolder.committed()
        for entry in policies {
            let pinned = try entry.policy.pinnedCertificates.flatMap {
                try CertificateFile.read(folder.appendingPathComponent($0))
            }
            let policy = try SecurityPolicy(
                pinningMode: entry.policy.pinningMode,
                pinnedCertificates: pinned,
                pins: try entry.policy.pins.map(SPKIPin.init),
                allowInvalidCertificates: entry.policy.allowInvalidCertificates,
                validatesDomainName: entry.policy.validatesDomainName
            )
            #expect(policy.pins.count == entry.policy.pinnedCertificates.count + entry.policy.pins.count, "\(entry.id)")
        }
    }

    /// Step 1 decides exactly where the documented condition holds; no other step is checked here,
    /// since the rest needs a back end.
    @Test func stepOneIsExpectedExactlyWhereItsConditionHolds() {
        for policyCase in PolicyCatalogue.cases {
            let hasPins: Bool
            switch policyCase.pinningMode {
            case .none: hasPins = false
            case .certificate: hasPins = !policyCase.pinnedCertificates.isEmpty
            case .publicKey: hasPins = !(policyCase.pinnedCertificates + policyCase.pinnedKeys).isEmpty
            }
            let stepOne = policyCase.domain != nil && policyCase.allowInvalidCertificates
                && policyCase.validatesDomainName && !hasPins
            #expect((policyCase.step == .domainValidationRequiresPinning) == stepOne, "\(policyCase.name)")
        }
    }

    /// Cases that expect no match rely on the pinned keys being on no certificate of the presented
    /// chain's own path: the pinned certificate shares no key with the other presented certificates
    /// or the anchors, and signs none of them.
    @Test(arguments: KeyType.allCases)
    func unmatchedPinsAreOnNoCertificateOfThePath(_ keyType: KeyType) throws {
        let cases = PolicyCatalogue.cases.filter {
            $0.step == .publicKeyPinNotMatched && $0.name != "private-ca-public-key-root-not-sent"
        }
        #expect(!cases.isEmpty)
        for policyCase in cases {
            let pinned = Set(policyCase.pinnedCertificates + policyCase.pinnedKeys)
            let pinnedKeys = try pinned.map { try Certificate(derEncoded: VectorsFolder.certificate($0, keyType)).publicKey }
            for name in Set(policyCase.chain + policyCase.anchors).subtracting(pinned) {
                let certificate = try Certificate(derEncoded: VectorsFolder.certificate(name, keyType))
                for key in pinnedKeys {
                    #expect(certificate.publicKey != key, "\(policyCase.name): \(name) has a pinned key")
                    #expect(!key.isValidSignature(certificate.signature, for: certificate), "\(policyCase.name): a pinned key signed \(name)")
                }
            }
        }
    }

    /// The root pinned in the private-CA cases is neither an anchor nor, when not sent, presented,
    /// while the intermediate it issued is presented.
    @Test(arguments: KeyType.allCases)
    func privateCARootIsNotAnAnchor(_ keyType: KeyType) throws {
        let root = try Certificate(derEncoded: VectorsFolder.certificate("other-root", keyType))
        let intermediate = try Certificate(derEncoded: VectorsFolder.certificate("other-intermediate", keyType))
        #expect(root.publicKey.isValidSignature(intermediate.signature, for: intermediate))
        for policyCase in PolicyCatalogue.cases where policyCase.name.hasPrefix("private-ca-") {
            #expect(!policyCase.anchors.contains("other-root"), "\(policyCase.name)")
            #expect(policyCase.chain.contains("other-intermediate"), "\(policyCase.name)")
        }
    }
}
