// The composition root of `trust-harness`: the built-in back ends (BuiltInBackends, the one list)
// with the optional capabilities of `bench` and `probe`.
import BuiltInBackends
import TrustHarnessCLI

await TrustHarnessTool.main(packages: [BuiltInBackends.package])
