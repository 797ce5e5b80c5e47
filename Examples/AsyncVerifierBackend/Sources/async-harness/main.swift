// The composition root of this package's own `trust-harness`: the built-in back ends plus ours.
import AsyncVerifierBackend
import BuiltInBackends
import TrustHarnessCLI

await TrustHarnessTool.main(packages: [BuiltInBackends.package, AsyncVerifierBackend.package])
