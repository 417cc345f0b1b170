#ifndef NAVGRAPH_THREAD_RANDOM_H
#define NAVGRAPH_THREAD_RANDOM_H
/* Per-thread rand()/srand() for the process, so that METIS calls on separate threads draw from their own
   generators: libmetis seeds with srand() at every call, and glibc's generator is one per process. */

/* Returns rand() right after srand(seed) on the calling thread (lets Swift reference this object). */
int navgraph_thread_random_first(unsigned seed);
#endif
