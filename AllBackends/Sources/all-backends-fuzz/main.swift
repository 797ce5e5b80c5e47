// The fuzz target over every back end, the built-ins first (see scripts/fuzz --all-backends).
import BotanBackend
import BuiltInBackends
import HTTPClientBackends
import MbedTLSBackend
import NIOSSLBackend
import NSSBackend
import TrustFuzzKit
import WolfSSLBackend

TrustFuzzTool.main(packages: [
    BuiltInBackends.package, BotanBackend.package, HTTPClientBackends.package, MbedTLSBackend.package, NIOSSLBackend.package,
    NSSBackend.package, WolfSSLBackend.package,
])
