/// A small, strict DEFLATE decoder (RFC 1951: stored, fixed-Huffman and dynamic-Huffman blocks) with
/// gzip framing (RFC 1952), enough to read BetterTLS's published results without zlib. Every read is
/// bounds-checked and the output is capped: hostile input throws a ``BetterTLSPublishedError/Gzip``,
/// never traps. Written for clarity, not speed (its inputs are a few kilobytes).
enum Inflate {
    typealias Problem = BetterTLSPublishedError.Gzip

    /// The data of every member of the gzip file `bytes` (RFC 1952 allows several, concatenated),
    /// each member's CRC-32 and ISIZE checked. Throws `.outputTooLarge` as soon as the data would
    /// exceed `limit` bytes.
    static func gunzip(_ bytes: [UInt8], limit: Int) throws(Problem) -> [UInt8] {
        var output: [UInt8] = []
        var offset = 0
        repeat {
            offset = try member(bytes, at: offset, appendingTo: &output, limit: limit)
        } while offset < bytes.count
        return output
    }

    /// Decodes the raw DEFLATE stream starting at byte `start` of `bytes`: its data, and the offset of
    /// the first byte after the stream (its last block's final bits padded to a byte).
    static func inflate(_ bytes: [UInt8], from start: Int = 0, limit: Int) throws(Problem) -> (output: [UInt8], end: Int) {
        var output: [UInt8] = []
        let end = try inflate(bytes, from: start, appendingTo: &output, limit: limit)
        return (output, end)
    }

    // MARK: gzip (RFC 1952)

    private static let flagHeaderCRC: UInt8 = 0x02, flagExtra: UInt8 = 0x04, flagName: UInt8 = 0x08, flagComment: UInt8 = 0x10
    private static let reservedFlags: UInt8 = 0xE0

    /// Reads one member at `start`, appending its data to `output`; returns the offset after it.
    private static func member(_ bytes: [UInt8], at start: Int, appendingTo output: inout [UInt8], limit: Int) throws(Problem) -> Int {
        var reader = ByteReader(bytes: bytes, offset: start)
        guard try reader.byte() == 0x1F, try reader.byte() == 0x8B else { throw .notGzip(offset: start) }
        let method = try reader.byte()
        guard method == 8 else { throw .unsupportedMethod(method) }
        let flags = try reader.byte()
        guard flags & reservedFlags == 0 else { throw .reservedFlags(flags) }
        try reader.skip(6)  // MTIME (4), XFL, OS
        if flags & flagExtra != 0 {
            let length = Int(try reader.littleEndian(2))
            try reader.skip(length)
        }
        if flags & flagName != 0 { try reader.skipZeroTerminated() }
        if flags & flagComment != 0 { try reader.skipZeroTerminated() }
        if flags & flagHeaderCRC != 0 {
            let headerEnd = reader.offset
            let stored = UInt16(try reader.littleEndian(2))
            let computed = UInt16(truncatingIfNeeded: crc32(bytes[start..<headerEnd]))
            guard stored == computed else { throw .headerCRCMismatch(expected: stored, actual: computed) }
        }
        let dataStart = output.count
        let end = try inflate(bytes, from: reader.offset, appendingTo: &output, limit: limit)
        var trailer = ByteReader(bytes: bytes, offset: end)
        let storedCRC = UInt32(try trailer.littleEndian(4))
        let storedSize = UInt32(try trailer.littleEndian(4))
        let crc = crc32(output[dataStart...])
        guard storedCRC == crc else { throw .crcMismatch(expected: storedCRC, actual: crc) }
        let size = UInt32(truncatingIfNeeded: output.count - dataStart)
        guard storedSize == size else { throw .sizeMismatch(expected: storedSize, actual: size) }
        return trailer.offset
    }

    /// Reads whole bytes, throwing `.truncated` past the end.
    private struct ByteReader {
        let bytes: [UInt8]
        var offset: Int

        mutating func byte() throws(Problem) -> UInt8 {
            guard offset < bytes.count else { throw .truncated }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func skip(_ count: Int) throws(Problem) {
            guard count <= bytes.count - offset else { throw .truncated }
            offset += count
        }

        /// A little-endian integer of `count` (at most 4) bytes.
        mutating func littleEndian(_ count: Int) throws(Problem) -> UInt64 {
            var value: UInt64 = 0
            for index in 0..<count { value |= UInt64(try byte()) << (8 * UInt64(index)) }
            return value
        }

        mutating func skipZeroTerminated() throws(Problem) {
            while try byte() != 0 {}
        }
    }

