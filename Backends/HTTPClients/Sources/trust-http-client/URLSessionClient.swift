import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPClientWire

/// A `URLSession` data task, as an application on Linux makes one: an ephemeral configuration with
/// the request's timeout, and a delegate that records every authentication challenge
/// FoundationNetworking delivers and answers it with the default handling.
///
/// What an application can set for trust on Linux, and how it is set here: the trust roots only
/// through the environment variable `URLSessionCertificateAuthorityInfoFile` (FoundationNetworking
/// passes it to libcurl as `CURLOPT_CAINFO`; the launcher sets it to the anchors' PEM file), and
/// the proxy through libcurl's `https_proxy` variable. No time, no verification flags, no host
/// check of its own: those are libcurl's.
enum URLSessionClient {
    static func fetch(_ request: ClientRequest) -> ClientOutcome {
        guard let url = URL(string: request.url) else {
            return ClientOutcome(errorType: "URL", errorDescription: "URL(string:) refuses \"\(request.url)\"")
        }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = request.timeoutSeconds
        configuration.timeoutIntervalForResource = request.timeoutSeconds
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let delegate = ChallengeRecorder()
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let done = DispatchSemaphore(value: 0)
        let result = Locked<(URLResponse?, (any Error)?)>((nil, nil))
        let task = session.dataTask(with: url) { _, response, error in
            result.set((response, error))
            done.signal()
        }
        task.resume()
        // No timed wait: in a worker serving request after request at other faked times, a wait with
        // a timeout here gave up long before its time on about one request in a hundred under load
        // (`trust-harness stress --backend urlsession`: 65 of 6,400, none without it; libfaketime
        // wraps timed waits and reckons them on its clock). A task that never completes is the
        // harness's to end: it kills the worker after the request's timeout and 5 seconds
        // (CLIENT_PROCESS, not a verdict).
        done.wait()
        let (response, error) = result.get()
        var outcome = ClientOutcome(challenges: delegate.methods.get())
        if let error {
            // FoundationNetworking turns every libcurl TLS error into NSURLErrorUnknown (-1) and keeps
            // curl's error text as the localized description (MultiHandle.swift, NativeProtocol.swift).
            let nsError = error as NSError
            outcome.errorType = error is URLError ? "URLError" : String(describing: type(of: error))
            outcome.errorCode = nsError.code
            outcome.errorDescription = nsError.localizedDescription
            outcome.errorDetails = Self.details(nsError).filter { !$0.hasPrefix("NSErrorFailingURL") }
        } else if let http = response as? HTTPURLResponse {
            outcome.status = http.statusCode
        } else {
            outcome.errorType = "NoResponse"
            outcome.errorDescription = "the data task completed without an error and without an HTTP response"
        }
        return outcome
    }

    /// Every string the error carries (its userInfo, its underlying errors), in order.
    static func details(_ error: NSError) -> [String] {
        var details: [String] = []
        for key in error.userInfo.keys.sorted() {
            let value = error.userInfo[key]!
            if let underlying = value as? NSError {
                details.append("\(key): \(underlying.domain) \(underlying.code): \(underlying.localizedDescription)")
                details += Self.details(underlying).map { "  \($0)" }
            } else {
                details.append("\(key): \(value)")
            }
        }
        return details
    }
}

/// Records the authentication method of every challenge the session delivers, then lets the
/// stack decide (`.performDefaultHandling`), as an application without pinning does.
final class ChallengeRecorder: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked Sendable: the only state is a lock-guarded list.
    let methods = Locked<[String]>([])

    func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        methods.modify { $0.append("session: \(challenge.protectionSpace.authenticationMethod)") }
        completionHandler(.performDefaultHandling, nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        methods.modify { $0.append("task: \(challenge.protectionSpace.authenticationMethod)") }
        completionHandler(.performDefaultHandling, nil)
    }
}

/// A value behind a lock.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked Sendable: every access holds the lock.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func get() -> Value { lock.withLock { value } }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
    func modify(_ body: (inout Value) -> Void) { lock.withLock { body(&value) } }
}
