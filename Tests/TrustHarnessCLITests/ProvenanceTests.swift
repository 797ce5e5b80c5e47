import Foundation
import Testing
import TrustHarness

/// No report says where this machine keeps its files: provenance and every file a report names are
/// relative to the directory the command ran in, or just a name.
@Suite struct ProvenanceTests {
    @Test func pathsAreNamedFromTheDirectoryTheCommandRanIn() {
        let here = "/work/main"
        #expect(Provenance.reportPath("/work/main/Vectors/limbo/limbo.json", from: here) == "Vectors/limbo/limbo.json")
        #expect(Provenance.reportPath("/work/main", from: here) == ".")
        #expect(Provenance.reportPath("/work/shared/limbo/limbo.json", from: here) == "../shared/limbo/limbo.json")
        #expect(Provenance.reportPath("/work/main/./x/../Vectors/a.json", from: here) == "Vectors/a.json")
        #expect(Provenance.reportPath("/tmp/trust-harness-123/report.json", from: here) == "report.json")
        #expect(Provenance.reportPath("/home/someone/limbo.json", from: "/home/someone/a/b/c") == "limbo.json", "three levels up is not short")
        #expect(Provenance.reportPath("/home/someone/limbo.json", from: "/home/someone/a/b") == "../../limbo.json")
        #expect(Provenance.reportPath("/etc/ssl/certs", from: "/") == "etc/ssl/certs")
        #expect(Provenance.reportPath("Vectors/limbo/limbo.json", from: here) == "Vectors/limbo/limbo.json", "as typed")
        #expect(Provenance.reportPath("BetterTLS pathbuilding (made here, revision 081fb7c)", from: here) == "BetterTLS pathbuilding (made here, revision 081fb7c)")
        let provenance = Provenance(tool: "t", command: ["trust-harness", "limbo", "/tmp/x/limbo.json", "--report=/work/main/out/limbo.json", "--id", "cve::*"], directory: here)
        #expect(provenance.command == ["trust-harness", "limbo", "limbo.json", "--report=out/limbo.json", "--id", "cve::*"])
    }

    /// The paths a report must not show: this checkout's, the temporary folder's, the home folder's.
    static let machinePaths = [FileManager.default.currentDirectoryPath, FileManager.default.temporaryDirectory.path, NSHomeDirectory(), "/tmp/", "/root/", "/home/"]
        .map { $0.hasSuffix("/") ? $0 : $0 + "/" }

    /// Every command that writes a report, given absolute paths, in text and JSON.
    @Test(arguments: [
        ["run", "--vectors", FileManager.default.currentDirectoryPath + "/Vectors", "--id", "valid-chain/p256", "--repeat", "0", "--backend", "gnutls"],
        ["limbo", FileManager.default.currentDirectoryPath + "/Vectors/limbo/limbo.json", "--id", "cve::*", "--backend", "gnutls"],
        ["limbo", "--id", "cve::*", "--backend", "gnutls", "--results-dir", Files.scratch("limbo-abs")],
        ["pkits", "--id", "pkits::4.1.1*", "--backend", "openssl"],
        ["bettertls", "--suite", "pathbuilding", "--id", "bettertls::pathbuilding::tc1", "--backend", "gnutls"],
        ["bettertls", "--published", "--suite", "pathbuilding", "--backend", "gnutls"],
        ["explore", "--cases", "12", "--pairs", "0", "--backend", "openssl", "--backend", "gnutls", "--results-dir", Files.scratch("explore-abs")],
    ])
    func noReportNamesAMachinePath(_ command: [String]) async throws {
        for format in ["text", "json"] {
            let run = try await ToolRun.of(command + ["--format", format])
            #expect(run.status == 0, "\(run)")
            for path in Self.machinePaths {
                #expect(!run.output.contains(path), "\(command[0]) --format \(format) names \(path): \(run.output.components(separatedBy: "\n").filter { $0.contains(path) }.prefix(3))")
            }
        }
    }

    /// `report` over reports written to absolute paths.
    @Test func theComparisonPageNamesNoMachinePath() async throws {
        let file = Files.scratch("abs-run.json")
        let run = try await ToolRun.of(["run", "--id", "valid-chain/*", "--repeat", "0", "--format", "json", "--report", file])
        #expect(run.status == 0, "\(run)")
        for format in ["text", "json", "html"] {
            let page = try await ToolRun.of(["report", file, "--format", format])
            #expect(page.status == 0, "\(page)")
            for path in Self.machinePaths { #expect(!page.output.contains(path), "report --format \(format) names \(path)") }
        }
    }
}
