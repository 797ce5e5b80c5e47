import Crypto
import Foundation
import SwiftASN1
import Testing
@testable import TrustVectors
import X509

/// The path-building cases written here from BetterTLS's design are BetterTLS's: 81 of them, with
/// the expected results and features its own manifests publish (Vectors/bettertls/manifests, the
/// same at both revisions), and the x509-limbo document made from them holds the chains BetterTLS
/// makes: one certificate per edge of the case's graph, the invalid ones invalid for their reason.
@Suite struct BetterTLSPathBuildingTests {
    /// The time the tool makes the suite at (2026-01-01T00:00:00Z).
    static let time = Date(timeIntervalSince1970: 1_767_225_600)

    static func manifest(_ revision: BetterTLSNameConstraints.Revision) throws -> BetterTLSManifest.Suite {
        let manifest = try BetterTLSManifest.committed(revision.rawValue)
        #expect(manifest.betterTlsRevision.hasPrefix(revision.rawValue))
        return try #require(manifest.suiteManifests["pathbuilding"])
    }

    /// The export, decoded once per test.
    struct Document {
        var testcases: [[String: Any]]

        init(seed: UInt64 = 1, selected: (Int) -> Bool = { _ in true }) throws {
            let data = try BetterTLSExport.pathBuilding(seed: seed, at: BetterTLSPathBuildingTests.time, selected: selected)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(object["version"] as? Int == 1)
            testcases = try #require(object["testcases"] as? [[String: Any]])
        }

        /// The case with BetterTLS's id `index` (the document may hold only some).
        func testcase(_ index: Int) throws -> [String: Any] {
            try #require(testcases.first { $0["id"] as? String == "bettertls::pathbuilding::tc\(index)" })
        }

        /// The case's certificates as PEM: the leaf, then the untrusted intermediates.
        func chain(_ index: Int) throws -> [String] {
            let testcase = try testcase(index)
            return [try #require(testcase["peer_certificate"] as? String)] + (try #require(testcase["untrusted_intermediates"] as? [String]))
        }

        func root(_ index: Int) throws -> Certificate {
            let trusted = try #require(try testcase(index)["trusted_certs"] as? [String])
            #expect(trusted.count == 1)
            return try Certificate(pemEncoded: trusted[0])
        }
    }

    // MARK: The cases

    @Test func theSuiteHas81Cases() {
        #expect(BetterTLSPathBuilding.cases().count == 81)
    }

    @Test(arguments: BetterTLSNameConstraints.Revision.allCases)
    func everyCaseExpectsWhatBetterTLSsManifestSays(revision: BetterTLSNameConstraints.Revision) throws {
        let published = try Self.manifest(revision)
        let cases = BetterTLSPathBuilding.cases()
        #expect(cases.map(\.expected.rawValue) == published.expectedResults)
        // The manifest's features are keyed by BetterTLS's numbers of them.
        let features = Dictionary(uniqueKeysWithValues: BetterTLSPathBuilding.features.map { (String($0.number), $0.name) })
        #expect(features == published.features)
    }

    /// a738c20 (December 2021) and 081fb7c publish the same path-building suite: the cases did not
    /// change between them (only the leaf's extendedKeyUsage did, later, in 859af10).
    @Test func bothRevisionsPublishTheSameSuite() throws {
        let december2021 = try Self.manifest(.december2021)
        let current = try Self.manifest(.current)
        #expect(december2021.expectedResults == current.expectedResults)
        #expect(december2021.features == current.features)
    }

    @Test func theExpectedResultsAgreeWithWhatBetterTLSsAuthorsWrote() {
        let disagreeing = BetterTLSPathBuilding.cases().enumerated().filter { ($0.element.expected == .fail) != $0.element.expectFailure }
        #expect(disagreeing.isEmpty, "\(disagreeing.map(\.offset))")
    }

