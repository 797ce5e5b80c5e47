// This package's own `trust-harness`: the built-in back ends beside Botan (`swift run botan-harness run
// --backend botan`). `scripts/all-backends` builds one tool with every package under Backends/.
import BuiltInBackends
import BotanBackend
import TrustHarnessCLI

await TrustHarnessTool.main(packages: [BuiltInBackends.package, BotanBackend.package])
