import Foundation
import TrustBackendKit
internal import CNSSBridge

/// NSS keeps its certificates in one process-wide store and libpkix caches in process-wide tables:
/// every certificate imported as a temporary certificate is a path-building candidate for every
/// other verification while it lives (CERT_CreateSubjectCertList through libpkix's PK11 cert store,
/// lib/libpkix/pkix_pl_nss/module/pkix_pl_pk11certstore.c), and libpkix's caches keep it alive after
/// the request released it (the subject cache `cachedCertTable` and the chain cache
/// `cachedCertChainTable`, lib/libpkix/pkix/util/pkix_tools.c, valid for six minutes of real time
/// against any earlier validation time); a certificate with the issuer and serial of a live one
/// cannot be imported (SEC_ERROR_REUSED_ISSUER_AND_SERIAL, CERT_NewTempCertificate); libpkix reuses
/// a chain it built for the same leaf and anchors (pkix_Build_CheckInCache,
/// lib/libpkix/pkix/top/pkix_build.c) even when the request presents other intermediates; and a warm
/// subject cache skips a lookup, so the verify log of a failed validation differs from a fresh
/// process's. Left alone, a verdict would depend on which requests ran before and beside it.
///
/// NSS_Shutdown empties all of it, but cannot be repeated for long in one process: each shutdown
/// re-arms the PR_CallOnce of NSS's own error stack (nss_DestroyErrorStack, lib/base/error.c) and the
/// next use takes a new NSPR thread-private slot (PR_NewThreadPrivateIndex), of which a process has
/// 128 and never gets one back (pr/src/threads/prtpd.c). After about a hundred resets NSS has no
/// error stack, and failures that report through it name PR_CALL_ONCE_ERROR instead of their error.
///
/// So a request runs where every certificate it could meet in NSS is its own: in the program's own
/// NSS while it fits there (requests side by side, no exchange with another process), else in one of
/// the worker processes (`cnss_worker.h`: this program's executable started again, served by a
/// constructor of the bridge before main), one request at a time in each. The program's own NSS is
/// reset at most ``NSSWorkers/homeResets`` times, only when nothing runs in it; a request that does
/// not fit it then goes to a worker. NSS finds a certificate only by its names: candidates by subject (the PK11 cert store
/// supports no other query), duplicates by issuer and serial number or by the whole DER
/// (CERT_NewTempCertificate), and every libpkix cache is keyed by certificates or subjects. A worker
/// is fit for a request when
///
/// - the request's issuer and subject names meet nothing that NSS was given since it last started
///   afresh: the request is fresh there;
/// - or everything they meet was left by earlier copies of the very same request (the same anchors,
///   chain, time and purpose; the host is checked on the leaf alone), which validated a path. Such a
///   copy meets only its own certificates and a chain cache holding the path NSS built for it, the
///   path a fresh process builds;
/// - otherwise that NSS is shut down and initialised again (a worker does so at most
///   ``NSSWorkers/resetsPerWorker`` times, well inside NSPR's slots, and is then replaced by a new
///   process), or another worker is started, up to one per processor.
///
/// A verdict is therefore the one a fresh process gives, while an application's pattern (the same
/// chain again and again, or different sites on several threads) costs what NSS costs (an exchange
/// with a worker costs about 30 µs, a third of a verification, which is why the program's own NSS
/// comes first); a crash in NSS in a worker fails one request closed instead of ending the program. `bench` measures it against NSS's
/// own loop, and the conformance suites with `--repeat` check that the verdicts do not move.
final class NSSWorkers: @unchecked Sendable {  // every field is guarded by `condition`
    static let shared = NSSWorkers()

    /// A request as NSS sees it: what its verdict depends on besides the host, which
    /// CERT_VerifyCertName checks on the leaf alone.
    struct RequestKey: Hashable {
        let anchors: [[UInt8]]
        let chain: [[UInt8]]
        let time: Int64
        let anyPurpose: Bool
        /// The CRLs given to NSS's CRL cache for the request, and the revocation policy
        /// (`CNSS_REVOCATION_*`).
        var revocationLists: [[UInt8]] = []
        var revocation: Int32 = 0
    }