    @Test func theCasesAreTheGraphsTimesTheReasons() {
        let cases = BetterTLSPathBuilding.cases()
        #expect(BetterTLSPathBuilding.explicitCases.count == 17)
        // Every case with invalid edges has one reason, and each explicit case with invalid edges
        // appears once per reason, in BetterTLS's order of reasons.
        #expect(cases.filter { !$0.invalidEdges.isEmpty }.allSatisfy { $0.invalidReason != .unspecified })
        #expect(cases[3...8].map(\.invalidReason) == BetterTLSPathBuilding.InvalidReason.reasons)
        #expect(cases[10...15].map(\.invalidReason) == BetterTLSPathBuilding.InvalidReason.reasons)
        #expect(cases[75...80].map(\.invalidEdges).allSatisfy { $0 == [BetterTLSPathBuilding.Edge("TA Z", "Bridge CA")] })
        #expect(Dictionary(grouping: cases, by: \.graph.name).mapValues(\.count) == ["LINEAR_TRUST_GRAPH": 20, "TWO_ROOTS": 28, "FIGURE_SEVEN": 13, "BRIDGE_CA_PKI": 20])
        // The sanity check needs nothing; each feature's cases need it.
        #expect(cases[BetterTLSPathBuilding.sanityCheckCase].requiredFeatures.isEmpty)
        for feature in BetterTLSPathBuilding.features {
            let indices = BetterTLSPathBuilding.featureCases(feature)
            #expect(!indices.isEmpty && indices.allSatisfy { cases[$0].requiredFeatures.contains(feature) && cases[$0].expected == (feature == .branching ? .pass : .fail) })
        }
    }

    @Test func theGraphsAreBetterTLSs() {
        #expect(BetterTLSPathBuilding.trustGraphs.map(\.name) == ["TWO_ROOTS", "LINEAR_TRUST_GRAPH", "FIGURE_SEVEN", "BRIDGE_CA_PKI"])
        #expect(BetterTLSPathBuilding.trustGraphs.map(\.edges.count) == [3, 2, 7, 36])
        #expect(BetterTLSPathBuilding.figureSeven.nodes == ["A", "B", "C", "EE", "Trust Anchor"])
        #expect(BetterTLSPathBuilding.bridgeCAPKI.nodes.count == 25)
        // RFC 4158 section 2.4.2: from TA Z to EE through the bridge and TA X.
        #expect(BetterTLSPathBuilding.bridgeCAPKI.reachable(avoiding: [], from: "TA Z", to: "EE") == ["TA Z", "Bridge CA", "TA X", "L", "N", "EE"])
    }

    // MARK: The export

    @Test func theExportHas81CasesInOrder() throws {
        let document = try Document()
        let cases = BetterTLSPathBuilding.cases()
        #expect(document.testcases.count == 81)
        #expect(document.testcases.map { $0["id"] as? String } == (0..<81).map { "bettertls::pathbuilding::tc\($0)" })
        for (index, testcase) in document.testcases.enumerated() {
            #expect(testcase["expected_result"] as? String == (cases[index].expected == .pass ? "SUCCESS" : "FAILURE"))
            #expect(testcase["expected_peer_name"] as? [String: String] == ["kind": "DNS", "value": "localhost"])
            #expect(testcase["validation_kind"] as? String == "SERVER")
            #expect(testcase["validation_time"] as? String == "2026-01-01T00:00:00Z")
            // One certificate per edge: the leaf's and every other one.
            #expect(try document.chain(index).count == cases[index].graph.edges.count)
        }
        let some = try Document(selected: { $0 % 10 == 3 })
        #expect(some.testcases.map { $0["id"] as? String } == [3, 13, 23, 33, 43, 53, 63, 73].map { "bettertls::pathbuilding::tc\($0)" })
    }

    /// Everything a verdict depends on is the same for the same seed: the JSON but for signatures,
    /// and each certificate's TBSCertificate byte for byte (ECDSA signatures are randomised).
    @Test func theSameSeedMakesTheSameCases() throws {
        let first = try Document(selected: { $0 < 12 || $0 > 70 }), second = try Document(selected: { $0 < 12 || $0 > 70 })
        #expect(first.testcases.count == second.testcases.count)
        for (a, b) in zip(first.testcases, second.testcases) {
            var a = a, b = b
            for key in ["trusted_certs", "untrusted_intermediates", "peer_certificate"] {
                a[key] = nil
                b[key] = nil
            }
            #expect(NSDictionary(dictionary: a).isEqual(to: b))
        }
        for index in Array(0..<12) + Array(71..<81) {
            #expect(try first.chain(index).map(Self.tbs) == second.chain(index).map(Self.tbs))
            #expect(try first.root(index).tbsCertificateBytes == second.root(index).tbsCertificateBytes)
        }
        let other = try Document(seed: 2, selected: { $0 == 0 })
        #expect(try other.chain(0).map(Self.tbs) != first.chain(0).map(Self.tbs))
    }

    // MARK: The chains

