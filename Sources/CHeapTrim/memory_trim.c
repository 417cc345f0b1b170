// malloc_trim(0) for Swift (malloc.h is not part of Swift's Glibc module): after METIS ran on worker threads,
// what it freed stays in those threads' arenas until trimmed.
#include <malloc.h>
#include "memory_trim.h"

// Under AddressSanitizer the allocator is ASan's, and glibc's malloc_trim walks arenas glibc never set up (the
// checked tier crashed in mtrim on an import worker thread): there is nothing of glibc's to trim then.
#if defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#    define NAVGRAPH_SANITIZED 1
#  endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#  define NAVGRAPH_SANITIZED 1
#endif

void navgraph_release_free_memory(void) {
#ifndef NAVGRAPH_SANITIZED
    malloc_trim(0);
#endif
}

void navgraph_map_large_allocations(unsigned long bytes) {
#ifndef NAVGRAPH_SANITIZED
    /* Also fixes the threshold: glibc no longer raises it as mapped blocks are freed. */
    mallopt(M_MMAP_THRESHOLD, (int)bytes);
#endif
}
