import Foundation
import Testing
import TrustVectors

/// The committed vectors reach every binary that links TrustVectors as a SwiftPM resource bundle,
/// byte for byte, so tools and other packages' tests find them without the checkout.
@Suite struct BundledVectorsTests {
    @Test func theBundleBesideTheTestBinaryHoldsTheCheckoutsVectors() throws {
        let bundled = try #require(VectorSuite.bundled, "no TrustHarness_TrustVectorsResources.resources beside \(Bundle.main.bundlePath)")
        let committed = try VectorsFolder.committed()
        let manager = FileManager.default
        var compared = 0
        for top in ["manifest.json", "deviations.json", "certs", "bad-input", "limbo"] {
            let root = committed.appendingPathComponent(top)
            var isDirectory: ObjCBool = false
            #expect(manager.fileExists(atPath: root.path, isDirectory: &isDirectory))
            let files = isDirectory.boolValue
                ? (manager.enumerator(atPath: root.path)?.allObjects as? [String] ?? []).map { "\(top)/\($0)" }
                : [top]
            for path in files {
                let source = committed.appendingPathComponent(path)
                guard manager.fileExists(atPath: source.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
                // Read through FileHandle (FileProblem.contents): Foundation's contents(atPath:) leaks 4 KiB per empty file.
                #expect(try FileProblem.contents(of: bundled.appendingPathComponent(path)) == FileProblem.contents(of: source), "\(path) differs in the bundle")
                compared += 1
            }
        }
        #expect(compared > 150)
        #expect(!manager.fileExists(atPath: bundled.appendingPathComponent("keys").path), "the keys stay in the checkout")
        let suite = try VectorSuite.load(from: bundled)
        #expect(suite.vectors.count == (try VectorSuite.load(from: committed)).vectors.count)
    }
}