    /// Every certificate is issued under the name and key of its edge's source: its issuer is the
    /// source node's name (the root's, for the anchor), and its signature verifies with the source's
    /// key, the deprecated-crypto ones (ecdsa-with-SHA1, which swift-certificates cannot parse) read
    /// from their DER and checked over SHA-1. Every presented certificate is checked.
    @Test func everyCertificateIsSignedByItsEdgesSource() throws {
        let document = try Document()
        let maker = BetterTLSExport.Maker(seed: 1, time: Self.time)
        let ecdsaWithSHA256: [UInt8] = [0x30, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]
        var checked = 0, sha1 = 0, presented = 0
        for (index, testcase) in BetterTLSPathBuilding.cases().enumerated() {
            let root = try document.root(index)
            let pems = try document.chain(index)
            presented += testcase.presentedEdges.count
            #expect(pems.count == testcase.presentedEdges.count)
            for (edge, pem) in zip(testcase.presentedEdges, pems) {
                // The issuer's name and key: the root's for the anchor, else the source node's own
                // (BetterTLS gives every node a key and a name; a root other than the anchor has no
                // certificate in the case, so its name and key come from the same seed).
                let issuerName: DistinguishedName
                let issuerKey: P256.Signing.PublicKey
                if edge.source == testcase.trustAnchor {
                    issuerName = root.subject
                    issuerKey = try #require(P256.Signing.PublicKey(root.publicKey))
                } else {
                    issuerName = try BetterTLSExport.goName(commonName: edge.source, serialNumber: BetterTLSExport.uuid(seed: 1, "pathbuilding \(index) \(edge.source)"))
                    issuerKey = try maker.key("pathbuilding \(index) \(edge.source)").publicKey
                }
                let tree = try DERTree(ArraySlice(try PEMDocument(pemString: pem).derBytes))
                var name = DER.Serializer()
                try name.serialize(issuerName)
                #expect(tree[[0, 3]].encoded == name.serializedBytes, "tc\(index) \(edge): the issuer is the source's name")
                let algorithm = tree[[1]].encoded
                let deprecated = testcase.isInvalid(edge) && testcase.invalidReason == .deprecatedCrypto
                #expect(algorithm == (deprecated ? BetterTLSExport.ecdsaWithSHA1 : ecdsaWithSHA256), "tc\(index) \(edge)")
                let bits = tree[[2]]
                let signatureDER = bits.children.map { (children: [DERTree]) in children.flatMap { $0.encoded } } ?? Array(bits.content.dropFirst())
                let signature = try P256.Signing.ECDSASignature(derRepresentation: signatureDER)
                let signed = tree[[0]].encoded
                let valid = deprecated ? issuerKey.isValidSignature(signature, for: Insecure.SHA1.hash(data: signed))
                                       : issuerKey.isValidSignature(signature, for: SHA256.hash(data: signed))
                #expect(valid, "tc\(index) \(edge): signed by the source's key")
                if deprecated { sha1 += 1 }
                if !deprecated, edge.destination == testcase.trustAnchor {
                    // A certificate into the anchor certifies the root's own name and key.
                    let certificate = try Certificate(pemEncoded: pem)
                    #expect(certificate.subject == root.subject && certificate.publicKey == root.publicKey)
                }
                checked += 1
            }
            // The leaf: for localhost, a server, not a CA.
            let leaf = try Certificate(pemEncoded: pems[0])
            #expect(testcase.presentedEdges[0].destination == testcase.leaf)
            #expect(try leaf.extensions.subjectAlternativeNames == SubjectAlternativeNames([.dnsName("localhost")]))
            #expect(try leaf.extensions.extendedKeyUsage == ExtendedKeyUsage([.serverAuth]))
            #expect(try leaf.extensions.basicConstraints == .notCertificateAuthority)
        }
        #expect(checked == presented && checked > 800)
        #expect(sha1 == BetterTLSPathBuilding.cases().flatMap { c in c.presentedEdges.filter { c.isInvalid($0) && c.invalidReason == .deprecatedCrypto } }.count && sha1 > 0)
    }

