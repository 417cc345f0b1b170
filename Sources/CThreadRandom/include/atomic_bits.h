#ifndef NAVGRAPH_ATOMIC_BITS_H
#define NAVGRAPH_ATOMIC_BITS_H
#include <stdint.h>
#include <stddef.h>
/* Sets bit `index` of the bit array `words` (64 bits a word), safely while other threads set bits of the same word.
   Inline, so Swift code compiles it to a load and, only when the bit is not set yet, one locked `or`. */
static inline void navgraph_set_bit(uint64_t *words, size_t index) {
    uint64_t *word = words + (index >> 6);
    uint64_t bit = (uint64_t)1 << (index & 63);
    if (!(__atomic_load_n(word, __ATOMIC_RELAXED) & bit)) __atomic_fetch_or(word, bit, __ATOMIC_RELAXED);
}
/* Relaxed loads and stores of 32-bit values that other threads may write at the same time (a plain move on x86). */
static inline int32_t navgraph_load_int32(const int32_t *value) { return __atomic_load_n(value, __ATOMIC_RELAXED); }
static inline void navgraph_store_int32(int32_t *value, int32_t newValue) { __atomic_store_n(value, newValue, __ATOMIC_RELAXED); }
#endif
