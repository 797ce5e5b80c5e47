import TrustBackendKit
import ArgumentParser
import Foundation
import TrustCore
import TrustExplore
import TrustHarness
import TrustVectors

struct ExploreCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        _superCommandName: "trust-harness",
        abstract: "Mutate the catalogue's chains (or yours) one property at a time and find where the back ends disagree.",
        discussion: """
        Each mutant changes one property of one certificate (validity encodings, basicConstraints, keyUsage, \
        extendedKeyUsage, names against the host, nameConstraints, issuer-name encodings, key identifiers, \
        unknown and duplicate extensions, versions, serial numbers, key types, signature algorithms and \
        encodings) or of the chain (order, duplicates, extras, cross-signed copies, same-name anchors), or of \
        the CRLs and OCSP responses a revocation vector gives with its chain (dates, signatures, issuer name and \
        key identifier, entries and reason codes, critical extensions, scope, v1; status, CertID, responder, \
        response status); every certificate is re-keyed and re-signed, and every CRL and response re-signed by \
        its signer's new key, so only that property differs. Every mutant runs on every selected back end \
        that has the features its request needs (a back end without CRLs, OCSP responses or the vector's \
        revocation mode is not asked); mutants on which they disagree (verdict, or failure classes when all reject) are \
        grouped into classes by mutation and answers, each kept as its smallest example. Then pairs of \
        mutations are drawn, and a pair is kept only when neither mutation alone gives the same answers.

        Only catalogue chains the standards trust (and every back end trusts, re-keyed) are mutated, so a \
        mutant is a valid chain with one property changed. The same --seed and --cases give the same \
        mutants, classes and example bytes in any run (every key and signature is deterministic, ECDSA \
        by RFC 6979). With --results-dir DIR every class is \
        written as files (chain.pem, anchors.pem, one file per certificate, leaf-key.pem with the leaf's private \
        key, finding.json with the evaluate command that reproduces it) and DIR/candidates.json lists them as candidate vectors in the \
        manifest's format with both profiles' answers: `expected` from RFC 5280 and RFC 9525 (composed for \
        a pair of independent mutations, from a rule written for the interaction otherwise; `open` quoting \
        the sentence where the standards leave it to the relying party; null where no answer can be \
        justified) and `webpki` where the Baseline Requirements differ. `explore --adopt DIR/candidates.json` \
        makes the catalogue entries (Vectors/explored/, each leaf's key in explored/keys/) and records, per profile, the deviations of every \
        back end that answers otherwise. Shared accepts and shared rejects (every back end agrees, the \
        standards disagree) are found on every base, judged against --profile.

        A report opens with the classes to read first: accepted where the standards reject (by how many \
        back ends), then rejected where they trust, then failure-class differences, new classes before \
        those adopted; a pair that one of its mutations explains alone is folded into that class and \
        counted. A page lists at most --page-classes classes (the highest ranked); the JSON report and \
        --results-dir hold every one. The run's section says where the cores' time went, per back end.

        Sharded runs: `--shard K/N` explores part K of N of the same mutant sequence (the mutants whose \
        index is K-1 modulo N) and writes a shard file (JSON, whatever --format) to --report; \
        `--merge FILE` (repeatable) merges the N shard files of one run into exactly the report one \
        unsharded run gives (same classes, examples and answers, whatever the number of shards or their \
        order), written in --format like any report. A shard from another run (seed, --cases, --pairs, \
        key types, profile, back ends or their library builds, bases, mutations), cut otherwise, given \
        twice, missing, truncated or of another format is refused with the file named. A sharded run \
        has no --seconds (its parts would depend on each machine's speed). docs/explore.md shows the \
        batch job (Slurm) that runs them.

        Exit status: 0 when the exploration ran (findings are results, not failures), 2 for bad input.
        Examples:
          trust-harness explore --seconds 120
          trust-harness explore --seed 7 --cases 2000 --results-dir findings/ \\
              --format html --report explore.html
          trust-harness explore --from 'valid-chain/*' \\
              --backend openssl --backend gnutls
          trust-harness explore --from 'revocation-*' --mutation 'crl/*' \\
              --mutation 'ocsp/*' --pairs 0
          trust-harness explore --chain server.pem --anchors root.pem \\
              --host www.example.com --at 2026-01-01T00:00:00Z
          trust-harness explore --pairs 100000 --shard 3/8 --report shard-3.json
          trust-harness explore --merge shard-1.json ... --merge shard-8.json \\
              --format html --report explore.html
        """
    )

    @Option(help: "The seed of the mutant order and of the keys.")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("At most this many mutants (default: every single mutation of every chain, then the pairs).", valueName: "n"))
    var cases: Int?

    @Option(help: ArgumentHelp("Stop drawing mutants after this many seconds.", valueName: "seconds"))
    var seconds: Double?

    @Option(help: ArgumentHelp("How many two-mutation mutants to draw after the single ones.", valueName: "n"))
    var pairs: Int = 1_000

    @Option(name: .customLong("key-type"), help: ArgumentHelp("Re-key every base chain to this key type (ed25519, p256, rsa2048) and explore it; repeatable. Default: p256 and rsa2048, the types both profiles allow; an Ed25519 base departs from the Web PKI profile, and its findings' ids end in +on-ed25519.", valueName: "type"))
    var keyTypes: [String] = []

    @OptionGroup var backendOption: BackendOption

    @Option(name: .customLong("from"), help: ArgumentHelp("Mutate only the catalogue chains whose vector id matches (* and ?); repeatable. Default: one key type of every case.", valueName: "pattern"))
    var fromPatterns: [String] = []

    @Option(name: .customLong("chain"), help: ArgumentHelp("Mutate this chain instead (PEM bundle or DER, leaf first; '-': standard input); repeatable.", valueName: "file"), completion: .file())
    var chainFiles: [String] = []

    @Option(name: .customLong("anchors"), help: ArgumentHelp("The anchors of --chain (PEM bundle, DER or a folder of them); repeatable.", valueName: "file"), completion: .file())
    var anchorFiles: [String] = []

    @Option(help: "The host of --chain (a DNS name or an IP address).")
    var host: String?

    @Option(help: ArgumentHelp("The validation time of --chain: \(Timestamp.accepted) (default: now).", valueName: "time"))
    var at: String?

    @Option(name: .customLong("results-dir"), help: ArgumentHelp("Write every class as files into this folder (created if missing), with candidates.json; the report goes to --report.", valueName: "dir"), completion: .directory)
    var resultsDirectory: String?

    @OptionGroup var output: OutputOption

    typealias Format = DocumentFormat

    @OptionGroup var formatOption: FormatOption<Format>
    var format: Format { formatOption.value }

    @OptionGroup var location: VectorsOption

    @Option(help: ArgumentHelp("Instead of exploring: bring the candidates of this candidates.json whose expected is set into the vectors folder's explored/ (certificates, manifest entry, and a deviation for every registered back end, variants too, that answers otherwise).", valueName: "file"), completion: .file())
    var adopt: String?

    @Option(name: .customLong("mutation"), help: ArgumentHelp("Draw only the mutations whose name matches (* and ?, e.g. 'chain/anchor*'); repeatable. Default: every mutation of the catalogue.", valueName: "pattern"))
    var mutationPatterns: [String] = []

    @Option(help: ArgumentHelp("Instead of exploring: make the adopted vectors whose id matches (* and ?) again from the mutations their id names, on the one catalogue chain --from names (which both profiles must trust), re-keyed to --key-type (default p256); rewrites their certificates and answers. For a vector whose base departs from a profile for something its id does not name. Repeatable; record the deviations again afterwards.", valueName: "pattern"))
    var rebase: [String] = []

    @Flag(help: "Instead of exploring: derive every adopted vector's answers again from the rules (RFC 5280's from the mutations its id names, the Web PKI's from its certificates), rewrite explored/manifest.json and list each answer that changed. Record the back ends' deviations again afterwards.")
    var reanswer = false

    @OptionGroup var profileOption: ProfileOption

    @Option(help: ArgumentHelp("Explore only part K of N of the mutant sequence (K from 1) and write a shard file (JSON) for --merge.", valueName: "K/N"))
    var shard: String?

    @Option(help: ArgumentHelp("Evaluate at most this many mutants at once (default: every core busy). Give a scheduler's task the CPUs it was allotted (scripts/slurm passes SLURM_CPUS_PER_TASK): no result depends on it, but the cores' time counts waiting as work when a run keeps more busy than it has.", valueName: "n"))
    var jobs: Int?

    @Option(name: .customLong("page-classes"), help: ArgumentHelp("In text, Markdown and HTML, list at most this many classes one by one: past it, those ranked highest, in the ranking's order (a page of 40,000 classes does not open). 0: every class. JSON and --results-dir always hold every class.", valueName: "n"))
    var pageClasses = 1_000

    @Option(name: .customLong("merge"), help: ArgumentHelp("Instead of exploring: merge the shard files of one sharded run (--shard) into its report; repeatable, every shard once.", valueName: "file"), completion: .file())
    var mergeFiles: [String] = []

    func validate() throws {
        if let cases, cases < 1 { throw ValidationError("--cases must be at least 1") }
        if let seconds, !(seconds > 0) { throw ValidationError("--seconds must be more than 0") }
        if pairs < 0 { throw ValidationError("--pairs must be 0 or more") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if pageClasses < 0 { throw ValidationError("--page-classes must be 0 (every class) or more") }
        for type in keyTypes where Explorer.KeyType(rawValue: type) == nil {
            throw ValidationError("--key-type \"\(type)\" is not one of \(Explorer.KeyType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if !chainFiles.isEmpty && !fromPatterns.isEmpty { throw ValidationError("give either --chain (your chain) or --from (catalogue chains), not both") }
        if chainFiles.isEmpty && (!anchorFiles.isEmpty || host != nil || at != nil) { throw ValidationError("--anchors, --host and --at describe --chain: give the chain too") }
        if !chainFiles.isEmpty && anchorFiles.isEmpty { throw ValidationError("give the anchors of --chain with --anchors FILE") }
        if let shard {
            do { _ = try Explorer.Shard(parsing: shard) } catch { throw ValidationError("--shard \(error)") }
            if seconds != nil { throw ValidationError("--shard: a sharded run has no --seconds (its parts would depend on each machine's speed); give --cases or --pairs") }
            if resultsDirectory != nil { throw ValidationError("--shard writes a shard file; give --results-dir to the --merge of the shards") }
            if !["text", "json"].contains(formatOption.name) { throw ValidationError("--shard writes a shard file (JSON) for --merge; give --format \(formatOption.name) to the --merge") }
            if !mergeFiles.isEmpty { throw ValidationError("give either --shard (explore a part) or --merge (merge the parts), not both") }
        }
    }

    func run(in tool: ToolContext) async throws {
        if !rebase.isEmpty {
            let suite = try location.load(in: tool)
            let candidates = suite.vectors.filter { vector in fromPatterns.contains { Glob.matches($0, vector.id) } }
            guard candidates.count == 1, let vector = candidates.first else {
                throw ValidationError("--rebase needs --from naming exactly one catalogue vector (matched \(candidates.count))")
            }
            for profile in StandardsProfile.allCases where !vector.entry.trustedUnder.contains(profile) {
                throw ValidationError("--from \(vector.id) is not trusted under \(profile): a base must conform to both profiles")
            }
            let keyType = keyTypes.first.flatMap(Explorer.KeyType.init(rawValue:)) ?? .p256
            let model = try ChainModel(id: vector.id, description: vector.entry.description, chain: vector.chain, anchors: vector.anchors, host: vector.entry.host, time: vector.time)
            let results = try ExploredAnswers.rebase(rebase, on: model, keyType: keyType, seed: seed, vectors: try location.directory())
            for result in results {
                switch result {
                case .rewritten(let id, let base): try output.write(in: tool, "\(id): made again on \(base)\n")
                case .notApplicable(let id, let why): try output.write(in: tool, "\(id): left as it is: \(why)\n")
                }
            }
            let changes = try ExploredAnswers.reanswer(vectors: try location.directory())
            tool.error("\(results.count) vectors matched; \(changes.count) answers changed; record the deviations again")
            return
        }
        if reanswer {
            let changes: [ExploredAnswers.Change]
            do {
                changes = try ExploredAnswers.reanswer(vectors: try location.directory())
            } catch let problem as FileProblem {
                tool.error("error: --reanswer \(problem)")
                throw ExitCode(2)
            }
            for change in changes { try output.write(in: tool, "\(change.id) [\(change.profile)]: \(change.before) -> \(change.after)\n") }
            tool.error("\(changes.count) answers changed in explored/manifest.json")
            return
        }
        if let adopt {
            let all = tool.registry.entries.map { GuardedBackend($0.make(.default)) as any TrustBackend }
            let summary: Adoption.Summary
            do {
                let vectors = try location.directory()
                summary = try Adoption.adopt(URL(fileURLWithPath: adopt), into: vectors, backends: all, deviationsFileOf: try tool.deviationsFileOf.mapValues { try Self.sourceFile(of: $0, beside: vectors) })
            } catch let problem as FileProblem {
                tool.error("error: --adopt \(problem)")
                throw ExitCode(2)
            }
            let reasons = summary.leftOutBecause.sorted { $0.value > $1.value }.map { "\($0.value): \($0.key)" }.joined(separator: "; ")
            tool.error("adopted \(summary.adopted.count) vectors into explored/ with \(summary.deviations) deviations; \(summary.leftOut.count) candidates left out\(reasons.isEmpty ? "" : " (\(reasons))")")
            return
        }
        if !mergeFiles.isEmpty {
            let (report, backends) = try merged(in: tool)
            try await write(report, backends: backends, in: tool)
            return
        }
        let backends: [any TrustBackend]
        do {
            backends = try backendOption.backends(configuration: .uncached, in: tool)
        } catch {
            throw ValidationError("\(error)")
        }
        guard backends.count >= 2 else { throw ValidationError("explore compares back ends: select at least two") }
        let bases = try loadBases(in: tool)
        let mutations = mutationPatterns.isEmpty ? MutationCatalogue.all : MutationCatalogue.all.filter { mutation in mutationPatterns.contains { Glob.matches($0, mutation.name) } }
        guard !mutations.isEmpty else { throw ValidationError("no mutation matches \(mutationPatterns.map { "'\($0)'" }.joined(separator: ", "))") }
        guard !bases.isEmpty else { throw ValidationError("no chain to mutate: no catalogue vector matches \(fromPatterns.map { "'\($0)'" }.joined(separator: ", "))") }

        // Mutants drawn of those planned (a --seconds run may stop early), with the classes so far.
        let progress = Progress(label: "explore", count: nil, unit: "mutants", detail: Progress.backends(backends.count), in: tool)
        let report: @Sendable (Int, Int, Int) -> Void = { done, total, classes in
            progress.update(done, of: total, note: classes == 1 ? "1 class" : "\(classes) classes")
        }
        let explorer = Explorer(backends: backends, bases: bases, mutations: mutations)
        var options = Explorer.Options(seed: seed, cases: cases, seconds: seconds, pairs: pairs, keyTypes: keyTypes.isEmpty ? Explorer.KeyType.conforming : keyTypes.compactMap(Explorer.KeyType.init(rawValue:)), profile: profileOption.profile)
        options.jobs = jobs
        if let shard {
            let part = try await explorer.runShard(options, shard: try Explorer.Shard(parsing: shard), producer: "trust-harness \(TrustHarnessTool.version)", progress: report)
            progress.finish()
            try output.write(in: tool, try JSONText.encode(part) + "\n")
            tool.error("explore: shard \(part.shard): \(part.evaluated) of \(part.run.mutants) mutants, \(part.classes) classes before merging, \(String(format: "%.1f", part.seconds)) s")
            return
        }
        let result = try await explorer.run(options, progress: report)
        progress.finish()
        try await write(result, backends: backends.map(BackendInfo.init), in: tool)
    }

    /// The report of the shard files given with --merge, and its back ends with the library builds
    /// the shards recorded.
    func merged(in tool: ToolContext) throws -> (Explorer.Report, [BackendInfo]) {
        var shards: [(file: String, result: Explorer.ShardResult)] = []
        for file in mergeFiles {
            let data: Data
            do {
                data = try FileProblem.contents(of: URL(fileURLWithPath: file))
            } catch let problem as FileProblem {
                tool.error("error: --merge \(problem)")
                throw ExitCode(2)
            }
            do {
                shards.append((file, try JSONDecoder().decode(Explorer.ShardResult.self, from: data)))
            } catch {
                tool.error("error: --merge \(file): not a whole shard file of `explore --shard` (\(Self.decodingReason(error)))")
                throw ExitCode(2)
            }
        }
        do {
            let report = try Explorer.merge(shards)
            let run = shards[0].result.run
            return (report, zip(run.backends, run.libraries).map { BackendInfo(name: $0, version: $1) })
        } catch {
            tool.error("error: --merge \(error)")
            throw ExitCode(2)
        }
    }

    /// Why a shard file could not be read, in a line.
    static func decodingReason(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .dataCorrupted(let context)?: return "not JSON, or cut short: \(context.underlyingError.map { "\($0)" } ?? context.debugDescription)"
        case .keyNotFound(let key, _)?: return "no \"\(key.stringValue)\""
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?: return "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        default: return "\(error)"
        }
    }

    /// Writes `result` as every exploration does: --results-dir, then the report in --format.
    func write(_ unranked: Explorer.Report, backends infos: [BackendInfo], in tool: ToolContext) async throws {
        var result = unranked
        // New classes before those the vectors already hold (explored/): without vectors at hand
        // (a chain of yours, another folder), every class counts as new. Read quietly: the vectors
        // only rank here, and `location.load` reports its own failure as an error.
        let vectors = (try? location.directory()).flatMap { try? tool.loadVectors($0) }
        let adopted = vectors.map { Set($0.vectors.map(\.id).filter { $0.hasPrefix("explored/") }) } ?? []
        // The gravest impact first within a tier (Vectors/impacts.json); none without the vectors.
        result.ranking = Explorer.rank(result, adopted: adopted, impacts: vectors?.impacts ?? .empty)
        var folders: [String]?
        if let resultsDirectory {
            let folder = URL(fileURLWithPath: resultsDirectory)
            do {
                try FindingFiles.write(result, to: folder)
            } catch {
                tool.error("error: cannot write the findings into \(resultsDirectory): \(FileProblem.systemReason(error))")
                throw ExitCode(2)
            }
            // Named in the report as every file is (Provenance.reportPath), not by where this machine keeps them.
            folders = result.findings.indices.map { Provenance.reportPath(folder.appendingPathComponent(FindingFiles.slug(result.findings[$0], index: $0)).path) }
            tool.error("wrote \(result.findings.count) findings and candidates.json into \(folder.path)")
        }
        let provenance = tool.provenance(judging: profileOption.profile)
        if let text = format.render(ExploreReports.document(result, backends: infos, provenance: provenance, folders: folders, listing: pageClasses == 0 ? nil : pageClasses)) {
            try output.write(in: tool, text)
        } else {
            try output.write(in: tool, try JSONText.encode(DocumentedJSON(schemaVersion: 3, provenance: provenance, body: result)) + "\n")
        }
    }

    func loadBases(in tool: ToolContext) throws -> [ChainModel] {
        guard !chainFiles.isEmpty else {
            return ChainModel.bases(from: try location.load(in: tool), matching: fromPatterns)
        }
        let chain = try CertificateInput.read(chainFiles, role: "--chain", in: tool)
        let anchors = try CertificateInput.read(anchorFiles, role: "--anchors", folders: true, in: tool)
        let checkedHost = try EvaluateCommand.validated(host: host)
        var time = Date()
        if let at {
            guard let parsed = Timestamp.parse(at) else { throw ValidationError("--at \"\(at)\" is not \(Timestamp.accepted)") }
            time = parsed
        }
        do {
            return [try ChainModel(id: "your-chain", description: "the chain given with --chain", chain: chain, anchors: anchors, host: checkedHost, time: time)]
        } catch {
            throw ValidationError("--chain: \(error)")
        }
    }
}

extension ExploreCommand {
    /// Where a package's deviations are written: a file SwiftPM bundled (`Pkg_Target.resources/
    /// deviations.json`, a copy in the build folder) is written at its source, `Sources/Target/
    /// deviations.json` of a package under `Backends/` or `Examples/` of the checkout whose vectors
    /// are in use; any other file where it is.
    /// - Throws: ``FileProblem`` when a bundled file's source cannot be found, rather than writing
    ///   records into a build folder where they would be lost.
    static func sourceFile(of file: URL, beside vectors: URL) throws -> URL {
        let bundle = file.deletingLastPathComponent().lastPathComponent
        guard bundle.hasSuffix(".resources"), let underscore = bundle.lastIndex(of: "_") else { return file }
        let target = bundle[bundle.index(after: underscore)...].dropLast(".resources".count)
        let checkout = vectors.deletingLastPathComponent()
        for folder in ["Backends", "Examples"] {
            let packages = (try? FileManager.default.contentsOfDirectory(atPath: checkout.appendingPathComponent(folder).path)) ?? []
            for package in packages.sorted() {
                let source = checkout.appendingPathComponent("\(folder)/\(package)/Sources/\(target)/\(file.lastPathComponent)")
                if FileManager.default.fileExists(atPath: source.path) { return source }
            }
        }
        throw FileProblem(file: file.path, problem: "is a copy SwiftPM bundled; its source (Sources/\(target)/\(file.lastPathComponent) of a package under Backends/ or Examples/ beside \(vectors.path)) was not found, so nothing is written")
    }
}
