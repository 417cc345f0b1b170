#ifndef NAVGRAPH_CRC32_H
#define NAVGRAPH_CRC32_H
#include <stddef.h>
#include <stdint.h>
/* CRC-32 (the zlib/gzip polynomial, the same values as zlib's crc32) of count bytes, continuing from crc.
   Uses ISA-L's carry-less multiply folding when libisal is installed (found at run time with dlopen, so nothing
   links against it), else a portable slice-by-8 table walk: the same values either way. */
uint32_t navgraph_crc32(uint32_t crc, const void *bytes, size_t count);
/* The same CRC-32 by the portable code alone, whatever is installed (tests compare the two paths). */
uint32_t navgraph_crc32_portable(uint32_t crc, const void *bytes, size_t count);
/* 1 when navgraph_crc32 uses ISA-L, 0 when it uses the portable code. */
int navgraph_crc32_accelerated(void);
/* The CRC-32 of two byte ranges one after the other, from the CRC-32 of each and the second's length. */
uint32_t navgraph_crc32_combine(uint32_t first, uint32_t second, size_t second_count);
#endif
