#ifndef NAVGRAPH_WRITEBACK_H
#define NAVGRAPH_WRITEBACK_H
/* Asks the kernel to start writing the file's bytes offset..<offset+count to disk now, without waiting for it
   (sync_file_range with SYNC_FILE_RANGE_WRITE), so that a final fsync has less left to wait for. 0, or -1 and errno. */
int navgraph_start_writeback(int descriptor, long long offset, long long count);

/* A second descriptor of the open file `descriptor`, for writing around the page cache (O_DIRECT, reopened through
   /proc/self/fd): its writes must start at, and be sized in, multiples of the block size, from aligned memory.
   -1 where the system or the file system does not offer it. */
int navgraph_open_direct(int descriptor);
#endif
