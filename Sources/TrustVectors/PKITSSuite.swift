import Crypto
import Foundation
import TrustCore

/// NIST PKITS (the Public Key Interoperability Test Suite, 1.0.1) as `pkits.json` holds it (the
/// vendored copy is `Vectors/pkits/`; its README gives the format and origin): 249 entries of RFC 5280
/// path validation with their policy inputs, read as test cases the x509-limbo runner evaluates.
///
/// Each entry becomes a case of kind `PATH` (validated for any purpose, no host), with the trust
/// anchor, the intermediates as an unordered pool, the end entity, the CRLs, PKITS's validation time
/// and the RFC 5280 policy inputs. Entries of §4.8-4.12, and any with inputs other than the
/// defaults, need certificate policy processing: a back end without it skips them. Entries of §4.4,
/// 4.14 and 4.15 rest on their CRLs: a back end that takes no CRLs skips them, and runs the others
/// without the CRLs (none of their certificates is revoked).
public enum PKITSSuite {
    struct Document: Decodable {
        var version: Int
        var validation_time: String
        var testcases: [Entry]
    }

    struct Entry: Decodable {
        struct Settings: Decodable {
            var initial_policy_set: [String]
            var initial_explicit_policy: Bool
            var initial_policy_mapping_inhibit: Bool
            var initial_inhibit_any_policy: Bool
        }

        var id: String
        var section: String
        var name: String
        var description: String
        var trust_anchor: String
        var intermediates: [String]
        var end_entity: String
        var crls: [String]
        var settings: Settings
        var expected_result: String
        var notes: [String]?
    }

    /// PKITS's sections, for the per-section summary.
    public static let sections: [String: String] = [
        "4.1": "4.1 signature verification", "4.2": "4.2 validity periods", "4.3": "4.3 name chaining",
        "4.4": "4.4 basic revocation", "4.5": "4.5 self-issued certificates", "4.6": "4.6 basic constraints",
        "4.7": "4.7 key usage", "4.8": "4.8 certificate policies", "4.9": "4.9 requireExplicitPolicy",
        "4.10": "4.10 policy mappings", "4.11": "4.11 inhibitPolicyMapping", "4.12": "4.12 inhibitAnyPolicy",
        "4.13": "4.13 name constraints", "4.14": "4.14 distribution points", "4.15": "4.15 delta CRLs",
        "4.16": "4.16 private certificate extensions",
    ]

    /// The sections whose results rest on revocation checking: every other entry's certificates
    /// are all unrevoked, so its result does not depend on the CRLs it carries.
    static let revocationSections: Set<String> = ["4.4", "4.14", "4.15"]

    /// Entries outside those sections whose failure rests on revocation data: a revoked end entity
    /// (§4.5.2, 4.5.5), CRLs signed with a rolled-over or separate CRL-signing key (§4.5.7, 4.5.8),
    /// and CRLs of a CA without cRLSign, so that no usable revocation data exists (§4.7.4, 4.7.5).
    static let revocationEntries: Set<String> = ["4.5.2", "4.5.5", "4.5.7", "4.5.8", "4.7.4", "4.7.5"]

    /// The sections whose results rest on certificate policy processing.
    static let policySections: Set<String> = ["4.8", "4.9", "4.10", "4.11", "4.12"]

    /// `Vectors/pkits/pkits.json` of the checkout, if there is one.
    public static func locateVendored(from filePath: String = VectorSuite.sourceFile) -> URL? {
        VectorSuite.locate(from: filePath).map { $0.appendingPathComponent("pkits/pkits.json") }
            .flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }
    }

    /// - Throws: ``FileProblem`` naming the file: unreadable, not PKITS's format, a bad time.
    public static func load(from url: URL) throws -> LimboSuite {
        let data = try FileProblem.contents(of: url)
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch let error as DecodingError {
            throw FileProblem(file: url.path, problem: "is not a PKITS suite (pkits.json): \(FileProblem.jsonReason(error, data: data))")
        }
        guard let time = Timestamp.parse(document.validation_time) else {
            throw FileProblem(file: url.path, problem: "validation_time \"\(document.validation_time)\" is not \(Timestamp.accepted)")
        }
        var seen = Set<String>()
        let testcases = try document.testcases.map { entry -> LimboTestcase in
            guard seen.insert(entry.id).inserted else { throw FileProblem(file: url.path, problem: "entry id \(entry.id) appears twice") }
            guard entry.expected_result == "SUCCESS" || entry.expected_result == "FAILURE" else {
                throw FileProblem(file: url.path, problem: "\(entry.id): expected_result is \"\(entry.expected_result)\"")
            }
            var about = entry.description == entry.name ? entry.name : "\(entry.name): \(entry.description)"
            if let notes = entry.notes, !notes.isEmpty { about += " Notes: " + notes.joined(separator: " ") }
            var testcase = LimboTestcase(
                id: entry.id, description: about, validationKind: "PATH", trustedCerts: [entry.trust_anchor],
                untrustedIntermediates: entry.intermediates, peerCertificate: entry.end_entity, validationTime: time,
                expectedResult: entry.expected_result, crls: entry.crls
            )
            let settings = entry.settings
            let inputs = PolicyInputs(initialPolicySet: settings.initial_policy_set, explicitPolicy: settings.initial_explicit_policy,
                                      inhibitPolicyMapping: settings.initial_policy_mapping_inhibit, inhibitAnyPolicy: settings.initial_inhibit_any_policy)
            let major = entry.section.split(separator: ".").prefix(2).joined(separator: ".")
            testcase.policy = inputs
            testcase.needsPolicyProcessing = policySections.contains(major) || inputs != PolicyInputs()
            testcase.needsRevocation = revocationSections.contains(major) || revocationEntries.contains(entry.section)
            // PKITS §4.4: current revocation data is required for every certificate but the anchor.
            testcase.revocationMode = .hardFail
            testcase.group = sections[major] ?? major
            return testcase
        }
        let digest = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
        return LimboSuite(version: document.version, testcases: testcases, digest: digest, file: url.path)
    }
}
