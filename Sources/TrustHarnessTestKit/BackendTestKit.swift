import TrustBackendKit
import Foundation
import Testing
import TrustCore
import TrustHarness
import TrustVectors

/// TrustHarness's suites for any back end, callable from a Swift Testing test of any package: the
/// committed vectors (chain and policy conformance), the bad-input corpus, and the back-end contract.
///
/// A back end's package runs all three on its `BackendPackage` (see ``Check``):
///
/// ```swift
/// import Testing
/// import TrustHarnessTestKit
///
/// @Test(arguments: BackendTestKit.Check.allCases)
/// func shared(_ check: BackendTestKit.Check) async throws {
///     try await BackendTestKit.expect(check, of: MyBackend.package)
/// }
/// ```
///
/// Each check records one Swift Testing issue per thing that is wrong, naming the vector or case and
/// the back end, at the caller's source location, so a failure reads like a test of the caller's
/// own. Expectations come from the standards (the vectors' manifest); where a back end deviates, the
/// package's deviations file (`Vectors/deviations.json`'s format) records it with its reason, and a
/// test fails when the behaviour changes either way.
public enum BackendTestKit {
    /// TrustHarness's committed vectors: `$TRUST_HARNESS_VECTORS`, else the `Vectors/` of the
    /// TrustHarness checkout this was built from (where SwiftPM keeps a dependency's sources), else
    /// the resource bundle SwiftPM copied beside the test binary (`VectorSuite.defaultDirectory(environment:)`
    /// in `TrustVectors`).
    /// - Throws: `VectorLoadError` when there is none.
    public static func vectorsDirectory() throws -> URL {
        guard let directory = VectorSuite.defaultDirectory() else {
            throw VectorLoadError(file: "Vectors/manifest.json", problem: "TrustHarness's vectors are not at hand: set \(VectorSuite.environmentVariable)")
        }
        return directory
    }

    /// One NIST PKITS entry of the committed suite (`Vectors/pkits/pkits.json`, from
    /// ``vectorsDirectory()``) as the harness asks it: its trust anchor, and a request for path
    /// validation for any purpose at PKITS's time with the entry's intermediates (anchor side last)
    /// and, in ``PKITSEntry/crls``, its CRLs, which a test sets on the request as it needs
    /// (`request.revocationLists`, with or without a `revocationMode`).
    /// - Throws: `FileProblem` when the suite cannot be read, `PKITSEntryError` when it has no `id`.
    public static func pkitsEntry(_ id: String) throws -> PKITSEntry {
        let suite = try PKITSSuite.load(from: try vectorsDirectory().appendingPathComponent("pkits/pkits.json"))
        guard let testcase = suite.testcases.first(where: { $0.id == id }) else { throw PKITSEntryError(id: id) }
        let prepared = try SuiteRunner(backends: []).prepare(testcase)
        let request = EvaluationRequest(chain: prepared.chain, host: prepared.host, time: testcase.validationTime ?? Date(), purpose: .anyPurpose)
        return PKITSEntry(anchors: prepared.anchors, request: request, crls: prepared.crls)
    }

    /// The vector suite with the deviations of `deviations` (a file in `Vectors/deviations.json`'s
    /// format; nil: none recorded), for the `suite:` forms of the checks (`VectorSuite` is
    /// `TrustVectors`'s: import it to name the type).
    /// - Throws: `VectorLoadError` when the vectors or the file cannot be read, or the file names a
    ///   vector that does not exist or records a back end twice on one vector.
    public static func suite(deviations: URL?) throws -> VectorSuite {
        try VectorSuite.load(from: try vectorsDirectory()).replacingDeviations(from: deviations)
    }

    /// The vector suite with the deviations TrustHarness records for its own built-in back ends
    /// (`Vectors/deviations.json` and `Vectors/explored/deviations.json`), for a registry that holds
    /// them, as TrustHarness's own tests run the suites.
    /// - Throws: `VectorLoadError` when the vectors cannot be read.
    public static func recordedSuite() throws -> VectorSuite {
        try VectorSuite.load(from: try vectorsDirectory())
    }

