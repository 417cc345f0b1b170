#!/usr/bin/env python3
"""matrix_bench.py - `navgraph matrix` / `navgraph isochrone` against osrm-routed /table, in one run.

Usage (after Tools/setup_peers.sh and `swift build -c release`):
  Benchmarks/work/peers-venv/bin/python Benchmarks/matrix_bench.py --pbf ../shared/data/porto.osm.pbf \
      --sizes 100,1000 --algorithms ch --out Benchmarks/results/matrix-porto.json
  ... --pbf Benchmarks/work/tiled/milan-5x5.osm.pbf --sizes 100,5000 --algorithms ch,mld --isochrone \
      --out Benchmarks/results/matrix-milan-5x5.json

For each size N it takes the first N points of `Tools/make_pairs.py PBF ceil(max N / 2) 1` (both ends of each pair, in order;
with --tile-shift DLON,DLAT,K,SEED the pairs come from --pairs-pbf and every point is moved into a random tile of a
K x K `Tools/tile_osm.py` input), then times, in --reps rounds that alternate the engines (navgraph, then each OSRM
algorithm, for every size and annotation set; all osrm-routed servers stay up for the whole run; median reported):
  navgraph  the whole process `navgraph matrix GRAPH points.csv --output m.json` (load, snap, compute, write JSON),
            with durations only and with durations and distances;
  OSRM      one `GET /table/v1/driving/{N points}?annotations=...` to osrm-routed (-t 2, loopback, keep-alive),
            client-side wall time until the whole response is read, for each algorithm in --algorithms.
Besides wall time it records CPU seconds (user + system, all threads): of the whole navgraph process, and of
osrm-routed during the request (from /proc) - on a loaded machine the CPU ratio is the steadier one.
The cells both engines answer are compared (median and p95 of |navgraph − OSRM| / OSRM duration; the profiles
differ, so this is a sanity check, not an exactness test). With --isochrone it also times the whole process
`navgraph isochrone GRAPH LAT,LON --minutes 5,10,15` from the first point. Every subprocess and request is bounded
in time; osrm-routed listens on 127.0.0.1 only and is stopped at the end. The 1-minute load average is recorded before
every measurement. --graph reuses an existing .navgraph of the same PBF instead of importing it; --osrm-data
ALGO=FILE.osrm[,...] uses OSRM data prepared elsewhere (read only) for that algorithm instead of preparing it. With
--isochrone it also times GET /isochrone/v1/driving/LON,LAT?contours_minutes=5,10,15 on a warm `navgraph serve` of the
graph (2 threads, loopback; wall until the whole response is read, and the server's CPU meanwhile).
"""
import argparse
import contextlib
import http.client
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "peers"))
import peerlib  # noqa: E402

REPO = peerlib.REPO
WORK = peerlib.WORK / "matrix"


def osrm_pkg():
    try:
        import osrm  # noqa: F401
        return Path(osrm.__file__).resolve().parent
    except ImportError:
        sys.exit("matrix_bench: run with the peers venv python (Tools/setup_peers.sh)")


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def process_cpu(pid):
    """CPU seconds (user + system) a running process has used so far."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_timed(cmd, timeout):
    """Wall and CPU (user + system, all threads) seconds of a whole process, and its stderr."""
    cpu = children_cpu()
    start = time.monotonic()
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=timeout)
    wall = time.monotonic() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{cmd[0]} failed: {proc.stderr[-2000:]}")
    return wall, children_cpu() - cpu, proc.stderr


def prepare_osrm(pkg, pbf, name, algos, logf):
    base_dir = WORK / name / "osrm"
    steps = {}
    if not (base_dir / "done-extract").exists():
        shutil.rmtree(base_dir, ignore_errors=True)
        base_dir.mkdir(parents=True)
        (base_dir / f"{name}.osm.pbf").symlink_to(pbf)
        steps["extract"] = peerlib.timed_step("extract", [pkg / "bin" / "osrm-extract", "-p", pkg / "share" / "profiles" / "car.lua",
                                                          f"{name}.osm.pbf"], base_dir, logf)
        (base_dir / "done-extract").write_text("ok")
    for algo in algos:
        d = base_dir / algo
        if (d / "done").exists():
            continue
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir()
        for f in base_dir.glob(f"{name}.osrm*"):
            shutil.copy(f, d / f.name)
        base = f"{name}.osrm"
        if algo == "ch":
            steps["contract"] = peerlib.timed_step("contract", [pkg / "bin" / "osrm-contract", base], d, logf)
        else:
            steps["partition"] = peerlib.timed_step("partition", [pkg / "bin" / "osrm-partition", base], d, logf)
            steps["customize"] = peerlib.timed_step("customize", [pkg / "bin" / "osrm-customize", base], d, logf)
        (d / "done").write_text("ok")
    return base_dir, steps


def timed_get(port, pid, path, timeout):
    """One GET to a warm loopback server: wall seconds until the whole response is read, the server's CPU seconds
    meanwhile, and the body (an error for any status but 200)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    cpu = process_cpu(pid)
    start = time.monotonic()
    conn.request("GET", path)
    response = conn.getresponse()
    body = response.read()
    wall = time.monotonic() - start
    cpu = process_cpu(pid) - cpu
    conn.close()
    if response.status != 200:
        raise RuntimeError(f"GET {path[:80]}: HTTP {response.status}: {body[:300]!r}")
    return wall, cpu, body


