import Foundation
import TrustCore

/// Reads pins from files: a file of `sha256/<base64>` lines (comments with `#`), or a certificate
/// file (PEM bundle or DER) whose certificates' public keys become the pins.
public enum PinFile {
    /// The pins in the file at `url`.
    /// - Throws: ``CertificateFileError`` naming the file and the line or certificate that is wrong.
    public static func read(_ url: URL) throws -> [SPKIPin] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw CertificateFileError(file: url.path, problem: "cannot be read (\(error.localizedDescription))")
        }
        let bytes = [UInt8](data)
        if let text = String(bytes: bytes, encoding: .utf8), text.contains("sha256/"), !text.contains("-----BEGIN") {
            do {
                let pins = try SPKIPin.parseList(text)
                guard !pins.isEmpty else { throw CertificateFileError(file: url.path, problem: "holds no sha256/ pin") }
                return pins
            } catch let error as PinError {
                throw CertificateFileError(file: url.path, problem: error.problem)
            }
        }
        return try CertificateFile.decode(bytes, file: url.path).enumerated().map { index, der in
            guard let pin = SPKIPin.of(certificate: der) else {
                throw CertificateFileError(file: url.path, problem: "certificate \(index + 1) is not a DER certificate (no SubjectPublicKeyInfo found), and the file is not a list of sha256/ pins")
            }
            return pin
        }
    }
}
