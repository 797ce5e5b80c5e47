import ArgumentParser
import Foundation
import TrustCore
import TrustHarness
import TrustVectors
import X509
import TrustPolicy

struct EvaluateCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        _superCommandName: "trust-harness",
        abstract: "Evaluate one chain from files on every (or the chosen) back end, optionally through a pinning policy.",
        discussion: """
        Exit status: 0 when every chosen back end trusts, 1 when any rejects, 2 for bad input or usage.
        Examples:
          trust-harness evaluate --chain server.pem --system-anchors \\
              --host www.example.com
          trust-harness evaluate --chain leaf.der --chain ca.der \\
              --anchors root.pem --host 192.0.2.1 --at 2025-06-01T00:00:00Z
          trust-harness evaluate --chain server.pem --system-anchors \\
              --host api.example.com --pinning public-key --pin pins.txt
        """
    )

    enum Pinning: String, ExpressibleByArgument, CaseIterable {
        case none
        case publicKey = "public-key"
        case certificate

        var mode: PinningMode {
            switch self {
            case .none: return .none
            case .publicKey: return .publicKey
            case .certificate: return .certificate
            }
        }
    }

    typealias Format = DocumentFormat

    static let systemAnchorsPath = "/etc/ssl/certs/ca-certificates.crt"

    @Option(name: .customLong("chain"), help: ArgumentHelp("The presented chain: a PEM bundle or a DER certificate, leaf first; repeatable (files in order); '-' reads standard input.", valueName: "file"), completion: .file())
    var chainFiles: [String] = []

    @Option(name: .customLong("anchors"), help: ArgumentHelp("Trust anchors: a PEM bundle, a DER certificate, or a folder of them (e.g. /etc/ssl/certs); repeatable; '-' reads standard input.", valueName: "file"), completion: .file())
    var anchorFiles: [String] = []

    @Flag(help: "Trust the Debian system store (\(EvaluateCommand.systemAnchorsPath)).")
    var systemAnchors = false

    @Option(help: "Host to check: a DNS name or an IP address. Omitted: no host check.")
    var host: String?

    @Option(help: ArgumentHelp("Validation time: \(Timestamp.accepted). Default: now.", valueName: "time"))
    var at: String?

    @Option(help: ArgumentHelp("The IP address the client connected to (a DNS host resolved to it): libraries whose host check reads the socket's address (swift-nio-ssl) are given it; the others have no such input. Omitted: none.", valueName: "ip"))
    var address: String?

    @OptionGroup var backendOption: BackendOption

    @Option(help: "Pinning mode: \(Pinning.allCases.map(\.rawValue).joined(separator: ", ")).")
    var pinning: Pinning = .none

    @Option(name: .customLong("pin"), help: ArgumentHelp("A pinned certificate (PEM/DER), or a file of sha256/ pins (public-key mode); repeatable.", valueName: "file"), completion: .file())
    var pinFiles: [String] = []

    @Flag(name: .customLong("allow-invalid"), help: "allowInvalidCertificates: trust invalid chains (subject to pinning).")
    var allowInvalid = false

    @Flag(name: .customLong("no-validate-domain"), help: "validatesDomainName off: do not check the host.")
    var noValidateDomain = false

    @OptionGroup var formatOption: FormatOption<Format>
    var format: Format { formatOption.value }

    @OptionGroup var output: OutputOption

    func validate() throws {
        if chainFiles.isEmpty { throw ValidationError("give the presented chain with --chain FILE (leaf first)") }
        if anchorFiles.isEmpty && !systemAnchors { throw ValidationError("give trust anchors with --anchors FILE or --system-anchors") }
        try Self.validate(pinning: pinning, pinFiles: pinFiles)
    }

    func run(in tool: ToolContext) async throws {
        let backends: [any TrustBackend]
        do {
            backends = try backendOption.backends(in: tool)
        } catch {
            throw ValidationError("\(error)")
        }
        let chain = try CertificateInput.read(chainFiles, role: "--chain", in: tool)
        var anchors = try CertificateInput.read(anchorFiles, role: "--anchors", folders: true, in: tool)
        if systemAnchors { anchors += try CertificateInput.read([Self.systemAnchorsPath], role: "--system-anchors", in: tool) }
        if let hint = Self.orderHint(chain) { tool.error("warning: \(hint)") }
        let time = try validationTime()
        let host = try validatedHost()
        let policy = try makePolicy(in: tool)
        let connectedAddress = try address.map { text in
            guard let bytes = IPAddressParser.parse(text) else { throw ValidationError("--address: \"\(text)\" is not an IPv4 or IPv6 address") }
            return bytes
        }

        // One back end refusing the anchors or pins (GnuTLS will not import a certificate with an
        // empty dNSName, say) is that back end's answer, not the end of the run: the others still give
        // theirs, and the status follows the verdicts.
        var entries: [Entry] = []
        for backend in backends {
            let outcome: Entry.Outcome
            do {
                let evaluator = try policy.evaluator(on: backend, anchors: anchors)
                outcome = .decided(evaluator.evaluate(chain: chain, forDomain: host, at: time, connectedAddress: connectedAddress))
            } catch {
                outcome = .refused("\(backend.name) cannot use the anchors or pinned certificates: \(error)")
            }
            entries.append(Entry(backend: BackendInfo(backend), outcome: outcome))
        }
        switch format {
        case .text, .markdown, .html: try output.write(in: tool, format.render(Self.document(entries, host: host, time: time, provenance: tool.provenance)) ?? "")
        case .json: try output.write(in: tool, try Self.json(entries, host: host, time: time, policy: policy, provenance: tool.provenance) + "\n")
        }
        if entries.contains(where: { !$0.trusted }) { throw ExitCode(1) }
    }

    struct Entry {
        var backend: BackendInfo
        var outcome: Outcome

        enum Outcome {
            /// The policy's decision on the chain.
            case decided(PolicyDecision)
            /// The back end could not be set up with the anchors or pins: nothing was evaluated, so
            /// nothing is trusted (fail closed).
            case refused(String)
        }

        var trusted: Bool {
            if case .decided(let decision) = outcome { return decision.trusted }
            return false
        }
    }

    /// `--host` as a request would carry it, or a usage error naming the flag: a host the tool
    /// refuses (`127.1`, `::1%lo`, `a/b`, an empty name) is the user's mistake, reported once before
    /// any back end runs, not a rejection per back end.
    func validatedHost() throws -> String? {
        try Self.validated(host: host)
    }

    /// A hint when the presented chain looks upside down: its first certificate (read as the leaf)
    /// is a CA while a later one is not. The chain is still evaluated as given.
    static func orderHint(_ chain: [[UInt8]]) -> String? {
        func isCA(_ der: [UInt8]) -> Bool? {
            guard let certificate = try? Certificate(derEncoded: der) else { return nil }
            guard case .isCertificateAuthority? = try? certificate.extensions.basicConstraints else { return false }
            return true
        }
        guard chain.count > 1, isCA(chain[0]) == true,
              let leafLike = chain.indices.dropFirst().first(where: { isCA(chain[$0]) == false }) else { return nil }
        return "--chain starts with a CA certificate (\(SubjectText.of(chain[0]))) while certificate \(leafLike + 1) (\(SubjectText.of(chain[leafLike]))) is not a CA: the chain is read leaf first; is the bundle in the wrong order?"
    }

    static func validated(host: String?, flag: String = "--host") throws -> String? {
        guard let host else { return nil }
        if case .dns(let name) = HostIdentity(host).forComparison, let reason = HostIdentity.unusableDNSNameReason(name) {
            throw ValidationError("\(flag) \"\(host)\" cannot be checked: \(reason)")
        }
        return host
    }

    func validationTime() throws -> Date {
        guard let at else { return Date() }
        guard let time = Timestamp.parse(at) else {
            throw ValidationError("--at \"\(at)\" is not \(Timestamp.accepted)")
        }
        return time
    }

    /// `--pin` and `--pinning` go together, for `evaluate` and `probe`.
    static func validate(pinning: Pinning, pinFiles: [String]) throws {
        if pinning == .none && !pinFiles.isEmpty { throw ValidationError("--pin needs --pinning public-key or --pinning certificate") }
        if pinning != .none && pinFiles.isEmpty { throw ValidationError("--pinning \(pinning.rawValue) needs --pin FILE: a policy pinning nothing trusts nothing") }
    }

    func makePolicy(in tool: ToolContext) throws -> SecurityPolicy {
        try Self.policy(pinning: pinning, pinFiles: pinFiles, allowInvalid: allowInvalid, validatesDomainName: !noValidateDomain, in: tool)
    }

    /// The SecurityPolicy of the policy flags (`--pinning`, `--pin`, `--allow-invalid`,
    /// `--no-validate-domain`), as `evaluate` and `probe` read them.
    static func policy(pinning: Pinning, pinFiles: [String], allowInvalid: Bool, validatesDomainName: Bool, in tool: ToolContext) throws -> SecurityPolicy {
        let noValidateDomain = !validatesDomainName
        var pinnedCertificates: [[UInt8]] = []
        var pins: [SPKIPin] = []
        for file in pinFiles {
            let bytes: [UInt8]
            do {
                bytes = [UInt8](try FileProblem.contents(of: URL(fileURLWithPath: file)))
            } catch {
                tool.error("error: --pin \(error)")
                throw ExitCode(2)
            }
            if PinFile.isPinList(bytes) {
                // Read first, so a file without pins says so whatever the pinning mode.
                let listed: [SPKIPin]
                do { listed = try PinFile.decodePinList(bytes, file: file) } catch { tool.error("error: --pin \(error)"); throw ExitCode(2) }
                guard pinning == .publicKey else {
                    throw ValidationError("--pin \(file) holds sha256/ pins, which only --pinning public-key can use; certificate pinning needs certificate files")
                }
                pins += listed
            } else {
                do {
                    pinnedCertificates += try CertificateInput.checked(CertificateFile.decode(bytes, file: file), file: file, role: "--pin", in: tool)
                } catch let error as CertificateFileError {
                    tool.error("error: --pin \(error)")
                    throw ExitCode(2)
                }
            }
        }
        do {
            return try SecurityPolicy(
                pinningMode: pinning.mode, pinnedCertificates: pinnedCertificates, pins: pins,
                allowInvalidCertificates: allowInvalid, validatesDomainName: !noValidateDomain
            )
        } catch {
            tool.error("error: --pin \(error)")
            throw ExitCode(2)
        }
    }

    /// The verdicts as a document of the one model: per back end its verdict (the policy's step
    /// and failure classes), what decided in words (``PolicyDecision/sentence(host:time:)``: a wrong
    /// host said as one) with the library's diagnostics, and the path it trusted.
    static func document(_ entries: [Entry], host: String?, time: Date, provenance: Provenance) -> ReportDocument {
        typealias Cell = ReportDocument.Table.Cell
        let rows = entries.map { entry -> [Cell] in
            let name = Cell("\(entry.backend.name) (\(entry.backend.version))")
            switch entry.outcome {
            case .refused(let reason):
                return [name, Cell("REJECTED, could not load the anchors [malformed]"), Cell(reason), Cell("")]
            case .decided(let decision):
                let verdict = "\(decision.trusted ? "TRUSTED" : "REJECTED") at \(decision.step.rawValue)"
                    + (decision.failures.isEmpty ? "" : " [\(decision.failures.map(\.rawValue).joined(separator: ", "))]")
                let path = decision.trusted ? decision.path.enumerated().map { "[\($0.offset)] \(SubjectText.of($0.element))" }.joined(separator: " · ") : ""
                return [name, Cell(verdict), Cell(decision.sentence(host: host, time: time)), Cell(path)]
            }
        }
        var table = ReportDocument.Table(headers: ["back end", "verdict", "reason", "path"], cells: rows)
        table.textLayout = .records
        return ReportDocument(title: "TrustHarness evaluate", provenance: provenance, summary: "host \(host ?? "(none)") at \(Timestamp.format(time))",
                              sections: [.init(id: "verdicts", title: "Verdicts", blocks: [.table(table)])])
    }

    struct JSONEntry: Encodable {
        var backend: String
        var version: String
        var trusted: Bool
        var failures: [FailureClass]
        var native: [JSONReport.Native]
        /// nil when the back end could not load the anchors or pins (then ``error`` says why).
        @ExplicitNull var step: PolicyStep?
        var reason: String
        var path: [String]
        @ExplicitNull var error: String?
    }

    /// The policy as asked: mode, pins, how many certificates are pinned, and the two switches.
    struct PolicyJSON: Encodable {
        var pinningMode: String
        var pins: [String]
        var pinnedCertificates: Int
        var allowInvalidCertificates: Bool
        var validatesDomainName: Bool

        init(_ policy: SecurityPolicy) {
            pinningMode = "\(policy.pinningMode)"
            pins = policy.pins.map(\.description)
            pinnedCertificates = policy.pinnedCertificates.count
            allowInvalidCertificates = policy.allowInvalidCertificates
            validatesDomainName = policy.validatesDomainName
        }
    }

    /// The whole `evaluate --format json` document: what was asked (host, time, policy) and each
    /// back end's answer, with the report's provenance.
    struct JSONDocument: Encodable {
        var schemaVersion = 2
        var provenance: Provenance
        @ExplicitNull var host: String?
        var time: String
        var policy: PolicyJSON
        var results: [JSONEntry]
    }

    static func json(_ entries: [Entry], host: String?, time: Date, policy: SecurityPolicy, provenance: Provenance) throws -> String {
        let results = entries.map { entry in
            let decision: PolicyDecision
            switch entry.outcome {
            case .decided(let decided):
                decision = decided
            case .refused(let reason):
                let verdict = Verdict.anchorsRefused(reason)
                return JSONEntry(
                    backend: entry.backend.name, version: entry.backend.version, trusted: false,
                    failures: verdict.failures, native: verdict.diagnostics.map(JSONReport.Native.init),
                    step: nil, reason: reason, path: [], error: reason
                )
            }
            return JSONEntry(
                backend: entry.backend.name, version: entry.backend.version,
                trusted: decision.trusted, failures: decision.failures,
                native: decision.diagnostics.map(JSONReport.Native.init),
                step: decision.step, reason: decision.sentence(host: host, time: time),
                path: decision.path.map(SubjectText.of),
                error: nil
            )
        }
        let document = JSONDocument(provenance: provenance, host: host, time: Timestamp.format(time), policy: PolicyJSON(policy), results: results)
        return try JSONText.encode(document)
    }
}
