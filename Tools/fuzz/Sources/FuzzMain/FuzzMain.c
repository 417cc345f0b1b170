// SwiftPM links an executable's main as `<module>_main`. The Swift fuzz targets are built with -parse-as-library
// (under -sanitize=fuzzer swiftc would make a Swift entry point the fuzz callback itself), so the entry is defined
// here, in C: it hands the process's arguments to libFuzzer's driver with the target's LLVMFuzzerTestOneInput.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run(int argc, char **argv) { return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput); }

__attribute__((weak)) int fuzz_graph_file_main(int argc, char **argv) { return run(argc, argv); }
__attribute__((weak)) int fuzz_traffic_csv_main(int argc, char **argv) { return run(argc, argv); }
__attribute__((weak)) int fuzz_pairs_csv_main(int argc, char **argv) { return run(argc, argv); }
__attribute__((weak)) int fuzz_osm_pbf_main(int argc, char **argv) { return run(argc, argv); }
__attribute__((weak)) int fuzz_http_request_main(int argc, char **argv) { return run(argc, argv); }
