internal import CGnuTLS
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Gives each evaluation its own verification time although GnuTLS has only a process-wide clock.
///
/// GnuTLS reads the time solely through the function set with `gnutls_global_set_time_function`. A
/// hook is installed once per process (lazily and thread-safely, through a Swift global's one-time
/// initialisation) that looks up a thread-specific ``State``: ``run(at:_:)`` points the slot
/// at a state on its caller's stack, runs the synchronous GnuTLS calls on that same thread and then
/// restores the slot. Concurrent evaluations on other threads each see their own state, so nothing is
/// serialised, and a thread with no state set (any other GnuTLS user) gets the real time.
enum EvaluationScope {
    /// What GnuTLS's C callbacks see of the evaluation running on the current thread.
    struct State {
        /// The request's time, returned by the time hook to every GnuTLS clock read on this thread.
        var unixTime: time_t
        /// What the verification callback reported on this thread (``verifyCallback``).
        var log = VerificationLog()
    }

    /// Runs `body` with the GnuTLS clock of this thread reading `unixTime`, lending it the state the
    /// callbacks write. The state pointer must not escape `body`, and `body` must not suspend. Scopes
    /// nest: the enclosing one is in effect again when `body` returns or throws.
    /// - Returns: `nil`, without running `body`, when the per-thread slot or the hook is unavailable.
    static func run<Result>(at unixTime: time_t, _ body: (UnsafeMutablePointer<State>) throws -> Result) rethrows -> Result? {
        guard let key = installation else { return nil }
        var state = State(unixTime: unixTime)
        return try withUnsafeMutablePointer(to: &state) { pointer -> Result? in
            let previous = pthread_getspecific(key)
            guard pthread_setspecific(key, pointer) == 0 else { return nil }
            defer { pthread_setspecific(key, previous) }
            return try body(pointer)
        }
    }

    /// Whether the hook is installed (installing it on first use) and evaluations can set their time.
    static var isAvailable: Bool {
        installation != nil
    }

    /// The verification callback (`gnutls_verify_output_function`): records each certificate GnuTLS
    /// checks, its issuer and the status in the state's ``State/log``. Calls about a CRL are not
    /// certificate checks and are ignored (the back end passes no CRLs).
    static let verifyCallback: @convention(c) (gnutls_x509_crt_t?, gnutls_x509_crt_t?, gnutls_x509_crl_t?, UInt32) -> Int32 = {
        certificate, issuer, crl, status in
        guard crl == nil, let state = currentState() else { return 0 }
        state.pointee.log.append(VerificationLog.Entry(certificate: certificate, issuer: issuer, status: status))
        return 0
    }

    /// The state of the evaluation on this thread, if one is running.
    private static func currentState() -> UnsafeMutablePointer<State>? {
        guard let key = slot, let raw = pthread_getspecific(key) else { return nil }
        return raw.assumingMemoryBound(to: State.self)
    }

    /// The thread-specific slot, created once; `nil` if the process is out of keys.
    private static let slot: pthread_key_t? = {
        var key = pthread_key_t()
        return pthread_key_create(&key, nil) == 0 ? key : nil
    }()

    /// The slot once the hook is installed: evaluated exactly once, on first use, by whichever thread
    /// gets there first (Swift guarantees one-time initialisation of globals and static members).
    private static let installation: pthread_key_t? = {
        guard let key = slot else { return nil }
        gnutls_global_set_time_function(timeHook)
        return key
    }()

    /// The hook GnuTLS calls for the time: the state's time inside ``run(at:_:)``, else `time(2)`.
    static let timeHook: gnutls_time_func = { output in
        let now: time_t
        if let state = currentState() {
            now = state.pointee.unixTime
        } else {
            now = time(nil)
        }
        output?.pointee = now
        return now
    }
}
