import Foundation
import TrustCore
import TrustHarness
import TrustVectors

/// Mutates chains one property at a time, runs every mutant on every back end in process, and keeps
/// the mutants on which the back ends disagree (on the verdict, or on the failure classes when all
/// reject), grouped into classes and each class kept as its smallest example.
///
/// Reproducible: the same seed, bases and case count give the same mutants in the same order and
/// the same classes (Ed25519 signatures are deterministic; mutations that change a key to RSA or
/// ECDSA give the same classes with other signature bytes).
public struct Explorer: Sendable {
    public struct Options: Sendable {
        public var seed: UInt64
        /// At most this many mutants (nil: every single mutation of every base, then pairs until the
        /// time budget or `pairs` runs out).
        public var cases: Int?
        /// Stop making mutants after this many seconds (nil: no budget).
        public var seconds: Double?
        /// How many two-mutation mutants to draw after the single ones (when `cases` allows).
        public var pairs: Int

        /// The key types every base chain is re-keyed to and explored with (each base once per
        /// type): a back end's RSA and ECDSA paths differ from its EdDSA one, and a library without
        /// EdDSA (NSS 3.87, mbedTLS 2.28) takes part only in the others.
        public var keyTypes: [KeyType]

        /// The standard shared departures are judged against (``StandardsProfile/default``).
        public var profile: StandardsProfile
        /// How many mutants are evaluated at once (nil: two per core, every core busy). No result
        /// depends on it; the cores' time does (``CoreTime``): a run that has fewer CPUs than it
        /// keeps busy (a scheduler's task given one CPU) counts waiting as work.
        public var jobs: Int? = nil

        public init(seed: UInt64 = 1, cases: Int? = nil, seconds: Double? = nil, pairs: Int = 1_000, keyTypes: [KeyType] = KeyType.conforming, profile: StandardsProfile = .default) {
            self.profile = profile
            self.seed = seed
            self.cases = cases
            self.seconds = seconds
            self.pairs = pairs
            self.keyTypes = keyTypes
        }
    }

    /// A key type a base chain is re-keyed to.
    public enum KeyType: String, Sendable, Codable, CaseIterable {
        case ed25519, p256, rsa2048

        /// The types both profiles allow (the Web PKI's Baseline Requirements §6.1.5 exclude Ed25519).
        public static let conforming: [KeyType] = [.p256, .rsa2048]

        var kind: SigningKey.Kind {
            switch self {
            case .ed25519: .ed25519
            case .p256: .p256
            case .rsa2048: .rsa2048
            }
        }
    }

    /// One base chain re-keyed to one key type.
    struct Unit: Sendable {
        var model: ChainModel
        var keyType: KeyType
        /// The base's id, with the key type unless it is Ed25519 (as the explorer always named them).
        var label: String { keyType == .ed25519 ? model.id : "\(model.id) as \(keyType.rawValue)" }
    }

    /// One mutation at one place.
    public struct Step: Sendable, Hashable, Codable {
        public var mutation: String
        public var role: ChainModel.Role
        public var description: String { role == .chain ? mutation : "\(mutation) @\(role.rawValue)" }
    }

    /// What one back end said about one mutant.
    public struct Answer: Sendable, Hashable, Codable {
        public var backend: String
        public var trusted: Bool
        public var failures: [FailureClass]
        /// The library's own diagnostics, `NAME (code): message`.
        public var diagnostics: [String]

        /// `trusted` or `rejected [classes]`: what classes compare.
        public var signature: String {
            trusted ? "trusted" : "rejected [\(failures.map(\.rawValue).sorted().joined(separator: ", "))]"
        }
    }

    /// Which of the run's keys an example's leaf (its first presented certificate) carries: its key
    /// type and slot, from which the run's seed makes the private key again, so that a report holds
    /// no key material and every leaf can still be served by a TLS server: `--results-dir` writes
    /// the key beside the certificates (``FindingFiles``) and adoption keeps it in
    /// `Vectors/explored/keys/` (``Adoption``).
    public struct LeafKey: Sendable, Hashable, Codable {
        /// `ed25519`, `p256`, `p384`, `rsa2048` or `rsa1024`.
        public var type: String
        public var slot: Int
    }

