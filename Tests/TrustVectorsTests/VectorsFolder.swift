import Foundation
import SwiftASN1
import Testing
import TrustCore
@testable import TrustVectors
import TrustPolicy

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

    /// The DER of the committed certificate `name` for `keyType`.
    static func certificate(_ name: String, _ keyType: KeyType) throws -> [UInt8] {
        let url = try committed().appendingPathComponent(Catalogue.certificatePath(name, keyType))
        return try PEMDocument(pemString: String(decoding: FileProblem.contents(of: url), as: UTF8.self)).derBytes
    }

    /// The pin of the committed certificate `name` for `keyType`, as the generator computes it.
    static func pin(_ name: String, _ keyType: KeyType) throws -> SPKIPin {
        try SPKIPin(certificate: certificate(name, keyType))
    }

    struct TestFolderError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
