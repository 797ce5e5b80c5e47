import ArgumentParser
import Foundation
import TrustHarness
import TrustVectors

/// `--deviations FILE`: deviations of back ends from other packages, added to the vectors' own
/// record. Only the commands that judge results against recorded deviations take it (`run`,
/// `compare`, `findings`, `bad-input`); the packages' own deviations files are added for every
/// command (``ToolContext/deviations``).
struct DeviationsOption: ParsableArguments {
    @Option(name: .customLong("deviations"), help: ArgumentHelp("A deviations file (deviations.json's format) of other back ends, added to the vectors' own record; repeatable.", valueName: "file"), completion: .file())
    var files: [String] = []

    /// The vectors `location` names, with the packages' deviations and these files added; a broken
    /// vectors folder or deviations file is bad input (exit 2) with the file and the problem.
    func load(_ location: VectorsOption, in tool: ToolContext) throws -> VectorSuite {
        try location.load(in: tool, adding: files.map { URL(fileURLWithPath: $0) })
    }
}