    /// The revocation data given with a mutant (DER; in JSON each CRL and OCSP response base64, as
    /// certificates are) and the caller's mode.
    public struct Revocation: Sendable, Hashable, Codable {
        @Base64Certificates public var crls: [[UInt8]]
        @Base64Certificates public var ocspResponses: [[UInt8]]
        public var mode: RevocationMode?

        public init(crls: [[UInt8]], ocspResponses: [[UInt8]], mode: RevocationMode?) {
            self.crls = crls
            self.ocspResponses = ocspResponses
            self.mode = mode
        }
    }

    /// A class of disagreement with its smallest example.
    public struct Finding: Sendable, Codable {
        /// `verdict` when some back end trusts and another rejects; `reason` when all reject with
        /// different failure classes; `shared-accept` when every back end trusts a mutant the
        /// standards reject, `shared-reject` when every back end rejects one the standards trust
        /// (the back ends agree with each other, not with the standards: the most dangerous finding
        /// is a shared false accept); `closed` when every back end answers as the standards say but
        /// some only because a hardening of the harness or of a back end refused the mutant
        /// (``Explorer/hardeningDiagnostics``, such as the strict-DER check's `NOT_DER`): adopted as
        /// a vector, it pins the hardening, so that a regression in it fails a test.
        public var kind: String
        public var steps: [Step]
        public var summary: String
        /// The catalogue chain the example was made from.
        public var base: String
        /// The key type the base was re-keyed to (nil: Ed25519, as before there was a choice).
        public var keyType: KeyType? = nil
        public var answers: [Answer]
        /// The smallest example, DER (in JSON, each certificate base64: ``Base64Certificates``).
        @Base64Certificates public var chain: [[UInt8]]
        @Base64Certificates public var anchors: [[UInt8]]
        public var host: String?
        public var time: String
        /// The CRLs, OCSP responses and mode the example was asked with (nil: none, no revocation
        /// checking asked).
        public var revocation: Revocation? = nil
        /// The key of the example's leaf (nil: it presents no certificate).
        public var leafKey: LeafKey? = nil
        /// How many mutants fell in this class.
        public var occurrences: Int
        /// What the profile the run judged against calls for; nil where it leaves the answer open or
        /// no answer can be justified.
        public var standard: Expectation? = nil
        /// Both profiles' answers (``MutationCatalogue/answer(steps:baseAspects:host:)``,
        /// then ``WebPKIRules``); nil where no answer can be justified (the mutations interact with
        /// each other or with the base, and no rule is written for that).
        public var rfc5280: ProfileAnswer? = nil
        public var webpki: ProfileAnswer? = nil
        /// Of `occurrences`, the pairs folded into this class of one mutation: mutants of two
        /// mutations whose answers this one gives alone (nil: none). A class of two mutations is
        /// one that neither gives alone: the pair adds to its singles.
        public var foldedPairs: Int? = nil

        /// Whether `answer` is what the standards call for (nil when they say nothing).
        public func conforms(_ answer: Answer) -> Bool? {
            standard?.admits(trusted: answer.trusted, failures: answer.failures)
        }

        /// The class: the mutations and each back end's answer.
        public var key: String {
            steps.map(\.description).joined(separator: " + ") + " | " + answers.map { "\($0.backend): \($0.signature)" }.joined(separator: "; ")
        }

        var size: (Int, Int) { (steps.count, chain.count + anchors.count) }
    }