    /// Every chain and policy vector on every default back end of `registry`: each result passes or
    /// is exactly its recorded deviation; every request, asked again on one task cold and on many
    /// tasks warm (one repetition of `ConformanceRunner.run(_:repetitions:progress:)` in
    /// `TrustHarness`), gets the same verdict (otherwise it is recorded as unstable, with every
    /// verdict and its count); and every recorded deviation names a back end of `registry`.
    /// - Throws: when the vectors or the deviations file cannot be read.
    public static func expectConformance(
        _ registry: BackendRegistry,
        deviations: URL?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await expectConformance(registry, suite: try suite(deviations: deviations), sourceLocation: sourceLocation)
    }

    /// ``expectConformance(_:deviations:sourceLocation:)`` against `suite` and its deviations (for
    /// the built-in back ends, `recordedSuite()`), judged under each of `profiles` (default: both,
    /// RFC 5280 and the Web PKI): every result passes, is a recorded deviation under that profile,
    /// is on a vector the profile leaves open (with the verdict recorded there, if any), or was not
    /// put to the library (skipped, with the reason: a chain a back end judged by a real handshake
    /// cannot serve); at least half of the chain vectors must reach each back end.
    /// `repetitions` rounds ask every request again (one: cold on one task and warm on many, so an
    /// unstable verdict is caught); a caller whose stability is checked otherwise may pass 0.
    public static func expectConformance(
        _ registry: BackendRegistry,
        suite: VectorSuite,
        profiles: [StandardsProfile] = StandardsProfile.allCases,
        repetitions: Int = 1,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let names = Set(registry.names)
        for deviation in suite.deviations where !names.contains(deviation.backend) {
            Issue.record("deviation for \(deviation.backend) on \(deviation.vector): no such back end is registered", sourceLocation: sourceLocation)
        }
        for (index, profile) in profiles.enumerated() {
            // The default configuration: its repetitions ask through cold evaluators too, and that no
            // cache ever changes a verdict is the contract suite's (expectCacheKeepsVerdicts). The
            // verdicts do not depend on the profile, so the repetitions are asked once, and a later
            // profile asks only what it can judge otherwise than the first.
            let runner = ConformanceRunner(backends: registry.all(), suite: suite, profile: profile)
            let subjects = index == 0 ? runner.allSubjects : ConformanceRunner(backends: [], suite: suite, profile: profiles[0]).subjects(judgedDifferentlyUnder: profile)
            let results = await runner.run(subjects, repetitions: index == 0 ? repetitions : 0)
            // A request not put to the library (a back end judged by a real handshake that cannot
            // serve a chain without its key) is no verdict to judge; but a back end asked too little
            // is not shown to conform: at least half of the chain vectors must reach it.
            if index == 0 {
                let chains = Set(suite.vectors.map(\.id))
                for backend in registry.names {
                    let mine = results.filter { $0.backend == backend && chains.contains($0.id) }
                    let skipped = mine.filter { $0.outcome == .skipped }.count
                    if !mine.isEmpty && skipped * 2 > mine.count {
                        Issue.record("\(backend): \(skipped) of \(mine.count) chain vectors were not put to the library; too few were to judge it", sourceLocation: sourceLocation)
                    }
                }
            }
            for result in results where ![.pass, .deviation, .open, .skipped].contains(result.outcome) {
                let observed = result.observed.map { "\($0.trusted ? "trusted" : "rejected \($0.failures)") \($0.diagnostics.map(\.description))" } ?? result.error ?? "nothing"
                Issue.record("\(result.id) on \(result.backend) (profile \(profile.rawValue)): \(result.judgement.detail); observed \(observed)", sourceLocation: sourceLocation)
            }
        }
    }

    /// Every case of the bad-input corpus on every default back end of `registry`, cached and
    /// uncached, and through the SecurityPolicy: each gets exactly the answer the corpus states, or
    /// the one recorded in `deviations` (entries whose `vector` is `bad-input/<case id>`).
    /// - Throws: when the vectors, the bad-input corpus or the deviations file cannot be read.
    public static func expectBadInputAnswers(_ registry: BackendRegistry, deviations: URL? = nil, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await expectBadInputAnswers(registry, suite: try suite(deviations: deviations), sourceLocation: sourceLocation)
    }

