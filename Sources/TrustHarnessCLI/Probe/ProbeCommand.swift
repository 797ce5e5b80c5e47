import ArgumentParser
import Foundation
import TrustCore
import TrustHarness
import TrustVectors
import X509
import _CryptoExtras
import TrustPolicy
import TrustProbe

struct ProbeCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        _superCommandName: "trust-harness",
        abstract: "Connect to a TLS server with every back end's own TLS client and compare the handshake's verdict with the chain's.",
        discussion: """
        Each back end with a TLS client connects with its library's TLS stack, verifying during the \\
        handshake with the same settings as its evaluator (host, time, anchors). The report gives the \\
        handshake's outcome, protocol and cipher, the chain the server sent with its sha256/ pins, the \\
        handshake's verdict, the evaluator's verdict on that chain, and the SecurityPolicy's decision; a \\
        handshake verdict that differs from the chain verdict is a finding. App Transport Security's \\
        minimums (TLS 1.2+, forward secrecy, SHA-256+ signatures, RSA 2048+/EC 256+ keys) are checked \\
        on what was negotiated and sent. Every network wait is bounded by --timeout.

        --vector ID serves a committed chain vector (its certificates and the leaf's key) on \\
        127.0.0.1 and probes it with the vector's anchors, host and time.

        Exit status: 0 every handshake trusted; 1 a rejection or a handshake that failed on the chain; \\
        2 for bad input or a target that cannot be reached or does not speak TLS.
        Examples:
          trust-harness probe www.example.com:443 --system-anchors
          trust-harness probe 127.0.0.1:8443 --sni www.example.test \\\\
              --anchors root.pem --at 2025-06-01T00:00:00Z
          trust-harness probe --vector 'expired-leaf/p256'
        """
    )

    @Argument(help: ArgumentHelp("The server: HOST:PORT, or [IPv6]:PORT.", valueName: "host:port"))
    var target: String?

    @Option(help: ArgumentHelp("Serve this committed chain vector on 127.0.0.1 and probe it (anchors, host and time from the vector).", valueName: "id"))
    var vector: String?

    @Option(help: "Server Name Indication to send (default: the host of HOST:PORT when it is a DNS name).")
    var sni: String?

    @Option(help: "Host to check the certificate against (default: --sni, else the host of HOST:PORT).")
    var host: String?

    @Option(name: .customLong("anchors"), help: ArgumentHelp("Trust anchors: a PEM bundle, a DER certificate, or a folder of them; repeatable.", valueName: "file"), completion: .file())
    var anchorFiles: [String] = []

    @Flag(help: "Trust the Debian system store (\(EvaluateCommand.systemAnchorsPath)).")
    var systemAnchors = false

    @Option(help: ArgumentHelp("Validation time: \(Timestamp.accepted). Default: now.", valueName: "time"))
    var at: String?

    @OptionGroup var backendOption: BackendOption

    @Option(help: "Pinning mode: \(EvaluateCommand.Pinning.allCases.map(\.rawValue).joined(separator: ", ")).")
    var pinning: EvaluateCommand.Pinning = .none

    @Option(name: .customLong("pin"), help: ArgumentHelp("A pinned certificate (PEM/DER), or a file of sha256/ pins (public-key mode); repeatable.", valueName: "file"), completion: .file())
    var pinFiles: [String] = []

    @Flag(name: .customLong("allow-invalid"), help: "allowInvalidCertificates: trust invalid chains (subject to pinning).")
    var allowInvalid = false

    @Flag(name: .customLong("no-validate-domain"), help: "validatesDomainName off: do not check the host.")
    var noValidateDomain = false

    @Option(help: "Seconds each network wait may take (connect, every read and write).")
    var timeout: Double = 5

    @OptionGroup var formatOption: FormatOption<DocumentFormat>
    var format: DocumentFormat { formatOption.value }

    @OptionGroup var output: OutputOption

    @OptionGroup var location: VectorsOption

    func validate() throws {
        if (target == nil) == (vector == nil) { throw ValidationError("give the server as HOST:PORT, or --vector ID to serve a vector on 127.0.0.1") }
        if vector != nil && (!anchorFiles.isEmpty || systemAnchors || at != nil || host != nil || sni != nil) {
            throw ValidationError("--vector takes its anchors, host and time from the vector: drop --anchors, --system-anchors, --at, --host and --sni")
        }
        if target != nil && anchorFiles.isEmpty && !systemAnchors { throw ValidationError("give trust anchors with --anchors FILE or --system-anchors") }
        if !(timeout > 0 && timeout <= 120) { throw ValidationError("--timeout must be more than 0 and at most 120 seconds") }
        try EvaluateCommand.validate(pinning: pinning, pinFiles: pinFiles)
    }

    /// `HOST:PORT` or `[IPv6]:PORT`.
    static func parseTarget(_ text: String) throws -> (host: String, port: UInt16) {
        let host: Substring
        let port: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw ValidationError("\"\(text)\" is not [IPv6]:PORT")
            }
            host = text[text.index(after: text.startIndex)..<close]
            port = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else {
                throw ValidationError("\"\(text)\" is not HOST:PORT (an IPv6 address goes in brackets: [::1]:443)")
            }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, let number = UInt16(port), number > 0 else { throw ValidationError("\"\(text)\": the port must be a number from 1 to 65535") }
        return (String(host), number)
    }

    func run(in tool: ToolContext) async throws {
        let backends = try backendOption.backends(in: tool)
        let policy = try EvaluateCommand.policy(pinning: pinning, pinFiles: pinFiles, allowInvalid: allowInvalid, validatesDomainName: !noValidateDomain, in: tool)
        var server: ServedVector?
        let address: String
        let port: UInt16
        var anchors: [[UInt8]]
        var checkedHost: String?
        var serverName: String?
        var time = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        if let vector {
            let served = try ServedVector.start(vector, location: try location.directory(), in: tool)
            server = served
            (address, port, anchors, checkedHost, time) = ("127.0.0.1", served.port, served.vector.anchors, served.vector.entry.host, served.vector.time)
            serverName = checkedHost.flatMap { HostIdentity($0).isDNS ? $0 : nil }
        } else {
            (address, port) = try Self.parseTarget(target!)
            anchors = try CertificateInput.read(anchorFiles, role: "--anchors", folders: true, in: tool)
            if systemAnchors { anchors += try CertificateInput.read([EvaluateCommand.systemAnchorsPath], role: "--system-anchors", in: tool) }
            serverName = try EvaluateCommand.validated(host: sni, flag: "--sni") ?? (HostIdentity(address).isDNS ? address : nil)
            checkedHost = try EvaluateCommand.validated(host: host) ?? serverName ?? address
            if let at {
                guard let parsed = Timestamp.parse(at) else { throw ValidationError("--at \"\(at)\" is not \(Timestamp.accepted)") }
                time = parsed
            }
        }
        defer { server?.stop() }
        let request = EvaluationRequest(chain: [], host: checkedHost.map(HostIdentity.init), time: time)
        let tlsTarget = TLSTarget(address: address, port: port, serverName: serverName)
        var probes: [Probe] = []
        let answer = server?.stapled == nil ? nil : server?.vector.entry.answer(for: .rfc5280)
        for backend in backends {
            probes.append(Probe.run(backend, target: tlsTarget, anchors: anchors, request: request, policy: policy, timeout: .milliseconds(Int(timeout * 1000)), answer: answer))
        }
        let expected = answer.map(HandshakeComparison.describe)
        let report = ProbeReport(target: tlsTarget.description, serverName: serverName, host: checkedHost, time: Timestamp.format(time), vector: vector,
                                 stapled: server?.stapled, expected: expected, probes: probes)
        switch format {
        case .text, .markdown, .html: try output.write(in: tool, format.render(report.document(provenance: tool.provenance)) ?? "")
        case .json: try output.write(in: tool, try JSONText.encode(DocumentedJSON(provenance: tool.provenance, body: report)) + "\n")
        }
        let handshakes = probes.filter { $0.handshake != nil }
        if !handshakes.isEmpty && handshakes.allSatisfy({ $0.handshake?.userError == true }) {
            tool.error("error: \(handshakes[0].handshake?.failure ?? "the handshake failed")")
            throw ExitCode(2)
        }
        if probes.contains(where: { $0.handshake != nil && !($0.handshake?.trusted ?? false) }) { throw ExitCode(1) }
    }
}