    public struct Report: Sendable, Codable {
        public var seed: UInt64
        public var backends: [String]
        public var bases: [String]
        /// Bases left out because fewer than two of the back ends that can be asked about them trust
        /// them as re-keyed (none, where at most one can be asked).
        public var disagreeingBases: [String]
        /// The back ends left out of a base they do not trust as re-keyed (NSS 3.87 on every Ed25519
        /// chain): back end name -> those bases. Its mutants are asked of the others only, so a
        /// library that cannot verify the base never turns into a finding.
        public var excludedBackends: [String: [String]] = [:]
        /// The back ends not asked about a base whose request needs a feature they lack
        /// (``TrustCore/BackendFeature``: CRLs, OCSP responses, a revocation mode): back end name ->
        /// those bases. A base such back ends are left out of needs two of the others, or the one
        /// that can be asked.
        public var lackingFeatures: [String: [String]]? = nil
        public var mutants: Int
        public var notApplicable: Int
        /// The mutants that fell in a class (of any kind, `closed` included).
        public var disagreeing: Int
        public var seconds: Double
        /// The profile shared departures were judged against.
        public var profile: StandardsProfile = .default
        /// How many mutants had a standard answer under the profile (and how many were left open):
        /// the rest interact in a way no rule answers.
        public var answered: Int = 0
        public var leftOpen: Int = 0
        /// Mutants of two mutations that one of them explains alone, counted in its class
        /// (``Finding/foldedPairs``) instead of a class of their own.
        public var foldedPairs: Int = 0
        public var findings: [Finding]
        /// The classes a person reads first (``Explorer/rank(_:adopted:)``); nil until ranked.
        public var ranking: [Ranked]? = nil
        /// Where the cores' time went: a measurement, like `seconds` (nil in a report made before).
        public var coreTime: CoreTime? = nil
    }

    /// The time the cores spent on a run's mutants, in all and in each back end's evaluations: the
    /// wall time of each job and of each library call, added up over the jobs that ran side by side
    /// (one per core). Wall time, not the thread's CPU time, so a back end that verifies in another
    /// process (NSS's workers, the HTTP clients' helper) is counted too; and so it is a core's time
    /// only when the run has a core for each job it runs at once (``Options/jobs``, and nothing else
    /// busy). The baseline evaluation of the bases and the standards' answers (made in order,
    /// outside the jobs) are not in it.
    public struct CoreTime: Codable, Equatable, Sendable {
        /// Seconds in the jobs: making, signing and evaluating the mutants, and for a pair its two
        /// single mutants too.
        public var all: Double = 0
        /// Per back end, seconds in its evaluations (building its evaluator for the mutant's anchors
        /// included) and how many it made.
        public var backends: [String: Double] = [:]
        public var evaluations: [String: Int] = [:]

        public init() {}

        /// Seconds in the explorer's own work: `all` less every back end's.
        public var explorer: Double { max(0, all - backends.values.reduce(0, +)) }

        mutating func add(_ other: CoreTime) {
            all += other.all
            backends.merge(other.backends, uniquingKeysWith: +)
            evaluations.merge(other.evaluations, uniquingKeysWith: +)
        }
    }

    /// The diagnostics by which a hardening, not the library's own verifier, refuses a mutant: the
    /// strict-DER check every back end applies before its library reads a certificate (`NOT_DER`),
    /// the host check of ``EvaluationRequest`` (`HOST_REFUSED`) and the guard's checks of a verdict
    /// (`UNEXPECTED_SUCCESS`, `UNEXPLAINED_REJECTION`). A mutant one of them refuses, on which every
    /// back end answers as the standards say, is a `closed` class.
    public static let hardeningDiagnostics: Set<String> = ["NOT_DER", "HOST_REFUSED", "UNEXPECTED_SUCCESS", "UNEXPLAINED_REJECTION"]

    public let backends: [any TrustBackend]
    public let bases: [ChainModel]
    public let mutations: [Mutation]

    public init(backends: [any TrustBackend], bases: [ChainModel], mutations: [Mutation] = MutationCatalogue.all) {
        self.backends = backends
        self.bases = bases
        self.mutations = mutations
    }

    struct Candidate: Sendable {
        /// The unit (a base re-keyed to one key type).
        var base: Int
        var steps: [(mutation: Int, role: ChainModel.Role)]
    }

