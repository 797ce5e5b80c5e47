import Foundation
import SwiftASN1

/// Reads certificates from files the way users have them: a PEM bundle (one or more
/// `CERTIFICATE` blocks, other blocks ignored) or a single DER certificate.
public enum CertificateFile {
    /// Every certificate in the file at `url`, DER, in file order.
    /// - Throws: ``CertificateFileError`` naming the file when it cannot be read, its PEM is broken,
    ///   or it holds no certificate.
    public static func read(_ url: URL) throws -> [[UInt8]] {
        return try decode([UInt8](try FileProblem.contents(of: url)), file: url.path)
    }

    /// Decodes `bytes` as a PEM bundle when they contain a PEM armour line, otherwise as DER.
    /// DER is returned as given: whether it is a well-formed certificate is for a back end to judge.
    public static func decode(_ bytes: [UInt8], file: String, blockType: String = "CERTIFICATE") throws -> [[UInt8]] {
        guard !bytes.isEmpty else { throw CertificateFileError(file: file, problem: "is empty") }
        let armour = Array("-----BEGIN ".utf8)
        let looksLikePEM = bytes.count >= armour.count
            && (0...(bytes.count - armour.count)).contains { bytes[$0..<($0 + armour.count)].elementsEqual(armour) }
        guard looksLikePEM else { return [bytes] }
        guard let text = String(bytes: bytes, encoding: .utf8) else {
            throw CertificateFileError(file: file, problem: "looks like PEM but is not valid UTF-8")
        }
        let documents: [PEMDocument]
        do {
            documents = try PEMDocument.parseMultiple(pemString: text)
        } catch {
            throw CertificateFileError(file: file, problem: "has a malformed PEM block (\(error))")
        }
        let certificates = documents.filter { $0.discriminator == blockType }.map(\.derBytes)
        guard !certificates.isEmpty else {
            let found = Set(documents.map(\.discriminator)).sorted().joined(separator: ", ")
            throw CertificateFileError(file: file, problem: "holds no \(blockType) block (found: \(found.isEmpty ? "none" : found))")
        }
        return certificates
    }
}

/// A file that could not be used: which file, and what was wrong with it. One type for every file
/// TrustHarness reads (certificates, pins, vectors, benchmark results), so callers handle one error.
public struct FileProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var problem: String

    public init(file: String, problem: String) {
        self.file = file
        self.problem = problem
    }

    public var description: String { "\(file): \(problem)" }

    /// The bytes of the file at `url`: the one way TrustHarness reads a file.
    ///
    /// Through `FileHandle`, never `Data(contentsOf:)`, which leaks 4 KiB for every empty file it
    /// reads (FoundationEssentials in Swift 6.3 on Linux: 100,000 reads of an empty file grew the
    /// resident memory by 400 MB; found by the AddressSanitizer run over the bad-input corpus).
    /// - Throws: ``FileProblem`` naming the file when it cannot be opened or read (a folder, a
    ///   missing or unreadable file).
    public static func contents(of url: URL) throws -> Data {
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            return try handle.readToEnd() ?? Data()
        } catch {
            throw FileProblem(file: url.path, problem: "cannot be read (\(systemReason(error)))")
        }
    }

    /// The system's words for a file error (`No such file or directory`, `Permission denied`, `No
    /// space left on device`), found in the error or an error under it; Foundation's own text
    /// ("The operation could not be completed. The file doesn't exist.") otherwise.
    public static func systemReason(_ error: any Error) -> String {
        var current: NSError? = error as NSError
        while let ns = current {
            if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
            current = ns.userInfo[NSUnderlyingErrorKey] as? NSError
        }
        return error.localizedDescription
    }

    /// Reads the JSON file at `url` as a `T`, the one way TrustHarness reads its JSON files.
    /// - Throws: ``FileProblem`` naming the file: unreadable, or not `shape` (with the decoder's reason).
    public static func decodeJSON<T: Decodable>(_ type: T.Type, from url: URL, shape: String) throws -> T {
        let data = try contents(of: url)
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw FileProblem(file: url.path, problem: "is not \(shape) (\(error))")
        }
    }
}

/// A certificate or pin file that could not be used.
public typealias CertificateFileError = FileProblem
