import Foundation
import OpenSSLBackend
import TrustBackendKit

extension DenyListBackend {
    /// This package as TrustHarness tools take it (`TrustHarnessTool.main(packages:)`): OpenSSL with
    /// ``DenyList/keys`` refused, as `openssl-denylist`, and where it departs from the standards
    /// (`deviations.json`, a resource of this target, so an installed tool finds it too).
    public static let package = BackendPackage(
        name: "DenyList",
        entries: [
            .init { DenyListBackend(name: "openssl-denylist", wrapping: OpenSSLBackend(configuration: $0), denied: DenyList.keys, configuration: $0) },
        ],
        deviations: BackendPackage.bundledDeviations(.module),
        reproductions: ["openssl-denylist": reproduction]
    )

    /// A finding of `openssl-denylist` reproduced without TrustHarness (`trust-harness findings`
    /// writes it beside the certificates): OpenSSL's own verifier at the finding's time, and the
    /// leaf's key pin to look up in the deny list.
    static let reproduction = Reproduction(fileName: "reproduce.sh", howToRun: "sh reproduce.sh (Debian: apt-get install openssl)") { input in
        let host = input.host.map { " \(input.hostIsIPAddress ? "-verify_ip" : "-verify_hostname") \(Reproduction.quoted($0))" } ?? ""
        return """
        #!/bin/sh
        # OpenSSL's verifier at \(input.isoTime), then the leaf's SPKI pin, which the deny list refuses
        # when it is one of DenyList.keys.
        cd "$(dirname "$0")"
        openssl verify -attime \(input.unixTime) -purpose sslserver -x509_strict -partial_chain\(host) -CAfile \(input.anchors) -untrusted \(input.intermediates) \(input.leaf)
        echo "sha256/$(openssl x509 -in \(input.leaf) -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64)"

        """
    }
}
