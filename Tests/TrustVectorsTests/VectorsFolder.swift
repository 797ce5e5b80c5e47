import Foundation
import Testing

/// The committed `Vectors/` folder and scratch copies of it, for the tests.
enum VectorsFolder {
    /// The `Vectors/` folder of this checkout, found by walking up from this file to the package root
    /// (the first folder holding both `Package.swift` and `Vectors/`).
    static func committed(filePath: String = #filePath) throws -> URL {
        var url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while url.path != "/" {
            let vectors = url.appendingPathComponent("Vectors")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path),
               FileManager.default.fileExists(atPath: vectors.path, isDirectory: &isDirectory), isDirectory.boolValue {
                return vectors
            }
            url.deleteLastPathComponent()
        }
        throw TestFolderError(message: "no package with a Vectors/ folder above \(filePath)")
    }

    /// A new empty folder under the temporary directory; the caller removes it.
    static func makeTemporary() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("TrustVectorsTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A temporary copy of the committed folder; the caller removes it.
    static func temporaryCopy() throws -> URL {
        let copy = try makeTemporary().appendingPathComponent("Vectors")
        try FileManager.default.copyItem(at: try committed(), to: copy)
        return copy
    }

    struct TestFolderError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
