#define _GNU_SOURCE
#include <fcntl.h>
#include "writeback.h"

int navgraph_start_writeback(int descriptor, long long offset, long long count) {
    return sync_file_range(descriptor, (off64_t)offset, (off64_t)count, SYNC_FILE_RANGE_WRITE);
}
