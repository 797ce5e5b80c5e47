// Every back end side by side, the built-ins first: `trust-harness` with every package's back ends.
import BotanBackend
import BuiltInBackends
import HTTPClientBackends
import MbedTLSBackend
import NIOSSLBackend
import NSSBackend
import TrustHarnessCLI
import WolfSSLBackend

await TrustHarnessTool.main(packages: [
    BuiltInBackends.package, BotanBackend.package, HTTPClientBackends.package, MbedTLSBackend.package, NIOSSLBackend.package,
    NSSBackend.package, WolfSSLBackend.package,
])