    /// ``expectBadInputAnswers(_:deviations:sourceLocation:)`` with the deviations of `suite`.
    /// - Throws: when the vectors or the bad-input corpus cannot be read.
    public static func expectBadInputAnswers(_ registry: BackendRegistry, suite: VectorSuite, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let corpus = try BadInputCorpus.load(vectors: try vectorsDirectory())
        let recorded = suite.deviations
        for configuration in [BackendConfiguration.default, .uncached] {
            for result in await BadInputRunner(backends: registry.all(configuration: configuration), corpus: corpus, deviations: recorded).run() where !result.conforms {
                Issue.record("bad input \(result.id) on \(result.backend) (\(label(configuration))): \(result.problems.joined(separator: "; "))", sourceLocation: sourceLocation)
            }
        }
    }

    /// The contract every back end keeps, checked on every default back end of `registry`:
    /// - it never traps on any input (the bad-input corpus and truncations of every vector), and every
    ///   rejection carries a failure class and a native diagnostic with a name;
    /// - anchors that cannot be parsed are refused when the evaluator is made;
    /// - each request's time is honoured, whatever other requests on other tasks ask;
    /// - the certificate cache never changes a verdict: every vector with its own anchors, and each
    ///   valid one with its leaf as the only anchor (a pinned leaf), evaluated first and again through one evaluator per
    ///   anchor set with a cache of the default size and with a cache of 2 (evicting all the time),
    ///   gives exactly the uncached verdict, diagnostics and path included;
    /// - evaluations from many tasks at once, sharing evaluators and their caches (so small they
    ///   evict all the time), give exactly the verdicts of one uncached task.
    ///
    /// - Parameters:
    ///   - registry: the back ends; the contract is checked on its default entries
    ///     (`registry.includingVariants` for all).
    ///   - caches: false for back ends that keep nothing between evaluations and take no cache
    ///     setting (the HTTP clients: each evaluation is its own process and server), which skips the
    ///     cache checks alone; every other check runs.
    ///   - sourceLocation: where issues are recorded.
    /// - Throws: when the vectors cannot be read, or a back end refuses the anchors of a
    ///   `valid-chain/` vector (the chains the time checks use).
    public static func expectContract(_ registry: BackendRegistry, caches: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let directory = try vectorsDirectory()
        let suite = try VectorSuite.load(from: directory).replacingDeviations(from: nil)
        for backend in registry.all() {
            expectRejectionsExplained(backend, suite: suite, sourceLocation: sourceLocation)
            for anchors in [[[UInt8]()], [Array("not a certificate".utf8)], [[0x30, 0x03, 0x02, 0x01, 0x01]]] {
                do {
                    _ = try backend.makeEvaluator(anchors: anchors)
                    Issue.record("\(backend.name) made an evaluator from an anchor that is not a certificate (\(anchors[0].count) bytes)", sourceLocation: sourceLocation)
                } catch {
                    // Refused, as it must be.
                }
            }
            try await expectTimeHonoured(backend, suite: suite, sourceLocation: sourceLocation)
            expectHostileRevocationInputsRejected(backend, suite: suite, sourceLocation: sourceLocation)
            expectLackingRevocationFeaturesRefused(backend, suite: suite, sourceLocation: sourceLocation)
        }
        if caches {
            expectCacheKeepsVerdicts(registry, suite: suite, sourceLocation: sourceLocation)
        }
        // Shared evaluators with a cache so small it evicts all the time: evaluations racing to
        // insert and evict, against uncached references asked on one task.
        let runner = try LoadRunner(
            // The generated catalogue: the explored vectors are mutants of the same chains, which
            // take no other path through a cache or a library's shared state.
            backends: registry.all(configuration: BackendConfiguration(certificateCacheCapacity: 2)), references: registry.all(configuration: .uncached),
            suite: suite.keepingVectors { !$0.id.hasPrefix("explored/") },
            corpus: try? BadInputCorpus.load(vectors: directory)
        )
        let wrong = await runner.wrongVerdicts(tasks: 4, rounds: 1)
        if !wrong.isEmpty {
            Issue.record("\(wrong.count) verdicts under concurrency differ from one uncached task's: \(Set(wrong).sorted().prefix(10))", sourceLocation: sourceLocation)
        }
    }

