#ifndef NAVGRAPH_MEMORY_TRIM_H
#define NAVGRAPH_MEMORY_TRIM_H
/* Returns the free memory of every malloc arena (the main one and the worker threads') to the system. */
void navgraph_release_free_memory(void);
/* Gives every allocation of at least `bytes` a mapping of its own, unmapped when it is freed. glibc's default
   threshold (128 KB) rises, as large blocks are freed, up to 32 MB; blocks below it then come from the arenas, and what
   they free stays resident there until trimmed, and is split up by later allocations. */
void navgraph_map_large_allocations(unsigned long bytes);
#endif