    /// Shutdowns a worker's NSS may go through before the worker is replaced: a quarter of NSPR's
    /// 128 thread-private slots, which NSPR and NSS partly use themselves at start.
    static let resetsPerWorker = 32

    /// Workers at most: one per processor (requests beyond that wait for one).
    let maximumWorkers = max(2, ProcessInfo.processInfo.activeProcessorCount)

    /// NSS_Shutdowns the program's own NSS may go through (the rest of NSPR's slots stay unused).
    static let homeResets = 32

    /// Whether requests may run in the program's own NSS (tests turn it off to reach the workers).
    var homeEnabled: Bool {
        get { condition.lock(); defer { condition.unlock() }; return homeAllowed }
        set { condition.lock(); homeAllowed = newValue; condition.unlock() }
    }

    private let condition = NSCondition()
    private var idle: [Worker] = []
    private var lent = 0
    /// The program's own NSS, used while a request fits it: requests in it run side by side, with no
    /// exchange with another process.
    private let home = Worker.inProcess()
    private var homeInFlight = 0
    private var homeAllowed = true
    /// Why the program's own NSS cannot be used (it failed to initialise or reset): workers only.
    private var homeBroken = false
    /// Why no worker can be started: every request fails closed with it.
    private var broken: String?

    /// Kills every idle worker's process (SIGKILL) while no request can be lent one, and returns
    /// once each has ended (a zombie or gone), so that a request lent one afterwards finds it ended
    /// before the request and is given another: what a worker that dies between requests looks like
    /// (tests). Listing the idle workers and killing them outside the lock let a request running
    /// beside the test be lent one in between and fail with it (seen under AddressSanitizer and
    /// load, issue 47).
    func killIdleWorkers() -> [Int32] {
        condition.lock()
        defer { condition.unlock() }
        let killed = idle.compactMap(\.processID)
        for pid in killed { kill(pid, SIGKILL) }
        for pid in killed {
            for _ in 0..<500 {
                let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: ")").last?.split(separator: " ").first
                if state == nil || state == "Z" || state == "X" { break }
                usleep(2_000)
            }
        }
        return killed
    }

    /// The process ids of the idle workers (for tests).
    var idleProcessIDs: [Int32] {
        condition.lock()
        defer { condition.unlock() }
        return idle.compactMap(\.processID)
    }

    /// Runs `body` with a worker fit for a request with `names` (the issuer and subject DER of its
    /// anchors and chain, and the issuer names of its CRLs) and `key`; `body` returns its result and
    /// whether path validation succeeded. Returns why NSS cannot be used instead, when no worker can
    /// be had or the worker failed (it is then replaced).
    ///
    /// A request with CRLs runs in a worker process, never in the program's own NSS: the CRLs go
    /// into NSS's process-wide CRL cache for the request (CERT_CacheCRL, then CERT_UncacheCRL), where
    /// the program's own NSS runs requests side by side, and a worker runs one at a time. Its CRLs
    /// are part of its key and their issuers among its names, so what the cache keeps of them per
    /// issuer name after CERT_UncacheCRL (the issuer's cache, lib/certdb/crl.c) is met only by
    /// copies of the same request, or after a reset.
    func run<T>(names: [Name], key: RequestKey, _ body: (Worker) -> Result<(T, validated: Bool), NSSUnavailable>) -> Result<T, NSSUnavailable> {
        // A worker that had ended before the request reached it (killed between requests) is
        // replaced and the request asked again, once per worker that could have ended so (every idle
        // one may have been killed at once); one that ended with the request fails it.
        if key.revocationLists.isEmpty, let outcome = runAtHome(names: names, key: key, body) { return outcome }
        var attempts = 0
        while true {
            attempts += 1
            let worker: Worker
            switch lend({ $0.admits(names: names, key: key) }) {
            case .failure(let failure): return .failure(failure)
            case .success(let lentWorker): worker = lentWorker
            }
            if !worker.admits(names: names, key: key), case .failure(let failure) = worker.reset() {
                give(back: worker, healthy: false)
                if failure.endedBeforeRequest && attempts <= maximumWorkers { continue }
                return .failure(failure)
            }
            worker.enter(names: names, key: key)
            switch body(worker) {
            case .success(let (result, validated)):
                worker.leave(key: key, validated: validated)
                give(back: worker, healthy: true)
                return .success(result)
            case .failure(let failure):
                give(back: worker, healthy: false)
                if failure.endedBeforeRequest && attempts <= maximumWorkers { continue }
                return .failure(failure)
            }
        }
    }

    /// Runs `body` in the program's own NSS when the request fits it (resetting it first when
    /// nothing runs there, resets remain and `resetting`), or nil when it goes elsewhere.
    ///
    /// Without `resetting`, only an NSS that admits the request as it is: fresh for it, or holding
    /// only earlier copies of the very same request, which validated a path. `bench`'s raw loop asks
    /// so (``NSSBaselineLoop``): it then meets the NSS the back end met for the same request, in the
    /// same process, and uses up none of the resets.
    func runAtHome<T>(names: [Name], key: RequestKey, resetting: Bool = true, _ body: (Worker) -> Result<(T, validated: Bool), NSSUnavailable>) -> Result<T, NSSUnavailable>? {
        condition.lock()
        guard homeAllowed, !homeBroken else { condition.unlock(); return nil }
        if !home.admits(names: names, key: key) {
            guard resetting, homeInFlight == 0, home.resetCount < Self.homeResets else {
                condition.unlock()
                return nil
            }
            if case .failure = home.reset() { homeBroken = true }
            guard !homeBroken, home.admits(names: names, key: key) else {
                condition.unlock()
                return nil
            }
        }
        home.enter(names: names, key: key)
        homeInFlight += 1
        condition.unlock()
        let outcome = body(home)
        condition.lock()
        if case .success(let (_, validated)) = outcome { home.leave(key: key, validated: validated) }
        homeInFlight -= 1
        condition.broadcast()
        condition.unlock()
        return outcome.map(\.0)
    }

    /// A certificate's name as NSS finds certificates by it: its DER, hashed once, over all its bytes
    /// at once, when the request is read, outside the lock. (Hashing an `ArraySlice<UInt8>` combines
    /// it byte by byte: the bookkeeping under the lock cost about 36,000 instructions per evaluation,
    /// 4% of NSS's own, all of it serialised between threads; `bench --instructions`, issue 47.)
    struct Name: Hashable {
        let der: ArraySlice<UInt8>
        private let hash: Int

        init(_ der: ArraySlice<UInt8>) {
            self.der = der
            var hasher = Hasher()
            der.withUnsafeBytes { hasher.combine(bytes: $0) }
            hash = hasher.finalize()
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }

        static func == (left: Name, right: Name) -> Bool { left.hash == right.hash && left.der == right.der }
    }

    /// What NSS could find a request's certificates by: the issuer and subject names of `anchors`
    /// and `chain`, in order; nil when a certificate's names cannot be read.
    static func names(anchors: [[UInt8]], chain: [[UInt8]]) -> [Name]? {
        var names: [Name] = []
        names.reserveCapacity(2 * (anchors.count + chain.count))
        for certificates in [anchors, chain] {
            for der in certificates {
                guard let pair = DERCertificate.names(der) else { return nil }
                names.append(Name(pair.issuer))
                names.append(Name(pair.subject))
            }
        }
        return names
    }

    /// The names NSS's CRL cache files `crls` under: each CRL's issuer (the cache of that issuer
    /// name, AcquireDPCache in lib/certdb/crl.c), and, for one whose issuer cannot be read here
    /// (NSS will most likely refuse it too), its whole DER, which meets no other request's names;
    /// `unread` says whether there was such a CRL (its worker is then reset before another request).
    static func names(revocationLists crls: [[UInt8]]) -> (names: [Name], unread: Bool) {
        var names: [Name] = []
        var unread = false
        for der in crls {
            if let issuer = DERRevocationList.issuer(der) {
                names.append(Name(issuer))
            } else {
                names.append(Name(der[...]))
                unread = true
            }
        }
        return (names, unread)
    }

    /// Runs `body` with a worker, for a request that touches no store (decoding a certificate).
    func runStoreless<T>(_ body: (Worker) -> Result<T, NSSUnavailable>) -> Result<T, NSSUnavailable> {
        condition.lock()
        if homeAllowed && !homeBroken && !home.isInitialised && homeInFlight == 0, case .failure = home.reset() {
            homeBroken = true
        }
        if homeAllowed && !homeBroken && home.isInitialised {
            homeInFlight += 1
            condition.unlock()
            let outcome = body(home)
            condition.lock()
            homeInFlight -= 1
            condition.broadcast()
            condition.unlock()
            return outcome
        }
        condition.unlock()
        return retryingEndedWorkers {
            switch lend({ _ in true }) {
            case .failure(let failure): return .failure(failure)
            case .success(let worker):
                let outcome = body(worker)
                give(back: worker, healthy: outcome.failure == nil)
                return outcome
            }
        }
    }

    /// `attempt`'s outcome, asked again while it failed because the worker had ended before the
    /// request reached it (killed between requests), once per worker that could have ended so:
    /// every idle one may have been killed at once.
    private func retryingEndedWorkers<T>(_ attempt: () -> Result<T, NSSUnavailable>) -> Result<T, NSSUnavailable> {
        var outcome = attempt()
        var attempts = 1
        while case .failure(let failure) = outcome, failure.endedBeforeRequest, attempts <= maximumWorkers {
            attempts += 1
            outcome = attempt()
        }
        return outcome
    }

    /// Runs `body` (which imports certificates no name records: a bare loop) in a worker whose NSS
    /// is fresh; the worker resets before its next request.
    func runAlone<T>(_ body: (Worker) -> Result<T, NSSUnavailable>) -> Result<T, NSSUnavailable> {
        retryingEndedWorkers {
            switch lend({ $0.isFresh }) {
            case .failure(let failure): return .failure(failure)
            case .success(let worker):
                var outcome: Result<T, NSSUnavailable>
                if !worker.isFresh, case .failure(let failure) = worker.reset() {
                    outcome = .failure(failure)
                } else {
                    worker.enterUnrecorded()
                    outcome = body(worker)
                }
                give(back: worker, healthy: outcome.failure == nil)
                return outcome
            }
        }
    }

    /// An idle worker that `fits`, else a new one while there are fewer than one per processor,
    /// else any idle worker (the caller resets it), else waits for one.
    private func lend(_ fits: (Worker) -> Bool) -> Result<Worker, NSSUnavailable> {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let broken { return .failure(NSSUnavailable(message: broken)) }
            if let index = idle.lastIndex(where: fits) {
                lent += 1
                return .success(idle.remove(at: index))
            }
            if idle.count + lent < maximumWorkers {
                lent += 1
                condition.unlock()
                let started = Worker.start()
                condition.lock()
                switch started {
                case .success(let worker): return .success(worker)
                case .failure(let failure):
                    lent -= 1
                    broken = failure.message
                    condition.broadcast()
                    return .failure(failure)
                }
            }
            if !idle.isEmpty {
                lent += 1
                // The worker that has gone longest without a request.
                return .success(idle.removeFirst())
            }
            condition.wait()
        }
    }

    /// Returns a worker to the pool; one that failed is stopped (a new one is started when needed).
    private func give(back worker: Worker, healthy: Bool) {
        if !healthy { worker.stop() }
        condition.lock()
        lent -= 1
        if healthy { idle.append(worker) }
        condition.broadcast()
        condition.unlock()
    }

    /// One worker process and what its NSS holds. Used by one request at a time (the pool lends it).
    final class Worker {
        private var handle: OpaquePointer?
        /// The names (issuer and subject DER) of every certificate the worker's NSS was given since it
        /// last started afresh, with the request that gave them.
        private var residents: [Name: Resident] = [:]
        /// Whether NSS holds what no name records (a bare loop ran).
        private var unrecorded = false
        private var resets = 0

        private final class Resident {
            let key: RequestKey
            /// Whether a copy validated a path and none failed: later copies may share what it left.
            var proven = false
            var failed = false
            init(key: RequestKey) { self.key = key }
        }

        /// Whether this is the program's own NSS rather than a worker process.
        let isInProcess: Bool
        private(set) var isInitialised = false

        private init(handle: OpaquePointer?, inProcess: Bool = false) {
            self.handle = handle
            self.isInProcess = inProcess
            self.isInitialised = handle != nil
        }

        /// The program's own NSS, initialised on first use.
        static func inProcess() -> Worker { Worker(handle: nil, inProcess: true) }

        var resetCount: Int { resets }

        static func start() -> Result<Worker, NSSUnavailable> {
            var message = [CChar](repeating: 0, count: 512)
            var initError: Int32 = 0
            let names = ErrorNames()
            let handle = withUnsafeMutablePointer(to: &initError) { errorPointer in
                cnss_worker_start(ErrorNames.sink, Unmanaged.passUnretained(names).toOpaque(), errorPointer, &message, message.count)
            }
            guard let handle else {
                let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                return .failure(NSSUnavailable(message: "no NSS worker process could be started: \(text)"))
            }
            guard initError == 0 else {
                cnss_worker_stop(handle)
                return .failure(NSSUnavailable(message: "NSS could not be initialised in a worker process (\(names.error(initError)))"))
            }
            return .success(Worker(handle: handle))
        }

        var isFresh: Bool { residents.isEmpty && !unrecorded }

        /// The worker's process id (for tests), or nil once it ended.
        var processID: Int32? { handle.map { cnss_worker_pid($0) }.flatMap { $0 > 0 ? $0 : nil } }

        /// Whether every certificate a request with `names` and `key` could meet in this worker's NSS
        /// is its own (see ``NSSWorkers``).
        func admits(names: [Name], key: RequestKey) -> Bool {
            if unrecorded || (isInProcess && !isInitialised) { return false }
            var met: Resident?
            for name in names {
                guard let resident = residents[name] else { continue }
                if let previous = met, previous !== resident { return false }
                met = resident
            }
            guard let met else { return true }
            return met.key == key && met.proven && !met.failed
        }

        func enter(names: [Name], key: RequestKey) {
            var resident: Resident?
            for name in names where residents[name] == nil {
                if resident == nil { resident = names.lazy.compactMap { self.residents[$0] }.first ?? Resident(key: key) }
                residents[name] = resident
            }
        }

        func enterUnrecorded() { unrecorded = true }

        func leave(key: RequestKey, validated: Bool) {
            for resident in residents.values where resident.key == key {
                if validated { resident.proven = !resident.failed } else { resident.failed = true; resident.proven = false }
            }
        }

        /// Shuts the worker's NSS down and initialises it again, or (past ``NSSWorkers/resetsPerWorker``)
        /// replaces the worker's process with a new one.
        func reset() -> Result<Void, NSSUnavailable> {
            if isInProcess {
                let error = isInitialised ? cnss_reset() : cnss_initialize()
                guard error == 0 else {
                    return .failure(NSSUnavailable(message: "NSS could not be \(isInitialised ? "reset" : "initialised") in this process (\(ErrorNames.lookUp(error)))"))
                }
                if isInitialised { resets += 1 }
                isInitialised = true
            } else if resets >= NSSWorkers.resetsPerWorker {
                if let handle { cnss_worker_stop(handle) }
                handle = nil
                switch Worker.start() {
                case .failure(let failure): return .failure(failure)
                case .success(let fresh):
                    handle = fresh.handle
                    fresh.handle = nil
                }
                resets = 0
            } else {
                guard let handle else { return .failure(NSSUnavailable(message: "the NSS worker process was stopped")) }
                var error: Int32 = 0
                let names = ErrorNames()
                let status = cnss_worker_reset(handle, &error, ErrorNames.sink, Unmanaged.passUnretained(names).toOpaque())
                guard status == 0 else { return .failure(failure(status: status)) }
                guard error == 0 else {
                    return .failure(NSSUnavailable(message: "NSS could not be reset in its worker process (\(names.error(error))), so no NSS verification can be isolated from the others"))
                }
                resets += 1
            }
            residents.removeAll(keepingCapacity: true)
            unrecorded = false
            return .success(())
        }

        /// `cnss_verify` here or in the worker process: the outcome, the validated path and the
        /// names of the errors it reports.
        func verify(anchors: [[UInt8]], chain: [[UInt8]], revocationLists: [[UInt8]] = [], revocation: Int32 = 0, host: String?, time: Int64, anyPurpose: Bool) -> Result<(cnss_outcome, [[UInt8]], ErrorNames), NSSUnavailable> {
            final class PathSink { var certificates: [[UInt8]] = [] }
            let sink = PathSink()
            let errors = ErrorNames()
            var outcome = cnss_outcome()
            let collect: cnss_path_sink = { context, der, length in
                guard let context, let der else { return }
                Unmanaged<PathSink>.fromOpaque(context).takeUnretainedValue().certificates.append(Array(UnsafeBufferPointer(start: der, count: length)))
            }
            let status: Int32 = withCBufferArrays(anchors) { anchorPointers, anchorLengths in
                withCBufferArrays(chain) { chainPointers, chainLengths in
                    withCBufferArrays(revocationLists) { crlPointers, crlLengths in
                        withUnsafeMutablePointer(to: &outcome) { outcomePointer in
                            withOptionalCString(host) { hostPointer in
                                let context = Unmanaged.passUnretained(sink).toOpaque()
                                if isInProcess {
                                    cnss_verify(anchorPointers, anchorLengths, anchors.count, chainPointers, chainLengths, chain.count, crlPointers, crlLengths, revocationLists.count, revocation, hostPointer, time, anyPurpose ? 1 : 0, outcomePointer, collect, context)
                                    return 0
                                }
                                guard let handle else { return -1 }
                                return cnss_worker_verify(handle, anchorPointers, anchorLengths, anchors.count, chainPointers, chainLengths, chain.count, crlPointers, crlLengths, revocationLists.count, revocation, hostPointer, time, anyPurpose ? 1 : 0, outcomePointer, collect, context, ErrorNames.sink, Unmanaged.passUnretained(errors).toOpaque())
                            }
                        }
                    }
                }
            }
            withExtendedLifetime((sink, errors)) {}
            guard status == 0 else { return .failure(failure(status: status)) }
            if isInProcess {
                errors.lookUp(outcome.error)
                withUnsafeBytes(of: outcome.log_errors) { codes in
                    for code in codes.bindMemory(to: Int32.self).prefix(Int(outcome.log_count)) { errors.lookUp(code) }
                }
            }
            return .success((outcome, sink.certificates, errors))
        }

        /// `cnss_decode` here or in the worker process: nil when NSS reads `der`, else its error.
        func decode(_ der: [UInt8]) -> Result<NSSError?, NSSUnavailable> {
            var error: Int32 = 0
            let names = ErrorNames()
            let status: Int32 = der.withUnsafeBufferPointer { buffer in
                if isInProcess {
                    error = cnss_decode(buffer.baseAddress, buffer.count)
                    return 0
                }
                guard let handle else { return -1 }
                return cnss_worker_decode(handle, buffer.baseAddress, buffer.count, &error, ErrorNames.sink, Unmanaged.passUnretained(names).toOpaque())
            }
            guard status == 0 else { return .failure(failure(status: status)) }
            guard error != 0 else { return .success(nil) }
            if isInProcess { names.lookUp(error) }
            return .success(names.error(error))
        }

        /// `cnss_loop` in the worker process (a bare loop never runs in the program's own NSS).
        func loop(anchors: [[UInt8]], chain: [[UInt8]], host: String?, time: Int64, iterations: UInt64) -> Result<UInt64, NSSUnavailable> {
            var nanoseconds: UInt64 = 0
            let status: Int32 = withCBufferArrays(anchors) { anchorPointers, anchorLengths in
                withCBufferArrays(chain) { chainPointers, chainLengths in
                    withOptionalCString(host) { hostPointer in
                        guard let handle, !isInProcess else { return -1 }
                        return cnss_worker_loop(handle, anchorPointers, anchorLengths, anchors.count, chainPointers, chainLengths, chain.count, hostPointer, time, iterations, &nanoseconds)
                    }
                }
            }
            return status == 0 ? .success(nanoseconds) : .failure(failure(status: status))
        }

        /// Why a call that answered `status` (-1 or -2) failed.
        private func failure(status: Int32) -> NSSUnavailable {
            guard let handle else { return NSSUnavailable(message: "the NSS worker process was stopped; not evaluated, so not trusted") }
            return NSSUnavailable(message: String(cString: cnss_worker_failure(handle)) + "; not evaluated, so not trusted", workerEnded: status == -1, endedBeforeRequest: status == -2)
        }

        func stop() {
            if let handle { cnss_worker_stop(handle) }
            handle = nil
        }

        deinit { stop() }
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}

