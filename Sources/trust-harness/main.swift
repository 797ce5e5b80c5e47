// The composition root of `trust-harness`: the built-in back ends (BuiltInBackends, the one list)
// and the optional capabilities of `bench` and `probe`.
import BuiltInBackends
import TrustHarnessCLI

await TrustHarnessTool.main(
    registry: BuiltInBackends.registry,
    benchmarks: BuiltInBackends.benchmarks,
    loopbackServer: BuiltInBackends.loopbackServer
)