/// A committed chain vector served on 127.0.0.1 with its leaf's key, and for an OCSP revocation
/// vector its response stapled.
struct ServedVector {
    let vector: LoadedVector
    let server: any LoopbackServing
    /// For an OCSP vector, the response file stapled, or `none`; nil for other vectors.
    var stapled: String?
    var port: UInt16 { server.port }

    static func start(_ id: String, location: URL, in tool: ToolContext) throws -> ServedVector {
        let suite = try tool.loadVectors(location)
        guard let vector = suite.vectors.first(where: { $0.id == id }) else {
            throw ValidationError("--vector: no chain vector \"\(id)\"; ids look like 'valid-chain/p256'")
        }
        guard let key = vector.leafPrivateKey else {
            throw ValidationError("--vector \(id): no private key in \(location.path)/keys fits its leaf, so it cannot be served")
        }
        guard let make = tool.loopbackServer else { throw ValidationError("this tool has no loopback TLS server") }
        if let revocation = vector.entry.revocation, !revocation.crls.isEmpty {
            throw ValidationError("--vector \(id): a CRL vector cannot be served (a TLS handshake carries OCSP responses, not CRLs); its CRLs are judged by `trust-harness run`")
        }
        let server: any LoopbackServing
        do {
            server = try make(vector.chain, key)
        } catch {
            throw ValidationError("--vector \(id): \(error)")
        }
        guard let revocation = vector.entry.revocation else { return ServedVector(vector: vector, server: server) }
        guard let stapler = server as? any OCSPStapling else {
            server.stop()
            throw ValidationError("--vector \(id): this tool's loopback TLS server cannot staple an OCSP response, so the vector cannot be served")
        }
        stapler.staple(vector.ocspResponses.first)
        return ServedVector(vector: vector, server: server, stapled: revocation.ocspResponses.first ?? "none")
    }

    func stop() { server.stop() }
}
