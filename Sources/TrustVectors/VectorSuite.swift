import Foundation
import SwiftASN1
import TrustVectorsResources
import TrustCore
import TrustPolicy

/// A vector read from `Vectors/`, ready to evaluate: the certificates loaded, the host and time parsed.
public struct LoadedVector: Sendable, Hashable, Identifiable {
    public let entry: VectorEntry
    public let chain: [[UInt8]]
    public let anchors: [[UInt8]]
    public let host: HostIdentity?
    public let time: Date
    /// For trusted expectations: the expected path, DER, leaf to anchor.
    public let expectedPath: [[UInt8]]?
    /// The leaf's private key (PKCS#8 DER) from the folder's `keys/`, when one fits its public key.
    public let leafPrivateKey: [UInt8]?
    /// The CRLs (DER) of the entry's ``VectorEntry/revocation``, in its order.
    public var revocationLists: [[UInt8]] = []
    /// The OCSP responses (DER) of the entry's ``VectorEntry/revocation``, in its order.
    public var ocspResponses: [[UInt8]] = []

    public var id: String { entry.id }
    public var expected: Expectation { entry.expected }

    /// The vector's request, with the leaf's key for back ends that serve the chain in a handshake.
    public var request: EvaluationRequest {
        var request = EvaluationRequest(chain: chain, host: host, time: time)
        request.leafPrivateKey = leafPrivateKey
        request.connectedAddress = entry.address.flatMap(IPAddressParser.parse)
        request.revocationLists = revocationLists
        request.ocspResponses = ocspResponses
        request.revocationMode = entry.revocation?.mode
        return request
    }
}

/// A pinning-policy vector read from `Vectors/`, with its ``SecurityPolicy`` built once.
public struct LoadedPolicyVector: Sendable, Hashable, Identifiable {
    public let entry: PolicyVectorEntry
    public let chain: [[UInt8]]
    public let anchors: [[UInt8]]
    public let time: Date
    public let policy: SecurityPolicy

    public var id: String { entry.id }
    public var domain: String? { entry.domain }
    public var expected: PolicyExpectation { entry.expected }
}

/// The committed vector set: manifest, certificates and recorded deviations, loaded from a folder.
public struct VectorSuite: Sendable {
    public let directory: URL
    public let vectors: [LoadedVector]
    public let policies: [LoadedPolicyVector]
    public let deviations: [Deviation]
    /// What each departure does (`impacts.json`; ``ImpactCatalogue/empty`` when the folder has none).
    public let impacts: ImpactCatalogue
    /// The ids a deviation may name besides the vectors': `bad-input/<case id>` for each case of
    /// the bad-input corpus in `directory` (none when the folder has no corpus).
    let badInputIDs: Set<String>
    /// The deviations by back end and vector, in their order: ``deviation(backend:vector:library:profile:)``
    /// is asked once per result, so it looks up instead of scanning every record.
    private let deviationIndex: [DeviationKey: [Deviation]]

    private struct DeviationKey: Hashable, Sendable {
        var backend: String
        var vector: String
    }

    init(directory: URL, vectors: [LoadedVector], policies: [LoadedPolicyVector], deviations: [Deviation], badInputIDs: Set<String>, impacts: ImpactCatalogue) {
        self.directory = directory
        self.impacts = impacts
        self.vectors = vectors
        self.policies = policies
        self.deviations = deviations
        self.badInputIDs = badInputIDs
        self.deviationIndex = Dictionary(grouping: deviations) { DeviationKey(backend: $0.backend, vector: $0.vector) }
    }

    /// The manifest and deviations of the vectors adopted from explore findings.
    public static let exploredManifestPath = "explored/manifest.json"
    public static let exploredDeviationsPath = "explored/deviations.json"

    /// The prefix of a deviation's `vector` that names a case of the bad-input corpus.
    public static let badInputPrefix = "bad-input/"

