#ifndef NAVGRAPH_MEMORY_TRIM_H
#define NAVGRAPH_MEMORY_TRIM_H
/* Returns the free memory of every malloc arena (the main one and the worker threads') to the system. */
void navgraph_release_free_memory(void);
#endif
