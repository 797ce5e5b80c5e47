import Foundation
import Testing
@testable import TrustVectors

/// BetterTLS's published results (Vectors/bettertls/published) decode, and agree with the manifests;
/// the inflate and protobuf readers under them agree with Python's zlib and gzip, and refuse hostile
/// input with the error that names the problem, never trapping.
@Suite struct BetterTLSPublishedTests {
    typealias Gzip = BetterTLSPublishedError.Gzip
    typealias Protobuf = BetterTLSPublishedError.Protobuf

    // MARK: The committed files

    static func bettertls() throws -> URL {
        try #require(VectorSuite.locate()).appendingPathComponent("bettertls")
    }

    static func manifest(_ revision: String) throws -> BetterTLSManifest {
        try BetterTLSManifest.committed(revision)
    }

    static func published() throws -> [(name: String, file: BetterTLSPublished)] {
        let folder = try bettertls().appendingPathComponent("published/dec_2021")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { name in
            (String(name.dropLast(5)), try BetterTLSPublished(json: Data(contentsOf: folder.appendingPathComponent(name))))
        }
    }

    /// What a throwaway Python decoder (base64, gzip.decompress, a protobuf walk) read from each file.
    struct Row {
        var name: String, implementation: String, revision: String
        var nameConstraints: (accepted: Int, rejected: Int, skipped: Int), nameConstraintsSupported: [Int], nameConstraintsUnsupported: [Int]
        var pathBuilding: (accepted: Int, rejected: Int, skipped: Int), pathBuildingSupported: [Int], pathBuildingUnsupported: [Int]

        init(_ name: String, _ implementation: String, _ revision: String,
             nameConstraints: (Int, Int, Int), _ ncSupported: [Int], _ ncUnsupported: [Int],
             pathBuilding: (Int, Int, Int), _ pbSupported: [Int], _ pbUnsupported: [Int]) {
            self.name = name
            self.implementation = implementation
            self.revision = revision
            self.nameConstraints = nameConstraints
            nameConstraintsSupported = ncSupported
            nameConstraintsUnsupported = ncUnsupported
            self.pathBuilding = pathBuilding
            pathBuildingSupported = pbSupported
            pathBuildingUnsupported = pbUnsupported
        }
    }

    static let python: [Row] = [
        Row("boringssl_a406ad7", "boringssl", "a738c20", nameConstraints: (370, 2550, 5834), [1], [2, 3], pathBuilding: (7, 10, 64), [2, 3, 4, 5, 6], [0, 7]),
        Row("chrome_macos_97.0.4692.56", "chrome", "a738c20", nameConstraints: (820, 7934, 0), [1, 2, 3], [], pathBuilding: (45, 36, 0), [0, 2, 3, 4, 5, 6, 7], []),
        Row("chrome_win64_96.0.4664.110", "chrome", "a738c20", nameConstraints: (732, 8022, 0), [1, 2, 3], [], pathBuilding: (45, 36, 0), [0, 2, 3, 4, 5, 6, 7], []),
        Row("chromium_linux64_96.0.4664.110", "browser", "a738c20", nameConstraints: (820, 7934, 0), [1, 2, 3], [], pathBuilding: (45, 36, 0), [0, 2, 3, 4, 5, 6, 7], []),
        Row("curl_7.68.0", "curl", "a738c20", nameConstraints: (795, 7959, 0), [1, 2, 3], [], pathBuilding: (8, 12, 61), [2, 3, 4, 5, 6, 7], [0]),
        Row("edge_win64_94.0.992.38", "edge", "a738c20", nameConstraints: (732, 8022, 0), [1, 2, 3], [], pathBuilding: (45, 36, 0), [0, 2, 3, 4, 5, 6, 7], []),
        Row("envoy_1.20.1", "envoy", "081fb7c", nameConstraints: (374, 9117, 0), [1, 2, 3], [], pathBuilding: (7, 10, 64), [2, 3, 4, 5, 6], [0, 7]),
        Row("envoy_1.22.0", "envoy", "081fb7c", nameConstraints: (370, 9121, 0), [1, 2, 3], [], pathBuilding: (7, 10, 64), [2, 3, 4, 5, 6], [0, 7]),
        Row("firefox_linux64_95.0", "firefox", "a738c20", nameConstraints: (892, 7862, 0), [1, 2, 3], [], pathBuilding: (39, 30, 12), [0, 2, 3, 4, 5, 6], [7]),
        Row("gnutls_3.6.13", "gnutls", "a738c20", nameConstraints: (768, 7986, 0), [1, 2, 3], [], pathBuilding: (8, 12, 61), [2, 3, 4, 5, 6, 7], [0]),
        Row("gnutls_3.7.2", "gnutls", "a738c20", nameConstraints: (768, 7986, 0), [1, 2, 3], [], pathBuilding: (8, 12, 61), [2, 3, 4, 5, 6, 7], [0]),
        Row("go_1.18beta1", "go", "a738c20", nameConstraints: (820, 7934, 0), [1, 2, 3], [], pathBuilding: (44, 37, 0), [0, 2, 3, 4, 5, 6, 7], []),
        Row("java_1.8.0_292", "java", "a738c20", nameConstraints: (838, 7916, 0), [1, 2, 3], [], pathBuilding: (33, 24, 24), [0, 2, 3, 5, 6], [4, 7]),
        Row("java_11.0.11", "java", "a738c20", nameConstraints: (838, 7916, 0), [1, 2, 3], [], pathBuilding: (33, 24, 24), [0, 2, 3, 5, 6], [4, 7]),
        Row("java_17.0.1", "java", "a738c20", nameConstraints: (838, 7916, 0), [1, 2, 3], [], pathBuilding: (33, 24, 24), [0, 2, 3, 5, 6], [4, 7]),
        Row("libressl_3.4.0", "libressl", "a738c20", nameConstraints: (780, 2140, 5834), [1], [2, 3], pathBuilding: (33, 24, 24), [0, 2, 3, 4, 6], [5, 7]),
        Row("node_16.13.1", "node", "081fb7c", nameConstraints: (783, 8708, 0), [1, 2, 3], [], pathBuilding: (7, 10, 64), [2, 3, 4, 5, 6], [0, 7]),
        Row("node_16.13.2", "node", "081fb7c", nameConstraints: (800, 8691, 0), [1, 2, 3], [], pathBuilding: (7, 10, 64), [2, 3, 4, 5, 6], [0, 7]),
        Row("openssl_1.1.1f", "openssl", "a738c20", nameConstraints: (800, 7954, 0), [1, 2, 3], [], pathBuilding: (8, 12, 61), [2, 3, 4, 5, 6, 7], [0]),
        Row("openssl_1.1.1l", "openssl", "a738c20", nameConstraints: (800, 7954, 0), [1, 2, 3], [], pathBuilding: (7, 10, 64), [2, 3, 4, 5, 6], [0, 7]),
        Row("openssl_3.0.1", "openssl", "a738c20", nameConstraints: (800, 7954, 0), [1, 2, 3], [], pathBuilding: (8, 12, 61), [2, 3, 4, 5, 6, 7], [0]),
        Row("pkijs_2.2.1", "pkijs", "a738c20", nameConstraints: (820, 2100, 5834), [1], [2, 3], pathBuilding: (2, 12, 67), [2, 3, 5, 6], [0, 4, 7]),
        Row("rustls_0.20.2", "rustls", "a738c20", nameConstraints: (20, 56, 8678), [2], [1, 3], pathBuilding: (45, 36, 0), [0, 2, 3, 4, 5, 6, 7], []),
        Row("safari_macos_605.1.15", "safari", "a738c20", nameConstraints: (820, 7934, 0), [1, 2, 3], [], pathBuilding: (39, 30, 12), [0, 2, 3, 5, 6, 7], [4]),
    ]

