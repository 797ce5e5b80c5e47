import Testing
@testable import TrustPolicy

/// The memo of ``PinMatcher`` saves hashing only: every answer equals the unmemoised one, whatever the
/// order, the repetition, the eviction or the concurrency.
@Suite struct PinMatcherTests {
    static func certificates(_ count: Int) throws -> [[UInt8]] {
        try (0..<count).map { _ in try SPKIPinTests.certificate().der }
    }

    @Test func memoisedAnswersEqualFreshOnes() throws {
        // More keys than the memo holds, so entries are evicted and hashed again along the way.
        let certificates = try Self.certificates(PinMatcher.capacity + 5)
        let pinned = [certificates[3], certificates[PinMatcher.capacity + 2]].map { PinDigest(try! SPKIPin(certificate: $0).digest) }
        let matcher = PinMatcher(pins: Set(pinned))
        for round in 0..<4 {
            for start in certificates.indices {
                let path = Array(certificates[start...].prefix(3 + round % 2))
                let fresh = PinMatcher.firstPinned(in: path, pins: Set(pinned))
                let memoised = matcher.firstPinned(in: path)
                #expect(memoised?.index == fresh?.index)
                #expect(memoised?.pin == fresh?.pin)
            }
        }
    }

    @Test func aKeyOnceSeenUnpinnedIsNotConfusedWithAPinnedOne() throws {
        let certificates = try Self.certificates(2)
        let matcher = PinMatcher(pins: [PinDigest(try SPKIPin(certificate: certificates[1]).digest)])
        #expect(matcher.firstPinned(in: [certificates[0]]) == nil)
        #expect(matcher.firstPinned(in: [certificates[0], certificates[1]])?.index == 1)
        #expect(matcher.firstPinned(in: [certificates[0]]) == nil)
        // Bytes that are not a certificate never match and are not remembered as a key.
        #expect(matcher.firstPinned(in: [[0x30, 0x00], []]) == nil)
    }

    @Test func manyTasksGetTheSameAnswers() async throws {
        let certificates = try Self.certificates(PinMatcher.capacity * 2)
        let pins = Set(certificates.enumerated().filter { $0.offset % 5 == 0 }.map { PinDigest(try! SPKIPin(certificate: $0.element).digest) })
        let matcher = PinMatcher(pins: pins)
        let expected = certificates.indices.map { PinMatcher.firstPinned(in: [certificates[$0]], pins: pins)?.index }
        let wrong = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<200 {
                        let index = (task * 7 + round * 3) % certificates.count
                        if matcher.firstPinned(in: [certificates[index]])?.index != expected[index] { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
        #expect(expected.compactMap { $0 }.count == pins.count)
    }
}
