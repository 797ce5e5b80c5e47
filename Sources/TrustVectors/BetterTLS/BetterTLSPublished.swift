import Foundation

/// One published result file of Netflix BetterTLS (`docs/results/<date>/<implementation>.json` of
/// github.com/Netflix/bettertls; the December 2021 ones are committed in
/// `Vectors/bettertls/published/`): what one TLS implementation did with every case of each suite.
///
/// The file is JSON, as BetterTLS's `run-tests` (or its in-browser runner) wrote it: `implementation`,
/// `version` (the implementation's own version output), `date`, `betterTlsRevision` (the BetterTLS
/// commit whose manifest, `<revision>.manifest`, gives each case's expected result and the features'
/// names) and `suites`, per suite the base64 of a gzip of a protocol buffers `SuiteTestResults`
/// (`test-suites/test-executor/test_results.proto`). A case's index in ``SuiteResults/results`` is
/// its id in the suite and in the manifest's `expectedResults`.
///
/// Decoding is strict and safe on any input: every length and offset is checked, the inflated data
/// is capped, and a problem throws a ``BetterTLSPublishedError`` naming what failed.
public struct BetterTLSPublished: Sendable, Hashable {
    /// What the implementation did with a case (`TestCaseResult` of test_results.proto).
    public enum Result: String, Sendable, Hashable, CaseIterable {
        /// The client completed the connection (proto value 0, ACCEPTED).
        case accepted
        /// The client refused the server's certificates (proto value 1, REJECTED).
        case rejected
        /// Not run: the case needs a feature the implementation was found not to support (proto
        /// value 2, SKIPPED).
        case skipped

        /// The result with protocol buffers value `value`, or nil for a value the proto does not define.
        public init?(protobufValue value: Int) {
            switch value {
            case 0: self = .accepted
            case 1: self = .rejected
            case 2: self = .skipped
            default: return nil
            }
        }
    }

    /// One suite's results (`SuiteTestResults`).
    public struct SuiteResults: Sendable, Hashable {
        /// The features (numbers, named by the manifest's `features` of the suite) the implementation
        /// passed the feature's own cases for.
        public var supportedFeatures: [Int]
        /// The features it failed a case of; every case needing one of them is ``Result/skipped``.
        public var unsupportedFeatures: [Int]
        /// The result of each case, by index.
        public var results: [Result]

        public init(supportedFeatures: [Int], unsupportedFeatures: [Int], results: [Result]) {
            self.supportedFeatures = supportedFeatures
            self.unsupportedFeatures = unsupportedFeatures
            self.results = results
        }

        /// How many cases had `result`.
        public func count(_ result: Result) -> Int {
            results.lazy.filter { $0 == result }.count
        }
    }

    /// The implementation's name as BetterTLS's runner gives it (`openssl`, `gnutls`, `chrome`...).
    public var implementation: String
    /// The implementation's version, as its version command printed it (often several lines).
    public var version: String
    /// When the results were recorded, as written (RFC 3339, with or without a fraction and offset).
    public var date: String
    /// The BetterTLS revision the results are of: the name of the manifest that interprets them.
    public var revision: String
    /// Each suite's results, by suite name (`nameconstraints`, `pathbuilding`).
    public var suites: [String: SuiteResults]

    /// The most a file's suites may inflate to together (16 MiB; the published ones are under 10 KB
    /// each), so that no number of small gzip bombs in one file adds up to more.
    public static let defaultInflatedLimit = 16 << 20

    /// Results given whole (a run of one's own in the same form).
    public init(implementation: String, version: String, date: String, revision: String, suites: [String: SuiteResults]) {
        self.implementation = implementation
        self.version = version
        self.date = date
        self.revision = revision
        self.suites = suites
    }

