import Foundation
import TrustCore

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

    /// Whether `bytes` read as a list of `sha256/` pins rather than certificates.
    public static func isPinList(_ bytes: [UInt8]) -> Bool {
        guard let text = String(bytes: bytes, encoding: .utf8) else { return false }
        return text.contains("sha256/") && !text.contains("-----BEGIN")
    }

    /// Parses a `sha256/` pin list read from `file`.
    /// - Throws: ``CertificateFileError`` naming the file and the line of the first bad pin.
    public static func decodePinList(_ bytes: [UInt8], file: String) throws -> [SPKIPin] {
        do {
            let pins = try SPKIPin.parseList(String(decoding: bytes, as: UTF8.self))
            guard !pins.isEmpty else { throw CertificateFileError(file: file, problem: "holds no sha256/ pin") }
            return pins
        } catch let error as PinError {
            throw CertificateFileError(file: file, problem: error.problem)
        }
    }
}
