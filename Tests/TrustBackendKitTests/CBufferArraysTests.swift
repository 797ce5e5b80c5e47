import Testing
import TrustBackendKit

/// The C arrays a bridge hands its library: every buffer's address and length in order, for a short
/// list (lent in place) and for a hostile one (10,000 certificates, copied once so the stack never
/// grows with the input: nested calls overflowed the stack there).
@Suite struct CBufferArraysTests {
    static func read(_ buffers: [[UInt8]]) -> [[UInt8]] {
        withCBufferArrays(buffers) { pointers, lengths in
            (0..<buffers.count).map { index in
                let length = lengths![index]
                guard let base = pointers![index] else { return [] }
                return Array(UnsafeBufferPointer(start: base, count: length))
            }
        }
    }

    @Test(arguments: [0, 1, 3, cBufferArraysNestedLimit, cBufferArraysNestedLimit + 1, 10_000])
    func everyBufferArrivesInOrder(count: Int) {
        let buffers = (0..<count).map { index in [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: index % 7) }
        #expect(Self.read(buffers) == buffers)
    }
}
