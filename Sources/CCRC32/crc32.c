// The graph file's section checksums: CRC-32 with the reflected polynomial 0xEDB88320 (zlib's and gzip's).
// ISA-L's crc32_gzip_refl computes the same function 20-80x faster; it is looked up once with dlopen so that the
// query-side library builds and runs where ISA-L is absent.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include "CCRC32.h"
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#define POLYNOMIAL 0xEDB88320u

static uint32_t tables[8][256];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void build_tables(void) {
    for (uint32_t byte = 0; byte < 256; byte++) {
        uint32_t crc = byte;
        for (int bit = 0; bit < 8; bit++) crc = (crc >> 1) ^ (POLYNOMIAL & (0u - (crc & 1u)));
        tables[0][byte] = crc;
    }
    for (uint32_t byte = 0; byte < 256; byte++) {
        uint32_t crc = tables[0][byte];
        for (int slice = 1; slice < 8; slice++) {
            crc = (crc >> 8) ^ tables[0][crc & 0xFF];
            tables[slice][byte] = crc;
        }
    }
}

uint32_t navgraph_crc32_portable(uint32_t crc, const void *bytes, size_t count) {
    pthread_once(&tables_once, build_tables);
    const unsigned char *next = bytes;
    crc = ~crc;
    while (count >= 8) {
        uint32_t low, high;
        memcpy(&low, next, 4);
        memcpy(&high, next + 4, 4);
        low ^= crc;  // little-endian machines (x86-64, arm64) only, as the graph file itself
        crc = tables[7][low & 0xFF] ^ tables[6][(low >> 8) & 0xFF] ^ tables[5][(low >> 16) & 0xFF] ^ tables[4][low >> 24] ^
              tables[3][high & 0xFF] ^ tables[2][(high >> 8) & 0xFF] ^ tables[1][(high >> 16) & 0xFF] ^ tables[0][high >> 24];
        next += 8;
        count -= 8;
    }
    while (count-- > 0) crc = (crc >> 8) ^ tables[0][(crc ^ *next++) & 0xFF];
    return ~crc;
}

typedef uint32_t (*isal_crc_function)(uint32_t, const unsigned char *, uint64_t);
static isal_crc_function isal_crc;
static int has_avx;
static pthread_once_t isal_once = PTHREAD_ONCE_INIT;

static void find_isal(void) {
    const char *names[] = {"libisal.so.2", "libisal.so"};
    for (size_t index = 0; index < sizeof names / sizeof names[0] && isal_crc == NULL; index++) {
        void *library = dlopen(names[index], RTLD_NOW | RTLD_LOCAL);
        if (library != NULL) isal_crc = (isal_crc_function)dlsym(library, "crc32_gzip_refl");
    }
#if defined(__x86_64__)
    has_avx = __builtin_cpu_supports("avx") ? 1 : 0;
#endif
}

#if defined(__x86_64__)
// ISA-L's AVX-512 kernels return with the upper halves of the vector registers dirty; Swift's floating-point code
// (legacy SSE encoding) then pays a penalty on every instruction (measured: haversine-heavy matrix work 3x slower).
__attribute__((target("avx"))) static void clear_upper_registers(void) { _mm256_zeroupper(); }
#endif

int navgraph_crc32_accelerated(void) {
    pthread_once(&isal_once, find_isal);
    return isal_crc != NULL;
}

uint32_t navgraph_crc32(uint32_t crc, const void *bytes, size_t count) {
    if (count == 0) return crc;
    pthread_once(&isal_once, find_isal);
    if (isal_crc == NULL) return navgraph_crc32_portable(crc, bytes, count);
    uint32_t result = isal_crc(crc, (const unsigned char *)bytes, (uint64_t)count);
#if defined(__x86_64__)
    if (has_avx) clear_upper_registers();
#endif
    return result;
}

// Carry-less product of two 32-bit polynomials in the reflected representation, reduced modulo the CRC polynomial:
// bit 31 of a value is the coefficient of x^0.
static uint32_t multiply_modulo(uint32_t a, uint32_t b) {
    uint32_t product = 0;
    for (int bit = 0; bit < 32; bit++) {
        if (a & 0x80000000u) product ^= b;
        a <<= 1;
        b = (b >> 1) ^ (POLYNOMIAL & (0u - (b & 1u)));  // b times x
    }
    return product;
}

// x^(8 * count) modulo the polynomial, by squaring (x^8 has its bit at 31 - 8).
static uint32_t power_of_x_for_bytes(size_t count) {
    uint32_t result = 0x80000000u;  // x^0
    uint32_t square = 0x00800000u;  // x^8
    while (count > 0) {
        if (count & 1) result = multiply_modulo(result, square);
        square = multiply_modulo(square, square);
        count >>= 1;
    }
    return result;
}

uint32_t navgraph_crc32_combine(uint32_t first, uint32_t second, size_t second_count) {
    // Appending n bytes multiplies the first part's remainder by x^(8n); the pre- and post-inversion cancel out
    // in the XOR with the second part's CRC (whose own inversions stand for a zero-initialized register).
    return multiply_modulo(first, power_of_x_for_bytes(second_count)) ^ second;
}
