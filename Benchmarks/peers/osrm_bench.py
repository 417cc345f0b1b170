#!/usr/bin/env python3
"""osrm_bench.py - build OSRM (CH and/or MLD) from an OSM extract and time route queries.

Usage (with the venv python from Tools/setup_peers.sh):
  osrm_bench.py --pbf X.osm.pbf --pairs pairs.csv --out results.json
                [--alternatives 3] [--algorithms ch,mld] [--limit N]

Preprocessing, each under `/usr/bin/time -v` (wall, user, sys, peak RSS), in
Benchmarks/work/osrm/<name>/: osrm-extract with car.lua, then osrm-contract (CH,
in ch/) and osrm-partition + osrm-customize (MLD, in mld/).

Queries, per algorithm, one after the other:
  http    osrm-routed on 127.0.0.1:<free port>; one keep-alive http.client
          connection; latency = client-side time from sending the GET
          /route/v1/driving/...?overview=full&geometries=polyline6&annotations=true
          to reading the whole body (includes HTTP + JSON serialisation + loopback).
  inproc  the `osrm` Python bindings, OSRM(...).Route(RouteParameters) with the same
          options; latency = the Route() call (engine time plus building the result
          object, no HTTP, no JSON text): the closest to server-side time.
With --alternatives N a second http and inproc pass asks for N alternatives and
stores every returned route's decoded geometry, duration and distance.
Writes OUT (full, per query; .gz suffix gzips) and OUT-stem.summary.json.
"""
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peerlib  # noqa: E402
from peerlib import log  # noqa: E402

try:
    import osrm as osrm_py
    OSRM_PKG = Path(osrm_py.__file__).parent
except ImportError:  # bindings need Python >= 3.12; binaries may still be given by --osrm-pkg
    osrm_py, OSRM_PKG = None, None


def route_path(p, alternatives):
    q = "overview=full&geometries=polyline6&annotations=true"
    if alternatives:
        q += f"&alternatives={alternatives}"
    return f"/route/v1/driving/{p[0]:.6f},{p[1]:.6f};{p[2]:.6f},{p[3]:.6f}?{q}"


def query_record(i, code, latency_ms, routes, alternatives):
    rec = {"i": i, "code": code, "latency_ms": round(latency_ms, 4), "distance_m": None, "duration_s": None}
    if routes:
        rec["distance_m"], rec["duration_s"] = routes[0]["distance"], routes[0]["duration"]
        if alternatives:
            rec["routes"] = [{"distance_m": r["distance"], "duration_s": r["duration"],
                              "geometry": peerlib.decode_polyline(r["geometry"], 6)} for r in routes]
    return rec


def http_pass(port, pairs, alternatives):
    client = peerlib.KeepAliveClient(port)
    out = []
    for i, p in enumerate(pairs):
        status, body, ms = client.timed("GET", route_path(p, alternatives))
        try:
            doc = json.loads(body)
        except ValueError:
            doc = {"code": f"HTTP{status}"}
        routes = doc.get("routes") if doc.get("code") == "Ok" else None
        out.append(query_record(i, doc.get("code", f"HTTP{status}"), ms, routes, alternatives))
    client.close()
    return out, {"http_connections": client.connects}


def inproc_pass(engine, pairs, alternatives):
    out = []
    for i, p in enumerate(pairs):
        params = osrm_py.RouteParameters(coordinates=[(p[0], p[1]), (p[2], p[3])], overview="full",
                                         geometries="polyline6", annotations=["all"],
                                         number_of_alternatives=alternatives)
        t0 = time.perf_counter()
        try:
            res = engine.Route(params)
            ms = (time.perf_counter() - t0) * 1000.0
            code = res["code"]
        except Exception as e:  # OSRM raises on NoRoute/NoSegment etc.
            ms = (time.perf_counter() - t0) * 1000.0
            res, code = None, str(e).split(" - ")[0].split(":")[0][:60] or type(e).__name__
        routes = None
        if res is not None and code == "Ok":
            routes = [{"distance": r["distance"], "duration": r["duration"], "geometry": str(r["geometry"])}
                      for r in res["routes"]]
        out.append(query_record(i, code, ms, routes, alternatives))
    return out, {}


