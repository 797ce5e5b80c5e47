import Crypto
import Foundation
import SwiftASN1
import TrustCore

/// A test suite in the format of x509-limbo (C2SP/x509-limbo): path-validation test cases, each
/// with trust anchors, untrusted intermediates, a peer certificate, the name to check, constraints
/// and the expected result. `Vectors/limbo/limbo.json` is a copy of 208 of its cases (see
/// `Vectors/limbo/README.md`); any file in the same format loads.
public struct LimboSuite: Sendable {
    /// The format version the file declares (1 for the current schema).
    public var version: Int
    /// The newest format version this runner knows. A newer suite still loads (its fields and
    /// values this code does not know are ignored, and cases needing features it does not know are
    /// skipped with the reason), and ``newerVersionNote`` says so.
    public static let newestKnownVersion = 1
    /// What to tell the reader when the suite's format is newer than this runner knows; nil otherwise.
    public var newerVersionNote: String? {
        guard version > Self.newestKnownVersion else { return nil }
        return "\(file) declares x509-limbo format version \(version); this runner knows versions up to \(Self.newestKnownVersion): fields it does not know are ignored, and cases needing features it does not know are skipped with the reason"
    }
    public var testcases: [LimboTestcase]
    /// SHA-256 of the file's bytes, hex: which suite a record of results belongs to.
    public var digest: String
    /// Where it was read from.
    public var file: String

    /// Reads and decodes a suite: `url` is a `limbo.json` file or a folder holding one.
    /// - Throws: ``FileProblem`` naming the file and what is wrong: unreadable, not JSON, a test case
    ///   missing a required field (named with its id where it has one), duplicate ids.
    public static func load(from url: URL) throws -> LimboSuite {
        var isFolder: ObjCBool = false
        let file = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue
            ? url.appendingPathComponent("limbo.json") : url
        return try decode(try FileProblem.contents(of: file), file: file.path)
    }

    /// Decodes a suite from the bytes of a `limbo.json`.
    public static func decode(_ data: Data, file: String) throws -> LimboSuite {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch let error as DecodingError {
            throw FileProblem(file: file, problem: "is not an x509-limbo suite: \(FileProblem.jsonReason(error, data: data))")
        } catch {
            throw FileProblem(file: file, problem: "is not JSON (\(error))")
        }
        var seen = Set<String>()
        for testcase in document.testcases where !seen.insert(testcase.id).inserted {
            throw FileProblem(file: file, problem: "has two test cases with the id \"\(testcase.id)\"")
        }
        let digest = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
        return LimboSuite(version: document.version, testcases: document.testcases, digest: digest, file: file)
    }

    /// The vendored copy, `Vectors/limbo/limbo.json` of the checkout, if there is one.
    public static func locateVendored(from filePath: String = VectorSuite.sourceFile) -> URL? {
        VectorSuite.locate(from: filePath).map { $0.appendingPathComponent("limbo/limbo.json") }
            .flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }
    }

    private struct Document: Decodable {
        var version: Int
        var testcases: [LimboTestcase]
    }
}

/// One x509-limbo test case. Enumerated fields (kinds, usages, features) are kept as the strings
/// of the file, so a suite newer than this code still loads and its unknown values can be reported
/// (and skipped) rather than refused.
public struct LimboTestcase: Sendable, Hashable, Decodable {
    /// A peer name to check: `DNS`, `IP` or `RFC822` (email).
    public struct PeerName: Sendable, Hashable, Decodable {
        public var kind: String
        public var value: String

        public init(kind: String, value: String) {
            self.kind = kind
            self.value = value
        }
    }

    /// `namespace::name`, e.g. `rfc5280::nc::permitted-dn-match`.
    public var id: String
    public var features: [String]
    public var importance: String
    public var description: String
    /// `SERVER` (the peer is a TLS server) or `CLIENT`.
    public var validationKind: String
    /// PEM, one certificate each.
    public var trustedCerts: [String]
    public var untrustedIntermediates: [String]
    public var peerCertificate: String
    /// nil: validate at the current time (such cases use certificates valid for centuries).
    public var validationTime: Date?
    public var signatureAlgorithms: [String]
    public var keyUsage: [String]
    public var extendedKeyUsage: [String]
    /// `SUCCESS` or `FAILURE`.
    public var expectedResult: String
    public var expectedPeerName: PeerName?
    public var expectedPeerNames: [PeerName]
    public var maxChainDepth: Int?
    /// PEM CRLs.
    public var crls: [String]
    /// The peer's private key, PKCS#8 PEM: not in x509-limbo's format; TrustHarness's own BetterTLS
    /// export gives it, so that a back end judged by a real handshake can serve the chain.
    public var peerPrivateKey: String? = nil

    /// ``peerPrivateKey`` as DER, or nil when there is none or it is not PEM.
    public var peerPrivateKeyDER: [UInt8]? {
        peerPrivateKey.flatMap { try? PEMDocument(pemString: $0).derBytes }
    }

    /// The first component of the id: `rfc5280`, `webpki`, `pathological`, ...
    public var namespace: String {
        id.range(of: "::").map { String(id[..<$0.lowerBound]) } ?? id
    }

