import Synchronization
import Foundation
import TrustCore
import TrustHarness
import TrustVectors

/// Which public suite a suite command runs: where its vendored copy and record live and how it reads.
enum SuiteKind: CustomStringConvertible {
    case limbo, pkits
    case bettertls(BetterTLSTestSuite, BetterTLSNameConstraints.Revision)

    /// Each suite's title, file name, vendored copy and record in the vectors folder, and an id.
    private var facts: (title: String, fileName: String, vendoredPath: String, recordPath: String, idExample: String) {
        switch self {
        case .limbo: return ("x509-limbo", "limbo.json", "limbo/limbo.json", "limbo/observed.json", "'rfc5280::nc::permitted-dn-match'")
        case .pkits: return ("NIST PKITS", "pkits.json", "pkits/pkits.json", "pkits/observed.json", "'pkits::4.1.1-ValidSignaturesTest1'")
        case .bettertls(let suite, let revision):
            // The current revision's record is the one CI checks; an older revision's ids name other
            // cases, so it has a record of its own (none is committed).
            let record = revision == .current ? "bettertls/\(suite.rawValue)-observed.json" : "bettertls/\(suite.rawValue)-\(revision.rawValue.prefix(7))-observed.json"
            let title = suite == .nameconstraints ? "BetterTLS name constraints" : "BetterTLS path building"
            return (title, "bettertls-\(suite.rawValue).json", "bettertls/\(suite.rawValue).json", record, "'bettertls::\(suite.rawValue)::tc42'")
        }
    }

    var title: String { facts.title }
    /// The suite's name in the impact catalogue's suite rules.
    var impactKey: String {
        switch self {
        case .limbo: return "limbo"
        case .pkits: return "pkits"
        case .bettertls(let suite, _): return "bettertls-\(suite.rawValue)"
        }
    }
    var fileName: String { facts.fileName }
    var vendoredPath: String { facts.vendoredPath }
    var recordPath: String { facts.recordPath }
    var idExample: String { facts.idExample }

    var description: String {
        switch self {
        case .limbo: return "limbo"
        case .pkits: return "pkits"
        case .bettertls(let suite, _): return "bettertls \(suite.rawValue)"
        }
    }

    /// The fixed validation time of the BetterTLS cases made here.
    static let betterTLSTime = Date(timeIntervalSince1970: 1_767_225_600)

    /// A BetterTLS suite made here, as an x509-limbo document.
    func madeSuite() throws -> Data {
        guard case .bettertls(let suite, let revision) = self else { preconditionFailure("only BetterTLS's suites are made here") }
        switch suite {
        case .nameconstraints: return try BetterTLSExport.nameConstraints(revision, at: Self.betterTLSTime)
        case .pathbuilding:
            // Made once per process (81 cases, the same bytes every time): the in-process CLI tests
            // ask for it in several commands, each making it again (a second in a debug build).
            if let made = Self.madePathBuilding.withLock({ $0 }) { return made }
            let made = try BetterTLSExport.pathBuilding(seed: 1, at: Self.betterTLSTime)
            Self.madePathBuilding.withLock { $0 = made }
            return made
        }
    }

    /// Path building's suite once made in this process.
    private static let madePathBuilding = Mutex<Data?>(nil)

    /// A BetterTLS suite made here, with each case's summary row (its feature).
    func madeLimboSuite() throws -> LimboSuite {
        guard case .bettertls(let suite, let revision) = self else { preconditionFailure("only BetterTLS's suites are made here") }
        var made = try LimboSuite.decode(try madeSuite(), file: "BetterTLS \(suite.rawValue) (made here, revision \(revision.rawValue.prefix(7)))")
        let groups = suite.facts(revision).groups
        for index in made.testcases.indices where index < groups.count {
            made.testcases[index].group = groups[index]
        }
        return made
    }

    func load(_ url: URL) throws -> LimboSuite {
        switch self {
        case .limbo, .bettertls: return try LimboSuite.load(from: url)
        case .pkits:
            var isFolder: ObjCBool = false
            let file = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue
                ? url.appendingPathComponent(fileName) : url
            return try PKITSSuite.load(from: file)
        }
    }
}

