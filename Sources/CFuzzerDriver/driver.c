#include "CFuzzerDriver.h"

// Provided by libclang_rt.fuzzer (linked whole-archive by -sanitize=fuzzer); weak so that a plain
// `swift build` of the package still links.
extern int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t))
    __attribute__((weak));

int trustfuzz_run_libfuzzer(int argc, char **argv, trustfuzz_callback callback) {
    if (!LLVMFuzzerRunDriver) return -1;
    return LLVMFuzzerRunDriver(&argc, &argv, callback);
}
