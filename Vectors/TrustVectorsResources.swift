// The committed vectors as a SwiftPM resource bundle.
//
// This folder is the `TrustVectorsResources` target of Package.swift, so that SwiftPM copies the
// vectors (manifest.json, deviations.json, certs/, bad-input/, limbo/; not keys/, which only the
// generator needs) into a bundle beside every executable and test binary that links TrustVectors:
// a `trust-harness` binary, another package's tests and tools find them there with no checkout at
// hand. This file is the target's one source file; the vectors themselves are data.
import Foundation

public enum TrustVectorsResources {
    /// The bundle's folder name, `<package name>_<target name>.resources`, as SwiftPM names it.
    public static let bundleName = "TrustHarness_TrustVectorsResources.resources"

    /// The bundle beside the running executable (its symlinks resolved), when it holds a manifest.
    /// SwiftPM's generated `Bundle.module` is not used: it stops the process when the bundle is
    /// missing, and a copied binary without it must fall back, not crash.
    public static var folder: URL? {
        var candidates = [Bundle.main.bundleURL.appendingPathComponent(bundleName)]
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent(bundleName))
        }
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("manifest.json").path) }
    }
}
