import Foundation

/// Certificates in JSON as every tool a user pairs this with writes them (x509-limbo, BetterTLS's
/// export, `openssl`): each one a base64 string of its DER, not an array of numbers. Decoding also
/// takes the arrays of numbers explore's JSON held before (schema 2), so older reports still read.
@propertyWrapper
public struct Base64Certificates: Sendable, Hashable, Codable {
    public var wrappedValue: [[UInt8]]

    public init(wrappedValue: [[UInt8]]) {
        self.wrappedValue = wrappedValue
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let texts = try? container.decode([String].self) {
            wrappedValue = try texts.enumerated().map { index, text in
                guard let der = Data(base64Encoded: text) else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "certificate \(index) is not base64")
                }
                return [UInt8](der)
            }
        } else {
            wrappedValue = try container.decode([[UInt8]].self)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue.map { Data($0).base64EncodedString() })
    }
}