    /// The outcome of one mutant.
    struct Evaluated: Sendable {
        var applicable: Bool
        var answers: [Answer]
        var chain: [[UInt8]]
        var anchors: [[UInt8]]
        var host: String?
        var revocation: Revocation? = nil
        var leafKey: LeafKey? = nil

        var disagrees: Bool { Set(answers.map(\.signature)).count > 1 }
        /// Every back end answers the same verdict, and `standard` (when there is one) says the other.
        func sharedDeparture(from standard: Expectation?) -> String? {
            guard let standard, !answers.isEmpty, Set(answers.map(\.trusted)).count == 1 else { return nil }
            let trusted = answers[0].trusted
            guard trusted != standard.trusted else { return nil }
            return trusted ? "shared-accept" : "shared-reject"
        }
        /// Every back end answers as `standard` says, and at least one because a hardening refused
        /// the mutant (``Explorer/hardeningDiagnostics``).
        func closedByHardening(_ standard: Expectation?) -> Bool {
            guard let standard, !standard.trusted, !answers.isEmpty else { return false }
            return answers.allSatisfy { standard.admits(trusted: $0.trusted, failures: $0.failures) } && answers.contains { answer in
                answer.diagnostics.contains { Explorer.hardeningDiagnostics.contains(String($0.prefix { $0 != " " })) }
            }
        }
        var verdictsDisagree: Bool { Set(answers.map(\.trusted)).count > 1 }
        var signatures: [String] { answers.map(\.signature) }
    }

