#!/usr/bin/env python3
"""cch_search_space.py GRAPH... - load-independent order quality of navgraph graph files: CCH arcs, elimination-tree
depth (nodes a CCH query can settle per side) and the up-arcs along it (arcs it can relax), means over all nodes.
Reads the cch.parent and cch.firstUp sections directly (numpy)."""
import struct, sys
import numpy as np
def load(path):
    data = np.memmap(path, dtype=np.uint8, mode='r')
    head = bytes(data[:24]); n = struct.unpack_from('<I', head, 12)[0]; t = bytes(data[24:24+48*n]); sec = {}
    for i in range(n):
        o = 48*i; name = t[o:o+24].rstrip(b'\0').decode(); off, ln = struct.unpack_from('<QQ', t, o+24); sec[name] = (off, ln)
    def arr(name, dt):
        off, ln = sec[name]; return np.frombuffer(data, dtype=dt, count=ln // np.dtype(dt).itemsize, offset=off)
    return arr
for path in sys.argv[1:]:
    arr = load(path)
    parent = arr('cch.parent', np.int32); first = arr('cch.firstUp', np.uint32).astype(np.int64)
    n = len(parent); deg = np.diff(first)
    p = parent.tolist(); d = deg.tolist(); dep = [0]*n; sp = [0]*n
    for v in range(n - 1, -1, -1):
        q = p[v]
        if q >= 0: dep[v] = dep[q] + 1; sp[v] = sp[q] + d[v]
        else: dep[v] = 1; sp[v] = d[v]
    dep = np.array(dep); sp = np.array(sp)
    print(f"{path}: {n} nodes, {first[-1]} arcs, elimination-tree depth mean {dep.mean():.0f} max {dep.max()}, search-space arcs mean {sp.mean():.0f} p50 {np.median(sp):.0f}")
