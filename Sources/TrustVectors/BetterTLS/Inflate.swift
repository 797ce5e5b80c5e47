internal import CTrustZlib

/// gzip (RFC 1952) and raw DEFLATE (RFC 1951) through the system's zlib, which every Linux machine
/// has and which reads every other gzip file on it: BetterTLS's published results are read with it.
/// The output is capped (`limit`) and every refusal is a ``BetterTLSPublishedError/Gzip``: zlib's own
/// message for what it found in the compressed data, or the header field, trailer value or limit at
/// fault. Hostile input throws, never traps. (Until issue 61 this was a DEFLATE decoder of its own,
/// 293 lines nobody else tested.)
enum Inflate {
    typealias Problem = BetterTLSPublishedError.Gzip

    /// The data of every member of the gzip file `bytes` (RFC 1952 §2.2 allows several, concatenated),
    /// each member's CRC-32 and ISIZE checked by zlib. Throws `.outputTooLarge` as soon as the data
    /// would exceed `limit` bytes.
    static func gunzip(_ bytes: [UInt8], limit: Int) throws(Problem) -> [UInt8] {
        var output: [UInt8] = []
        var offset = 0
        repeat {
            // Every member starts with ID1 = 0x1F (RFC 1952 §2.3.1). Checked before zlib is asked so
            // that a stray byte after a member is named as what it is, where zlib would wait for a
            // second header byte.
            guard offset < bytes.count else { throw .truncated }
            guard bytes[offset] == 0x1F else { throw .notGzip(offset: offset) }
            offset = try inflate(bytes, from: offset, gzip: true, appendingTo: &output, limit: limit)
        } while offset < bytes.count
        return output
    }

    /// Decodes the raw DEFLATE stream starting at byte `start` of `bytes`: its data, and the offset of
    /// the first byte after the stream (its last block's final bits padded to a byte).
    static func inflate(_ bytes: [UInt8], from start: Int = 0, limit: Int) throws(Problem) -> (output: [UInt8], end: Int) {
        var output: [UInt8] = []
        let end = try inflate(bytes, from: start, gzip: false, appendingTo: &output, limit: limit)
        return (output, end)
    }

    /// The CRC-32 of `bytes` (ISO 3309, as gzip uses it), by zlib's `crc32`.
    static func crc32<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        let contiguous = [UInt8](bytes)
        var crc = CTrustZlib.crc32(0, nil, 0)
        if !contiguous.isEmpty {
            crc = contiguous.withUnsafeBufferPointer { CTrustZlib.crc32(crc, $0.baseAddress, uInt($0.count)) }
        }
        return UInt32(truncatingIfNeeded: crc)
    }

    /// Inflates one gzip member (or one raw DEFLATE stream) at `start`, appending its data to
    /// `output`; returns the offset after it (after the member's trailer).
    private static func inflate(_ bytes: [UInt8], from start: Int, gzip: Bool, appendingTo output: inout [UInt8], limit: Int) throws(Problem) -> Int {
        guard start <= bytes.count, bytes.count - start <= Int(UInt32.max) else { throw .zlib("more than 4 GiB of input") }
        // zlib reads from and writes to memory of ours for the whole stream: copies it owns here, so
        // no closure (and no pointer escaping one) is involved.
        let inputCount = bytes.count - start
        let input = UnsafeMutablePointer<UInt8>.allocate(capacity: max(inputCount, 1))
        defer { input.deallocate() }
        if inputCount > 0 { bytes[start...].withUnsafeBufferPointer { input.initialize(from: $0.baseAddress!, count: inputCount) } }
        let chunkSize = 32 << 10
        let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        defer { chunk.deallocate() }

        var stream = z_stream()
        // windowBits 15 (the largest window), +16 for the gzip wrapper only (not zlib's), or negative
        // for raw DEFLATE (RFC 1951 with no wrapper).
        guard inflateInit2_(&stream, gzip ? 15 + 16 : -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .zlib("inflateInit2 failed: \(message(stream) ?? "no message")")
        }
        defer { inflateEnd(&stream) }
        stream.next_in = input
        stream.avail_in = uInt(inputCount)
        let memberStart = output.count
        while true {
            stream.next_out = chunk
            stream.avail_out = uInt(chunkSize)
            let status = CTrustZlib.inflate(&stream, Z_NO_FLUSH)
            let produced = chunkSize - Int(stream.avail_out)
            if produced > limit - output.count { throw .outputTooLarge(limit: limit) }
            output.append(contentsOf: UnsafeBufferPointer(start: chunk, count: produced))
            let consumed = inputCount - Int(stream.avail_in)
            switch status {
            case Z_STREAM_END:
                return start + consumed
            case Z_OK:
                continue
            case Z_BUF_ERROR where stream.avail_in == 0:
                // No progress possible and no input left: the stream needs bytes it does not have.
                throw .truncated
            case Z_DATA_ERROR:
                let what = message(stream) ?? "corrupt data"
                // The four bytes zlib has just read for the check it failed (the trailer's CRC32 or
                // ISIZE, RFC 1952 §2.3.1), as given.
                func given() -> UInt32 {
                    (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[start + consumed - 4 + $1]) << (8 * UInt32($1)) }
                }
                switch what {
                case "incorrect header check": throw .notGzip(offset: start)
                case "unknown compression method": throw .unsupportedMethod(bytes[start + 2])
                case "unknown header flags set": throw .reservedFlags(bytes[start + 3])
                case "header crc mismatch": throw .headerCRCMismatch
                case "incorrect data check" where consumed >= 4:
                    throw .crcMismatch(expected: given(), actual: crc32(output[memberStart...]))
                case "incorrect length check" where consumed >= 4:
                    throw .sizeMismatch(expected: given(), actual: UInt32(truncatingIfNeeded: output.count - memberStart))
                default: throw .corrupt(what)
                }
            case Z_NEED_DICT:
                throw .corrupt("the stream asks for a preset dictionary")
            default:
                throw .zlib("inflate returned \(status): \(message(stream) ?? "no message")")
            }
        }
    }

    private static func message(_ stream: z_stream) -> String? {
        stream.msg.map { String(cString: $0) }
    }
}