    /// Hostile revocation data beside a chain that is valid with its own: for a back end that takes
    /// CRLs (or OCSP responses), each of a set of inputs no library can use (empty, one byte, noise,
    /// a real CRL or response cut short, a length of 4 GiB, a SEQUENCE
    /// nested 10,000 deep, 4 MiB of zeros, PEM text, a certificate) is added to the vector's own,
    /// in hard-fail where the back end has it: the library must answer (no crash, no hang, which
    /// the evaluation limit catches), and not trust, with at least one reason. Where it has only
    /// soft-fail, it must still answer with a verdict, and a rejection must say why.
    static func expectHostileRevocationInputsRejected(_ backend: any TrustBackend, suite: VectorSuite, sourceLocation: SourceLocation) {
        let features = backend.features
        for (feature, id) in [(BackendFeature.revocationLists, "revocation-crl-none-revoked/p256"), (.ocspResponses, "revocation-ocsp-good/p256")] where features.contains(feature) {
            guard let vector = suite.vectors.first(where: { $0.id == id }), let evaluator = try? backend.makeEvaluator(anchors: vector.anchors) else {
                Issue.record("\(backend.name): the vector \(id) is not at hand to test hostile revocation data", sourceLocation: sourceLocation)
                continue
            }
            let real = feature == .revocationLists ? vector.revocationLists.last ?? [] : vector.ocspResponses.first ?? []
            for (what, hostile) in hostileRevocationInputs(real: real, certificate: vector.chain[0]) {
                var request = vector.request
                if feature == .revocationLists { request.revocationLists.append(hostile) } else { request.ocspResponses = [hostile] }
                let hard = features.contains(.hardFailRevocation)
                if hard { request.revocationMode = .hardFail }
                let label = GuardedEvaluation.label(vector: id + " with " + what, backend: backend.name)
                let asked = request
                guard let verdict = GuardedEvaluation.run(label: label, limit: 60, { evaluator.evaluate(asked) }) else {
                    Issue.record("\(backend.name) did not answer \(id) with \(what) within 60 s", sourceLocation: sourceLocation)
                    continue
                }
                if hard && verdict.isTrusted {
                    Issue.record("\(backend.name) trusted \(id) in hard-fail with \(what) among its revocation data", sourceLocation: sourceLocation)
                }
                if !verdict.isTrusted && verdict.diagnostics.isEmpty {
                    Issue.record("\(backend.name) rejected \(id) with \(what) without a reason", sourceLocation: sourceLocation)
                }
            }
        }
    }

    /// A revocation input or mode the back end does not list in its features is refused, never
    /// evaluated without it: for each one it lacks, a request that needs only that (CRLs, an OCSP
    /// response, hard-fail, soft-fail) is rejected with `UNSUPPORTED_CONSTRAINT`, origin `harness`.
    static func expectLackingRevocationFeaturesRefused(_ backend: any TrustBackend, suite: VectorSuite, sourceLocation: SourceLocation) {
        let asks: [(BackendFeature, String, RevocationMode?)] = [
            (.revocationLists, "revocation-crl-none-revoked/p256", nil),
            (.ocspResponses, "revocation-ocsp-good/p256", nil),
            (.hardFailRevocation, "revocation-ocsp-missing-hard/p256", .hardFail),
            (.softFailRevocation, "valid-chain/p256", .softFail),
        ]
        for (feature, id, mode) in asks where !backend.features.contains(feature) {
            guard let vector = suite.vectors.first(where: { $0.id == id }), let evaluator = try? backend.makeEvaluator(anchors: vector.anchors) else { continue }
            var request = vector.request
            if mode != nil { request.revocationMode = mode }
            guard request.requiredFeatures == [feature] else {
                Issue.record("\(id) needs \(request.requiredFeatures), not only \(feature)", sourceLocation: sourceLocation)
                continue
            }
            let verdict = evaluator.evaluate(request)
            if verdict.isTrusted || verdict.diagnostics.map(\.name) != ["UNSUPPORTED_CONSTRAINT"] || verdict.origin != .harness {
                Issue.record("\(backend.name) lacks \(feature) but did not refuse \(id) asking for it: \(verdict.diagnostics.map(\.description))", sourceLocation: sourceLocation)
            }
        }
    }

