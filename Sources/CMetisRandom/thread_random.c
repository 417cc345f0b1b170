// Per-thread replacements for rand() and srand(), interposed over glibc's for the whole process (the
// executable's definitions win at dynamic link time, libmetis included). Same generator as glibc's rand()
// (random_r with a 128-byte state), but one per thread: concurrent METIS calls stay deterministic.
#define _DEFAULT_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include "thread_random.h"

static __thread struct random_data state;
static __thread char buffer[128];
static __thread int ready;

void srand(unsigned seed) {
    if (!ready) {
        initstate_r(seed, buffer, sizeof buffer, &state);
        ready = 1;
    } else {
        srandom_r(seed, &state);
    }
}

int rand(void) {
    if (!ready) srand(1);
    int32_t value = 0;
    random_r(&state, &value);
    return value;
}

int navgraph_thread_random_first(unsigned seed) {
    srand(seed);
    return rand();
}
