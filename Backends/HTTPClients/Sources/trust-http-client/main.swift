// One HTTPS request through URLSession or AsyncHTTPClient, set up as an application sets it up,
// its outcome printed as one line of JSON. TrustHarness's HTTP client back ends run this in a child
// process whose clock libfaketime sets to the vector's time (the stacks read the clock themselves),
// with the request in its environment (or on standard input). Usable by hand too:
//
//   echo '{"stack":"urlsession","url":"https://example.test/","proxyPort":8080,
//          "anchorsFile":"roots.pem","timeoutSeconds":5}' | URLSessionCertificateAuthorityInfoFile=roots.pem \
//     https_proxy=http://127.0.0.1:8080 trust-http-client
//
// Exit status 0 when an outcome was printed (a failed request is an outcome), 2 on bad input.
import Foundation
import HTTPClientWire

// The request: the environment variable TRUST_HTTP_CLIENT_REQUEST, or standard input. (Not an
// argument: under libfaketime, Swift's CommandLine.arguments comes out empty.)
let input = ProcessInfo.processInfo.environment["TRUST_HTTP_CLIENT_REQUEST"].map { Data($0.utf8) } ?? FileHandle.standardInput.readDataToEndOfFile()
let request: ClientRequest
do {
    request = try JSONDecoder().decode(ClientRequest.self, from: input)
} catch {
    FileHandle.standardError.write(Data("trust-http-client: standard input is not a request: \(error)\n".utf8))
    exit(2)
}

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
let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys]
FileHandle.standardOutput.write((try? encoder.encode(outcome)) ?? Data("{}".utf8))
FileHandle.standardOutput.write(Data("\n".utf8))
exit(0)