    /// The hostile revocation inputs of ``expectHostileRevocationInputsRejected``, named.
    static func hostileRevocationInputs(real: [UInt8], certificate: [UInt8]) -> [(String, [UInt8])] {
        // Fixed bytes (a linear congruential sequence), so every run asks the same.
        var state: UInt32 = 0x5EED
        let noise = (0..<256).map { _ -> UInt8 in state = state &* 1_664_525 &+ 1_013_904_223; return UInt8(truncatingIfNeeded: state >> 24) }
        var nested: [UInt8] = []
        for _ in 0..<10_000 { nested = [0x30, 0x80] + nested }
        nested += Array(repeating: 0, count: 20_000)
        return [
            ("nothing", []),
            ("one byte", [0x30]),
            ("256 bytes of noise", noise),
            ("the real one cut in half", Array(real.prefix(real.count / 2))),
            ("a SEQUENCE claiming 4 GiB", [0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF, 0x02, 0x01, 0x01]),
            ("a SEQUENCE nested 10,000 deep (BER, indefinite lengths)", nested),
            ("4 MiB of zeros in a SEQUENCE", [0x30, 0x83, 0x40, 0x00, 0x00] + Array(repeating: 0, count: 0x40_0000)),
            ("PEM text", Array("-----BEGIN X509 CRL-----\nMAA=\n-----END X509 CRL-----\n".utf8)),
            ("a certificate", certificate),
        ]
    }

    /// Truncations of every vector's chain and the chains themselves: every rejection explained.
    static func expectRejectionsExplained(_ backend: any TrustBackend, suite: VectorSuite, sourceLocation: SourceLocation) {
        // Truncations of the generated catalogue's chains; an explored vector's own rejection is
        // explained by the conformance check, which names its diagnostics.
        for vector in suite.vectors where !vector.id.hasPrefix("explored/") {
            guard let evaluator = try? backend.makeEvaluator(anchors: vector.anchors) else { continue }
            var requests = [vector.request]
            for length in [0, 1, 7, vector.chain[0].count / 2, vector.chain[0].count - 1] {
                var chain = vector.chain
                chain[0] = Array(chain[0].prefix(length))
                requests.append(EvaluationRequest(chain: chain, host: vector.host, time: vector.time))
            }
            for (index, request) in requests.enumerated() {
                let verdict = evaluator.evaluate(request)
                if index > 0 && verdict.isTrusted {
                    Issue.record("\(backend.name) trusted \(vector.id) with its leaf truncated", sourceLocation: sourceLocation)
                }
                if case .rejected(let diagnostics) = verdict,
                   diagnostics.isEmpty || diagnostics.contains(where: { $0.name.isEmpty }) {
                    Issue.record("\(backend.name) rejected \(vector.id) (request \(index)) without a named diagnostic", sourceLocation: sourceLocation)
                }
            }
        }
    }

    /// Cached evaluators (default size, and 2 so that every request evicts) against uncached ones.
    static func expectCacheKeepsVerdicts(_ registry: BackendRegistry, suite: VectorSuite, sourceLocation: SourceLocation) {
        let uncached = registry.all(configuration: .uncached)
        let cached = [BackendConfiguration.default, BackendConfiguration(certificateCacheCapacity: 2)].map { registry.all(configuration: $0) }
        for (index, reference) in uncached.enumerated() {
            var madeFor: [[[UInt8]]: [any TrustEvaluator]] = [:]
            func evaluators(for anchors: [[UInt8]]) -> [any TrustEvaluator] {
                if let made = madeFor[anchors] { return made }
                let made = ([reference] + cached.map { $0[index] }).compactMap { try? $0.makeEvaluator(anchors: anchors) }
                madeFor[anchors] = made
                return made
            }
            // The generated catalogue exercises every cache path (shared issuers, evictions, pinned
            // leaves); explored vectors (mutants of the same chains) would only add time.
            for vector in suite.vectors where !vector.id.hasPrefix("explored/") {
                // The leaf as the only anchor too (a pinned leaf) where the vector's chain is valid.
                for anchors in vector.expected.trusted ? [vector.anchors, [vector.chain[0]]] : [vector.anchors] {
                    let made = evaluators(for: anchors)
                    guard made.count == cached.count + 1 else {
                        if !made.isEmpty { Issue.record("\(reference.name) \(vector.id): anchors refused by some configurations only", sourceLocation: sourceLocation) }
                        continue
                    }
                    let expected = made[0].evaluate(vector.request)
                    for (offset, evaluator) in made.dropFirst().enumerated() {
                        for pass in ["first", "second"] where evaluator.evaluate(vector.request) != expected {
                            Issue.record("\(reference.name) \(vector.id)\(anchors == vector.anchors ? "" : " (leaf as the anchor)"): the \(pass) verdict with a cache of \(offset == 0 ? "the default size" : "2") differs from the uncached one", sourceLocation: sourceLocation)
                        }
                    }
                }
            }
        }
    }

