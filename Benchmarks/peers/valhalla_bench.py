#!/usr/bin/env python3
"""valhalla_bench.py - build Valhalla tiles from an OSM extract and time route queries.

Usage (with the venv python from Tools/setup_peers.sh):
  valhalla_bench.py --pbf X.osm.pbf --pairs pairs.csv --out results.json
                    [--alternatives 3] [--limit N] [--modes inproc,http]

Build, in Benchmarks/work/valhalla/<name>/: valhalla_build_config writes
valhalla.json (tiles in tiles/, no admin/timezone/elevation data, service on
127.0.0.1:<free port>, service_limits.max_alternates raised to the asked
number; valhalla-query.json is the same with logging off), then
valhalla_build_tiles runs under `/usr/bin/time -v` (wall, user, sys, peak RSS).

Queries: {"locations": [A, B], "costing": "auto", "units": "kilometers",
"directions_type": "none"} (no narrative, like OSRM without steps), plus
"alternates": N in the alternatives pass.
  inproc  valhalla.Actor(config).route(json string); latency = the call,
          engine plus JSON serialisation, no HTTP: the closest to server-side time.
  http    valhalla_service on loopback, POST /route on one keep-alive
          http.client connection; latency = client-side, request to full body.
Writes OUT (full, per query; .gz suffix gzips) and OUT-stem.summary.json.
"""
import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peerlib  # noqa: E402
from peerlib import log  # noqa: E402

import valhalla  # noqa: E402

VAL_PKG = Path(valhalla.__file__).parent
BUILD_CONFIG = Path(sys.executable).parent / "valhalla_build_config"


def request_json(p, alternatives, narrative):
    req = {"locations": [{"lon": p[0], "lat": p[1]}, {"lon": p[2], "lat": p[3]}],
           "costing": "auto", "units": "kilometers"}
    if not narrative:
        req["directions_type"] = "none"
    if alternatives:
        req["alternates"] = alternatives
    return json.dumps(req)


def parse_trip(doc):
    """[{distance_m, duration_s, shape}] for the main trip and its alternates."""
    routes = []
    for t in [doc] + doc.get("alternates", []):
        trip = t["trip"]
        shape = []
        for leg in trip["legs"]:
            pts = peerlib.decode_polyline(leg["shape"], 6)
            shape.extend(pts[1:] if shape else pts)
        routes.append({"distance_m": round(trip["summary"]["length"] * 1000.0, 1),
                       "duration_s": trip["summary"]["time"], "geometry": shape})
    return routes


def error_code(text):
    m = re.search(r'"error_code"\s*:\s*(\d+)', text)
    return f"E{m.group(1)}" if m else (text.strip().split("\n")[0][:60] or "error")


def record(i, code, ms, routes, alternatives):
    rec = {"i": i, "code": code, "latency_ms": round(ms, 4), "distance_m": None, "duration_s": None}
    if routes:
        rec["distance_m"], rec["duration_s"] = routes[0]["distance_m"], routes[0]["duration_s"]
        if alternatives:
            rec["routes"] = routes
    return rec


def inproc_pass(actor, pairs, alternatives, narrative):
    out = []
    for i, p in enumerate(pairs):
        body = request_json(p, alternatives, narrative)
        t0 = time.perf_counter()
        try:
            text = actor.route(body)
            ms = (time.perf_counter() - t0) * 1000.0
            out.append(record(i, "Ok", ms, parse_trip(json.loads(text)), alternatives))
        except Exception as e:  # valhalla.ValhallaError has .code (e.g. 442 = no path)
            ms = (time.perf_counter() - t0) * 1000.0
            code = f"E{e.code}" if getattr(e, "code", None) else error_code(str(e))
            out.append(record(i, code, ms, None, alternatives))
    return out, {}


def http_pass(port, pairs, alternatives, narrative):
    client = peerlib.KeepAliveClient(port)
    out = []
    for i, p in enumerate(pairs):
        status, data, ms = client.timed("POST", "/route", request_json(p, alternatives, narrative),
                                        {"Content-Type": "application/json"})
        text = data.decode("utf-8", "replace")
        if status == 200:
            out.append(record(i, "Ok", ms, parse_trip(json.loads(text)), alternatives))
        else:
            out.append(record(i, error_code(text) if "error_code" in text else f"HTTP{status}", ms, None,
                              alternatives))
    client.close()
    return out, {"http_connections": client.connects}