    /// Whether the suite expects the peer certificate to be accepted.
    public var expectsSuccess: Bool { expectedResult == "SUCCESS" }

    /// The RFC 5280 policy inputs of a PKITS entry (not in x509-limbo's format): given to every back
    /// end that processes certificate policies.
    public var policy: PolicyInputs? = nil
    /// Whether the expected result depends on policy processing (PKITS §4.8-4.12, or inputs other
    /// than the defaults): a back end that cannot process policies skips the case, never runs it
    /// with policy processing silently off.
    public var needsPolicyProcessing = false
    /// Whether the expected result rests on the CRLs (PKITS §4.4, 4.14, 4.15). When false, a back
    /// end that takes no CRLs runs the case without them (its certificates are not revoked, so the
    /// result is the same); when true, it skips the case. x509-limbo cases with CRLs always rest on them.
    public var needsRevocation = true
    /// The revocation mode the suite's expected results assume (PKITS: ``RevocationMode/hardFail``,
    /// its §4.4), asked of every back end that has it; nil (x509-limbo): the library's default. A back
    /// end without the mode is asked in its own, and its results say what that mode makes of the case.
    public var revocationMode: RevocationMode? = nil
    /// The summary row the case counts in, when it is not the id's namespace (PKITS: its section).
    public var group: String? = nil

    enum CodingKeys: String, CodingKey {
        case id, features, importance, description, crls
        case validationKind = "validation_kind"
        case trustedCerts = "trusted_certs"
        case untrustedIntermediates = "untrusted_intermediates"
        case peerCertificate = "peer_certificate"
        case validationTime = "validation_time"
        case signatureAlgorithms = "signature_algorithms"
        case keyUsage = "key_usage"
        case extendedKeyUsage = "extended_key_usage"
        case expectedResult = "expected_result"
        case expectedPeerName = "expected_peer_name"
        case expectedPeerNames = "expected_peer_names"
        case maxChainDepth = "max_chain_depth"
        case peerPrivateKey = "peer_private_key"
    }

    /// A case made in code (the PKITS suite's entries).
    public init(id: String, description: String, validationKind: String, trustedCerts: [String], untrustedIntermediates: [String],
                peerCertificate: String, validationTime: Date?, expectedResult: String, crls: [String]) {
        self.id = id
        self.features = []
        self.importance = "undetermined"
        self.description = description
        self.validationKind = validationKind
        self.trustedCerts = trustedCerts
        self.untrustedIntermediates = untrustedIntermediates
        self.peerCertificate = peerCertificate
        self.validationTime = validationTime
        self.signatureAlgorithms = []
        self.keyUsage = []
        self.extendedKeyUsage = []
        self.expectedResult = expectedResult
        self.expectedPeerName = nil
        self.expectedPeerNames = []
        self.maxChainDepth = nil
        self.crls = crls
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        features = try c.decodeIfPresent([String].self, forKey: .features) ?? []
        importance = try c.decodeIfPresent(String.self, forKey: .importance) ?? "undetermined"
        description = try c.decodeIfPresent(String.self, forKey: .description) ?? ""
        validationKind = try c.decode(String.self, forKey: .validationKind)
        trustedCerts = try c.decode([String].self, forKey: .trustedCerts)
        untrustedIntermediates = try c.decode([String].self, forKey: .untrustedIntermediates)
        peerCertificate = try c.decode(String.self, forKey: .peerCertificate)
        if let text = try c.decodeIfPresent(String.self, forKey: .validationTime) {
            guard let time = Self.parseTime(text) else {
                throw DecodingError.dataCorruptedError(forKey: .validationTime, in: c, debugDescription: "\(id): \"\(text)\" is not an RFC 3339 date-time")
            }
            validationTime = time
        } else {
            validationTime = nil
        }
        signatureAlgorithms = try c.decodeIfPresent([String].self, forKey: .signatureAlgorithms) ?? []
        keyUsage = try c.decodeIfPresent([String].self, forKey: .keyUsage) ?? []
        extendedKeyUsage = try c.decodeIfPresent([String].self, forKey: .extendedKeyUsage) ?? []
        expectedResult = try c.decode(String.self, forKey: .expectedResult)
        guard expectedResult == "SUCCESS" || expectedResult == "FAILURE" else {
            throw DecodingError.dataCorruptedError(forKey: .expectedResult, in: c, debugDescription: "\(id): expected_result is \"\(expectedResult)\", not SUCCESS or FAILURE")
        }
        expectedPeerName = try c.decodeIfPresent(PeerName.self, forKey: .expectedPeerName)
        expectedPeerNames = try c.decodeIfPresent([PeerName].self, forKey: .expectedPeerNames) ?? []
        maxChainDepth = try c.decodeIfPresent(Int.self, forKey: .maxChainDepth)
        crls = try c.decodeIfPresent([String].self, forKey: .crls) ?? []
        peerPrivateKey = try c.decodeIfPresent(String.self, forKey: .peerPrivateKey)
    }

    /// RFC 3339 date-times as the suite writes them (`2024-01-01T00:00:00+00:00`, `…Z`, with or
    /// without fractional seconds).
    public static func parseTime(_ text: String) -> Date? {
        Timestamp.parse(text)
    }
}