    static let december2021 = "a738c208791588ed8ec0d93148da60401379738f"
    static let january2022 = "081fb7c5e11591f4a6ab5acf080dc1338eed2616"

    @Test func everyPublishedFileDecodesAsPythonReadsIt() throws {
        let files = try Self.published()
        #expect(files.map(\.name) == Self.python.map(\.name))
        for (row, (name, file)) in zip(Self.python, files) {
            #expect(file.implementation == row.implementation, "\(name)")
            #expect(file.revision.hasPrefix(row.revision), "\(name)")
            #expect(!file.version.isEmpty && !file.date.isEmpty, "\(name)")
            #expect(Set(file.suites.keys) == ["nameconstraints", "pathbuilding"], "\(name)")
            let nc = try #require(file.suites["nameconstraints"]), pb = try #require(file.suites["pathbuilding"])
            let ncCounts = BetterTLSPublished.Result.allCases.map(nc.count), pbCounts = BetterTLSPublished.Result.allCases.map(pb.count)
            #expect(ncCounts == [row.nameConstraints.accepted, row.nameConstraints.rejected, row.nameConstraints.skipped], "\(name)")
            #expect(pbCounts == [row.pathBuilding.accepted, row.pathBuilding.rejected, row.pathBuilding.skipped], "\(name)")
            #expect(nc.supportedFeatures == row.nameConstraintsSupported && nc.unsupportedFeatures == row.nameConstraintsUnsupported, "\(name)")
            #expect(pb.supportedFeatures == row.pathBuildingSupported && pb.unsupportedFeatures == row.pathBuildingUnsupported, "\(name)")
        }
    }

    /// Twenty files are of a738c20 (December 2021); the four added later (Node in January 2022, Envoy
    /// in June 2022) are of 081fb7c, whose name-constraints suite has 9,491 cases.
    @Test func eachFileIsOfAManifestCommittedHere() throws {
        let revisions = Dictionary(grouping: try Self.published(), by: \.file.revision).mapValues { $0.map(\.name) }
        #expect(Set(revisions.keys) == [Self.december2021, Self.january2022])
        #expect(revisions[Self.december2021]?.count == 20)
        #expect(revisions[Self.january2022] == ["envoy_1.20.1", "envoy_1.22.0", "node_16.13.1", "node_16.13.2"])
    }

    @Test func theManifestsCountThe8754And9491NameConstraintsCasesAnd81PathBuildingOnes() throws {
        let december = try Self.manifest(Self.december2021), january = try Self.manifest(Self.january2022)
        #expect(december.suiteManifests["nameconstraints"]?.expectedResults.count == 8_754)
        #expect(december.suiteManifests["pathbuilding"]?.expectedResults.count == 81)
        #expect(january.suiteManifests["nameconstraints"]?.expectedResults.count == 9_491)
        #expect(january.suiteManifests["pathbuilding"]?.expectedResults.count == 81)
    }

    /// Each suite has a result for every case of its manifest and reports every feature of it once,
    /// supported or not; a case is skipped exactly when it needs a feature found unsupported
    /// (BetterTLS's executor skips those and no other), with each case's features as the cases here
    /// give them (`requiredFeatures`), named as the manifest names the numbers.
    @Test func everyFileMatchesItsManifest() throws {
        for (name, file) in try Self.published() {
            let manifest = try Self.manifest(file.revision)
            for (suiteName, suite) in file.suites {
                let suiteManifest = try #require(manifest.suiteManifests[suiteName], "\(name) \(suiteName)")
                #expect(suite.results.count == suiteManifest.expectedResults.count, "\(name) \(suiteName)")
                let features = suite.supportedFeatures + suite.unsupportedFeatures
                #expect(features.count == Set(features).count, "\(name) \(suiteName)")
                #expect(Set(features.map(String.init)) == Set(suiteManifest.features.keys), "\(name) \(suiteName)")
                let unsupported = Set(suite.unsupportedFeatures.compactMap { suiteManifest.features[String($0)] })
                #expect(unsupported.count == suite.unsupportedFeatures.count, "\(name) \(suiteName): every unsupported feature is named")
                let required: [[String]]
                switch suiteName {
                case "pathbuilding": required = BetterTLSPathBuilding.cases().map { $0.requiredFeatures.map(\.name) }
                default:
                    let revision = try #require(BetterTLSNameConstraints.Revision.allCases.first { file.revision.hasPrefix($0.rawValue) || $0.rawValue.hasPrefix(file.revision) })
                    required = BetterTLSNameConstraints.cases(revision).map { $0.requiredFeatures.map(\.rawValue) }
                }
                #expect(required.count == suite.results.count, "\(name) \(suiteName)")
                let wrong = zip(required, suite.results).enumerated().filter { _, pair in (pair.1 == .skipped) != !unsupported.isDisjoint(with: pair.0) }.map(\.offset)
                #expect(wrong.isEmpty, "\(name) \(suiteName): skipped otherwise than its unsupported features say in cases \(wrong.prefix(5))")
            }
        }
    }