    /// Decodes a published result file.
    /// - Parameter inflatedLimit: the most bytes the file's suites may inflate to, together.
    /// - Throws: ``BetterTLSPublishedError``.
    public init(json: Data, inflatedLimit: Int = Self.defaultInflatedLimit) throws(BetterTLSPublishedError) {
        struct File: Decodable {
            var implementation: String
            var version: String
            var date: String
            var betterTlsRevision: String
            var suites: [String: String]
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: json)
        } catch let error as DecodingError {
            throw .badJSON(FileProblem.jsonReason(error, data: json))
        } catch {
            throw .badJSON("\(error)")
        }
        implementation = file.implementation
        version = file.version
        date = file.date
        revision = file.betterTlsRevision
        var suites: [String: SuiteResults] = [:]
        var budget = inflatedLimit
        for (name, encoded) in file.suites.sorted(by: { $0.key < $1.key }) {
            guard let gzip = Data(base64Encoded: encoded) else { throw .badBase64(suite: name) }
            let bytes: [UInt8]
            do throws(Inflate.Problem) {
                bytes = try Inflate.gunzip([UInt8](gzip), limit: budget)
            } catch {
                if case let .crcMismatch(expected, actual) = error {
                    throw .crcMismatch(suite: name, expected: expected, actual: actual)
                }
                throw .badGzip(suite: name, error)
            }
            budget -= bytes.count
            suites[name] = try SuiteResults(protobuf: bytes, suite: name)
        }
        self.suites = suites
    }
}

extension BetterTLSPublished.SuiteResults {
    /// Decodes a `SuiteTestResults` message: fields 1 and 2 (`repeated int32` features) and 3
    /// (`repeated TestCaseResult`), each packed or not; fields it does not know are skipped, as
    /// protocol buffers parsers do.
    init(protobuf bytes: [UInt8], suite: String) throws(BetterTLSPublishedError) {
        var supported: [Int] = [], unsupported: [Int] = [], values: [Int] = []
        var reader = ProtobufReader(bytes)
        do throws(ProtobufReader.Problem) {
            while let (field, wireType, tagOffset) = try reader.tag() {
                switch field {
                case 1: supported += try reader.repeatedInt32(field: field, wireType: wireType, tagOffset: tagOffset)
                case 2: unsupported += try reader.repeatedInt32(field: field, wireType: wireType, tagOffset: tagOffset)
                case 3: values += try reader.repeatedInt32(field: field, wireType: wireType, tagOffset: tagOffset)
                default: try reader.skip(wireType, field: field, tagOffset: tagOffset)
                }
            }
        } catch {
            throw .badProtobuf(suite: suite, error)
        }
        var results: [BetterTLSPublished.Result] = []
        results.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            guard let result = BetterTLSPublished.Result(protobufValue: value) else {
                throw .unknownResult(suite: suite, index: index, value: value)
            }
            results.append(result)
        }
        self.init(supportedFeatures: supported, unsupportedFeatures: unsupported, results: results)
    }
}

