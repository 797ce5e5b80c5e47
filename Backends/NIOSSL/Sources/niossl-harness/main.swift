// This package's own `trust-harness`: the built-in back ends beside swift-nio-ssl (`swift run
// niossl-harness run --backend swift-nio-ssl`). `scripts/all-backends` builds one tool with every
// package under Backends/.
import BuiltInBackends
import NIOSSLBackend
import TrustHarnessCLI

await TrustHarnessTool.main(packages: [BuiltInBackends.package, NIOSSLBackend.package])
