#!/usr/bin/env python3
"""dask_matrix_bench.py - an N x N matrix through navgraph.dask with 1, then 2 worker processes of one thread
each, against osrm-routed CH's /table on the same points, in one run (not a test).

Usage (after `swift build -c release --product NavGraphC`, `pip install './python[dask]'`, Tools/setup_peers.sh,
a tiled input and its OSRM CH data; see Benchmarks/DASK.md for the exact commands):
  python3 Benchmarks/dask_matrix_bench.py --graph G.navgraph --osrm-data milan-5x5.osrm --osrm-bin DIR \
      --points 20000 --block 2000 --osrm-size 2000 --out Benchmarks/results/dask-matrix-milan-5x5.json

Points: --points random locations in the graph's bounding box moved onto the nearest road by Graph.nearest (seeded,
deterministic), so every point snaps in both engines. navgraph: `navgraph.dask.matrix` (durations, float32) on a
LocalCluster with n_workers=1 and then 2, threads_per_worker=1, NAVGRAPH_THREADS=1 (GraphPlugin), timed from
submission until every tile is on a worker; the cluster's start and the plugin's graph opening are not timed
(reported apart). Per worker: peak RSS (ru_maxrss), and Rss/Pss of the graph file's mapping from /proc/self/smaps
(the file is mapped, so its pages are shared between workers: Pss is each worker's share). OSRM: osrm-routed -a CH
-t 1 (loopback), GET /table on the first --osrm-size sources x the next --osrm-size points of the same list,
--reps times alternating with navgraph in process on the same sub-table (1 thread); wall time and osrm-routed's
CPU seconds from /proc. Ratios use CPU-seconds per core (cells / (wall x cores) for navgraph.dask, cells / CPU s for
osrm-routed, which answers one table on one thread). On a shared machine the wall figures follow the other load;
the workers' own CPU seconds (ru_utime + ru_stime, before and after) give the steadier figures: cells per worker
CPU-second, and the throughput if each worker had its core (cells / the busiest worker's CPU seconds).
"""
import argparse
import http.client
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np


def process_cpu(pid):
    """utime + stime of a process (all threads), seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load():
    return os.getloadavg()[0]


def road_points(graph, bbox, count, seed):
    """`count` points on roads inside bbox (lon0, lat0, lon1, lat1)."""
    import navgraph
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        lon, lat = rng.uniform(bbox[0], bbox[2]), rng.uniform(bbox[1], bbox[3])
        try:
            waypoint = graph.nearest((lon, lat), radiuses="1000")["waypoints"][0]
        except navgraph.NavGraphError:
            continue
        out.append(waypoint["location"])
    return np.array(out, dtype=np.float64)


def worker_cpu():
    """This process's user + system CPU seconds."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def worker_memory(graph_path):
    """This worker's peak RSS and the Rss/Pss (kB) of the graph file's mapping."""
    rss = pss = 0
    current = None
    with open("/proc/self/smaps") as smaps:
        for line in smaps:
            if "-" in line.split()[0] and len(line.split()) >= 5:
                current = line.split()[-1] if len(line.split()) >= 6 else None
            elif current == graph_path and line.startswith("Rss:"):
                rss += int(line.split()[1])
            elif current == graph_path and line.startswith("Pss:"):
                pss += int(line.split()[1])
    total = {}
    with open("/proc/self/smaps_rollup") as rollup:
        for line in rollup:
            parts = line.split()
            if parts[0] in ("Rss:", "Pss:", "Anonymous:"):
                total[parts[0][:-1]] = int(parts[1])
    return {"peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "graph_rss_mb": rss / 1024,
            "graph_pss_mb": pss / 1024, "rss_mb": total.get("Rss", 0) / 1024, "pss_mb": total.get("Pss", 0) / 1024,
            "anonymous_mb": total.get("Anonymous", 0) / 1024}


def dask_run(graph_path, points, block, workers):
    """One navgraph.dask.matrix over all points on a fresh LocalCluster of `workers` one-thread processes."""
    from distributed import Client, LocalCluster, wait
    import navgraph.dask as nd
    started = time.perf_counter()
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None, memory_limit=0) as cluster, \
            Client(cluster) as client:
        nd.register(client, graph_path, threads=1)
        client.run(lambda dask_worker: dask_worker.plugins[nd.plugin_name(graph_path)].graph.info())   # opened everywhere
        ready = time.perf_counter()
        before = load()
        cpu0 = client.run(worker_cpu)
        t0 = time.perf_counter()
        result = nd.matrix(points, graph_path, block=block, annotations=("duration",), client=client, retries=2)
        wait(result.futures)
        seconds = time.perf_counter() - t0
        cpu = [client.run(worker_cpu)[address] - cpu0[address] for address in cpu0]
        corner = result.durations[:block, :block].compute()
        finite = float(np.isfinite(corner).mean())
        memory = client.run(worker_memory, os.path.abspath(graph_path))
        opened = client.run(lambda: nd.open_count)
    cells = len(points) ** 2
    return {"workers": workers, "seconds": seconds, "worker_cpu_s": cpu, "cpu_share": sum(cpu) / (seconds * workers),
            "cells_per_worker_cpu_s": cells / sum(cpu), "cells_per_s_if_cores_free": cells / max(cpu), "cells": cells, "cells_per_s": cells / seconds,
            "cells_per_s_per_core": cells / seconds / workers, "finite_fraction_first_tile": finite,
            "cluster_and_open_s": ready - started, "load_before": before, "load_after": load(),
            "memory": list(memory.values()), "graph_opens": list(opened.values())}


