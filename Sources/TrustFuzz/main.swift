// TrustFuzz: a libFuzzer target feeding arbitrary bytes, as the presented chain and the host, to
// every back end and to the SecurityPolicy in every mode.
//
//   swift build -c release --product TrustFuzz -Xswiftc -sanitize=fuzzer,address
//   .build/release/TrustFuzz --make-seeds fuzz-corpus                  # seeds from Vectors/
//   LSAN_OPTIONS=suppressions=$PWD/scripts/lsan.supp \
//     .build/release/TrustFuzz fuzz-corpus -runs=1000000               # or -max_total_time=600
//
// Every input is evaluated by every back end (OpenSSL, GnuTLS, swift-certificates) (so N executions are N per back end) and by the
// policy. The invariants checked: nothing traps; a rejection always says why; a trusted path starts
// with the presented leaf and ends at an anchor; the policy pinned to nothing presented never trusts.
// Built without -sanitize=fuzzer (plain `swift build`), the binary replays the files or folders it
// is given, once each: how a crash file is reproduced and then turned into a bad-input vector.
//
// Input layout:
//   byte 0   flags: bit 0 anchor set (0: the three roots; 1: 18 certificates of the vectors)
//                   bits 1-2 pinning mode (0 none, 1 publicKey, 2 certificate, 3 none)
//                   bit 3 allowInvalidCertificates, bit 4 validatesDomainName, bit 5 no host
//                   bits 6-7 validation time (vectors' time, 1970, 9999-12-31, vectors' time + 10 y)
//   byte 1   host length n, then n bytes of host (UTF-8, decoded lossily)
//   then     [UInt16 big-endian length][that many bytes], repeated, at most 8 certificates;
//            a truncated last record uses what is left.
import CFuzzerDriver
import Foundation
import BuiltInBackends
import TrustCore
import TrustVectors
import TrustPolicy

enum Fixture {
    static let vectors: URL = {
        guard let url = VectorSuite.locate() else { fatalError("TrustFuzz: no Vectors/ folder above \(#filePath)") }
        return url
    }()

    static func der(_ relative: String) -> [UInt8] {
        do {
            return try CertificateFile.read(vectors.appendingPathComponent("certs/\(relative).pem"))[0]
        } catch {
            fatalError("TrustFuzz: \(error)")
        }
    }

    static let keyTypes = ["rsa2048", "p256", "ed25519"]
    static let roots = keyTypes.map { der("\($0)/root") }
    static let allAnchors = keyTypes.flatMap { key in
        ["root", "intermediate", "leaf", "self-signed-leaf", "expired-intermediate", "expired-intermediate-leaf"].map { der("\(key)/\($0)") }
    }
    static let anchorSets = [roots, allAnchors]
    static let pinned = keyTypes.flatMap { [der("\($0)/root"), der("\($0)/intermediate")] }
    /// The default built-in back ends as their libraries answer, without the harness's strict-DER
    /// guard in front: the libraries themselves get the fuzzed bytes.
    static let backends: [any TrustBackend] = BuiltInBackends.registry.entries.filter(\.isDefault).map { $0.make(.default) }
    static let vectorTime: TimeInterval = 1_748_736_000  // 2025-06-01T00:00:00Z, the vectors' time
    static let times = [vectorTime, 0, 253_402_300_799, vectorTime + 10 * 365 * 86_400].map(Date.init(timeIntervalSince1970:))

    /// [anchor set][back end]
    static let evaluators: [[any TrustEvaluator]] = anchorSets.map { anchors in
        backends.map { backend in
            do { return try backend.makeEvaluator(anchors: anchors) } catch { fatalError("TrustFuzz: \(error)") }
        }
    }

    /// [anchor set][mode * 4 + allowInvalid * 2 + validates][back end]
    static let policyEvaluators: [[[SecurityPolicyEvaluator]]] = anchorSets.map { anchors in
        var out: [[SecurityPolicyEvaluator]] = []
        for mode in [PinningMode.none, .publicKey, .certificate] {
            for allowInvalid in [false, true] {
                for validates in [false, true] {
                    do {
                        let policy = try SecurityPolicy(pinningMode: mode, pinnedCertificates: mode == .none ? [] : pinned,
                                                        allowInvalidCertificates: allowInvalid, validatesDomainName: validates)
                        out.append(try backends.map { try policy.evaluator(on: $0, anchors: anchors) })
                    } catch {
                        fatalError("TrustFuzz: \(error)")
                    }
                }
            }
        }
        return out
    }
}

/// Decodes one input (see the layout above).
func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> (flags: UInt8, host: String, chain: [[UInt8]])? {
    guard bytes.count >= 2 else { return nil }
    let flags = bytes[0]
    var offset = 1
    let hostLength = min(Int(bytes[offset]), bytes.count - offset - 1)
    offset += 1
    let host = String(decoding: bytes[offset ..< offset + hostLength], as: UTF8.self)
    offset += hostLength
    var chain: [[UInt8]] = []
    while offset < bytes.count && chain.count < 8 {
        var length = Int(bytes[offset]) << 8
        offset += 1
        if offset < bytes.count { length |= Int(bytes[offset]); offset += 1 }
        let end = min(offset + length, bytes.count)
        chain.append(Array(bytes[offset ..< end]))
        offset = end
    }
    return (flags, host, chain)
}