/// NSS could not be used for a request: no worker, or the worker failed.
struct NSSUnavailable: Error {
    let message: String
    /// Whether a worker process ended while it had the request (a crash in NSS or a kill).
    var workerEnded = false
    /// Whether the worker had ended before the request reached it.
    var endedBeforeRequest = false
}

/// The names and texts of the error codes a worker reported, as its NSS gives them.
final class ErrorNames {
    private var entries: [Int32: (name: String, text: String)] = [:]

    static let sink: cnss_error_sink = { context, code, name, nameLength, text, textLength in
        guard let context else { return }
        let names = Unmanaged<ErrorNames>.fromOpaque(context).takeUnretainedValue()
        let decode = { (pointer: UnsafePointer<CChar>?, length: Int) -> String in
            guard let pointer, length > 0 else { return "" }
            return pointer.withMemoryRebound(to: UInt8.self, capacity: length) { String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self) }
        }
        names.entries[code] = (decode(name, nameLength), decode(text, textLength))
    }

    /// Records the name and text this process's NSS gives `code` (the program's own NSS).
    func lookUp(_ code: Int32) {
        guard entries[code] == nil else { return }
        entries[code] = (cnss_error_name(code).map { String(cString: $0) } ?? "", cnss_error_text(code).map { String(cString: $0) } ?? "")
    }

    /// The error `code` named in this process (for errors of NSS's initialisation here).
    static func lookUp(_ code: Int32) -> NSSError {
        let names = ErrorNames()
        names.lookUp(code)
        return names.error(code)
    }

    /// The error `code` with the name and text the worker gave (empty when no NSS table knows it).
    func error(_ code: Int32) -> NSSError {
        let entry = entries[code]
        return NSSError(code: code, name: entry.flatMap { $0.name.isEmpty ? nil : $0.name }, text: entry.flatMap { $0.text.isEmpty ? nil : $0.text })
    }
}

/// An NSPR/NSS error code with its name and text (looked up by the worker's NSS, `cnss_error_text`).
struct NSSError: CustomStringConvertible {
    let code: Int32
    let name: String
    let text: String

    init(code: Int32, name: String?, text: String?) {
        self.code = code
        self.name = name ?? "NSS_ERROR_\(code)"
        self.text = text ?? "NSS error \(code), which no NSS or NSPR error table names"
    }

    var description: String { "\(name): \(text)" }
}

/// `body` with `text` as a C string, or with NULL.
func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}