    /// Runs the exploration; `progress(done, total, classes)` after each batch.
    public func run(_ options: Options, progress: (@Sendable (Int, Int, Int) -> Void)? = nil) async throws -> Report {
        let start = ContinuousClock.now
        let plan = try await prepare(options)
        var tally = Tally()
        let deadline = options.seconds.map { start + .milliseconds(Int($0 * 1000)) }
        await explore(plan, indices: Array(plan.candidates.indices), options: options, deadline: deadline, into: &tally, progress: progress)
        return plan.header.report(tally, seconds: Explorer.seconds(ContinuousClock.now - start))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// What every part of a run shares: the bases re-keyed, the back ends that take part in each,
    /// and the mutant sequence (singles shuffled by the seed, then the pairs it draws, cut at
    /// `cases`). The same for every shard of a run: each makes it whole (cheap: indices, and one
    /// evaluation of each base) and evaluates only its own mutants.
    struct Plan {
        var units: [Unit]
        var keys: KeySource
        var participants: [[Int]]
        var candidates: [Candidate]
        var header: Header
    }

    /// The part of a report every shard of a run has alike.
    struct Header: Codable, Equatable, Sendable {
        var seed: UInt64
        var backends: [String]
        var bases: [String]
        var disagreeingBases: [String]
        var excludedBackends: [String: [String]]
        var lackingFeatures: [String: [String]]? = nil
        var profile: StandardsProfile

        func report(_ tally: Tally, seconds: Double) -> Report {
            let findings = Explorer.mergingSubsets(tally.ordered)
            return Report(
                seed: seed, backends: backends, bases: bases, disagreeingBases: disagreeingBases, excludedBackends: excludedBackends, lackingFeatures: lackingFeatures,
                mutants: tally.mutants, notApplicable: tally.notApplicable, disagreeing: tally.disagreeing, seconds: seconds,
                profile: profile, answered: tally.answered, leftOpen: tally.leftOpen, foldedPairs: tally.foldedPairs,
                findings: findings.sorted { (Explorer.kindOrder($0.kind), $0.key) < (Explorer.kindOrder($1.kind), $1.key) },
                coreTime: tally.coreTime
            )
        }
    }

    /// The classes found so far, each with the index (in the run's mutant sequence) of the mutant
    /// that first fell in it and of its example, and the run's counts. Adding mutants in any order,
    /// or tallies of any parts of the sequence, gives the same classes as one pass in order: the
    /// example is the smallest mutant, the earliest of equal size; the order of classes is that of
    /// their first mutants.
    struct Tally: Codable, Sendable {
        struct Entry: Codable, Sendable {
            var finding: Finding
            var first: Int
            var example: Int
        }
        var classes: [String: Entry] = [:]
        var mutants = 0
        var notApplicable = 0
        var disagreeing = 0
        var answered = 0
        var leftOpen = 0
        var foldedPairs = 0
        /// Measured, not counted: no part of the classes depends on it.
        var coreTime: CoreTime? = nil

        mutating func add(_ finding: Finding, at index: Int) {
            add(Entry(finding: finding, first: index, example: index))
        }

        mutating func add(_ entry: Entry) {
            guard var known = classes[entry.finding.key] else {
                classes[entry.finding.key] = entry
                return
            }
            let occurrences = known.finding.occurrences + entry.finding.occurrences
            let folded = (known.finding.foldedPairs ?? 0) + (entry.finding.foldedPairs ?? 0)
            if (entry.finding.size.0, entry.finding.size.1, entry.example) < (known.finding.size.0, known.finding.size.1, known.example) {
                known.finding = entry.finding
                known.example = entry.example
            }
            known.finding.occurrences = occurrences
            known.finding.foldedPairs = folded == 0 ? nil : folded
            known.first = min(known.first, entry.first)
            classes[entry.finding.key] = known
        }

        mutating func add(_ other: Tally) {
            for entry in other.classes.values { add(entry) }
            mutants += other.mutants
            notApplicable += other.notApplicable
            disagreeing += other.disagreeing
            answered += other.answered
            leftOpen += other.leftOpen
            foldedPairs += other.foldedPairs
            if let time = other.coreTime { add(time) }
        }

        mutating func add(_ time: CoreTime) {
            var sum = coreTime ?? CoreTime()
            sum.add(time)
            coreTime = sum
        }

        /// The classes in the order their first mutants come in the run.
        var ordered: [Finding] {
            classes.values.sorted { $0.first < $1.first }.map(\.finding)
        }
    }

    func prepare(_ options: Options) async throws -> Plan {
        let keyTypes = options.keyTypes.isEmpty ? [KeyType.ed25519] : options.keyTypes
        let keys = try KeySource(seed: options.seed, kinds: keyTypes.map(\.kind))
        let units = bases.flatMap { model in keyTypes.map { Unit(model: model, keyType: $0) } }
        // A back end that lacks a feature a base's request needs (CRLs, OCSP responses, a
        // revocation mode) is not asked about it or its mutants: it would only refuse.
        let capable: [[Int]] = units.map { unit in backends.indices.filter { backends[$0].features.isSuperset(of: unit.model.requiredFeatures) } }
        // Bases on which the back ends already disagree would make every mutant of them disagree.
        let baseline = await ParallelJobs.run(count: units.count) { index in
            self.evaluate(Candidate(base: index, steps: []), units: units, keys: keys, backends: capable[index])
        }
        // A base's back ends are those that trust it: then a mutant is a valid chain with one
        // property changed. A back end that cannot verify the base at all (a key type it lacks) is
        // left out of that base's mutants, counted in the report; a base needs two back ends, or
        // the one back end that can be asked about it.
        let participants: [[Int]] = baseline.enumerated().map { unit, evaluated in
            evaluated.applicable ? capable[unit].filter { index in evaluated.answers.contains { $0.backend == backends[index].name && $0.trusted } } : []
        }
        let usable = units.indices.filter { participants[$0].count >= min(2, capable[$0].count) && !participants[$0].isEmpty }
        var excluded: [String: [String]] = [:]
        var lacking: [String: [String]] = [:]
        for base in usable {
            for index in backends.indices where !participants[base].contains(index) {
                if capable[base].contains(index) {
                    excluded[backends[index].name, default: []].append(units[base].label)
                } else {
                    lacking[backends[index].name, default: []].append(units[base].label)
                }
            }
        }
        // A base only one back end can be asked about (the others lack a feature its request
        // needs) adds what its revocation data adds, and no more: its certificates' mutations are
        // explored on the bases two back ends are asked about, where one library's answer is a
        // class of its own only when the others' differs.
        let alone = Set(usable.filter { capable[$0].count < min(2, backends.count) })
        func drawn(_ role: ChainModel.Role, on base: Int) -> Bool {
            units[base].model.node(for: role) != nil && (role.isRevocationData || !alone.contains(base))
        }
        var rng = SplitMix64(seed: options.seed)
        var singles: [Candidate] = []
        for base in usable {
            for (index, mutation) in mutations.enumerated() {
                for role in mutation.roles where drawn(role, on: base) {
                    singles.append(Candidate(base: base, steps: [(index, role)]))
                }
            }
        }
        singles.shuffle(using: &rng)
        var pairs: [Candidate] = []
        if !usable.isEmpty {
            for _ in 0..<options.pairs {
                let base = usable[Int(rng.next() % UInt64(usable.count))]
                let first = singles[Int(rng.next() % UInt64(singles.count))].steps[0]
                let second = singles[Int(rng.next() % UInt64(singles.count))].steps[0]
                guard first.mutation != second.mutation, drawn(first.role, on: base), drawn(second.role, on: base) else { continue }
                pairs.append(Candidate(base: base, steps: [first, second]))
            }
        }
        var candidates = singles + pairs
        if let cases = options.cases { candidates = Array(candidates.prefix(cases)) }
        let header = Header(
            seed: options.seed,
            backends: backends.map(\.name),
            bases: usable.map { units[$0].label },
            disagreeingBases: units.indices.filter { !usable.contains($0) }.map { units[$0].label },
            excludedBackends: excluded,
            lackingFeatures: lacking.isEmpty ? nil : lacking,
            profile: options.profile
        )
        return Plan(units: units, keys: keys, participants: participants, candidates: candidates, header: header)
    }

    /// Evaluates the mutants at `indices` of the plan's sequence (in that order, in batches), adding
    /// each that falls in a class to `tally` at its index.
    func explore(_ plan: Plan, indices: [Int], options: Options, deadline: ContinuousClock.Instant?, into tally: inout Tally, progress: (@Sendable (Int, Int, Int) -> Void)?) async {
        let units = plan.units
        let keys = plan.keys
        let participants = plan.participants
        let baseAspects = units.map(\.model.aspects)
        var done = 0
        let batch = 256
        while done < indices.count {
            if let deadline, ContinuousClock.now >= deadline { break }
            let slice = Array(indices[done..<min(done + batch, indices.count)])
            let jobs = await ParallelJobs.run(count: slice.count, width: options.jobs) { index in
                let candidate = plan.candidates[slice[index]]
                var time = CoreTime()
                let start = ContinuousClock.now
                let result = self.evaluateMinimal(candidate, units: units, keys: keys, backends: participants[candidate.base], time: &time)
                time.all = Explorer.seconds(ContinuousClock.now - start)
                return (result, time)
            }
            for (position, (result, time)) in zip(slice, jobs) {
                tally.add(time)
                let candidate = plan.candidates[position]
                guard let result else { tally.notApplicable += 1; continue }
                tally.mutants += 1
                // The standards' answer, on every base: a mutation that meets the base's own
                // aspects, or a pair that interacts with no rule written for it, has none.
                let unit = units[candidate.base]
                let rfc5280 = MutationCatalogue.answer(steps: result.steps.map { (mutations[$0.mutation].name, $0.role) }, baseAspects: baseAspects[candidate.base],
                                                       host: result.evaluated.host, revocationMode: unit.model.revocationMode)?.profileAnswer
                // The Web PKI's answer reads the mutant's certificates: only when it is judged by,
                // or when the mutant is kept in a class (below).
                func webAnswer() -> ProfileAnswer? { rfc5280.map { WebPKIRules.answer(chain: result.evaluated.chain, anchors: result.evaluated.anchors, rfc5280: $0, time: unit.model.time) } }
                let judged = options.profile == .webpki ? webAnswer() : rfc5280
                if let judged { tally.answered += 1; if judged.open != nil { tally.leftOpen += 1 } }
                let standard = judged.flatMap { $0.open == nil ? $0.expected : nil }
                let kind: String
                if result.evaluated.disagrees {
                    kind = result.evaluated.verdictsDisagree ? "verdict" : "reason"
                } else if let shared = result.evaluated.sharedDeparture(from: standard) {
                    kind = shared
                } else if result.evaluated.closedByHardening(standard) {
                    kind = "closed"
                } else {
                    continue
                }
                tally.disagreeing += 1
                let folded = candidate.steps.count > 1 && result.steps.count < candidate.steps.count
                if folded { tally.foldedPairs += 1 }
                tally.add(Finding(
                    kind: kind,
                    steps: result.steps.map { Step(mutation: mutations[$0.mutation].name, role: $0.role) },
                    summary: result.steps.map { mutations[$0.mutation].summary }.joined(separator: "; "),
                    base: units[candidate.base].model.id,
                    keyType: units[candidate.base].keyType == .ed25519 ? nil : units[candidate.base].keyType,
                    answers: result.evaluated.answers,
                    chain: result.evaluated.chain,
                    anchors: result.evaluated.anchors,
                    host: result.evaluated.host,
                    time: Timestamp.format(units[candidate.base].model.time),
                    revocation: result.evaluated.revocation,
                    leafKey: result.evaluated.leafKey,
                    occurrences: 1,
                    standard: standard,
                    rfc5280: rfc5280,
                    webpki: options.profile == .webpki ? judged : webAnswer(),
                    foldedPairs: folded ? 1 : nil
                ), at: position)
            }
            done += slice.count
            progress?(done, indices.count, tally.classes.count)
        }
    }

    /// Folds a class asked of fewer back ends (a base some of them were left out of) into a class of
    /// the same mutations and kind whose back ends include them all and answer alike: the same
    /// disagreement seen through fewer libraries is not another class. The larger class keeps its
    /// example and counts the folded mutants.
    static func mergingSubsets(_ findings: [Finding]) -> [Finding] {
        var kept: [Finding] = []
        var byPlace: [String: [Int]] = [:]
        for finding in findings.sorted(by: { $0.answers.count > $1.answers.count }) {
            let place = finding.kind + " " + finding.steps.map(\.description).joined(separator: " + ")
            let signatures = Dictionary(uniqueKeysWithValues: finding.answers.map { ($0.backend, $0.signature) })
            let wider = byPlace[place, default: []].first { index in
                let theirs = Dictionary(uniqueKeysWithValues: kept[index].answers.map { ($0.backend, $0.signature) })
                return signatures.allSatisfy { theirs[$0.key] == $0.value }
            }
            if let wider {
                kept[wider].occurrences += finding.occurrences
                let folded = (kept[wider].foldedPairs ?? 0) + (finding.foldedPairs ?? 0)
                kept[wider].foldedPairs = folded == 0 ? nil : folded
            } else {
                byPlace[place, default: []].append(kept.count)
                kept.append(finding)
            }
        }
        return kept
    }

    /// Report order: shared false accepts first (every library accepts what the standards reject),
    /// then verdict disagreements, shared false rejects, reason-only disagreements, and the classes
    /// a hardening closes.
    static func kindOrder(_ kind: String) -> Int {
        ["shared-accept": 0, "verdict": 1, "shared-reject": 2, "reason": 3, "closed": 4][kind] ?? 5
    }

    /// Evaluates a candidate; for a mutant of several mutations, the smallest subset
    /// that gives the same answers (so a class is named by what causes it). Nil when a mutation
    /// does not apply.
    func evaluateMinimal(_ candidate: Candidate, units: [Unit], keys: KeySource, backends chosen: [Int], time: inout CoreTime) -> (steps: [(mutation: Int, role: ChainModel.Role)], evaluated: Evaluated)? {
        let evaluated = evaluate(candidate, units: units, keys: keys, backends: chosen, time: &time)
        guard evaluated.applicable else { return nil }
        // Every kind of class (a disagreement, a shared departure, a closed one) is named by the
        // fewest mutations that give the same answers.
        guard candidate.steps.count > 1 else { return (candidate.steps, evaluated) }
        for step in candidate.steps {
            let single = evaluate(Candidate(base: candidate.base, steps: [step]), units: units, keys: keys, backends: chosen, time: &time)
            if single.applicable && single.signatures == evaluated.signatures { return ([step], single) }
        }
        return (candidate.steps, evaluated)
    }

    /// Builds the mutant and evaluates it on the back ends at `chosen` (every one when nil). Any
    /// error making it or evaluating it is an answer of its own (fail closed), never a lost mutant.
    func evaluate(_ candidate: Candidate, units: [Unit], keys: KeySource, backends chosen: [Int]? = nil) -> Evaluated {
        var time = CoreTime()
        return evaluate(candidate, units: units, keys: keys, backends: chosen, time: &time)
    }

    /// ``evaluate(_:units:keys:backends:)``, adding each back end's time to `time`.
    func evaluate(_ candidate: Candidate, units: [Unit], keys: KeySource, backends chosen: [Int]?, time: inout CoreTime) -> Evaluated {
        let model = units[candidate.base].model
        var draft = MutantDraft(model, slotKind: units[candidate.base].keyType.kind)
        for step in candidate.steps {
            guard let node = model.node(for: step.role), mutations[step.mutation].edit(&draft, node) else {
                return Evaluated(applicable: false, answers: [], chain: [], anchors: [], host: nil)
            }
        }
        if !candidate.steps.isEmpty && draft.isUnchanged {
            return Evaluated(applicable: false, answers: [], chain: [], anchors: [], host: nil)
        }
        let rendered: MutantDraft.Rendered
        do {
            rendered = try draft.renderAll(keys: keys)
        } catch {
            return Evaluated(applicable: false, answers: [], chain: [], anchors: [], host: nil)
        }
        var request = EvaluationRequest(chain: rendered.chain, host: draft.host.map(HostIdentity.init), time: model.time)
        request.revocationLists = rendered.revocationLists
        request.ocspResponses = rendered.ocspResponses
        request.revocationMode = model.revocationMode
        let revocation = model.hasRevocation ? Revocation(crls: rendered.revocationLists, ocspResponses: rendered.ocspResponses, mode: model.revocationMode) : nil
        // Never a back end that lacks a feature the request needs: it is not asked (a mutation can
        // leave data out, never add a need).
        let asked = (chosen ?? Array(backends.indices)).filter { backends[$0].features.isSuperset(of: request.requiredFeatures) }
        let answers = asked.map { backends[$0] }.map { backend -> Answer in
            // A refused anchor is answered as every subcommand answers it (malformed, ANCHORS_REFUSED),
            // so the finding's reproduce command gives what the explorer recorded.
            let start = ContinuousClock.now
            let verdict = backend.evaluatorFailingClosed(anchors: rendered.anchors).evaluate(request)
            time.backends[backend.name, default: 0] += Explorer.seconds(ContinuousClock.now - start)
            time.evaluations[backend.name, default: 0] += 1
            return Answer(backend: backend.name, trusted: verdict.isTrusted, failures: verdict.isTrusted ? [] : verdict.failures, diagnostics: verdict.diagnostics.map(\.description))
        }
        return Evaluated(applicable: true, answers: answers, chain: rendered.chain, anchors: rendered.anchors, host: draft.host, revocation: revocation,
                         leafKey: rendered.leafKey.map { LeafKey(type: $0.kind.rawValue, slot: $0.slot) })
    }
}