    // MARK: CRC-32 (ISO 3309, as gzip uses it)

    private static let crcTable: [UInt32] = (0..<256).map { (index: UInt32) in
        var value = index
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// The CRC-32 of `bytes`.
    static func crc32<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    // MARK: DEFLATE (RFC 1951)

    /// Reads bits least significant first, throwing `.truncated` past the end.
    private struct BitReader {
        let bytes: [UInt8]
        var offset: Int
        /// The next bit's position in `bytes[offset]` (0 to 7).
        var bit = 0

        init(bytes: [UInt8], offset: Int) {
            self.bytes = bytes
            self.offset = offset
        }

        mutating func bits(_ count: Int) throws(Problem) -> Int {
            var value = 0
            for index in 0..<count {
                guard offset < bytes.count else { throw .truncated }
                value |= Int((bytes[offset] >> UInt8(bit)) & 1) << index
                bit += 1
                if bit == 8 { bit = 0; offset += 1 }
            }
            return value
        }

        /// Drops the rest of the current byte.
        mutating func alignToByte() {
            if bit != 0 { bit = 0; offset += 1 }
        }
    }

    /// A canonical Huffman code: how many codes of each length, and the symbols in code order.
    private struct Huffman {
        static let maxBits = 15
        var counts = [Int](repeating: 0, count: maxBits + 1)
        var symbols: [Int] = []

        /// The code with `lengths[symbol]` bits for each symbol (0: the symbol is not used). Throws
        /// `.badHuffmanCode` when the lengths over-subscribe the code space, or leave it incomplete
        /// and `allowIncomplete` is false. When it is true (the literal/length and distance codes of a
        /// dynamic block), an empty code or a lone code of one bit is taken, as zlib takes them
        /// (RFC 1951 3.2.7 names the lone distance code); decoding a code no symbol has throws.
        init(lengths: [Int], allowIncomplete: Bool, alphabet: String) throws(Problem) {
            for length in lengths { counts[length] += 1 }
            var left = 1
            for length in 1...Self.maxBits {
                left <<= 1
                left -= counts[length]
                guard left >= 0 else { throw .badHuffmanCode("\(alphabet) code lengths over-subscribed") }
            }
            let used = lengths.count - counts[0]
            // Incomplete: refused unless allowed and the code is empty or one code of one bit.
            if left > 0, !allowIncomplete || (used > 0 && !(used == 1 && counts[1] == 1)) {
                throw .badHuffmanCode("\(alphabet) code lengths incomplete")
            }
            var offsets = [Int](repeating: 0, count: Self.maxBits + 2)
            for length in 1...Self.maxBits { offsets[length + 1] = offsets[length] + counts[length] }
            symbols = [Int](repeating: 0, count: used)
            for (symbol, length) in lengths.enumerated() where length != 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }

        /// The next symbol: the code is read a bit at a time, most significant bit first.
        func decode(_ reader: inout BitReader, alphabet: String) throws(Problem) -> Int {
            var code = 0, first = 0, index = 0
            for length in 1...Self.maxBits {
                code |= try reader.bits(1)
                let count = counts[length]
                if code - first < count { return symbols[index + code - first] }
                index += count
                first = (first + count) << 1
                code <<= 1
            }
            throw .badHuffmanCode("no \(alphabet) symbol has the code read")
        }
    }

    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    /// The order in which a dynamic block gives the code-length code's lengths.
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// The fixed codes (RFC 1951 3.2.6): all 288 literal/length and 32 distance codes, so that both
    /// are complete; symbols 286, 287, 30 and 31 are refused where they are decoded.
    private static func fixedCodes() throws(Problem) -> (literals: Huffman, distances: Huffman) {
        let literalLengths = (0..<288).map { symbol in symbol < 144 ? 8 : symbol < 256 ? 9 : symbol < 280 ? 7 : 8 }
        return (try Huffman(lengths: literalLengths, allowIncomplete: false, alphabet: "literal/length"),
                try Huffman(lengths: [Int](repeating: 5, count: 32), allowIncomplete: false, alphabet: "distance"))
    }

    private static func inflate(_ bytes: [UInt8], from start: Int, appendingTo output: inout [UInt8], limit: Int) throws(Problem) -> Int {
        guard start >= 0, start <= bytes.count else { throw .truncated }
        var reader = BitReader(bytes: bytes, offset: start)
        let streamStart = output.count
        var isFinal = false
        while !isFinal {
            isFinal = try reader.bits(1) == 1
            switch try reader.bits(2) {
            case 0:
                try stored(&reader, appendingTo: &output, limit: limit)
            case 1:
                let (literals, distances) = try fixedCodes()
                try codes(&reader, literals: literals, distances: distances, appendingTo: &output, streamStart: streamStart, limit: limit)
            case 2:
                let (literals, distances) = try dynamicCodes(&reader)
                try codes(&reader, literals: literals, distances: distances, appendingTo: &output, streamStart: streamStart, limit: limit)
            default:
                throw .reservedBlockType
            }
        }
        reader.alignToByte()
        return reader.offset
    }

    private static func stored(_ reader: inout BitReader, appendingTo output: inout [UInt8], limit: Int) throws(Problem) {
        reader.alignToByte()
        let length = try reader.bits(16), complement = try reader.bits(16)
        guard length == ~complement & 0xFFFF else { throw .storedLengthMismatch(length: length, complement: complement) }
        guard length <= reader.bytes.count - reader.offset else { throw .truncated }
        guard length <= limit - output.count else { throw .outputTooLarge(limit: limit) }
        output.append(contentsOf: reader.bytes[reader.offset..<reader.offset + length])
        reader.offset += length
    }

    private static func dynamicCodes(_ reader: inout BitReader) throws(Problem) -> (literals: Huffman, distances: Huffman) {
        let literalCount = try reader.bits(5) + 257
        let distanceCount = try reader.bits(5) + 1
        let codeLengthCount = try reader.bits(4) + 4
        guard literalCount <= 286 else { throw .badHuffmanCode("\(literalCount) literal/length codes (at most 286)") }
        guard distanceCount <= 30 else { throw .badHuffmanCode("\(distanceCount) distance codes (at most 30)") }
        var codeLengthLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeLengthCount { codeLengthLengths[codeLengthOrder[index]] = try reader.bits(3) }
        let codeLengthCode = try Huffman(lengths: codeLengthLengths, allowIncomplete: false, alphabet: "code-length")

        var lengths: [Int] = []
        let total = literalCount + distanceCount
        while lengths.count < total {
            let symbol = try codeLengthCode.decode(&reader, alphabet: "code-length")
            let value: Int, repeats: Int
            switch symbol {
            case 0...15:
                value = symbol; repeats = 1
            case 16:
                guard let previous = lengths.last else { throw .badHuffmanCode("a repeat of the previous code length with none before it") }
                value = previous; repeats = 3 + (try reader.bits(2))
            case 17:
                value = 0; repeats = 3 + (try reader.bits(3))
            default:
                value = 0; repeats = 11 + (try reader.bits(7))
            }
            guard repeats <= total - lengths.count else { throw .badHuffmanCode("code lengths run past the \(total) codes") }
            lengths.append(contentsOf: repeatElement(value, count: repeats))
        }
        guard lengths[256] != 0 else { throw .badHuffmanCode("no code for the end of the block") }
        let literals = try Huffman(lengths: Array(lengths[..<literalCount]), allowIncomplete: true, alphabet: "literal/length")
        let distances = try Huffman(lengths: Array(lengths[literalCount...]), allowIncomplete: true, alphabet: "distance")
        return (literals, distances)
    }

    private static func codes(_ reader: inout BitReader, literals: Huffman, distances: Huffman, appendingTo output: inout [UInt8], streamStart: Int, limit: Int) throws(Problem) {
        while true {
            let symbol = try literals.decode(&reader, alphabet: "literal/length")
            if symbol < 256 {
                guard output.count < limit else { throw .outputTooLarge(limit: limit) }
                output.append(UInt8(symbol))
                continue
            }
            if symbol == 256 { return }
            let lengthIndex = symbol - 257
            guard lengthIndex < lengthBase.count else { throw .badHuffmanCode("literal/length symbol \(symbol) is reserved") }
            let length = lengthBase[lengthIndex] + (try reader.bits(lengthExtra[lengthIndex]))
            let distanceSymbol = try distances.decode(&reader, alphabet: "distance")
            guard distanceSymbol < distanceBase.count else { throw .badHuffmanCode("distance symbol \(distanceSymbol) is reserved") }
            let distance = distanceBase[distanceSymbol] + (try reader.bits(distanceExtra[distanceSymbol]))
            guard distance <= output.count - streamStart else { throw .distanceTooFar(distance: distance, available: output.count - streamStart) }
            guard length <= limit - output.count else { throw .outputTooLarge(limit: limit) }
            let from = output.count - distance
            for index in 0..<length { output.append(output[from + index]) }
        }
    }
}