    @Test func openSSL301sFigures() throws {
        let file = try #require(try Self.published().first { $0.name == "openssl_3.0.1" }?.file)
        #expect(file.implementation == "openssl")
        #expect(file.version == "OpenSSL 3.0.1 14 Dec 2021 (Library: OpenSSL 3.0.1 14 Dec 2021)\n")
        #expect(file.date == "2021-12-23T22:02:36.919063856-08:00")
        #expect(file.revision == Self.december2021)
        let nc = try #require(file.suites["nameconstraints"]), pb = try #require(file.suites["pathbuilding"])
        #expect((nc.count(.accepted), nc.count(.rejected), nc.count(.skipped)) == (800, 7_954, 0))
        #expect((pb.count(.accepted), pb.count(.rejected), pb.count(.skipped)) == (8, 12, 61))
        // The sanity check (case 0) is accepted in both suites; BRANCHING (0) is unsupported, so the
        // path-building cases that branch are skipped.
        #expect(nc.results.first == .accepted && pb.results.first == .accepted)
        #expect(pb.unsupportedFeatures == [0])
    }

    // MARK: Inflate against Python's zlib and gzip

    /// `"line <i>: <i*i % 1000>\n"` for i = 0, 1, ..., cut to `count` bytes (as the Python that made
    /// the fixtures writes it).
    static func text(_ count: Int) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while out.count < count {
            out += Array("line \(index): \(index * index % 1000)\n".utf8)
            index += 1
        }
        return Array(out.prefix(count))
    }

    /// Printable pseudo-random bytes: x = (x * 1103515245 + 12345) mod 2^31, byte 32 + (x >> 16) % 95.
    static func lcg(_ count: Int, seed: UInt64) -> [UInt8] {
        var x = seed
        return (0..<count).map { _ in
            x = (x &* 1_103_515_245 &+ 12_345) % (1 << 31)
            return UInt8(32 + (x >> 16) % 95)
        }
    }

    /// Made with Python 3's zlib and gzip (mtime 0; `fixtures` below holds them): the name, the data,
    /// and the type of the first block (nil: the header has flags, so the block is not at byte 10).
    static let expected: [(name: String, data: [UInt8], firstBlock: Int?)] = [
        ("empty", [], 1),
        ("oneByte", Array("A".utf8), 1),
        ("stored", text(300), 0),                  // level 0
        ("fixed", text(1_000), 1),                 // strategy Z_FIXED
        ("dynamic", text(2_000), 2),
        // A back-reference 31,600 bytes back, near the 32 KiB window's end.
        ("farDistance", lcg(600, seed: 7) + [UInt8](repeating: UInt8(ascii: "a"), count: 31_000) + lcg(600, seed: 7), 2),
        ("large", Array([UInt8]("0123456789".utf8).repeated(20_000)), 2),
        // Stored (level 0), fixed and dynamic blocks in one stream (three compressors, sync-flushed).
        ("mixed", text(1_500), 0),
        // FTEXT, FHCRC, FEXTRA, FNAME and FCOMMENT.
        ("headerFlags", text(300), nil),
        // Two members, concatenated.
        ("twoMembers", Array("first member\nsecond member\n".utf8), 1),
    ]

    static func fixture(_ name: String) throws -> [UInt8] {
        let base64 = try #require(fixtures[name])
        return [UInt8](try #require(Data(base64Encoded: base64, options: .ignoreUnknownCharacters)))
    }

    @Test(arguments: expected.map(\.name))
    func inflatesWhatPythonCompressed(name: String) throws {
        let (_, data, firstBlock) = try #require(Self.expected.first { $0.name == name })
        let gzip = try Self.fixture(name)
        if let firstBlock {
            #expect(gzip[3] == 0, "no header flags")
            #expect(Int(gzip[10] >> 1) & 3 == firstBlock)
        }
        #expect(try Inflate.gunzip(gzip, limit: 1 << 20) == data)
        #expect(try Inflate.gunzip(gzip, limit: data.count) == data)
    }

    @Test func theRawStreamEndsWhereTheTrailerBegins() throws {
        let gzip = try Self.fixture("dynamic")
        let (output, end) = try Inflate.inflate(gzip, from: 10, limit: 1 << 20)
        #expect(output == Self.text(2_000))
        #expect(end == gzip.count - 8)
    }

    @Test func crc32MatchesZlibs() {
        #expect(Inflate.crc32([UInt8]()) == 0)
        #expect(Inflate.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(Inflate.crc32(Self.text(2_000)) == 0x7100_5502)
    }

    // MARK: Hostile gzip

    static func gunzipError(_ bytes: [UInt8], limit: Int = 1 << 20) -> Gzip? {
        do throws(Gzip) {
            _ = try Inflate.gunzip(bytes, limit: limit)
            return nil
        } catch {
            return error
        }
    }

    @Test func everyTruncationIsTruncated() throws {
        for name in ["stored", "fixed", "dynamic", "mixed", "headerFlags", "twoMembers"] {
            let gzip = try Self.fixture(name)
            var member = gzip.count
            if name == "twoMembers" { member = 33 }  // a prefix ending after the first member is whole
            for count in 0..<gzip.count where count != member {
                #expect(Self.gunzipError(Array(gzip.prefix(count))) == .truncated, "\(name) cut to \(count)")
            }
        }
    }

    @Test func theTrailerAndHeaderAreChecked() throws {
        var gzip = try Self.fixture("dynamic")
        let count = gzip.count
        var badCRC = gzip
        badCRC[count - 8] ^= 1
        #expect(Self.gunzipError(badCRC) == .crcMismatch(expected: 0x7100_5502 ^ 1, actual: 0x7100_5502))
        var badSize = gzip
        badSize[count - 4] ^= 1
        #expect(Self.gunzipError(badSize) == .sizeMismatch(expected: 2_001, actual: 2_000))
        gzip[0] = 0x1E
        #expect(Self.gunzipError(gzip) == .notGzip(offset: 0))
        var method = try Self.fixture("dynamic")
        method[2] = 7
        #expect(Self.gunzipError(method) == .unsupportedMethod(7))
        var flags = try Self.fixture("dynamic")
        flags[3] = 0x20
        #expect(Self.gunzipError(flags) == .reservedFlags(0x20))
        var headerCRC = try Self.fixture("headerFlags")
        // The header CRC follows the 10 fixed bytes, XLEN and 6 extra bytes, the name and the comment.
        let at = 10 + 2 + 6 + "results.pb\0".utf8.count + "a comment\0".utf8.count
        headerCRC[at] ^= 0xFF
        guard case .headerCRCMismatch = Self.gunzipError(headerCRC) else {
            Issue.record("a changed header CRC is not refused as such")
            return
        }
        #expect(Self.gunzipError(try Self.fixture("oneByte") + [0x00]) == .notGzip(offset: 21))
        #expect(Self.gunzipError(try Self.fixture("oneByte") + [0x1F]) == .truncated)
    }

    @Test func theOutputIsCapped() throws {
        let large = try Self.fixture("large")
        #expect(Self.gunzipError(large, limit: 199_999) == .outputTooLarge(limit: 199_999))
        #expect(Self.gunzipError(large, limit: 0) == .outputTooLarge(limit: 0))
        #expect(Self.gunzipError(try Self.fixture("stored"), limit: 299) == .outputTooLarge(limit: 299))
        #expect(Self.gunzipError(try Self.fixture("twoMembers"), limit: 26) == .outputTooLarge(limit: 26))
        #expect(try Inflate.gunzip(large, limit: 200_000).count == 200_000)
    }

    /// Writes DEFLATE bits: values least significant bit first, Huffman codes most significant first.
    struct BitWriter {
        var bytes: [UInt8] = []
        var bit = 0

        mutating func bits(_ value: Int, _ count: Int) {
            for index in 0..<count {
                if bit == 0 { bytes.append(0) }
                bytes[bytes.count - 1] |= UInt8((value >> index) & 1) << UInt8(bit)
                bit = (bit + 1) % 8
            }
        }

        mutating func code(_ code: Int, _ length: Int) {
            for index in stride(from: length - 1, through: 0, by: -1) { bits((code >> index) & 1, 1) }
        }

        /// A final block's header.
        static func block(_ type: Int) -> BitWriter {
            var writer = BitWriter()
            writer.bits(1, 1)
            writer.bits(type, 2)
            return writer
        }
    }

    static func inflateError(_ writer: BitWriter) -> Gzip? {
        do throws(Gzip) {
            _ = try Inflate.inflate(writer.bytes + [0, 0, 0, 0], limit: 1 << 20)
            return nil
        } catch {
            return error
        }
    }

    @Test func badBlocksAreRefused() {
        #expect(Self.inflateError(.block(3)) == .corrupt("invalid block type"))

        var stored = BitWriter.block(0)
        stored.bits(0, 5)  // to the byte's end
        stored.bytes += [5, 0, 0, 0]  // LEN 5, NLEN 0
        #expect(Self.inflateError(stored) == .corrupt("invalid stored block lengths"))

        // Fixed codes: literal/length symbols 280-287 are 8-bit codes from 0b11000000.
        var literal286 = BitWriter.block(1)
        literal286.code(0b1100_0110, 8)
        #expect(Self.inflateError(literal286) == .corrupt("invalid literal/length code"))

        // "A" (0x30 + 0x41, 8 bits), length 3 (symbol 257, 7 bits), then distance symbol 30 or 1.
        var distance30 = BitWriter.block(1)
        distance30.code(0x71, 8)
        distance30.code(1, 7)
        distance30.code(30, 5)
        #expect(Self.inflateError(distance30) == .corrupt("invalid distance code"))
        var tooFar = BitWriter.block(1)
        tooFar.code(0x71, 8)
        tooFar.code(1, 7)
        tooFar.code(1, 5)  // distance 2
        #expect(Self.inflateError(tooFar) == .corrupt("invalid distance too far back"))
    }

    @Test func badHuffmanCodesAreRefused() {
        // 19 code-length codes, all one bit long: over-subscribed.
        var over = BitWriter.block(2)
        over.bits(0, 5); over.bits(0, 5); over.bits(15, 4)
        for _ in 0..<19 { over.bits(1, 3) }
        #expect(Self.inflateError(over) == .corrupt("invalid code lengths set"))

        // Four code-length codes (16, 17, 18, 0) of which only 16 has a code: incomplete.
        var incomplete = BitWriter.block(2)
        incomplete.bits(0, 5); incomplete.bits(0, 5); incomplete.bits(0, 4)
        for length in [1, 0, 0, 0] { incomplete.bits(length, 3) }
        #expect(Self.inflateError(incomplete) == .corrupt("invalid code lengths set"))

        // Code-length codes 18 (code 1) and 0 (code 0); then 258 zero lengths: no end-of-block code.
        var noEnd = BitWriter.block(2)
        noEnd.bits(0, 5); noEnd.bits(0, 5); noEnd.bits(0, 4)
        for length in [0, 0, 1, 1] { noEnd.bits(length, 3) }
        noEnd.code(1, 1); noEnd.bits(127, 7)  // 138 zeros
        noEnd.code(1, 1); noEnd.bits(109, 7)  // 120 zeros
        #expect(Self.inflateError(noEnd) == .corrupt("invalid code -- missing end-of-block"))

        // The same, but a run past the 258 lengths.
        var overrun = BitWriter.block(2)
        overrun.bits(0, 5); overrun.bits(0, 5); overrun.bits(0, 4)
        for length in [0, 0, 1, 1] { overrun.bits(length, 3) }
        overrun.code(1, 1); overrun.bits(127, 7)
        overrun.code(1, 1); overrun.bits(127, 7)
        #expect(Self.inflateError(overrun) == .corrupt("invalid bit length repeat"))

        // A repeat of the previous length (16) as the first: code-length codes 16 and 0.
        var noPrevious = BitWriter.block(2)
        noPrevious.bits(0, 5); noPrevious.bits(0, 5); noPrevious.bits(0, 4)
        for length in [1, 0, 0, 1] { noPrevious.bits(length, 3) }
        noPrevious.code(1, 1)  // 16 (0 has code 0, 16 code 1)
        #expect(Self.inflateError(noPrevious) == .corrupt("invalid bit length repeat"))

        // HLIT of 287 and 288 literal/length codes are refused (RFC 1951 allows 286).
        var tooMany = BitWriter.block(2)
        tooMany.bits(30, 5); tooMany.bits(0, 5); tooMany.bits(0, 4)
        #expect(Self.inflateError(tooMany) == .corrupt("too many length or distance symbols"))
    }

    /// Changes to a few bytes of any fixture, prefixes of them, and random bytes throw or decode;
    /// they never trap (a fixed seed, so a failure can be replayed).
    @Test func mutatedInputNeverTraps() throws {
        var seed: UInt64 = 0x5EED
        func next() -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: seed >> 33)
        }
        for (name, data, _) in Self.expected {
            let original = try Self.fixture(name)
            // Fewer for the two long outputs (32 KB and 200 KB): each of their mutants decodes up to
            // all of it in a debug build, which was two of this test's three seconds.
            for _ in 0..<(data.count > 10_000 ? 40 : 300) {
                var bytes = original
                for _ in 0...(next() % 3) {
                    bytes[next() % bytes.count] ^= UInt8(truncatingIfNeeded: 1 + next() % 255)
                }
                _ = Self.gunzipError(bytes, limit: 1 << 20)
                _ = Self.gunzipError(Array(bytes.prefix(next() % (bytes.count + 1))), limit: 1 << 20)
            }
        }
        for _ in 0..<2_000 {
            let bytes = (0..<(next() % 64)).map { _ in UInt8(truncatingIfNeeded: next()) }
            _ = try? Inflate.inflate(bytes, limit: 1 << 16)
            _ = try? BetterTLSPublished.SuiteResults(protobuf: bytes, suite: "random")
        }
    }

    // MARK: Protobuf

    static func decode(_ bytes: [UInt8]) throws(BetterTLSPublishedError) -> BetterTLSPublished.SuiteResults {
        try BetterTLSPublished.SuiteResults(protobuf: bytes, suite: "s")
    }

    static func protobufError(_ bytes: [UInt8]) -> BetterTLSPublishedError? {
        do throws(BetterTLSPublishedError) {
            _ = try decode(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func packedAndUnpackedFieldsReadAlike() throws {
        let packed: [UInt8] = [0x0A, 0x02, 0x01, 0x02, 0x12, 0x01, 0x00, 0x1A, 0x03, 0x00, 0x01, 0x02]
        let unpacked: [UInt8] = [0x08, 0x01, 0x08, 0x02, 0x10, 0x00, 0x18, 0x00, 0x18, 0x01, 0x18, 0x02]
        let mixed: [UInt8] = [0x18, 0x00, 0x0A, 0x02, 0x01, 0x02, 0x1A, 0x01, 0x01, 0x10, 0x00, 0x18, 0x02]
        let expected = BetterTLSPublished.SuiteResults(supportedFeatures: [1, 2], unsupportedFeatures: [0], results: [.accepted, .rejected, .skipped])
        #expect(try Self.decode(packed) == expected)
        #expect(try Self.decode(unpacked) == expected)
        #expect(try Self.decode(mixed) == expected)
        #expect(try Self.decode([]) == .init(supportedFeatures: [], unsupportedFeatures: [], results: []))
        // An empty packed field, and -1 (ten bytes, sign-extended).
        #expect(try Self.decode([0x1A, 0x00, 0x08] + [UInt8](repeating: 0xFF, count: 9) + [0x01]).supportedFeatures == [-1])
    }

    @Test func unknownFieldsAreSkipped() throws {
        let bytes: [UInt8] = [
            0x20, 0x96, 0x01,  // field 4, varint
            0x29, 1, 2, 3, 4, 5, 6, 7, 8,  // field 5, fixed64
            0x32, 0x02, 0xAA, 0xBB,  // field 6, length-delimited
            0x3D, 1, 2, 3, 4,  // field 7, fixed32
            0x18, 0x01,
        ]
        #expect(try Self.decode(bytes).results == [.rejected])
    }

    @Test func malformedMessagesAreRefused() {
        func bad(_ problem: Protobuf) -> BetterTLSPublishedError { .badProtobuf(suite: "s", problem) }
        #expect(Self.protobufError([0x18, 0x80]) == bad(.truncatedVarint(offset: 1)))
        #expect(Self.protobufError([0x80]) == bad(.truncatedVarint(offset: 0)))
        // A packed value that runs past its field, though not past the message.
        #expect(Self.protobufError([0x1A, 0x01, 0x80, 0x00]) == bad(.truncatedVarint(offset: 2)))
        #expect(Self.protobufError([0x18] + [UInt8](repeating: 0xFF, count: 10) + [0x01]) == bad(.overlongVarint(offset: 1)))
        #expect(Self.protobufError([0x18] + [UInt8](repeating: 0xFF, count: 9) + [0x02]) == bad(.overlongVarint(offset: 1)))
        #expect(Self.protobufError([0x1A, 0x05, 0x00]) == bad(.truncatedField(offset: 1)))
        #expect(Self.protobufError([0x29, 1, 2, 3]) == bad(.truncatedField(offset: 1)))
        #expect(Self.protobufError([0x1D, 0, 0, 0, 0]) == bad(.wrongWireType(field: 3, wireType: 5, offset: 0)))
        #expect(Self.protobufError([0x18, 0x00, 0x09, 0, 0, 0, 0, 0, 0, 0, 0]) == bad(.wrongWireType(field: 1, wireType: 1, offset: 2)))
        #expect(Self.protobufError([0x23]) == bad(.unsupportedWireType(field: 4, wireType: 3, offset: 0)))
        #expect(Self.protobufError([0x1E]) == bad(.unsupportedWireType(field: 3, wireType: 6, offset: 0)))
        #expect(Self.protobufError([0x00]) == bad(.invalidFieldNumber(offset: 0)))
        #expect(Self.protobufError([0x08, 0x80, 0x80, 0x80, 0x80, 0x08]) == bad(.int32OutOfRange(field: 1, value: 1 << 31, offset: 1)))
    }

    @Test func unknownResultsAreRefused() {
        #expect(Self.protobufError([0x18, 0x03]) == .unknownResult(suite: "s", index: 0, value: 3))
        #expect(Self.protobufError([0x1A, 0x02, 0x00, 0x07]) == .unknownResult(suite: "s", index: 1, value: 7))
        #expect(Self.protobufError([0x18] + [UInt8](repeating: 0xFF, count: 9) + [0x01]) == .unknownResult(suite: "s", index: 0, value: -1))
    }

    // MARK: The file

    /// A gzip member with one stored block (CRC-32 from `Inflate.crc32`, which matches zlib's above).
    static func storedGzip(_ data: [UInt8]) -> [UInt8] {
        precondition(data.count < 0x10000)
        let length = UInt16(data.count)
        func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
            (0..<T.bitWidth / 8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        return [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF, 0x01] + littleEndian(length) + littleEndian(~length) + data
            + littleEndian(Inflate.crc32(data)) + littleEndian(UInt32(data.count))
    }

    static func file(suites: [String: String]) -> Data {
        let object: [String: Any] = ["implementation": "x", "version": "1", "date": "2021-12-23T22:02:36Z", "betterTlsRevision": "r", "suites": suites]
        return try! JSONSerialization.data(withJSONObject: object)
    }

    static func fileError(_ json: Data, limit: Int = BetterTLSPublished.defaultInflatedLimit) -> BetterTLSPublishedError? {
        do throws(BetterTLSPublishedError) {
            _ = try BetterTLSPublished(json: json, inflatedLimit: limit)
            return nil
        } catch {
            return error
        }
    }

    @Test func aFileReadsEverySuite() throws {
        let message: [UInt8] = [0x0A, 0x01, 0x01, 0x12, 0x01, 0x02, 0x1A, 0x02, 0x01, 0x00]
        let file = try BetterTLSPublished(json: Self.file(suites: ["a": Data(Self.storedGzip(message)).base64EncodedString(), "b": Data(Self.storedGzip([])).base64EncodedString()]))
        #expect((file.implementation, file.version, file.date, file.revision) == ("x", "1", "2021-12-23T22:02:36Z", "r"))
        #expect(file.suites["a"] == .init(supportedFeatures: [1], unsupportedFeatures: [2], results: [.rejected, .accepted]))
        #expect(file.suites["b"] == .init(supportedFeatures: [], unsupportedFeatures: [], results: []))
    }

    @Test func aBadFileSaysWhatIsWrong() throws {
        // In the words every JSON file of the project is refused in (FileProblem's).
        #expect(Self.fileError(Data("not json".utf8)) == .badJSON("not valid JSON (invalid value at line 1, column 2)"))
        #expect(Self.fileError(Data(#"{"implementation":"x","version":"1","date":"d","betterTlsRevision":"r"}"#.utf8)) == .badJSON(#"missing key "suites" at the top level"#))
        guard case .badJSON = Self.fileError(Data(#"{"implementation":"x","version":"1","date":"d","betterTlsRevision":"r","suites":{"a":1}}"#.utf8)) else {
            Issue.record("a suite that is not a string is not refused as bad JSON")
            return
        }
        #expect(Self.fileError(Self.file(suites: ["a": "not base64!"])) == .badBase64(suite: "a"))
        #expect(Self.fileError(Self.file(suites: ["a": "H4sI"])) == .badGzip(suite: "a", .truncated))
        var badCRC = Self.storedGzip([0x18, 0x01])
        badCRC[badCRC.count - 8] ^= 0xFF
        guard case .crcMismatch(suite: "a", _, _) = Self.fileError(Self.file(suites: ["a": Data(badCRC).base64EncodedString()])) else {
            Issue.record("a bad CRC is not refused as such")
            return
        }
        let large = Data(try Self.fixture("large")).base64EncodedString()
        #expect(Self.fileError(Self.file(suites: ["a": large]), limit: 1_000) == .badGzip(suite: "a", .outputTooLarge(limit: 1_000)))
        // The limit holds for the file's suites together: two that each fit, but not both, are refused
        // at the second (suites are read in name order).
        let thousand = Data(Self.storedGzip(Array([[UInt8]](repeating: [0x18, 0x00], count: 500).joined()))).base64EncodedString()
        #expect(try BetterTLSPublished(json: Self.file(suites: ["a": thousand]), inflatedLimit: 1_500).suites["a"]?.results.count == 500)
        #expect(Self.fileError(Self.file(suites: ["a": thousand, "b": thousand]), limit: 1_500) == .badGzip(suite: "b", .outputTooLarge(limit: 500)))
        #expect(Self.fileError(Self.file(suites: ["a": Data(Self.storedGzip([0x18, 0x80])).base64EncodedString()])) == .badProtobuf(suite: "a", .truncatedVarint(offset: 1)))
        #expect(Self.fileError(Self.file(suites: ["a": Data(Self.storedGzip([0x18, 0x05])).base64EncodedString()])) == .unknownResult(suite: "a", index: 0, value: 5))
        #expect(BetterTLSPublishedError.crcMismatch(suite: "a", expected: 1, actual: 0xABCD).description == "suite a: gzip CRC-32 mismatch: 0x00000001 given, 0x0000abcd computed")
    }

    static let fixtures: [String: String] = [
        "empty": """
        H4sIAAAAAAACAwMAAAAAAAAAAAA=
        """,
        "oneByte": """
        H4sIAAAAAAACA3MEAIue2dMBAAAA
        """,
        "stored": """
        H4sIAAAAAAAA/wEsAdP+bGluZSAwOiAwCmxpbmUgMTogMQpsaW5lIDI6IDQKbGluZSAzOiA5CmxpbmUgNDogMTYKbGluZSA1OiAy
        NQpsaW5lIDY6IDM2CmxpbmUgNzogNDkKbGluZSA4OiA2NApsaW5lIDk6IDgxCmxpbmUgMTA6IDEwMApsaW5lIDExOiAxMjEKbGlu
        ZSAxMjogMTQ0CmxpbmUgMTM6IDE2OQpsaW5lIDE0OiAxOTYKbGluZSAxNTogMjI1CmxpbmUgMTY6IDI1NgpsaW5lIDE3OiAyODkK
        bGluZSAxODogMzI0CmxpbmUgMTk6IDM2MQpsaW5lIDIwOiA0MDAKbGluZSAyMTogNDQxCmxpbmUgMjI6IDQ4NApsaW5lIDIzOiA1
        MjkKbGluZSAyNDogNTc2UIdyGSwBAAA=
        """,
        "fixed": """
        H4sIAAAAAAAA/8vJzEtVMLBSMODKAbEMrRQMISwjKwUTCMvYSsESwjIByppBmKZWCkamEKaZlYIxVNQcqAmq1sJKwQxqgKWVggXU
        VEOgVYYGMMtAthnBZIAWGppAdRgag2yCmmQIstYSaoMhyGKYzYZmIFfAZICWG1nA9ACtNzaCmWYJciHMX0AXmMBcYAR0gYkJTAbk
        ZQuoHiOgC0yNoKYZAV1gag61xwjoAjOYC4yALjCDywBdYA7XA3SBOdw0UBDA7DEGusAS5gJjoAssYW4zBroA5mhjoANgvjEGhQDM
        n8bIIWAMCgFY2Bibg/wJ02MB8hrMMEuQb6C2mADtN4PZbwK03wwWOyZA+81hsWYCcgAsNk2ALrCExbIJUuSbAB1gCEsUJqAoMIBp
        AUWBAcwwS1CoQ60xBTrAFOYAU5AD4DIgB8D0mIIcADPNFOQAeOJDcoApyAEwl5mCHABzsynIATDfmIIcAPOnGXIImBmCYg0mYwTy
        NFSPGSjlw8LTDOQAqDVmyFFgBkr/sMgxA+UAWLSZgfIALD7NLEFhC7XGHDkJmIMSIUwClAtgqcbcGJSIoYaZA+03gaU0c+Q0aA50
        gDlcBugAS7geC5BvwGwAT0TfbegDAAA=
        """,
        "dynamic": """
        H4sIAAAAAAAA/12UOZLdMAxEc59CRxDEFbqPA1dN+f6h8UpsiHKmGXygHxb2z5+/v4/zPs5fP3zZfdjzdd1Hfb7KffjzVSPan892
        H1d7Pvt9lPXfEUnrt/M++irg9zFXVQspOyWG2qVICFpdGVZQWpUMWV8KhrCUrUOhSIhfUzkhXy5VcwjVVxBUEVxBUKsitDxXzhUE
        7VrVriBoY+lcQdBFcAVBz0gQjMwJgpHVGIF0ShC4CEoQuNhKEAi6BIC6KUxAfZZ9AoUJaDZl0KdyJq2pmNPNUqmh36VfQ79rOzX0
        h7ZWAdA2axC4tly35dcAMB1FZQWnUljBqWLO1JdMC4AmgAZARgBQTgNA1RoAeXwbQANAZA0AMTcA1E0DQH32fQLd2JoiF02vnM7l
        a54dgCXT9xV07l/L6bwAra3zBrTP7sx2yYz9BAZHqACvQFczCke8io3Qr7q0sd/gCICRkQDwzJl0s76d0SyZuT+CGfpNZJMNiHmy
        AXUzeQRLZe4DmAxAo5mDXymFN6BpTodsyfjuA268XEV4hekcBRdZ1TwApjbt2wk4j0C34WxAV+NsQPfkPMIzjWgzvROANwKBkuwE
        QfXshEFSdm4QdkJRMgRGzTQ4epYEJB3xP0s0dp6xQGlpirjiSFfEFj1t8euLGGNNY8QZezoj1uhpjXij9fTg/S4Md+w1YzwNXZPh
        j6Y7Mwyy6ATt45CGRc43Nj55PNG3pu96H5s0fPLlxChr9oBVvv1hlp69f9zSsMuaM8Mv33k+hqk/fF/DxzENy3zXh2darhbTfNeO
        a448id02Dd8seUgY53tkOKfnAWKd73F+vNMwz/ekcc9/AlUAcdAHAAA=
        """,
        "farDistance": """
        H4sIAAAAAAAA/+3dV2KiAABF0a0oCBoVjQqK4sQSW5Si2LEETSxgxxYcYe0zS5if+XtnC3cB1+Yq+kctMabOpHMtXspvbl+dlsV4
        yPYVdCpwzabPeSnc2geZ7423HTLfuwq/XxREL1UL1H/JfNH6OP0wCyXYsTeUqg8LUtJTEuvzcq8nawPdak5tLyNTvk1RzJLRu0F/
        3dPLw21qHImATmZl+2ayuZK+rx1zjBV5Ho4UEedps8Rty2Q84+4ik+YbXZRCvvlBMw9bfbKShMZsqWqB1cEg2b48jUobksmRY71z
        lNKm81voGdPxlXmVlXiKeVuWwmomU1lNv590Rfc6QZVpvOz2xW2QkwTW2dVvIT0qdJsK8eLbsYvl7GaSlHzQnrvX2SM66UkC0Wd5
        5/zMzps9f//zUapqbb8h3Lajacp8sGMi9968bCnrSqWiHSfv0FpcSxoUX6wkYkSVseX1+ny5c9+PcixP7wrJBu9w1nDAKlo/tFj4
        qga7bseEktYY+g8JhvyiBr+7Lqus7U8jUSS5zODN1Wn5i1stf0Rn8sgSwZRFOvmyv3C3q8OMXtXFrkNnTmWBT9YuH4mwZUotce6P
        rq+rhiT5urXRoJWn3yOkJ3ArEKzHO9sH70+VkC2+LfLG6dnipTbNeSKj1D3347rcQjwWN3Q82guv0nbFjbReqM9s4TUY22aOnTZR
        8TwvD7HuDfuDav2klh79rTIcjtzFOXb2MsryHAtN/iYCAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA
        AAAAAAAAAAAAAAAAAAAAAAD4RzZ+2/ht/4ff9h86eQeKyH0AAA==
        """,
        "large": """
        H4sIAAAAAAACA+3GSQEAIAgAsEp4INq/mBUIsL0WY66dp+4LMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMz
        MzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMz
        MzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMz
        MzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMz
        MzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMz
        MzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMza+4DXqXrjUANAwA=
        """,
        "mixed": """
        H4sIAAAAAAAA/wDIADf/bGluZSAwOiAwCmxpbmUgMTogMQpsaW5lIDI6IDQKbGluZSAzOiA5CmxpbmUgNDogMTYKbGluZSA1OiAy
        NQpsaW5lIDY6IDM2CmxpbmUgNzogNDkKbGluZSA4OiA2NApsaW5lIDk6IDgxCmxpbmUgMTA6IDEwMApsaW5lIDExOiAxMjEKbGlu
        ZSAxMjogMTQ0CmxpbmUgMTM6IDE2OQpsaW5lIDE0OiAxOTYKbGluZSAxNTogMjI1CmxpbmUgMTY6IDI1NgpsaW4AAAD//0pVMDS3
        UjCysOTKycxLVTC0sFIwNjKBciyBHDNDCMfIwErBxMAAyjEEckxgMkZAjgVUj5GxlYKpEdQ0IxMgx9wMyjG1UjAzMoVyzIAcuAzQ
        BeZwPUAXmMNNA7rAAmaPMdAFljAXGANdYAlzmzHQBTBHGwMdAPONMdB+Q1OoLcZA+41g9hsD7TeyhMmYg/wJ02MB8hrMMEuQb6C2
        mADtN4PZbwK038wCJgO039wMqscE5AATqGkmQBdYGkPtMQG5AOoAE6ADDA1hEqAoMABrAQAAAP//TZJLbgAxCEP3PUWOEDKET+7T
        RaWq918WqzidxUiJPOAXzOfQOOOZ+vH99fM5NM/QKX+XPU99sy9yhl1lneGs2c8ZMbMvekaK9WWfsXaf7Qx5KHgJyhIAGJsBINrG
        JjwbwArAF5UCCO0aK4C07mYAaBuDPwGsAJ5NxWHDkgKwxWYF4NY2XgBJAC8ApVD+El3i5f+sbublr942vtG5AbwA/CoFkLcm8Jo+
        J0bTNjERR/tH+W+SBRIgcyABviYUv/X5PYDAADiacPzFkvJ3TjMSZG2TBSAEyAJYzCYLQJlaFoAxzyyAYNL5WoEsgMXdSCTArUkk
        wH3KxD61TZmfMXkGwL8CAhbJBAL7yQQDrWS+IGSC4rkSMPSWgcNuS4DwvSLvUYgIMr9aoWwOUOTBCrGnYCE5dpF3IiLFovsX5a3g
        M9wFAAA=
        """,
        "headerFlags": """
        H4sIHwAAAAAA/wYAQUICAGhpcmVzdWx0cy5wYgBhIGNvbW1lbnQAF+81jzEOxTAIQ/d/Co4QCKEJ9+nwpar3H2sEbFYc+5nn/940
        nMbvCcVOnEqcNNV0OqkUrqVcTrJSmtOs1wuh+rudrAqO065WBopHw4Im7QDIWgmeQaomDuwpAge4yWyxoh3AZXcG+CnddmJh34UF
        2gsEC1TbiZN3ZQQLllSbYMG67ANQh3IZLAEAAA==
        """,
        "twoMembers": """
        H4sIAAAAAAACA0vLLCouUchNzU1KLeICAKf0hQoNAAAAH4sIAAAAAAACAytOTc7PS1HITc1NSi3iAgA2GEsODgAAAA==
        """,
    ]
}

private extension Array {
    func repeated(_ count: Int) -> [Element] {
        Array((0..<count).map { _ in self }.joined())
    }
}
