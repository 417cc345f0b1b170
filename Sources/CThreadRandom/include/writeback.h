#ifndef NAVGRAPH_WRITEBACK_H
#define NAVGRAPH_WRITEBACK_H
/* Asks the kernel to start writing the file's bytes offset..<offset+count to disk now, without waiting for it
   (sync_file_range with SYNC_FILE_RANGE_WRITE), so that a final fsync has less left to wait for. 0, or -1 and errno. */
int navgraph_start_writeback(int descriptor, long long offset, long long count);
#endif
