// The graph file's section checksums: ISA-L's crc32_gzip_refl computes zlib's CRC-32; zlib combines pieces.
#include <isa-l/crc.h>
#include <immintrin.h>
#include <stdatomic.h>
#include <zlib.h>
#include "CChecksum.h"

// ISA-L's AVX-512 kernels return with the upper halves of the vector registers dirty; Swift's floating-point code
// (legacy SSE encoding) then pays a penalty on every instruction (measured: haversine-heavy matrix work 3x slower).
__attribute__((target("avx"))) static void clear_upper_registers(void) { _mm256_zeroupper(); }

// Asked once; an atomic, since sections are checksummed on several threads at once.
static int has_avx(void) {
    static atomic_int known = -1;
    int value = atomic_load_explicit(&known, memory_order_relaxed);
    if (value < 0) {
        value = __builtin_cpu_supports("avx") ? 1 : 0;
        atomic_store_explicit(&known, value, memory_order_relaxed);
    }
    return value;
}

uint32_t navgraph_crc32(uint32_t crc, const void *bytes, size_t count) {
    if (count == 0) return crc;
    uint32_t result = crc32_gzip_refl(crc, (const unsigned char *)bytes, (uint64_t)count);
    if (has_avx()) clear_upper_registers();
    return result;
}

uint32_t navgraph_crc32_combine(uint32_t first, uint32_t second, size_t second_count) {
    return (uint32_t)crc32_combine(first, second, (z_off_t)second_count);
}
