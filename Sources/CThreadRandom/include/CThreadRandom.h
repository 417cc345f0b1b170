/* Small C helpers: per-thread rand() for METIS, malloc_trim, a cache prefetch hint, bits set from two threads, early writeback of a file. */
#include "thread_random.h"
#include "memory_trim.h"
#include "prefetch.h"
#include "atomic_bits.h"
#include "writeback.h"
