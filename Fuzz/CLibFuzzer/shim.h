// libFuzzer's driver entry point (compiler-rt FuzzerInterface.h). It is linked only into fuzz
// builds, by -sanitize=fuzzer; nothing references it otherwise.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
