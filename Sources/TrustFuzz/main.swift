// TrustFuzz: the libFuzzer target (TrustFuzzKit) over the built-in back ends, every one the package
// registers (OpenSSL, GnuTLS, swift-certificates and their variants). `scripts/fuzz` builds and runs
// it; `scripts/fuzz --all-backends` runs the same target over every package under Backends/ too.
//
//   swift build -c release --product TrustFuzz -Xswiftc -sanitize=fuzzer,address
//   .build/release/TrustFuzz --make-seeds fuzz-corpus                  # seeds from Vectors/
//   LSAN_OPTIONS=suppressions=$PWD/scripts/lsan.supp \
//     .build/release/TrustFuzz fuzz-corpus -runs=1000000               # or -max_total_time=600
//
// Built without -sanitize=fuzzer (plain `swift build`), the binary replays the files or folders it
// is given, once each: how a crash file is reproduced and then turned into a bad-input vector.
import BuiltInBackends
import TrustFuzzKit

TrustFuzzTool.main(packages: [BuiltInBackends.package])