def main():
    ap = peerlib.argument_parser(__doc__)
    ap.add_argument("--algorithms", default="ch,mld")
    ap.add_argument("--threads", type=int, default=2, help="osrm-routed worker threads")
    ap.add_argument("--modes", default="http,inproc")
    ap.add_argument("--workdir", help="default Benchmarks/work/osrm/<pbf name>")
    ap.add_argument("--osrm-pkg", default=OSRM_PKG, help="folder holding bin/ and share/profiles/")
    args = ap.parse_args()
    peerlib.exit_on_sigterm()

    if not args.osrm_pkg:
        sys.exit("osrm_bench: osrm-bindings not importable; pass --osrm-pkg or run Tools/setup_peers.sh")
    pkg = Path(args.osrm_pkg)
    bin_dir, profile = pkg / "bin", pkg / "share" / "profiles" / "car.lua"
    pbf = Path(args.pbf).resolve()
    name = pbf.name.removesuffix(".osm.pbf").removesuffix(".pbf")
    work = Path(args.workdir or peerlib.WORK / "osrm" / name).resolve()
    algos = [a.strip().lower() for a in args.algorithms.split(",") if a.strip()]
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    pairs = peerlib.read_pairs(args.pairs, args.limit)
    alt_values = [0] + ([args.alternatives] if args.alternatives else [])
    version = subprocess.run([bin_dir / "osrm-routed", "--version"], capture_output=True,
                             text=True).stdout.strip()

    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    (work / f"{name}.osm.pbf").symlink_to(pbf)
    logf = work / "build.log"
    result = {"engine": "osrm", "version": version, "pbf": str(pbf), "pbf_bytes": pbf.stat().st_size,
              "pairs_file": str(args.pairs), "n_pairs": len(pairs), "machine": peerlib.machine_info(),
              "steps": {}, "runs": []}
    log(f"OSRM {version}: {pbf.name}, {len(pairs)} pairs, algorithms {algos}, work {work}")
    result["steps"]["extract"] = peerlib.timed_step(
        "extract", [bin_dir / "osrm-extract", "-p", profile, f"{name}.osm.pbf"], work, logf)

    for algo in algos:
        d = work / algo
        d.mkdir()
        for f in work.glob(f"{name}.osrm*"):
            shutil.copy(f, d / f.name)
        base = f"{name}.osrm"
        if algo == "ch":
            result["steps"]["contract"] = peerlib.timed_step("contract", [bin_dir / "osrm-contract", base], d, logf)
        elif algo == "mld":
            result["steps"]["partition"] = peerlib.timed_step("partition", [bin_dir / "osrm-partition", base], d, logf)
            result["steps"]["customize"] = peerlib.timed_step("customize", [bin_dir / "osrm-customize", base], d, logf)
        else:
            sys.exit(f"unknown algorithm {algo}")

        if "http" in modes:
            port = peerlib.free_port()
            probe_path = route_path(pairs[0], 0)

            def probe(conn):
                conn.request("GET", probe_path)
                return conn.getresponse().status in (200, 400)

            cmd = [bin_dir / "osrm-routed", "-i", "127.0.0.1", "-p", port, "-a", algo.upper(),
                   "-t", args.threads, "--max-alternatives", max(3, args.alternatives), base]
            with peerlib.Server(cmd, d, d / "routed.log", port) as srv:
                ready = srv.wait_ready(probe)
                log(f"[{algo}] osrm-routed ready after {ready:.1f} s on port {port}")
                result["steps"][f"routed_{algo}_ready"] = {"wall_s": round(ready, 3)}
                peerlib.run_passes(result, pairs, algo, "http", "client-side loopback HTTP, keep-alive",
                                   alt_values, lambda alt, ps: http_pass(port, ps, alt), args.warmup)
                result["steps"][f"routed_{algo}_peak_rss_kb"] = srv.peak_rss_kb()

        if "inproc" in modes and osrm_py is not None:
            engine = osrm_py.OSRM(algorithm=algo.upper(), storage_config=str(d / base), use_shared_memory=False,
                                  max_alternatives=max(3, args.alternatives))
            peerlib.run_passes(result, pairs, algo, "inproc", "in-process osrm.OSRM.Route() call",
                               alt_values, lambda alt, ps: inproc_pass(engine, ps, alt), args.warmup)
            del engine
        elif "inproc" in modes:
            log("[inproc] skipped: the osrm Python module is not importable here")

    peerlib.write_results(args.out, result)


if __name__ == "__main__":
    main()