def osrm_table(port, pid, points, annotations, timeout):
    """Wall seconds until the whole response is read, the server's CPU seconds meanwhile, and the table."""
    coords = ";".join(f"{lon:.6f},{lat:.6f}" for lon, lat in points)
    wall, cpu, body = timed_get(port, pid, f"/table/v1/driving/{coords}?annotations={annotations}", timeout)
    return wall, cpu, json.loads(body)


def isochrone_request(port, pid, path, timeout):
    """Wall seconds of one GET /isochrone to a warm navgraph server, its CPU seconds meanwhile, and the body's size."""
    wall, cpu, body = timed_get(port, pid, path, timeout)
    json.loads(body)
    return wall, cpu, len(body)


def compare(ours, theirs):
    diffs, both, only_ours, only_theirs = [], 0, 0, 0
    for row_a, row_b in zip(ours, theirs):
        for a, b in zip(row_a, row_b):
            if a is not None and b is not None:
                both += 1
                if b > 60:
                    diffs.append(abs(a - b) / b)
            elif a is not None:
                only_ours += 1
            elif b is not None:
                only_theirs += 1
    diffs.sort()
    pick = (lambda p: round(diffs[min(len(diffs) - 1, int(p * len(diffs)))], 4)) if diffs else (lambda p: None)
    return {"cells_both": both, "only_navgraph": only_ours, "only_osrm": only_theirs,
            "duration_rel_diff_p50": pick(0.5), "duration_rel_diff_p95": pick(0.95)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pbf", required=True)
    ap.add_argument("--sizes", default="100,1000")
    ap.add_argument("--algorithms", default="ch")
    ap.add_argument("--reps", type=int, default=3, help="rounds (engines alternate within each round)")
    ap.add_argument("--annotations", default="duration;duration,distance", help="annotation sets, ';'-separated")
    ap.add_argument("--graph", help="existing .navgraph of --pbf (default: import into the work folder)")
    ap.add_argument("--pairs-pbf", help="PBF for Tools/make_pairs.py (default --pbf)")
    ap.add_argument("--tile-shift", help="DLON,DLAT,K,SEED: move every point into a random tile of a K x K tiled input")
    ap.add_argument("--isochrone", action="store_true")
    ap.add_argument("--osrm-data", default="", help="ALGO=FILE.osrm[,...]: OSRM data prepared elsewhere, used read only")
    ap.add_argument("--navgraph", default=str(REPO / ".build" / "release" / "navgraph"))
    ap.add_argument("--timeout", type=int, default=1800, help="seconds per step or request")
    ap.add_argument("--request-timeout", type=int, default=0,
                    help="seconds an OSRM /table request may take; beyond, its time is recorded as a lower bound (timed_out) "
                         "and that algorithm is not asked again in this run (default: --timeout, and a timeout fails the run)")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    peerlib.exit_on_sigterm()
    pkg = osrm_pkg()
    pbf = Path(args.pbf).resolve()
    name = pbf.name.removesuffix(".osm.pbf")
    sizes = [int(s) for s in args.sizes.split(",")]
    algos = [a.strip() for a in args.algorithms.split(",") if a.strip()]
    work = WORK / name
    work.mkdir(parents=True, exist_ok=True)
    logf = work / "build.log"
    result = {"pbf": str(pbf), "machine": peerlib.machine_info(), "steps": {}, "runs": [],
              "osrm_version": subprocess.run([pkg / "bin" / "osrm-routed", "--version"], capture_output=True, text=True).stdout.strip()}

    graph = Path(args.graph).resolve() if args.graph else work / f"{name}.navgraph"
    if not graph.exists():
        result["steps"]["navgraph_import"] = peerlib.timed_step("import", [args.navgraph, "import", pbf, "-o", graph, "--quiet"], work, logf)
    osrm_dir = WORK / name / "osrm"
    prepared = dict(item.split("=", 1) for item in args.osrm_data.split(",") if item.strip())
    osrm_base = {algo: (Path(path).resolve().parent, Path(path).name) for algo, path in prepared.items()}
    to_prepare = [a for a in algos if a not in osrm_base]
    if to_prepare:
        osrm_dir, steps = prepare_osrm(pkg, pbf, name, to_prepare, logf)
        result["steps"].update(steps)
        for algo in to_prepare:
            osrm_base[algo] = (osrm_dir / algo, f"{name}.osrm")
    result["osrm_data"] = {algo: str(d / b) for algo, (d, b) in osrm_base.items()}

    pairs_file = work / "pairs.csv"
    if not pairs_file.exists():
        with open(pairs_file, "w") as f:
            subprocess.run([sys.executable, REPO / "Tools" / "make_pairs.py", args.pairs_pbf or pbf, str((max(sizes) + 1) // 2), "1"],
                           stdout=f, check=True, timeout=args.timeout)
    points = []
    for lon1, lat1, lon2, lat2 in peerlib.read_pairs(pairs_file):
        points += [(lon1, lat1), (lon2, lat2)]
    if args.tile_shift:
        dlon, dlat, k, seed = args.tile_shift.split(",")
        rng = random.Random(int(seed))
        points = [(lon + rng.randrange(int(k)) * float(dlon), lat + rng.randrange(int(k)) * float(dlat)) for lon, lat in points]
        result["points"] = f"make_pairs.py {args.pairs_pbf or pbf}, each point moved into a random tile of {k}x{k} (seed {seed})"

    point_files = {}
    for n in sizes:
        pts_file = work / f"points-{n}.csv"
        pts_file.write_text("lon,lat\n" + "".join(f"{lon:.6f},{lat:.6f}\n" for lon, lat in points[:n]))
        point_files[n] = pts_file
    annotation_sets = [a for a in ("duration", "duration,distance") if a in args.annotations.split(";")]
    runs = {}

    def record(key, wall, cpu, load, **extra):
        run = runs.setdefault(key, dict(extra, wall_s=[], cpu_s=[], load1=[]))
        run["wall_s"].append(round(wall, 4))
        run["cpu_s"].append(round(cpu, 4))
        run["load1"].append(load)
        return run

    navgraph_tables = {}
    timed_out = set()
    with contextlib.ExitStack() as stack:
        servers = {}
        for algo in algos:
            port = peerlib.free_port()
            data_dir, base_name = osrm_base[algo]
            cmd = [pkg / "bin" / "osrm-routed", "-i", "127.0.0.1", "-p", port, "-a", algo.upper(), "-t", "2",
                   "--max-table-size", max(sizes) + 1, base_name]

            def probe(conn):
                conn.request("GET", f"/table/v1/driving/{points[0][0]},{points[0][1]};{points[1][0]},{points[1][1]}")
                return conn.getresponse().status in (200, 400)

            server = stack.enter_context(peerlib.Server(cmd, data_dir, work / f"routed-{algo}.log", port))
            server.wait_ready(probe, timeout_s=args.timeout)
            osrm_table(port, server.proc.pid, points[:50], "duration,distance", args.timeout)   # warm-up
            servers[algo] = (port, server)
        iso_server = None
        if args.isochrone:
            lon, lat = points[0]
            iso_path = f"/isochrone/v1/driving/{lon:.6f},{lat:.6f}?contours_minutes=5,10,15"
            port = peerlib.free_port()
            server = stack.enter_context(peerlib.Server([args.navgraph, "serve", graph, "--port", port, "--threads", "2", "--quiet"],
                                                        work, work / "serve.log", port))

            def iso_probe(conn):
                conn.request("GET", "/health")
                return conn.getresponse().status == 200

            server.wait_ready(iso_probe, timeout_s=args.timeout)
            for _ in range(2):
                isochrone_request(port, server.proc.pid, iso_path, args.timeout)   # warm-up
            iso_server = (port, server)
        for round_index in range(args.reps):
            for n in sizes:
                for annotations in annotation_sets:
                    out = work / f"navgraph-{n}.json"
                    load = os.getloadavg()[0]
                    wall, cpu, stderr = run_timed([args.navgraph, "matrix", graph, point_files[n], "--output", out, "--annotations", annotations,
                                                   "--skip-unsnappable"], args.timeout)
                    run = record(("navgraph", n, annotations), wall, cpu, load, engine="navgraph", size=n, annotations=annotations)
                    run["stderr"] = stderr.strip().splitlines()
                    peerlib.log(f"[round {round_index}] navgraph {n}x{n} {annotations}: {wall:.3f} s, cpu {cpu:.3f} s, load {load:.1f}; {stderr.strip()}")
                    if annotations == "duration" and n not in navgraph_tables:
                        navgraph_tables[n] = json.loads(out.read_text())["durations"]
                    out.unlink()
                    for algo, (port, server) in servers.items():
                        if algo in timed_out:
                            continue
                        load = os.getloadavg()[0]
                        cpu_before = process_cpu(server.proc.pid)
                        try:
                            wall, cpu, table = osrm_table(port, server.proc.pid, points[:n], annotations, args.request_timeout or args.timeout)
                        except TimeoutError:
                            if not args.request_timeout:
                                raise
                            # Unanswered in time: a lower bound; the server keeps computing, so this algorithm is not asked again.
                            wall, cpu = args.request_timeout, process_cpu(server.proc.pid) - cpu_before
                            record((f"osrm-{algo}", n, annotations), wall, cpu, load, engine=f"osrm-{algo}", size=n, annotations=annotations,
                                   timed_out=True)
                            timed_out.add(algo)
                            peerlib.log(f"[round {round_index}] osrm-{algo} {n}x{n} {annotations}: no answer within {wall} s (server cpu {cpu:.1f} s)")
                            continue
                        run = record((f"osrm-{algo}", n, annotations), wall, cpu, load, engine=f"osrm-{algo}", size=n, annotations=annotations)
                        if annotations == "duration" and "agreement" not in run:
                            run["agreement"] = compare(navgraph_tables[n], table["durations"])
                        peerlib.log(f"[round {round_index}] osrm-{algo} {n}x{n} {annotations}: {wall:.3f} s, server cpu {cpu:.3f} s, load {load:.1f}")
            if args.isochrone:
                lon, lat = points[0]
                out = work / "iso.geojson"
                for flags in ([], ["--no-verify"]):
                    load = os.getloadavg()[0]
                    wall, cpu, stderr = run_timed([args.navgraph, "isochrone", graph, f"{lat},{lon}", "--minutes", "5,10,15", "--output", out]
                                                  + flags, args.timeout)
                    run = record(("isochrone", tuple(flags)), wall, cpu, load, engine="navgraph", isochrone="5,10,15", flags=flags)
                    run["stderr"] = stderr.strip().splitlines()
                    peerlib.log(f"[round {round_index}] isochrone {flags}: {wall:.3f} s, cpu {cpu:.3f} s, load {load:.1f}; {stderr.strip()}")
                if iso_server:
                    port, server = iso_server
                    load = os.getloadavg()[0]
                    wall, cpu, size = isochrone_request(port, server.proc.pid, iso_path, args.timeout)
                    record(("isochrone-server",), wall, cpu, load, engine="navgraph-serve", isochrone="5,10,15", response_bytes=size)
                    peerlib.log(f"[round {round_index}] isochrone server: {wall:.3f} s, server cpu {cpu:.3f} s, load {load:.1f}, {size} bytes")
        for algo, (port, server) in servers.items():
            result["steps"][f"routed_{algo}_peak_rss_kb"] = server.peak_rss_kb()
    for run in runs.values():
        run["median_s"] = round(statistics.median(run["wall_s"]), 4)
        run["median_cpu_s"] = round(statistics.median(run["cpu_s"]), 4)
        run["load1_range"] = [min(run["load1"]), max(run["load1"])]
        result["runs"].append(run)

    ratios = {}
    for run in result["runs"]:
        if run["engine"].startswith("osrm"):
            ours = next(r for r in result["runs"] if r["engine"] == "navgraph" and r.get("size") == run["size"]
                        and r.get("annotations") == run["annotations"])
            key = f"{run['size']}x{run['size']} {run['annotations']} vs {run['engine']}"
            ratios[key] = {"wall": round(ours["median_s"] / run["median_s"], 3), "load1": run["load1_range"],
                           "osrm_timed_out": run.get("timed_out", False),
                           "cpu": round(ours["median_cpu_s"] / run["median_cpu_s"], 3) if run["median_cpu_s"] > 0 else None}
    result["ratios_navgraph_over_osrm"] = ratios
    peerlib.log(json.dumps(ratios, indent=1))
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
