// malloc_trim(0) for Swift (malloc.h is not part of Swift's Glibc module): after METIS ran on worker threads,
// what it freed stays in those threads' arenas until trimmed.
#include <malloc.h>
#include "memory_trim.h"

void navgraph_release_free_memory(void) { malloc_trim(0); }