    /// Loads `manifest.json` and, when present, `deviations.json` from `directory`.
    /// - Throws: ``VectorLoadError`` naming the file and the problem: a missing or undecodable
    ///   manifest, a certificate file that cannot be read, a bad time, a duplicate id, or a deviation
    ///   naming an unknown vector.
    public static func load(from directory: URL) throws -> VectorSuite {
        let manifestURL = directory.appendingPathComponent("manifest.json")
        let manifest: VectorManifest = try decodeJSON(manifestURL)
        var cache: [String: [UInt8]] = [:]
        func certificate(_ path: String, of id: String) throws -> [UInt8] {
            if let cached = cache[path] { return cached }
            let url = directory.appendingPathComponent(path)
            let certificates: [[UInt8]]
            do {
                certificates = try CertificateFile.read(url)
            } catch let error as CertificateFileError {
                throw VectorLoadError(file: url.path, problem: "\(error.problem) (vector \(id))")
            }
            guard certificates.count == 1 else {
                throw VectorLoadError(file: url.path, problem: "holds \(certificates.count) certificates; a vector file holds exactly one (vector \(id))")
            }
            cache[path] = certificates[0]
            return certificates[0]
        }

        /// A CRL (PEM of `pemType`) or OCSP response (DER, `pemType` nil) file, as bytes.
        func revocationFile(_ path: String, of id: String, pemType: String?) throws -> [UInt8] {
            let url = directory.appendingPathComponent(path)
            guard let data = try? Data(contentsOf: url) else {
                throw VectorLoadError(file: url.path, problem: "cannot be read (vector \(id))")
            }
            guard let pemType else { return [UInt8](data) }
            guard let text = String(data: data, encoding: .utf8), let documents = try? PEMDocument.parseMultiple(pemString: text),
                  documents.count == 1, documents[0].discriminator == pemType else {
                throw VectorLoadError(file: url.path, problem: "is not one PEM block of type \(pemType) (vector \(id))")
            }
            return documents[0].derBytes
        }

        var seen = Set<String>()
        var vectors: [LoadedVector] = []
        let keys = VectorKeys.Index(directory: directory)
        func load(_ entries: [VectorEntry], from manifestURL: URL) throws {
            for entry in entries {
                guard seen.insert(entry.id).inserted else {
                    throw VectorLoadError(file: manifestURL.path, problem: "vector id \(entry.id) appears twice")
                }
                guard let time = Timestamp.parse(entry.time) else {
                    throw VectorLoadError(file: manifestURL.path, problem: "vector \(entry.id) has time \"\(entry.time)\"; expected ISO 8601 UTC like 2025-06-01T00:00:00Z")
                }
                let chain = try entry.chain.map { try certificate($0, of: entry.id) }
                var loaded = LoadedVector(
                    entry: entry,
                    chain: chain,
                    anchors: try entry.anchors.map { try certificate($0, of: entry.id) },
                    host: entry.host.map(HostIdentity.init),
                    time: time,
                    expectedPath: try entry.expected.path.map { try $0.map { try certificate($0, of: entry.id) } },
                    leafPrivateKey: chain.first.flatMap(keys.privateKey(for:))
                )
                if let revocation = entry.revocation {
                    loaded.revocationLists = try revocation.crls.map { try revocationFile($0, of: entry.id, pemType: "X509 CRL") }
                    loaded.ocspResponses = try revocation.ocspResponses.map { try revocationFile($0, of: entry.id, pemType: nil) }
                }
                vectors.append(loaded)
            }
        }
        try load(manifest.vectors, from: manifestURL)
        // The vectors brought in from `trust-harness explore` findings (`explored/`, paths relative
        // to this folder), kept apart from the generated catalogue: `generate` neither writes nor
        // checks them.
        let exploredURL = directory.appendingPathComponent(exploredManifestPath)
        if FileManager.default.fileExists(atPath: exploredURL.path) {
            try load((try decodeJSON(exploredURL) as VectorManifest).vectors, from: exploredURL)
        }

        var policies: [LoadedPolicyVector] = []
        for entry in manifest.policies ?? [] {
            guard seen.insert(entry.id).inserted else {
                throw VectorLoadError(file: manifestURL.path, problem: "vector id \(entry.id) appears twice")
            }
            guard let time = Timestamp.parse(entry.time) else {
                throw VectorLoadError(file: manifestURL.path, problem: "policy vector \(entry.id) has time \"\(entry.time)\"; expected ISO 8601 UTC like 2025-06-01T00:00:00Z")
            }
            let settings = entry.policy
            let policy: SecurityPolicy
            do {
                policy = try SecurityPolicy(
                    pinningMode: settings.pinningMode,
                    pinnedCertificates: try settings.pinnedCertificates.map { try certificate($0, of: entry.id) },
                    pins: try settings.pins.map(SPKIPin.init),
                    allowInvalidCertificates: settings.allowInvalidCertificates,
                    validatesDomainName: settings.validatesDomainName
                )
            } catch let error as PinError {
                throw VectorLoadError(file: manifestURL.path, problem: "policy vector \(entry.id): \(error)")
            }
            policies.append(LoadedPolicyVector(
                entry: entry,
                chain: try entry.chain.map { try certificate($0, of: entry.id) },
                anchors: try entry.anchors.map { try certificate($0, of: entry.id) },
                time: time,
                policy: policy
            ))
        }

        var badInputIDs = Set<String>()
        if FileManager.default.fileExists(atPath: directory.appendingPathComponent("bad-input/manifest.json").path) {
            do {
                badInputIDs = Set(try BadInputCorpus.load(vectors: directory).cases.map { badInputPrefix + $0.id })
            } catch let problem as FileProblem {
                throw VectorLoadError(file: problem.file, problem: problem.problem)
            }
        }
        var deviations: [Deviation] = []
        for path in ["deviations.json", exploredDeviationsPath] {
            let url = directory.appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: url.path) {
                deviations += try readDeviations(url, vectors: seen.union(badInputIDs), adding: deviations)
            }
        }
        let impacts = FileManager.default.fileExists(atPath: directory.appendingPathComponent(ImpactCatalogue.fileName).path)
            ? try ImpactCatalogue.load(from: directory) : .empty
        return VectorSuite(directory: directory, vectors: vectors, policies: policies, deviations: deviations, badInputIDs: badInputIDs, impacts: impacts)
    }

    /// This suite with only the chain vectors `isIncluded` keeps (policy vectors and deviations kept).
    public func keepingVectors(_ isIncluded: (LoadedVector) -> Bool) -> VectorSuite {
        VectorSuite(directory: directory, vectors: vectors.filter(isIncluded), policies: policies, deviations: deviations, badInputIDs: badInputIDs, impacts: impacts)
    }

    /// This suite with the deviations of `file` in place of its own (none when `file` is nil): a back
    /// end plugged in from another package is judged against that package's record.
    /// - Throws: ``VectorLoadError`` as for ``adding(deviationsFrom:)``.
    public func replacingDeviations(from file: URL?) throws -> VectorSuite {
        let bare = VectorSuite(directory: directory, vectors: vectors, policies: policies, deviations: [], badInputIDs: badInputIDs, impacts: impacts)
        return try file.map(bare.adding(deviationsFrom:)) ?? bare
    }

    /// This suite with the deviations of `file` added (a plugged-in back end's own record, in
    /// `deviations.json`'s format).
    /// - Throws: ``VectorLoadError`` when the file cannot be read, names an unknown vector, or
    ///   records a back end on a vector twice (counting the deviations already here).
    public func adding(deviationsFrom file: URL) throws -> VectorSuite {
        let ids = Set(vectors.map(\.id) + policies.map(\.id)).union(badInputIDs)
        let added = try Self.readDeviations(file, vectors: ids, adding: deviations)
        return VectorSuite(directory: directory, vectors: vectors, policies: policies, deviations: deviations + added, badInputIDs: badInputIDs, impacts: impacts)
    }

    /// The deviations of `url`, checked against the vector ids `vectors` and the deviations
    /// `existing` (no back end twice on one vector).
    static func readDeviations(_ url: URL, vectors: Set<String>, adding existing: [Deviation]) throws -> [Deviation] {
        // A record written once per cause covers several vectors: judged one by one.
        let deviations = try (decodeJSON(url) as DeviationList).deviations.flatMap(\.expanded)
        // One per back end, vector, library condition and profile: builds and profiles may differ.
        func keysOf(_ deviation: Deviation) -> [String] {
            StandardsProfile.allCases.filter(deviation.applies).map { deviation.backend + " " + deviation.vector + " " + (deviation.libraries ?? "") + " " + $0.rawValue }
        }
        var keys = Set(existing.flatMap(keysOf))
        for deviation in deviations {
            guard vectors.contains(deviation.vector) else {
                throw VectorLoadError(file: url.path, problem: "deviation for \(deviation.backend) names unknown vector \(deviation.vector)")
            }
            if let libraries = deviation.libraries, (try? Regex(libraries)) == nil {
                throw VectorLoadError(file: url.path, problem: "deviation for \(deviation.backend) on \(deviation.vector): libraries \"\(libraries)\" is not a regular expression")
            }
            guard keysOf(deviation).allSatisfy({ keys.insert($0).inserted }) else {
                throw VectorLoadError(file: url.path, problem: "two deviations for \(deviation.backend) on \(deviation.vector)\(deviation.libraries.map { " for libraries \($0)" } ?? "")")
            }
        }
        return deviations
    }

    /// The deviation recorded for `backend` on `vector` that holds for the library build
    /// `library` (the back end's ``TrustBackend/libraryVersion``; `nil`: any build). One recorded
    /// for some builds (``Deviation/libraries``) that names `library` comes before one for every
    /// build, so an older build's own verdict can be recorded beside the current one's.
    /// Only deviations recorded under `profile` count (``Deviation/profiles``).
    public func deviation(backend: String, vector: String, library: String? = nil, profile: StandardsProfile = .default) -> Deviation? {
        let recorded = (deviationIndex[DeviationKey(backend: backend, vector: vector)] ?? []).filter { $0.applies(to: profile) && (library.map($0.holds) ?? true) }
        return recorded.first { $0.libraries != nil } ?? recorded.first
    }

    /// What was recorded for `backend` on `vector` for other library builds than `library`, in words
    /// naming both builds (`recorded for builds matching "deb12u7" as rejected [untrusted]; the
    /// loaded build is GnuTLS 3.7.9 (... deb12u6)`), or nil when every record holds for it: said
    /// beside a result that fails, so a reader sees the build changed, not the library's answer.
    public func otherBuildsNote(backend: String, vector: String, library: String, profile: StandardsProfile = .default) -> String? {
        let others = (deviationIndex[DeviationKey(backend: backend, vector: vector)] ?? []).filter { $0.applies(to: profile) && !$0.holds(for: library) }
        guard !others.isEmpty else { return nil }
        let records = others.map { record in
            "for builds matching \"\(record.libraries ?? "")\" as " + (record.observed.trusted ? "trusted" : "rejected [\(record.observed.failures.map(\.rawValue).joined(separator: ", "))]")
        }
        return "recorded " + records.joined(separator: " and ") + "; the loaded build is \(library)"
    }

    /// The environment variable that names a vectors folder, overriding the built-in one.
    public static let environmentVariable = "TRUST_HARNESS_VECTORS"

    /// The vectors installed beside an executable: `Vectors/` in the executable's folder, or
    /// `../share/trust-harness/Vectors` from it (a `bin/` and `share/` prefix), whichever has a manifest.
    public static var installed: URL? {
        guard let folder = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent() else { return nil }
        return [
            folder.appendingPathComponent("Vectors"),
            folder.deletingLastPathComponent().appendingPathComponent("share/trust-harness/Vectors"),
        ].first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("manifest.json").path) }
    }

    /// The vectors SwiftPM copied beside the executable or test binary as a resource bundle
    /// (`TrustHarness_TrustVectorsResources.resources`), when it is there.
    public static var bundled: URL? { TrustVectorsResources.folder }

    /// The vectors folder to use when none is given: `$TRUST_HARNESS_VECTORS` if set, else the
    /// checkout's `Vectors/` when the sources are at hand (so a regenerated folder is used at once),
    /// else the resource bundle beside the executable (``bundled``), else a copy installed beside it
    /// (``installed``).
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        named(by: environment) ?? locate() ?? bundled ?? installed
    }

    /// The folder `$TRUST_HARNESS_VECTORS` names, if it is set and not empty.
    public static func named(by environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        environment[environmentVariable].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
    }

    /// This file's path when it was compiled: inside the TrustHarness checkout, also when TrustHarness
    /// is another package's dependency (a default argument of `#filePath` would be the caller's file).
    public static let sourceFile = #filePath

    /// The `Vectors/` folder of this source checkout, found by walking up from `filePath` (the
    /// swift-crypto Wycheproof pattern; by default from this package's own sources, so another
    /// package's tests find TrustHarness's vectors too), or nil when the sources are not at hand.
    public static func locate(from filePath: String = VectorSuite.sourceFile) -> URL? {
        var url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while url.path != "/" {
            let candidate = url.appendingPathComponent("Vectors/manifest.json")
            if FileManager.default.fileExists(atPath: candidate.path) {
                return url.appendingPathComponent("Vectors")
            }
            url.deleteLastPathComponent()
        }
        return nil
    }

    static func decodeJSON<T: Decodable>(_ url: URL) throws -> T {
        try FileProblem.decodeJSON(T.self, from: url, shape: "a valid \(T.self)")
    }
}

