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

    /// The file and the problem. A file SwiftPM copied into a resource bundle (`Pkg_Target.resources/
    /// deviations.json` under `.build`) is named by the source file to edit as well,
    /// `Sources/Target/deviations.json`: edits to the copy are lost at the next build.
    public var description: String {
        guard let source = Self.sourceOfBundledCopy(file) else { return "\(file): \(problem)" }
        return "\(source) (SwiftPM's copy at \(file)): \(problem)"
    }

    /// `Sources/<Target>/<file>` for a path inside a SwiftPM resource bundle `<Package>_<Target>.resources`.
    static func sourceOfBundledCopy(_ path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let index = parts.lastIndex(where: { $0.hasSuffix(".resources") }), index + 1 < parts.count,
              let underscore = parts[index].lastIndex(of: "_") else { return nil }
        let target = parts[index][parts[index].index(after: underscore)...].dropLast(".resources".count)
        guard !target.isEmpty else { return nil }
        return "Sources/\(target)/" + parts[(index + 1)...].joined(separator: "/")
    }

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
    /// - Throws: ``FileProblem`` naming the file: unreadable, or not `shape`, with the reason in
    ///   words: `is not <shape>: not valid JSON (invalid value at line 3, column 8)`, `missing key
    ///   "version" at the top level`, `results[0].backend should be a string, not a number`.
    public static func decodeJSON<T: Decodable>(_ type: T.Type, from url: URL, shape: String) throws -> T {
        let data = try contents(of: url)
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw FileProblem(file: url.path, problem: "is not \(shape): \(jsonReason(error, data: data))")
        } catch {
            throw FileProblem(file: url.path, problem: "is not \(shape): \(error.localizedDescription)")
        }
    }

    /// A decoding failure in words, without Swift's type and case names.
    static func jsonReason(_ error: DecodingError, data: Data) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "missing key \"\(key.stringValue)\" at \(jsonPath(context.codingPath))"
        case .typeMismatch(let type, let context):
            return "\(jsonPath(context.codingPath)) should be \(jsonTypeName(type))\(jsonFound(context.debugDescription))"
        case .valueNotFound(let type, let context):
            return "\(jsonPath(context.codingPath)) should be \(jsonTypeName(type)), not null"
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            return "\(jsonPath(context.codingPath)): \(context.debugDescription)"
        case .dataCorrupted(let context):
            if let syntax = jsonSyntaxError(context.underlyingError, data: data) { return "not valid JSON (\(syntax))" }
            // The JSON parses, yet the decoder calls it invalid: on Linux that is a number its
            // field cannot hold (1.5 or 1e3 for an integer, -1 for an unsigned one), reported
            // without a path.
            if context.debugDescription.contains("not valid JSON") {
                return "a number does not fit its field (a fraction where a whole number belongs, or a number out of the field's range)"
            }
            return "the top level: \(context.debugDescription)"
        @unknown default:
            return error.localizedDescription
        }
    }

    /// Where the syntax of `data` is wrong, in words (`invalid value at line 3, column 8`), or nil
    /// when it is valid JSON. From the decoder's underlying error when it has one, else from
    /// `JSONSerialization`, which names the offset the decoder (on Linux) does not.
    private static func jsonSyntaxError(_ underlying: (any Error)?, data: Data) -> String? {
        if data.isEmpty { return "the file is empty" }
        var text: String?
        if let underlying {
            let ns = underlying as NSError
            text = ns.userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(underlying)"
        } else {
            do {
                _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
                return nil
            } catch {
                let ns = error as NSError
                text = ns.userInfo[NSDebugDescriptionErrorKey] as? String ?? ns.localizedDescription
            }
        }
        guard var reason = text?.trimmingCharacters(in: .whitespacesAndNewlines), !reason.isEmpty else { return "unreadable" }
        if reason.hasSuffix(".") { reason.removeLast() }
        if reason.hasPrefix("Unexpected end of file") { return "the text ends before the JSON value does" }
        // "Invalid value around character 19" → "invalid value at line 3, column 8".
        if let range = reason.range(of: " around character "), let offset = Int(reason[range.upperBound...]), offset >= 0, offset <= data.count {
            let before = data.prefix(offset)
            let line = before.count { $0 == UInt8(ascii: "\n") } + 1
            let column = offset - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 - data.startIndex + 1 } ?? 0) + 1
            reason = "\(reason[..<range.lowerBound]) at line \(line), column \(column)"
        }
        return reason.prefix(1).lowercased() + reason.dropFirst()
    }

    /// A coding path as a user reads it: `results[0].backend`, or `the top level` when empty.
    private static func jsonPath(_ path: [any CodingKey]) -> String {
        guard !path.isEmpty else { return "the top level" }
        var out = ""
        for key in path {
            if let index = key.intValue, key.stringValue == "Index \(index)" || key.stringValue == "\(index)" {
                out += "[\(index)]"
            } else {
                out += (out.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return out
    }

    /// A JSON kind for a Swift type the decoder expected, with its article.
    private static func jsonTypeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type, is Substring.Type, is Character.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Int.Type, is Int8.Type, is Int16.Type, is Int32.Type, is Int64.Type,
             is UInt.Type, is UInt8.Type, is UInt16.Type, is UInt32.Type, is UInt64.Type: return "a whole number"
        case is Double.Type, is Float.Type, is Decimal.Type: return "a number"
        default:
            let name = "\(type)"
            if name.hasPrefix("Array<") || name.hasPrefix("Set<") { return "a list (JSON array)" }
            if name.hasPrefix("Dictionary<") { return "an object" }
            return "a \(name)"
        }
    }

    /// ", not a string" from the decoder's "Expected to decode Int but found a string instead.",
    /// or nothing.
    private static func jsonFound(_ debugDescription: String) -> String {
        guard let found = debugDescription.range(of: "but found ") else { return "" }
        var rest = debugDescription[found.upperBound...]
        if let end = rest.range(of: " instead") { rest = rest[..<end.lowerBound] }
        var what = rest.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: ".")))
        for article in ["a ", "an "] where what.hasPrefix(article) { what.removeFirst(article.count) }
        switch what {
        case "": return ""
        case "dictionary", "object": return ", not an object"
        case "array": return ", not a list"
        case "bool", "boolean": return ", not true or false"
        case "null", "null value": return ", not null"
        default: return ", not \(what.first.map { "aeiou".contains($0) } == true ? "an" : "a") \(what)"
        }
    }
}

/// A certificate or pin file that could not be used.
public typealias CertificateFileError = FileProblem
