// The graph file's section checksums: ISA-L's crc32_gzip_refl computes zlib's CRC-32; zlib combines pieces.
#include <isa-l/crc.h>
#include <zlib.h>
#include "CChecksum.h"

uint32_t navgraph_crc32(uint32_t crc, const void *bytes, size_t count) {
    if (count == 0) return crc;
    return crc32_gzip_refl(crc, (const unsigned char *)bytes, (uint64_t)count);
}

uint32_t navgraph_crc32_combine(uint32_t first, uint32_t second, size_t second_count) {
    return (uint32_t)crc32_combine(first, second, (z_off_t)second_count);
}
