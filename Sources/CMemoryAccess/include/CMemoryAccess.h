/* Memory-access primitives Swift lacks: a cache prefetch hint and relaxed 32-bit atomic loads and stores. */
#include "prefetch.h"
#include "atomic_bits.h"
