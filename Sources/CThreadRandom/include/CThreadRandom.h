/* Small C helpers for the importer: per-thread rand() for METIS, malloc_trim. */
#include "thread_random.h"
#include "memory_trim.h"
