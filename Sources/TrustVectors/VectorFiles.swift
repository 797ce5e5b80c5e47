import Foundation

/// File access for the generator, relative to a `Vectors/` folder, with errors that name the file.
enum VectorFiles {
    /// The generated parts of a `Vectors/` folder: everything else (deviations.json, external suites)
    /// is never read, written or removed by the generator.
    static let generatedFolders = ["certs", "keys", BadInputFiles.folder]
    static let manifestPath = "manifest.json"

    /// The file's content, or nil when it does not exist.
    static func readData(_ relativePath: String, in folder: URL) throws -> Data? {
        let url = folder.appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try FileProblem.contents(of: url)
        } catch let problem as FileProblem {
            throw VectorGeneratorError.fileSystem(path: url.path, reason: problem.problem)
        }
    }

    /// The file's content as UTF-8 text, or nil when it does not exist or is not UTF-8.
    static func readText(_ relativePath: String, in folder: URL) throws -> String? {
        try readData(relativePath, in: folder).flatMap { String(data: $0, encoding: .utf8) }
    }

    /// Every regular file under the generated folders, plus the manifest if present, as paths
    /// relative to `folder`, sorted.
    static func generatedFiles(in folder: URL) -> [String] {
        var paths: [String] = []
        for generated in generatedFolders {
            let root = folder.appendingPathComponent(generated)
            guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { continue }
            while let relative = enumerator.nextObject() as? String {
                var isDirectory: ObjCBool = false
                let full = root.appendingPathComponent(relative).path
                if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                    paths.append("\(generated)/\(relative)")
                }
            }
        }
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent(manifestPath).path) {
            paths.append(manifestPath)
        }
        return paths.sorted()
    }

    /// Writes `data` unless the file already holds exactly it, creating folders as needed.
    static func write(_ data: Data, to relativePath: String, in folder: URL) throws {
        if try readData(relativePath, in: folder) == data { return }
        let url = folder.appendingPathComponent(relativePath)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        } catch {
            throw VectorGeneratorError.fileSystem(path: url.path, reason: "cannot be written (\(FileProblem.systemReason(error)))")
        }
    }

    static func remove(_ relativePath: String, in folder: URL) throws {
        let url = folder.appendingPathComponent(relativePath)
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            throw VectorGeneratorError.fileSystem(path: url.path, reason: "cannot be removed (\(FileProblem.systemReason(error)))")
        }
    }
}
