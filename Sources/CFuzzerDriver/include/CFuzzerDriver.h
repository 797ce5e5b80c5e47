#ifndef CFUZZERDRIVER_H
#define CFUZZERDRIVER_H
#include <stddef.h>
#include <stdint.h>

typedef int (*trustfuzz_callback)(const uint8_t *data, size_t size);

/// Runs libFuzzer's driver (LLVMFuzzerRunDriver) on argc/argv with `callback` when the binary was
/// linked with -sanitize=fuzzer; returns -1 without doing anything when it was not.
int trustfuzz_run_libfuzzer(int argc, char **argv, trustfuzz_callback callback);
#endif