    /// The linear chain broken for each reason (cases 3 to 8): the ICA's certificate, the one
    /// intermediate, is invalid as BetterTLS makes it, and only for that reason.
    @Test func eachReasonBreaksTheEdgeAsBetterTLSDoes() throws {
        let document = try Document(selected: { (3...9).contains($0) })
        func intermediate(_ index: Int) throws -> String {
            let chain = try document.chain(index)
            #expect(chain.count == 2)
            return chain[1]
        }
        let valid = try Certificate(pemEncoded: intermediate(9))
        #expect(valid.notValidAfter > Self.time)
        #expect(try valid.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: nil))
        #expect(try valid.extensions.extendedKeyUsage == nil)
        #expect(try valid.extensions.nameConstraints == nil)

        let expired = try Certificate(pemEncoded: intermediate(3))
        #expect(expired.notValidAfter < Self.time)
        #expect(expired.notValidAfter == Self.time.addingTimeInterval(-3_600))
        #expect(try Certificate(pemEncoded: document.chain(3)[0]).notValidAfter > Self.time)

        let constrained = try Certificate(pemEncoded: intermediate(4))
        let constraints = try #require(try constrained.extensions.nameConstraints)
        #expect(Array(constraints.permittedDNSDomains) == ["bad.example.com"])
        #expect(constrained.extensions.first { $0.oid == [2, 5, 29, 30] }?.critical == true)

        let badEKU = try Certificate(pemEncoded: intermediate(5))
        #expect(try badEKU.extensions.extendedKeyUsage == ExtendedKeyUsage([.emailProtection]))

        let missing = try Certificate(pemEncoded: intermediate(6))
        #expect(try missing.extensions.basicConstraints == nil)
        #expect(try missing.extensions.keyUsage == KeyUsage(keyCertSign: true))

        let notCA = try Certificate(pemEncoded: intermediate(7))
        #expect(try notCA.extensions.basicConstraints == .notCertificateAuthority)
        #expect(try notCA.extensions.keyUsage == KeyUsage(keyCertSign: true))

        // ecdsa-with-SHA1, inside the TBSCertificate and outside it; the leaf it signs stays SHA-256.
        let sha1: ASN1ObjectIdentifier = [1, 2, 840, 10045, 4, 1]
        #expect(try Self.signatureAlgorithms(intermediate(8)) == [sha1, sha1])
        #expect(try Self.signatureAlgorithms(document.chain(8)[0]) == [[1, 2, 840, 10045, 4, 3, 2], [1, 2, 840, 10045, 4, 3, 2]])
        #expect(throws: (any Error).self) { try Certificate(pemEncoded: intermediate(8)) }
    }

    /// Case 16: the ICA is the anchor, so its certificate is the root's, and the expired certificate
    /// from the old trust anchor to it is presented but not needed.
    @Test func aDirectlyTrustedIntermediateIsTheRoot() throws {
        let document = try Document(selected: { $0 == 16 })
        let root = try document.root(16)
        let chain = try document.chain(16)
        let leaf = try Certificate(pemEncoded: chain[0]), crossSigned = try Certificate(pemEncoded: chain[1])
        #expect(leaf.issuer == root.subject)
        #expect(crossSigned.subject == root.subject && crossSigned.publicKey == root.publicKey)
        #expect(crossSigned.notValidAfter < Self.time)
    }

    /// The TBSCertificate's bytes of a PEM certificate.
    static func tbs(_ pem: String) throws -> [UInt8] {
        let certificate = try DER.parse(try PEMDocument(pemString: pem).derBytes)
        guard case .constructed(let parts) = certificate.content, let tbs = parts.first(where: { _ in true }) else { throw ASN1Error.invalidASN1Object(reason: "not a certificate") }
        return Array(tbs.encodedBytes)
    }

    /// The signature algorithms of a PEM certificate: inside the TBSCertificate, then outside it.
    static func signatureAlgorithms(_ pem: String) throws -> [ASN1ObjectIdentifier] {
        let certificate = try DER.parse(try PEMDocument(pemString: pem).derBytes)
        guard case .constructed(let parts) = certificate.content else { throw ASN1Error.invalidASN1Object(reason: "not a certificate") }
        let outer = Array(parts)
        guard case .constructed(let fields) = outer[0].content else { throw ASN1Error.invalidASN1Object(reason: "no TBSCertificate") }
        func oid(_ algorithm: ASN1Node) throws -> ASN1ObjectIdentifier {
            guard case .constructed(let parts) = algorithm.content, let first = parts.first(where: { _ in true }) else { throw ASN1Error.invalidASN1Object(reason: "not an AlgorithmIdentifier") }
            return try ASN1ObjectIdentifier(derEncoded: first)
        }
        return [try oid(Array(fields)[2]), try oid(outer[1])]
    }
}
