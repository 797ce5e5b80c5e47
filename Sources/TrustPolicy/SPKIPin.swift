import TrustDER
import TrustCore
import Crypto
import Foundation

/// A public-key pin: the SHA-256 of a certificate's DER SubjectPublicKeyInfo, written
/// `sha256/<base64>` as OkHttp, TrustKit and HPKP (RFC 7469) write it.
public struct SPKIPin: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The 32-byte SHA-256 digest.
    public let digest: [UInt8]

    /// Parses `sha256/<base64 of 32 bytes>`.
    /// - Throws: ``PinError`` saying what is wrong with the text.
    public init(_ text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("sha256/") else {
            throw PinError(input: text, problem: "a pin starts with \"sha256/\"")
        }
        let encoded = String(trimmed.dropFirst("sha256/".count))
        guard let data = Data(base64Encoded: encoded) else {
            throw PinError(input: text, problem: "the part after \"sha256/\" is not valid base64")
        }
        guard data.count == 32 else {
            throw PinError(input: text, problem: "a SHA-256 pin decodes to 32 bytes, this one to \(data.count)")
        }
        digest = [UInt8](data)
    }

    /// The pin of the certificate `der`.
    /// - Throws: ``PinError`` when no SubjectPublicKeyInfo can be found in it.
    public init(certificate der: [UInt8]) throws {
        guard let pin = SPKIPin.of(certificate: der) else {
            throw PinError(input: "\(der.count) bytes", problem: "not a DER certificate: no SubjectPublicKeyInfo found")
        }
        self = pin
    }

    init(digest: [UInt8]) {
        self.digest = digest
    }

    /// The pin of `der`, or nil when it is not a certificate whose key can be found.
    public static func of(certificate der: [UInt8]) -> SPKIPin? {
        spkiDigest(of: der).map { SPKIPin(digest: Array($0)) }
    }

    /// The SHA-256 of the SubjectPublicKeyInfo of `der`, hashed in place (no copy, no allocation),
    /// or nil when it is not a certificate whose key can be found.
    /// `hash` is SHA-256 unless a caller (``PinMatcher``) remembers digests it already has.
    static func spkiDigest(
        of der: [UInt8],
        hash: (UnsafeRawBufferPointer) -> SHA256Digest = { SHA256.hash(data: $0) }
    ) -> SHA256Digest? {
        guard let spki = DERCertificate.subjectPublicKeyInfo(der) else { return nil }
        return der.withUnsafeBytes { hash(UnsafeRawBufferPointer(rebasing: $0[spki.indices])) }
    }

    public var description: String { "sha256/" + Data(digest).base64EncodedString() }

    public init(from decoder: any Decoder) throws {
        try self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Parses a pin file: one `sha256/` pin per line; blank lines and lines starting with `#` are
    /// ignored, and anything after the pin on its line (a comment naming the key) too.
    /// - Throws: ``PinError`` naming the line number of the first bad pin.
    public static func parseList(_ text: String) throws -> [SPKIPin] {
        var pins: [SPKIPin] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if content.isEmpty || content.hasPrefix("#") { continue }
            let token = String(content.prefix { !$0.isWhitespace })
            do {
                pins.append(try SPKIPin(token))
            } catch let error as PinError {
                throw PinError(input: error.input, problem: "line \(number + 1): \(error.problem)")
            }
        }
        return pins
    }
}

/// A pin or pinned certificate that could not be used.
public struct PinError: Error, Sendable, Hashable, CustomStringConvertible {
    public var input: String
    public var problem: String

    public init(input: String, problem: String) {
        self.input = input
        self.problem = problem
    }

    public var description: String { "bad pin \"\(input)\": \(problem)" }
}
