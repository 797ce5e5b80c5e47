import TrustBackendKit
import CFuzzerDriver
import Foundation
import Synchronization
import TrustHarness
import TrustVectors

/// A libFuzzer target over any back ends: arbitrary bytes (see ``FuzzInput`` for the layout), as the
/// presented chain and the host, go to every back end the given packages register, default or not,
/// and to the SecurityPolicy in every mode over each. `TrustFuzz` enters it with the built-in
/// back ends; `scripts/all-backends` generates `all-backends-fuzz`, which enters it with every
/// package under `Backends/` too.
///
/// The invariants checked on every input: nothing traps; a rejection always says why; a trusted
/// path starts with the presented leaf and ends at an anchor; a pinned policy trusts only with a
/// matched pin. Every execution evaluates the input once on each back end, so libFuzzer's
/// `stat::number_of_executed_units` is the number of evaluations per back end; the counts per back
/// end are printed on standard error when the program exits normally (not after a crash).
///
/// Usage (`PROGRAM` is the executable):
///
///     PROGRAM --make-seeds DIR          one seed per chain vector, policy vector and bad-input case
///     PROGRAM DIR [libFuzzer options]   fuzz (built with -sanitize=fuzzer)
///     PROGRAM FILE|DIR ...              replay each input once (built without -sanitize=fuzzer)
public enum TrustFuzzTool {
    /// The session the libFuzzer callback evaluates with: set once, before the driver starts, and
    /// emptied at exit.
    private static let current = Mutex<FuzzSession?>(nil)

    /// Runs the target with every back end of `packages` (in their order) and exits: status 0 after
    /// fuzzing or replaying, libFuzzer's status after a crash, 2 for a file that cannot be read,
    /// two back ends with one name or no vectors folder.
    public static func main(packages: [BackendPackage]) -> Never {
        let arguments = CommandLine.arguments
        if arguments.count == 3 && arguments[1] == "--make-seeds" {
            do {
                let count = try FuzzSeeds.write(into: arguments[2])
                print("\(program): wrote \(count) seeds into \(arguments[2])")
                exit(0)
            } catch {
                FuzzFixture.fail("\(error)")
            }
        }

        start(packages: packages)
        atexit { TrustFuzzTool.finish() }

        let status = trustfuzz_run_libfuzzer(CommandLine.argc, CommandLine.unsafeArgv) { data, size in
            TrustFuzzTool.evaluate(data, size)
            return 0
        }
        if status != -1 { exit(status) }

        // Not linked with libFuzzer: replay the given files and folders once each.
        var replayed = 0
        for argument in arguments.dropFirst() where !argument.hasPrefix("-") {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                FuzzFixture.fail("no file \(argument)")
            }
            let files = isDirectory.boolValue
                ? ((try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []).sorted().map { "\(argument)/\($0)" }
                : [argument]
            for file in files {
                let bytes: [UInt8]
                do {
                    bytes = Array(try FileProblem.contents(of: URL(fileURLWithPath: file)))
                } catch {
                    FuzzFixture.fail("\(error)")
                }
                bytes.withUnsafeBufferPointer { evaluate($0.baseAddress, $0.count) }
                replayed += 1
            }
        }
        print("\(program): replayed \(replayed) input(s) without libFuzzer (build with -Xswiftc -sanitize=fuzzer to fuzz)")
        exit(0)
    }

    /// Makes the session (every back end of `packages` and its evaluators) and keeps it in
    /// ``current``, the only reference to it, so that ``finish()`` can release it.
    private static func start(packages: [BackendPackage]) {
        let registry: BackendRegistry
        do {
            registry = try BackendPackage.registry(of: packages)
        } catch {
            FuzzFixture.fail("\(error)")
        }
        let session = withLeakChecksOff { FuzzSession(entries: registry.entries) }
        FileHandle.standardError.write(Data("\(program): every input on \(session.names.count) back ends: \(session.names.joined(separator: ", "))\n".utf8))
        current.withLock { $0 = session }
    }

    /// Runs `body` with LeakSanitizer ignoring what the calling thread allocates (when the binary
    /// has LeakSanitizer): the session lives until exit, and much of it is reachable only through
    /// pointers the Swift runtime tags, which LeakSanitizer cannot follow, so libFuzzer's leak check
    /// after an input would report all of it as that input's leak.
    private static func withLeakChecksOff<T>(_ body: () -> T) -> T {
        typealias Switch = @convention(c) () -> Void
        guard let off = dlsym(nil, "__lsan_disable"), let on = dlsym(nil, "__lsan_enable") else { return body() }
        unsafeBitCast(off, to: Switch.self)()
        defer { unsafeBitCast(on, to: Switch.self)() }
        return body()
    }

    static func evaluate(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        guard let session = current.withLock({ $0 }) else { return }
        session.evaluate(FuzzInput(decoding: UnsafeBufferPointer(start: size > 0 ? data : nil, count: size)))
    }

    /// At exit: prints the counts, then releases the session, so that LeakSanitizer's check, which
    /// runs after this handler, finds the session's memory freed rather than unreachable (the Swift
    /// runtime keeps parsed anchors behind pointers LeakSanitizer cannot follow), and what it
    /// reports is what the inputs left behind.
    private static func finish() {
        guard let counts = current.withLock({ session in
            defer { session = nil }
            return session?.snapshot
        }) else { return }
        FileHandle.standardError.write(Data(counts.lines.map { "\(program): \($0)\n" }.joined().utf8))
    }

    private static var program: String { FuzzFixture.program }
}

/// libFuzzer's entry point by name. A binary linked with -sanitize=fuzzer carries libFuzzer's own
/// `main`, unused here (``TrustFuzzTool/main(packages:)`` starts the driver), which refers to this
/// symbol, so it must exist to link; it evaluates the input as the driver's callback does.
@_cdecl("LLVMFuzzerTestOneInput")
public func trustFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    TrustFuzzTool.evaluate(data, size)
    return 0
}
