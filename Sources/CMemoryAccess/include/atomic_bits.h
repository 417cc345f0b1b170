#ifndef NAVGRAPH_ATOMIC_BITS_H
#define NAVGRAPH_ATOMIC_BITS_H
#include <stdint.h>
#include <stddef.h>
/* Relaxed loads and stores of 32-bit values that other threads may write at the same time (a plain move on x86). */
static inline int32_t navgraph_load_int32(const int32_t *value) { return __atomic_load_n(value, __ATOMIC_RELAXED); }
static inline void navgraph_store_int32(int32_t *value, int32_t newValue) { __atomic_store_n(value, newValue, __ATOMIC_RELAXED); }
#endif
