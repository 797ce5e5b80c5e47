import Foundation
import TrustCore
import TrustPolicy

/// Reads pins from files: a file of `sha256/<base64>` lines (comments with `#`), or a certificate
/// file (PEM bundle or DER) whose certificates' public keys become the pins.
public enum PinFile {
    /// The pins in the file at `url`.
    /// - Throws: ``CertificateFileError`` naming the file and the line or certificate that is wrong.
    public static func read(_ url: URL) throws -> [SPKIPin] {
        let bytes = [UInt8](try FileProblem.contents(of: url))
        if isPinList(bytes) { return try decodePinList(bytes, file: url.path) }
        return try CertificateFile.decode(bytes, file: url.path).enumerated().map { index, der in
            guard let pin = SPKIPin.of(certificate: der) else {
                throw CertificateFileError(file: url.path, problem: "certificate \(index + 1) is not a DER certificate (no SubjectPublicKeyInfo found), and the file is not a list of sha256/ pins")
            }
            return pin
        }
    }

    /// Whether `bytes` read as a list of `sha256/` pins rather than certificates: text with a
    /// `sha256/` and no PEM armour, or text of only comment and blank lines (a pin list with no pin
    /// yet, which ``decodePinList(_:file:)`` refuses by name rather than as a broken certificate).
    /// An empty file is neither (``CertificateFile/decode(_:file:blockType:)`` names it empty).
    public static func isPinList(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty, let text = String(bytes: bytes, encoding: .utf8), !text.contains("-----BEGIN") else { return false }
        return text.contains("sha256/") || holdsOnlyCommentsOrBlankLines(text)
    }

    /// Parses a `sha256/` pin list read from `file`.
    /// - Throws: ``CertificateFileError`` naming the file and the line of the first bad pin.
    public static func decodePinList(_ bytes: [UInt8], file: String) throws -> [SPKIPin] {
        do {
            let text = String(decoding: bytes, as: UTF8.self)
            let pins = try SPKIPin.parseList(text)
            guard !pins.isEmpty else {
                throw CertificateFileError(file: file, problem: "holds no pins (only comments or blank lines); give one sha256/<base64 SHA-256 of a SubjectPublicKeyInfo> per line, or a certificate file")
            }
            return pins
        } catch let error as PinError {
            throw CertificateFileError(file: file, problem: error.problem)
        }
    }

    /// Every line blank or a `#` comment, the lines ``SPKIPin/parseList(_:)`` skips.
    private static func holdsOnlyCommentsOrBlankLines(_ text: String) -> Bool {
        text.split(separator: "\n", omittingEmptySubsequences: false).allSatisfy { line in
            let content = line.trimmingCharacters(in: .whitespacesAndNewlines)
            return content.isEmpty || content.hasPrefix("#")
        }
    }
}
