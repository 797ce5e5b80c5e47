import Foundation
import Testing
import TrustVectors

/// One strict parser for every time the tool reads: RFC 3339, no rollover, no guessing.
@Suite struct TimestampTests {
    @Test(arguments: [
        ("2025-06-01T00:00:00Z", 1_748_736_000.0),
        ("2025-06-01t00:00:00z", 1_748_736_000.0),
        ("2025-06-01T02:00:00+02:00", 1_748_736_000.0),
        ("2025-05-31T19:30:00-04:30", 1_748_736_000.0),
        ("2025-06-01T00:00:00.5Z", 1_748_736_000.5),
        ("2024-02-29T12:00:00Z", 1_709_208_000.0),
        ("2000-02-29T00:00:00Z", 951_782_400.0),
        ("1969-12-31T23:59:59Z", -1.0),
        ("9999-12-31T23:59:59Z", 253_402_300_799.0),
        // A leap second is the first second of the next minute (POSIX time has none).
        ("2016-12-31T23:59:60Z", 1_483_228_800.0),
        ("1583-01-01T00:00:00Z", -12_212_553_600.0),
    ])
    func acceptsRFC3339(text: String, seconds: Double) {
        #expect(Timestamp.parse(text)?.timeIntervalSince1970 == seconds, "\(text)")
    }

    @Test(arguments: [
        "2026-02-30T00:00:00Z", "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2025-04-31T00:00:00Z",
        "2025-13-01T00:00:00Z", "2025-00-01T00:00:00Z", "2025-06-00T00:00:00Z", "2025-06-01T24:00:00Z",
        "2025-06-01T00:60:00Z", "2025-06-01T00:00:60Z", "2025-06-01T00:00:61Z", "2016-12-31T23:58:60Z",
        "0000-01-01T00:00:00Z", "1582-10-10T00:00:00Z", "2025-06-01T00:00:00", "2025-06-01", "yesterday", "",
        "2025-06-01T00:00:00+2:00", "2025-06-01T00:00:00+24:00", "2025-06-01T00:00:00.Z", " 2025-06-01T00:00:00Z",
        "2025-06-01T00:00:00Zjunk", "25-06-01T00:00:00Z", "2025-6-01T00:00:00Z",
    ])
    func refusesEverythingElse(text: String) {
        #expect(Timestamp.parse(text) == nil, "\(text)")
    }

    /// Shown as read: fractional seconds only when there are some.
    @Test func formatKeepsWhatWasRead() {
        #expect(Timestamp.format(Timestamp.parse("2026-01-01T00:00:00.5Z")!) == "2026-01-01T00:00:00.500Z")
        #expect(Timestamp.format(Timestamp.parse("2026-01-01T02:00:00+02:00")!) == "2026-01-01T00:00:00Z")
    }

    /// Whole seconds are formatted by arithmetic; every one is what ISO8601DateFormatter writes,
    /// from year 1 to 9999, leap days and the turn of each century included.
    @Test func wholeSecondsAreWhatTheFormatterWrites() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        var generator = SystemRandomNumberGenerator()
        var seconds: [Double] = [0, -1, 86_399, 86_400, 951_782_400, 951_868_799, 4_107_542_399, 4_107_542_400, -62_135_596_800, 253_402_300_799, -12_219_292_800]
        // Random times where the arithmetic writes them (1583 on; before, the formatter writes them itself).
        for _ in 0..<300 { seconds.append(Double(Int64.random(in: -12_212_553_600...253_402_300_799, using: &generator))) }
        for value in seconds {
            let date = Date(timeIntervalSince1970: value)
            #expect(Timestamp.format(date) == formatter.string(from: date), "\(value)")
        }
    }

    /// The manifest's times, the bad-input corpus's and limbo's all go through it.
    @Test func limboTimesUseTheSameParser() {
        #expect(LimboTestcase.parseTime("2024-01-01T00:00:00+00:00") == Timestamp.parse("2024-01-01T00:00:00Z"))
        #expect(LimboTestcase.parseTime("2024-02-30T00:00:00Z") == nil)
    }
}
