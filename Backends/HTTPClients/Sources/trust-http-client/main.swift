// HTTPS requests through URLSession or AsyncHTTPClient, set up as an application sets them up, each
// outcome printed as one line of JSON. TrustHarness's HTTP client back ends run this as a worker
// (TRUST_HTTP_CLIENT_WORKER=1: a request per line of standard input) whose clock libfaketime sets to
// each request's time (the stacks read the clock themselves). One request, by hand, comes in the
// environment or on standard input:
//
//   echo '{"stack":"urlsession","url":"https://example.test/","proxyPort":8080,
//          "anchorsFile":"roots.pem","timeoutSeconds":5}' | URLSessionCertificateAuthorityInfoFile=roots.pem \
//     https_proxy=http://127.0.0.1:8080 trust-http-client
//
// Exit status 0 when an outcome was printed (a failed request is an outcome), 2 on bad input.
import Foundation
import HTTPClientWire

/// One request through its stack, timed, with the clock the stack saw when it started.
func fetch(_ request: ClientRequest) async -> ClientOutcome {
    let clock = Date().timeIntervalSince1970
    let start = ContinuousClock.now
    var outcome: ClientOutcome
    switch request.stack {
    case .urlSession:
        outcome = URLSessionClient.fetch(request)
    case .asyncHTTPClient:
        outcome = await AsyncHTTPClientClient.fetch(request)
    }
    let elapsed = ContinuousClock.now - start
    outcome.clock = clock
    outcome.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return outcome
}

func say(_ outcome: ClientOutcome) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    FileHandle.standardOutput.write(((try? encoder.encode(outcome)) ?? Data("{}".utf8)) + Data("\n".utf8))
}

// A worker (TRUST_HTTP_CLIENT_WORKER=1, how TrustHarness runs it): one request per line of standard
// input, one outcome per line of standard output, until standard input ends. Each request is made
// as a one-shot process makes it, with a session (URLSession) or client (AsyncHTTPClient) of its
// own, so nothing of one request (connection, TLS session, cache) reaches the next; the clock is
// libfaketime's timestamp file, which TrustHarness rewrites before each request.
if ProcessInfo.processInfo.environment["TRUST_HTTP_CLIENT_WORKER"] == "1" {
    while let line = readLine(strippingNewline: true) {
        guard let request = try? JSONDecoder().decode(ClientRequest.self, from: Data(line.utf8)) else {
            FileHandle.standardError.write(Data("trust-http-client: a line of standard input is not a request\n".utf8))
            exit(2)
        }
        var outcome = await fetch(request)
        var seconds = outcome.seconds
        for _ in 1..<max(1, request.repetitions ?? 1) where outcome.status != nil {
            outcome = await fetch(request)
            seconds += outcome.seconds
        }
        outcome.seconds = seconds
        say(outcome)
    }
    exit(0)
}

// One request: the environment variable TRUST_HTTP_CLIENT_REQUEST, or standard input. (Not an
// argument: under libfaketime, Swift's CommandLine.arguments comes out empty.)
let input = ProcessInfo.processInfo.environment["TRUST_HTTP_CLIENT_REQUEST"].map { Data($0.utf8) } ?? FileHandle.standardInput.readDataToEndOfFile()
let request: ClientRequest
do {
    request = try JSONDecoder().decode(ClientRequest.self, from: input)
} catch {
    FileHandle.standardError.write(Data("trust-http-client: standard input is not a request: \(error)\n".utf8))
    exit(2)
}
say(await fetch(request))
exit(0)
