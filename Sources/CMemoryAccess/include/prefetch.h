#ifndef NAVGRAPH_PREFETCH_H
#define NAVGRAPH_PREFETCH_H
/* Asks the CPU to start loading the cache line at `address` for reading (a hint: no fault, no effect on results).
   Inline, so Swift code compiles it to the single prefetch instruction. */
static inline void navgraph_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }
#endif