    /// The valid chain of every key type the back end's library supports is trusted at its
    /// validation time, expired 30 years later and not yet valid 30 years earlier, with the three
    /// times asked for on many tasks at once through one evaluator. A key type the library rejects
    /// at the chain's own time (NSS 3.87 has no Ed25519) is recorded in its deviations file by the
    /// conformance suite; here it must get that one verdict at every time asked alongside, and at
    /// least one key type must be trusted, or the times prove nothing.
    static func expectTimeHonoured(_ backend: any TrustBackend, suite: VectorSuite, sourceLocation: SourceLocation) async throws {
        var trustedKeyTypes = 0
        for vector in suite.vectors where vector.id.hasPrefix("valid-chain/") {
            let evaluator = try backend.makeEvaluator(anchors: vector.anchors)
            let own = evaluator.evaluate(vector.request)
            if !own.isTrusted {
                let again = await withTaskGroup(of: Verdict.self) { group in
                    for _ in 0..<16 { group.addTask { evaluator.evaluate(vector.request) } }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                if again.contains(where: { $0 != own }) {
                    Issue.record("\(backend.name) answered \(vector.id) at its own validation time in more than one way", sourceLocation: sourceLocation)
                }
                continue
            }
            trustedKeyTypes += 1
            // The vector's own request at other times (its leaf key kept, for back ends that serve it).
            var later = vector.request
            later.time = vector.time.addingTimeInterval(86_400 * 365 * 30)
            var earlier = vector.request
            earlier.time = vector.time.addingTimeInterval(-86_400 * 365 * 30)
            let verdicts = await withTaskGroup(of: (Int, Verdict).self) { group in
                for index in 0..<64 {
                    let request = [vector.request, later, earlier][index % 3]
                    group.addTask { (index % 3, evaluator.evaluate(request)) }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            for (kind, verdict) in verdicts {
                switch kind {
                case 0 where !verdict.isTrusted:
                    Issue.record("\(backend.name) rejected \(vector.id) at its own validation time: \(verdict.diagnostics)", sourceLocation: sourceLocation)
                // A library that does not say why it rejects (an HTTP client whose error only says
                // the verification failed: `other`) must still reject; the conformance suite judges
                // its reasons against the recorded deviations.
                case 1 where verdict.failures != [.expired] && (verdict.isTrusted || verdict.failures != [.other]):
                    Issue.record("\(backend.name) did not find \(vector.id) expired 30 years later: \(verdict)", sourceLocation: sourceLocation)
                case 2 where verdict.failures != [.notYetValid] && (verdict.isTrusted || verdict.failures != [.other]):
                    Issue.record("\(backend.name) did not find \(vector.id) not yet valid 30 years earlier: \(verdict)", sourceLocation: sourceLocation)
                default:
                    break
                }
            }
        }
        if trustedKeyTypes == 0 {
            Issue.record("\(backend.name) trusted no valid chain at its own validation time, so whether it honours the request's time cannot be seen", sourceLocation: sourceLocation)
        }
    }

    static func label(_ configuration: BackendConfiguration) -> String {
        configuration.certificateCacheCapacity > 0 ? "cached" : "uncached"
    }
}

/// A NIST PKITS entry as ``BackendTestKit/pkitsEntry(_:)`` gives it.
public struct PKITSEntry: Sendable {
    /// The entry's trust anchor, DER.
    public let anchors: [[UInt8]]
    /// Path validation for any purpose at PKITS's time, without CRLs.
    public let request: EvaluationRequest
    /// The entry's CRLs, DER, in PKITS's order.
    public let crls: [[UInt8]]
}

/// No PKITS entry has the id asked for.
public struct PKITSEntryError: Error, CustomStringConvertible {
    public let id: String
    public var description: String { "the committed PKITS suite has no entry \(id)" }
}