def main():
    ap = peerlib.argument_parser(__doc__)
    ap.add_argument("--modes", default="inproc,http")
    ap.add_argument("--threads", type=int, default=2, help="valhalla_service worker threads")
    ap.add_argument("--narrative", action="store_true", help="ask for maneuvers (default directions_type=none)")
    ap.add_argument("--workdir", help="default Benchmarks/work/valhalla/<pbf name>")
    args = ap.parse_args()
    peerlib.exit_on_sigterm()

    pbf = Path(args.pbf).resolve()
    name = pbf.name.removesuffix(".osm.pbf").removesuffix(".pbf")
    work = Path(args.workdir or peerlib.WORK / "valhalla" / name).resolve()
    pairs = peerlib.read_pairs(args.pairs, args.limit)
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    alt_values = [0] + ([args.alternatives] if args.alternatives else [])
    port = peerlib.free_port()

    shutil.rmtree(work, ignore_errors=True)
    (work / "tiles").mkdir(parents=True)
    cfg_path = work / "valhalla.json"
    cfg_text = subprocess.run(
        [BUILD_CONFIG, "--mjolnir-tile-dir", work / "tiles", "--mjolnir-tile-extract", "",
         "--mjolnir-admin", "", "--mjolnir-timezone", "", "--mjolnir-traffic-extract", "",
         "--mjolnir-landmarks", "", "--mjolnir-transit-dir", "", "--additional-data-elevation", "",
         "--httpd-service-listen", f"tcp://127.0.0.1:{port}",
         "--httpd-service-loopback", f"ipc://{work}/loopback",
         "--httpd-service-interrupt", f"ipc://{work}/interrupt"],
        check=True, capture_output=True, text=True).stdout
    cfg = json.loads(cfg_text)
    cfg["service_limits"]["max_alternates"] = max(cfg["service_limits"].get("max_alternates", 0), args.alternatives)
    cfg_path.write_text(json.dumps(cfg, indent=1))
    cfg["logging"]["type"] = ""  # queries: no per-request log lines (they cost latency)
    query_cfg = work / "valhalla-query.json"
    query_cfg.write_text(json.dumps(cfg, indent=1))

    result = {"engine": "valhalla", "version": valhalla.__version__, "pbf": str(pbf),
              "pbf_bytes": pbf.stat().st_size, "pairs_file": str(args.pairs), "n_pairs": len(pairs),
              "machine": peerlib.machine_info(), "request": json.loads(request_json((0, 0, 0, 0), 0, args.narrative)),
              "steps": {}, "runs": []}
    log(f"Valhalla {valhalla.__version__}: {pbf.name}, {len(pairs)} pairs, work {work}")
    result["steps"]["build_tiles"] = peerlib.timed_step(
        "build_tiles", [VAL_PKG / "bin" / "valhalla_build_tiles", "-c", cfg_path, pbf], work, work / "build.log")
    tiles = [f for f in (work / "tiles").rglob("*") if f.is_file()]
    result["steps"]["tiles"] = {"files": len(tiles), "bytes": sum(f.stat().st_size for f in tiles)}

    if "inproc" in modes:
        t0 = time.monotonic()
        actor = valhalla.Actor(str(query_cfg))
        result["steps"]["actor_init"] = {"wall_s": round(time.monotonic() - t0, 3)}
        peerlib.run_passes(result, pairs, "auto", "inproc", "in-process valhalla.Actor.route() call", alt_values,
                           lambda alt, ps: inproc_pass(actor, ps, alt, args.narrative), args.warmup)
        del actor

    service = VAL_PKG / "bin" / "valhalla_service"
    if "http" in modes and service.is_file():
        probe_body = request_json(pairs[0], 0, args.narrative)

        def probe(conn):
            conn.request("POST", "/route", body=probe_body, headers={"Content-Type": "application/json"})
            return conn.getresponse().status in (200, 400)

        with peerlib.Server([service, query_cfg, args.threads], work, work / "service.log", port) as srv:
            ready = srv.wait_ready(probe)
            log(f"valhalla_service ready after {ready:.1f} s on port {port}")
            result["steps"]["service_ready"] = {"wall_s": round(ready, 3)}
            peerlib.run_passes(result, pairs, "auto", "http", "client-side loopback HTTP, keep-alive", alt_values,
                               lambda alt, ps: http_pass(port, ps, alt, args.narrative), args.warmup)
            result["steps"]["service_peak_rss_kb"] = srv.peak_rss_kb()
    elif "http" in modes:
        log("[http] skipped: no valhalla_service binary")

    peerlib.write_results(args.out, result)


if __name__ == "__main__":
    main()