def osrm_table(port, pid, sources, destinations):
    """One GET /table; wall, osrm-routed CPU seconds, durations."""
    coordinates = ";".join(f"{lon:.6f},{lat:.6f}" for lon, lat in np.vstack([sources, destinations]))
    n = len(sources)
    path = (f"/table/v1/driving/{coordinates}?sources={';'.join(map(str, range(n)))}"
            f"&destinations={';'.join(map(str, range(n, n + len(destinations))))}")
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1800)
    cpu0, t0 = process_cpu(pid), time.perf_counter()
    connection.request("GET", path)
    body = connection.getresponse().read()
    wall, cpu = time.perf_counter() - t0, process_cpu(pid) - cpu0
    document = json.loads(body)
    if document.get("code") != "Ok":
        raise RuntimeError(f"osrm-routed: {document.get('code')}: {document.get('message')}")
    return wall, cpu, np.array([[np.nan if v is None else v for v in row] for row in document["durations"]], dtype=float)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--graph", required=True)
    parser.add_argument("--osrm-data", required=True, help="the CH .osrm base of the same input")
    parser.add_argument("--osrm-bin", required=True, help="folder with osrm-routed")
    parser.add_argument("--bbox", default="9.04,45.34,11.24,47.08", help="lon0,lat0,lon1,lat1 to draw points in")
    parser.add_argument("--points", type=int, default=20000)
    parser.add_argument("--block", type=int, default=2000)
    parser.add_argument("--osrm-size", type=int, default=2000)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--seed", type=int, default=20261206)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.environ["NAVGRAPH_THREADS"] = "1"   # the in-process comparison runs on one thread too
    import navgraph
    graph = navgraph.Graph.open(args.graph, verify=False)
    bbox = [float(value) for value in args.bbox.split(",")]
    t0 = time.perf_counter()
    points = road_points(graph, bbox, args.points, args.seed)
    print(f"points: {len(points)} in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    report = {"graph": args.graph, "graph_bytes": os.path.getsize(args.graph), "points": len(points), "block": args.block,
              "cores": os.cpu_count(), "navgraph_version": navgraph.version()}
    # OSRM first (its server stays up while navgraph's in-process sub-table alternates with it).
    port = 5400 + os.getpid() % 500
    server = subprocess.Popen([str(Path(args.osrm_bin) / "osrm-routed"), "-i", "127.0.0.1", "-p", str(port), "-a", "CH", "-t", "1",
                               "--max-table-size", str(2 * args.osrm_size + 1), args.osrm_data], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 300
        while True:   # its log is block-buffered on a pipe: probe until it answers
            try:
                osrm_table(port, server.pid, points[:1], points[1:2])
                break
            except (OSError, http.client.HTTPException):
                if time.time() > deadline or server.poll() is not None:
                    raise RuntimeError("osrm-routed did not start")
                time.sleep(0.5)
        version = subprocess.run([str(Path(args.osrm_bin) / "osrm-routed"), "--version"], capture_output=True, text=True).stdout.strip()
        sources, destinations = points[:args.osrm_size], points[args.osrm_size:2 * args.osrm_size]
        rounds = []
        for _ in range(args.reps):
            before = load()
            wall, cpu, theirs = osrm_table(port, server.pid, sources, destinations)
            c0, w0 = time.process_time(), time.perf_counter()
            ours = graph.matrix(sources, destinations, annotations="duration").durations
            ours_wall, ours_cpu = time.perf_counter() - w0, time.process_time() - c0
            both = np.isfinite(ours) & np.isfinite(theirs) & (theirs > 0)
            rounds.append({"osrm_wall": wall, "osrm_cpu": cpu, "navgraph_inprocess_wall": ours_wall, "navgraph_inprocess_cpu": ours_cpu,
                           "load_before": before, "cells": int(ours.size),
                           "median_rel_diff": float(np.median(np.abs(ours[both] - theirs[both]) / theirs[both]))})
            print(f"osrm {args.osrm_size}^2: {wall:.2f} s wall {cpu:.2f} s CPU; navgraph in process {ours_wall:.2f} s", file=sys.stderr)
        report["osrm"] = {"version": version, "size": args.osrm_size, "rounds": rounds,
                          "cells_per_cpu_s": statistics.median(r["cells"] / r["osrm_cpu"] for r in rounds),
                          "navgraph_inprocess_cells_per_cpu_s": statistics.median(r["cells"] / r["navgraph_inprocess_cpu"] for r in rounds)}
    finally:
        server.terminate()
        server.wait(timeout=30)
    graph.close()
    report["dask"] = []
    for workers in (1, 2):
        run = dask_run(os.path.abspath(args.graph), points, args.block, workers)
        print(f"dask {workers} worker(s): {run['seconds']:.1f} s, {run['cells_per_s'] / 1e6:.2f} M cells/s", file=sys.stderr)
        report["dask"].append(run)
    one, two = report["dask"]
    report["ratios"] = {"two_over_one_workers": two["cells_per_s"] / one["cells_per_s"],
                        "two_over_one_workers_by_cpu": two["cells_per_s_if_cores_free"] / one["cells_per_s_if_cores_free"],
                        "per_core_by_cpu_vs_osrm_ch": two["cells_per_worker_cpu_s"] / report["osrm"]["cells_per_cpu_s"],
                        "per_core_vs_osrm_ch": two["cells_per_s_per_core"] / report["osrm"]["cells_per_cpu_s"],
                        "per_core_vs_osrm_ch_one_worker": one["cells_per_s_per_core"] / report["osrm"]["cells_per_cpu_s"]}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report["ratios"], indent=2))


if __name__ == "__main__":
    main()
