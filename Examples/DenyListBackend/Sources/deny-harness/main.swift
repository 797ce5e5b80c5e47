// The composition root of this package's own `trust-harness`: the built-in back ends plus ours,
// each package with its own deviations.
import BuiltInBackends
import DenyListBackend
import TrustHarnessCLI

await TrustHarnessTool.main(packages: [BuiltInBackends.package, DenyListBackend.package])
