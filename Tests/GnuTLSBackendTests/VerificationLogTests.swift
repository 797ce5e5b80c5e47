@testable import GnuTLSBackend
import Testing

@Suite("GnuTLS verification log")
struct VerificationLogTests {
    static func entry(_ certificate: Int, _ issuer: Int?, status: UInt32 = 0) -> VerificationLog.Entry {
        VerificationLog.Entry(
            certificate: OpaquePointer(bitPattern: certificate),
            issuer: issuer.flatMap { OpaquePointer(bitPattern: $0) },
            status: status
        )
    }

    /// Past the entries stored in place, the log goes on in its array, in order.
    @Test func keepsEveryEntryInOrderPastItsInlineCapacity() {
        var log = VerificationLog()
        let total = VerificationLog.inlineCapacity * 2 + 3
        for index in 1...total {
            log.append(Self.entry(index * 16, index * 16 + 8, status: UInt32(index)))
        }
        #expect(log.count == total)
        for index in 0..<total {
            #expect(log[index].certificate == OpaquePointer(bitPattern: (index + 1) * 16))
            #expect(log[index].issuer == OpaquePointer(bitPattern: (index + 1) * 16 + 8))
            #expect(log[index].status == UInt32(index + 1))
        }
    }

    /// The last entry for a certificate is the one that counts (GnuTLS may verify a list twice).
    @Test func lastIndexFindsTheLatestMatchingEntry() {
        var log = VerificationLog()
        #expect(log.lastIndex { _ in true } == nil)
        log.append(Self.entry(16, 32, status: 2))
        log.append(Self.entry(48, nil))
        log.append(Self.entry(16, 64))
        #expect(log.lastIndex { $0.certificate == OpaquePointer(bitPattern: 16) } == 2)
        #expect(log.lastIndex { $0.status != 0 } == 0)
        #expect(log[1].issuer == nil)
        #expect(log.lastIndex { $0.certificate == OpaquePointer(bitPattern: 80) } == nil)
    }
}