/// Why a BetterTLS published result file could not be read.
public enum BetterTLSPublishedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file is not JSON of the expected shape (what is wrong).
    case badJSON(String)
    /// A suite's data is not base64.
    case badBase64(suite: String)
    /// A suite's data is not a valid gzip file.
    case badGzip(suite: String, Gzip)
    /// A suite's inflated data does not have the CRC-32 its gzip trailer gives.
    case crcMismatch(suite: String, expected: UInt32, actual: UInt32)
    /// A suite's inflated data is not a valid `SuiteTestResults` message.
    case badProtobuf(suite: String, Protobuf)
    /// A case's result is not one of test_results.proto's `TestCaseResult` values.
    case unknownResult(suite: String, index: Int, value: Int)

    /// What is wrong with gzip (RFC 1952) or DEFLATE (RFC 1951) data, as zlib found it.
    public enum Gzip: Error, Sendable, Hashable, CustomStringConvertible {
        /// The data ends before the member, block or trailer does.
        case truncated
        /// No gzip magic number (1f 8b) at `offset`.
        case notGzip(offset: Int)
        /// A compression method other than 8 (deflate).
        case unsupportedMethod(UInt8)
        /// Flags with a reserved bit set.
        case reservedFlags(UInt8)
        /// The header's CRC-16 (FHCRC) differs from the header's.
        case headerCRCMismatch
        /// The compressed data is not valid DEFLATE: zlib's message for what it found (for example
        /// "invalid block type", "invalid stored block lengths", "invalid code lengths set",
        /// "invalid distance too far back").
        case corrupt(String)
        /// The data would inflate to more than `limit` bytes.
        case outputTooLarge(limit: Int)
        /// The trailer's CRC-32 differs from the data's.
        case crcMismatch(expected: UInt32, actual: UInt32)
        /// The trailer's ISIZE differs from the data's size (modulo 2^32).
        case sizeMismatch(expected: UInt32, actual: UInt32)
        /// zlib failed for a reason other than the data (what it said).
        case zlib(String)

        public var description: String {
            switch self {
            case .truncated: "the data ends early"
            case let .notGzip(offset): "no gzip header at byte \(offset)"
            case let .unsupportedMethod(method): "compression method \(method), not deflate (8)"
            case let .reservedFlags(flags): "reserved header flags set (\(flags))"
            case .headerCRCMismatch: "the header's CRC-16 does not match the header"
            case let .corrupt(what): "not valid DEFLATE data: \(what) (zlib)"
            case let .outputTooLarge(limit): "inflates to more than \(limit) bytes"
            case let .crcMismatch(expected, actual): "CRC-32 \(hex(expected)) given, \(hex(actual)) computed"
            case let .sizeMismatch(expected, actual): "size \(expected) given, \(actual) inflated"
            case let .zlib(what): "zlib failed: \(what)"
            }
        }
    }

    /// What is wrong with protocol buffers data.
    public enum Protobuf: Error, Sendable, Hashable, CustomStringConvertible {
        /// A varint runs past the end of its message or field.
        case truncatedVarint(offset: Int)
        /// A varint longer than ten bytes, or beyond 64 bits.
        case overlongVarint(offset: Int)
        /// A length-delimited or fixed-size field runs past the end of its message (`offset`: where
        /// its length, or its fixed-size value, begins).
        case truncatedField(offset: Int)
        /// A tag with field number 0 or above 2^29 - 1.
        case invalidFieldNumber(offset: Int)
        /// A wire type that is not 0 to 5, or a group (3, 4).
        case unsupportedWireType(field: Int, wireType: UInt8, offset: Int)
        /// A known field with a wire type its type cannot have.
        case wrongWireType(field: Int, wireType: UInt8, offset: Int)
        /// An `int32` field's value outside `Int32`.
        case int32OutOfRange(field: Int, value: Int64, offset: Int)

        public var description: String {
            switch self {
            case let .truncatedVarint(offset): "a varint at byte \(offset) runs past the end"
            case let .overlongVarint(offset): "a varint at byte \(offset) exceeds 64 bits"
            case let .truncatedField(offset): "a field at byte \(offset) runs past the end"
            case let .invalidFieldNumber(offset): "an invalid field number at byte \(offset)"
            case let .unsupportedWireType(field, wireType, offset): "field \(field) at byte \(offset) has wire type \(wireType), which is not supported"
            case let .wrongWireType(field, wireType, offset): "field \(field) at byte \(offset) has wire type \(wireType), not a varint (0) or packed (2)"
            case let .int32OutOfRange(field, value, offset): "field \(field) at byte \(offset) holds \(value), outside int32"
            }
        }
    }

    public var description: String {
        switch self {
        case let .badJSON(what): "not a BetterTLS result file: \(what)"
        case let .badBase64(suite): "suite \(suite): not base64"
        case let .badGzip(suite, problem): "suite \(suite): not valid gzip: \(problem)"
        case let .crcMismatch(suite, expected, actual): "suite \(suite): gzip CRC-32 mismatch: \(hex(expected)) given, \(hex(actual)) computed"
        case let .badProtobuf(suite, problem): "suite \(suite): not a valid SuiteTestResults message: \(problem)"
        case let .unknownResult(suite, index, value): "suite \(suite): case \(index) has result \(value), not ACCEPTED (0), REJECTED (1) or SKIPPED (2)"
        }
    }
}

private func hex<T: FixedWidthInteger>(_ value: T) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: max(0, T.bitWidth / 4 - digits.count)) + digits
}