/// Encodes a seed in the same layout.
func encode(flags: UInt8, host: String?, chain: [[UInt8]]) -> [UInt8] {
    let hostBytes = Array((host ?? "").utf8.prefix(255))
    var out: [UInt8] = [flags | (host == nil ? 0x20 : 0), UInt8(hostBytes.count)] + hostBytes
    for der in chain.prefix(8) where der.count <= 0xFFFF {
        out += [UInt8(der.count >> 8), UInt8(der.count & 0xFF)] + der
    }
    return out
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let (flags, hostText, chain) = decode(UnsafeBufferPointer(start: data, count: size)) else { return 0 }
    let anchorIndex = Int(flags & 1)
    let anchors = Fixture.anchorSets[anchorIndex]
    let domain: String? = flags & 0x20 != 0 ? nil : hostText
    let time = Fixture.times[Int(flags >> 6)]
    let request = EvaluationRequest(chain: chain, host: domain.map(HostIdentity.init), time: time)
    for evaluator in Fixture.evaluators[anchorIndex] {
        let verdict = evaluator.evaluate(request)
        if case .trusted(let path) = verdict {
            precondition(!path.isEmpty && path.first == chain.first, "a trusted path does not start with the presented leaf")
            precondition(anchors.contains(path.last!), "a trusted path does not end at an anchor")
        } else {
            precondition(!verdict.diagnostics.isEmpty && verdict.diagnostics.allSatisfy { !$0.message.isEmpty }, "a rejection without a reason")
        }
    }
    let mode = Int((flags >> 1) & 3) % 3
    let policyIndex = mode * 4 + Int((flags >> 3) & 1) * 2 + Int((flags >> 4) & 1)
    for evaluator in Fixture.policyEvaluators[anchorIndex][policyIndex] {
        let decision = evaluator.evaluate(chain: chain, forDomain: domain, at: time)
        if decision.trusted && evaluator.policy.pinningMode != .none {
            precondition(decision.matchedPin != nil, "a pinned policy trusted without a matched pin")
        }
    }
    return 0
}

/// Writes one seed per chain vector, policy vector and bad-input case (up to 8 certificates).
func makeSeeds(into folder: String) throws {
    let suite = try VectorSuite.load(from: Fixture.vectors)
    let corpus = try BadInputCorpus.load(vectors: Fixture.vectors)
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    var seeds: [[UInt8]] = []
    for vector in suite.vectors {
        let anchorSet: UInt8 = Set(vector.anchors).isSubset(of: Set(Fixture.roots)) ? 0 : 1
        seeds.append(encode(flags: anchorSet | 0x10, host: vector.entry.host, chain: vector.chain))
    }
    for vector in suite.policies {
        let policy = vector.policy
        let mode: UInt8 = policy.pinningMode == .publicKey ? 1 : policy.pinningMode == .certificate ? 2 : 0
        let flags: UInt8 = (Set(vector.anchors).isSubset(of: Set(Fixture.roots)) ? 0 : 1) | mode << 1
            | (policy.allowInvalidCertificates ? 0x08 : 0) | (policy.validatesDomainName ? 0x10 : 0)
        seeds.append(encode(flags: flags, host: vector.domain, chain: vector.chain))
    }
    for testcase in corpus.cases {
        guard let input = try? corpus.input(for: testcase), input.chain.count <= 8 else { continue }
        seeds.append(encode(flags: 0x10, host: testcase.host, chain: input.chain))
    }
    for (index, seed) in seeds.enumerated() {
        guard FileManager.default.createFile(atPath: "\(folder)/seed-\(index)", contents: Data(seed)) else {
            throw FileProblem(file: "\(folder)/seed-\(index)", problem: "cannot be written")
        }
    }
    print("TrustFuzz: wrote \(seeds.count) seeds into \(folder)")
}

if CommandLine.arguments.count == 3 && CommandLine.arguments[1] == "--make-seeds" {
    do {
        try makeSeeds(into: CommandLine.arguments[2])
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("TrustFuzz: \(error)\n".utf8))
        exit(2)
    }
}

_ = Fixture.policyEvaluators  // parse anchors and pins before the first input
let status = trustfuzz_run_libfuzzer(CommandLine.argc, CommandLine.unsafeArgv) { data, size in
    fuzz(data ?? UnsafePointer(bitPattern: 1)!, size)
}
if status != -1 { exit(status) }

// Not linked with libFuzzer: replay the given files and folders once each.
var replayed = 0
for argument in CommandLine.arguments.dropFirst() where !argument.hasPrefix("-") {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
        FileHandle.standardError.write(Data("TrustFuzz: no file \(argument)\n".utf8))
        exit(2)
    }
    let files = isDirectory.boolValue
        ? ((try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []).sorted().map { "\(argument)/\($0)" }
        : [argument]
    for file in files {
        guard let bytes = (try? FileProblem.contents(of: URL(fileURLWithPath: file))).map(Array.init) else { continue }
        _ = bytes.withUnsafeBufferPointer { buffer in fuzz(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, buffer.count) }
        replayed += 1
    }
}
print("TrustFuzz: replayed \(replayed) input(s) without libFuzzer (build with -Xswiftc -sanitize=fuzzer to fuzz)")
