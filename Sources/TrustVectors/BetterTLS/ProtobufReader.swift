/// A minimal reader of the protocol buffers wire format (varints, tags, length-delimited fields, and
/// skipping the fields it is not asked about), bounds-checked: a malformed message throws a
/// ``BetterTLSPublishedError/Protobuf``, never traps.
///
/// Kept rather than swift-protobuf (issue 61), for a measured reason: BetterTLS's results are one
/// message of three `repeated int32` fields, which these 114 lines read, while the SwiftProtobuf
/// module is 28,905 lines that took 20.5 s to build here (debug, two cores, swift-protobuf 1.39.0,
/// 24 s of CPU) and would be built by every clean build of the root package, twice in CI (the root's
/// build folder and the back ends'), whose budget it already exceeds; every package depending on
/// TrustHarness would pay it too. Its decoding is checked against an independent decoder's reading
/// of every published file (BetterTLSPublishedTests), and its hostile inputs are refused by name.
struct ProtobufReader {
    typealias Problem = BetterTLSPublishedError.Protobuf

    /// The wire types (encoding.md of protocol buffers).
    enum WireType: UInt8 {
        case varint = 0, fixed64 = 1, lengthDelimited = 2, startGroup = 3, endGroup = 4, fixed32 = 5
    }

    let bytes: [UInt8]
    /// The next byte to read.
    private(set) var offset: Int
    /// The end of what is read: the message's end, or a length-delimited field's.
    let end: Int

    init(_ bytes: [UInt8]) {
        self.init(bytes, range: 0..<bytes.count)
    }

    /// A reader of `bytes[range]`; `range` must lie within `bytes`.
    init(_ bytes: [UInt8], range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "ProtobufReader's range lies outside its bytes")
        self.bytes = bytes
        self.offset = range.lowerBound
        self.end = range.upperBound
    }

    var isAtEnd: Bool { offset >= end }

    /// A base-128 varint of at most ten bytes, whose tenth byte may carry only the 64th bit.
    mutating func varint() throws(Problem) -> UInt64 {
        let start = offset
        var value: UInt64 = 0
        for index in 0..<10 {
            guard offset < end else { throw .truncatedVarint(offset: start) }
            let byte = bytes[offset]
            offset += 1
            if index == 9, byte > 1 { throw .overlongVarint(offset: start) }
            value |= UInt64(byte & 0x7F) << (7 * UInt64(index))
            if byte & 0x80 == 0 { return value }
        }
        throw .overlongVarint(offset: start)
    }

    /// An `int32` field's value: a varint holding a 32-bit value, a negative one sign-extended to 64
    /// bits (ten bytes). A value outside `Int32` is refused rather than truncated.
    mutating func int32(field: Int) throws(Problem) -> Int {
        let start = offset
        let value = Int64(bitPattern: try varint())
        guard let narrow = Int32(exactly: value) else { throw .int32OutOfRange(field: field, value: value, offset: start) }
        return Int(narrow)
    }

    /// The next field's number, wire type and the offset of its tag, or nil at the end.
    mutating func tag() throws(Problem) -> (field: Int, wireType: WireType, offset: Int)? {
        guard !isAtEnd else { return nil }
        let start = offset
        let key = try varint()
        let field = key >> 3
        guard field >= 1, field <= (1 << 29) - 1 else { throw .invalidFieldNumber(offset: start) }
        let rawWireType = UInt8(key & 7)
        guard let wireType = WireType(rawValue: rawWireType) else {
            throw .unsupportedWireType(field: Int(field), wireType: rawWireType, offset: start)
        }
        return (Int(field), wireType, start)
    }

    /// The range of a length-delimited field's contents, which are skipped.
    mutating func lengthDelimited() throws(Problem) -> Range<Int> {
        let start = offset
        let length = try varint()
        guard length <= UInt64(end - offset) else { throw .truncatedField(offset: start) }
        let range = offset..<offset + Int(length)
        offset = range.upperBound
        return range
    }

    /// Skips the contents of a field of `wireType` whose tag, at `tagOffset`, was just read (groups,
    /// deprecated and unused by proto3, are refused).
    mutating func skip(_ wireType: WireType, field: Int, tagOffset: Int) throws(Problem) {
        let start = offset
        switch wireType {
        case .varint: _ = try varint()
        case .fixed64: try skipBytes(8, from: start)
        case .fixed32: try skipBytes(4, from: start)
        case .lengthDelimited: _ = try lengthDelimited()
        case .startGroup, .endGroup: throw .unsupportedWireType(field: field, wireType: wireType.rawValue, offset: tagOffset)
        }
    }

    private mutating func skipBytes(_ count: Int, from start: Int) throws(Problem) {
        guard count <= end - offset else { throw .truncatedField(offset: start) }
        offset += count
    }

    /// The values of a `repeated int32` (or enum) field whose tag, at `tagOffset`, was just read: one
    /// value if it is unpacked (a varint), all the packed ones if it is length-delimited (proto3's
    /// default; a parser must take both).
    mutating func repeatedInt32(field: Int, wireType: WireType, tagOffset: Int) throws(Problem) -> [Int] {
        switch wireType {
        case .varint:
            return [try int32(field: field)]
        case .lengthDelimited:
            var packed = ProtobufReader(bytes, range: try lengthDelimited())
            var values: [Int] = []
            while !packed.isAtEnd { values.append(try packed.int32(field: field)) }
            return values
        default:
            throw .wrongWireType(field: field, wireType: wireType.rawValue, offset: tagOffset)
        }
    }
}