/// A problem with the vector files, naming the file.
public typealias VectorLoadError = FileProblem

/// ISO 8601 UTC timestamps with whole seconds, as used in the manifest.
/// The one parser of every time TrustHarness reads (vector manifests, the bad-input corpus, x509-limbo,
/// `--at`): an RFC 3339 date-time, `YYYY-MM-DDTHH:MM:SS` with optional fractional seconds and a `Z` or
/// `±HH:MM` offset (`T` and `Z` in either case). Strict: a date that does not exist (`2026-02-30`), an
/// hour, minute or second out of range, a missing offset or anything around it is refused, never
/// rolled over. Fractional seconds are kept. A leap second (`23:59:60Z`) is accepted and, as POSIX time
/// has none, is the first second of the next minute. Years 1583 to 9999: the Gregorian calendar's.
public enum Timestamp {
    /// What ``parse(_:)`` accepts, for messages and `--help`.
    public static let accepted = "an RFC 3339 date-time in the years 1583 to 9999: 2025-06-01T00:00:00Z, 2025-06-01T02:00:00+02:00, or with fractional seconds (2025-06-01T00:00:00.5Z)"

    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + digits] {
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += digits
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
              expect("Tt"), let hour = number(2), expect(":"), let minute = number(2), expect(":"), let second = number(2)
        else { return nil }
        var fraction = 0.0
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 {
                fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset = 0
        if expect("Zz") {
            offset = 0
        } else {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") else { return nil }
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = number(2), expect(":"), let minutes = number(2), hours <= 23, minutes <= 59 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard index == bytes.count, (1583...9999).contains(year), (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 59 || (second == 60 && minute == 59)
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// RFC 3339 in UTC, with fractional seconds only when the time has them.
    public static func format(_ date: Date) -> String {
        // Whole seconds in years 1-9999, the common case, by arithmetic: a new ISO8601DateFormatter
        // per call was a tenth of making BetterTLS's suites (9,491 cases, each with its time).
        let seconds = date.timeIntervalSince1970
        if seconds == seconds.rounded(.down), abs(seconds) < 253_402_300_800 {
            let whole = Int(seconds)
            let days = Int((Double(whole) / 86_400).rounded(.down)), inDay = whole - days * 86_400
            let (year, month, day) = civilFromDays(days)
            if (1583...9999).contains(year) {  // before 1583 the formatter counts Julian days, as before
                func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
                let yearText = String(repeating: "0", count: 4 - String(year).count) + String(year)
                return "\(yearText)-\(two(month))-\(two(day))T\(two(inDay / 3600)):\(two(inDay % 3600 / 60)):\(two(inDay % 60))Z"
            }
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = seconds == seconds.rounded(.down) ? [.withInternetDateTime] : [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// The proleptic Gregorian (year, month, day) of `days` since 1970-01-01 (Howard Hinnant's
    /// civil_from_days, the inverse of ``daysFromCivil(year:month:day:)``).
    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
