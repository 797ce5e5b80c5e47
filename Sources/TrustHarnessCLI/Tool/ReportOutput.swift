import ArgumentParser
import Foundation
import TrustCore
import TrustHarness
import TrustVectors

/// `--report FILE`: where a command's report goes, standard output without it ('-' too). A report
/// that cannot be written in full (a full disk, a closed pipe, `/dev/full`, a folder given as the
/// file) is an error, status 2 with the destination and the reason, never a silent success. The one
/// name for a report file on every command; a folder of result files is `--results-dir`.
struct OutputOption: ParsableArguments {
    @Option(name: .customLong("report"), help: ArgumentHelp("Write the report to this file instead of standard output ('-': standard output).", valueName: "file"), completion: .file())
    var path: String?

    func validate() throws {
        if path?.isEmpty == true { throw ValidationError("--report: give a file name ('-' for standard output)") }
    }

    func write(in tool: ToolContext, _ text: String) throws {
        try tool.write(text, to: path == "-" ? nil : path)
    }
}

/// A JSON body with the back ends (name and library version) beside its own keys: how `stress`,
/// `bench` and `bad-input` say which libraries they measured.
struct WithBackends<Body: Encodable>: Encodable {
    var backends: [BackendInfo]
    var body: Body

    enum Key: String, CodingKey { case backends }

    func encode(to encoder: any Encoder) throws {
        try body.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(backends, forKey: .backends)
    }
}
