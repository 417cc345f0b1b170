#!/usr/bin/env python3
"""guidance_overhead_peers.py - what asking for steps costs over HTTP, navgraph next to OSRM v26.

For each extract: imports it with navgraph and builds OSRM CH with car.lua (if needed, in Benchmarks/work/guidance/<name>/, as guidance_compare.py),
starts `navgraph serve` and `osrm-routed` on loopback (one worker thread each), and sends the same random pairs to
both as `/route/v1/driving/A;B?overview=full&geometries=polyline6`, without and with `steps=true`, over one
keep-alive connection per server. Rounds alternate the four cases (engine x steps) and their order; each round
gives each engine's ratio p50(steps) / p50(plain), and the median ratio over rounds is reported.

Latency is measured by the client, from writing the request to reading the whole body, so it includes HTTP, JSON
writing and this Python client's own overhead (the same for both engines); the in-process figure of navgraph's
guidance alone is `navgraph-bench GRAPH PAIRS --guidance-rounds N`. navgraph's steps response also carries its
intersections and lanes as OSRM's does; neither server is asked for voice or banner instructions.

Usage: Benchmarks/guidance_overhead_peers.py [--extracts malta,milan] [--pairs 500] [--rounds 5] [--seed 5]
       [--navgraph .build/release/navgraph] [--out Benchmarks/results/guidance-overhead-peers.json]
Needs the peers venv (Tools/setup_peers.sh) for the osrm-bindings wheel.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Benchmarks" / "peers"))
import peerlib  # noqa: E402

sys.path.insert(0, str(ROOT / "Benchmarks"))
from guidance_compare import peerlib_data, prepare  # noqa: E402  (the same graphs and OSRM builds)


def osrm_package():
    import osrm  # noqa: PLC0415
    return Path(osrm.__file__).parent


def measure(client, pairs, steps):
    latencies, failed = [], 0
    suffix = "&steps=true" if steps else ""
    for lon1, lat1, lon2, lat2 in pairs:
        status, body, ms = client.timed("GET", f"/route/v1/driving/{lon1},{lat1};{lon2},{lat2}"
                                               f"?overview=full&geometries=polyline6{suffix}")
        if status == 200 and b'"code":"Ok"' in body.replace(b" ", b""):
            latencies.append(ms)
        else:
            failed += 1
    latencies.sort()
    return peerlib.percentile(latencies, 50), failed


def run_extract(name, args, osrm_pkg):
    graph, osrm_dir, base = prepare(name, args.navgraph, osrm_pkg)
    pbf = peerlib_data(name)
    pairs_text = subprocess.run([sys.executable, ROOT / "Tools" / "make_pairs.py", pbf, str(args.pairs), str(args.seed)],
                                capture_output=True, text=True, check=True).stdout
    pairs = [tuple(map(float, line.split(","))) for line in pairs_text.split()]
    osrm_port, nav_port = peerlib.free_port(), peerlib.free_port()
    osrm_cmd = [osrm_pkg / "bin" / "osrm-routed", "-i", "127.0.0.1", "-p", osrm_port, "-a", "CH", "-t", "1", base.name]
    nav_cmd = [Path(args.navgraph).resolve(), "serve", graph.resolve(), "--port", nav_port, "--threads", "1", "--quiet"]
    probe = lambda conn: (conn.request("GET", "/route/v1/driving/0,0;0,0"), conn.getresponse().read()) is not None  # noqa: E731
    result = {"extract": name, "pairs": len(pairs), "rounds": []}
    with peerlib.Server(osrm_cmd, osrm_dir, osrm_dir / "routed.log", osrm_port) as osrm_server, \
            peerlib.Server(nav_cmd, graph.parent, graph.parent / "serve.log", nav_port) as nav_server:
        osrm_server.wait_ready(probe)
        nav_server.wait_ready(probe)
        clients = {"navgraph": peerlib.KeepAliveClient(nav_port), "osrm": peerlib.KeepAliveClient(osrm_port)}
        cases = [(engine, steps) for engine in clients for steps in (False, True)]
        for engine, steps in cases:   # warm-up: page in both graphs, fill navgraph's junction caches
            measure(clients[engine], pairs, steps)
        for round_index in range(args.rounds):
            order = cases if round_index % 2 == 0 else list(reversed(cases))
            p50 = {}
            for engine, steps in order:
                p50[(engine, steps)] = measure(clients[engine], pairs, steps)
            entry = {"load": peerlib_load()}
            for engine in clients:
                plain, with_steps = p50[(engine, False)][0], p50[(engine, True)][0]
                entry[engine] = {"plain_p50_ms": round(plain, 3), "steps_p50_ms": round(with_steps, 3),
                                 "ratio": round(with_steps / plain, 3),
                                 "failed": p50[(engine, False)][1] + p50[(engine, True)][1]}
            result["rounds"].append(entry)
            peerlib.log(f"{name} round {round_index + 1}: " + ", ".join(
                f"{engine} {entry[engine]['plain_p50_ms']} -> {entry[engine]['steps_p50_ms']} ms ({entry[engine]['ratio']}x)"
                for engine in clients))
        for client in clients.values():
            client.close()
    for engine in ("navgraph", "osrm"):
        result[f"{engine}_median_ratio"] = round(statistics.median(r[engine]["ratio"] for r in result["rounds"]), 3)
    peerlib.log(f"{name}: median steps/plain p50 ratio navgraph {result['navgraph_median_ratio']}x, "
                f"OSRM {result['osrm_median_ratio']}x")
    return result


def peerlib_load():
    try:
        return float(Path("/proc/loadavg").read_text().split()[0])
    except (OSError, ValueError):
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--extracts", default="malta,milan")
    parser.add_argument("--pairs", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--navgraph", default=str(ROOT / ".build" / "release" / "navgraph"))
    parser.add_argument("--out", default=str(ROOT / "Benchmarks" / "results" / "guidance-overhead-peers.json"))
    args = parser.parse_args()
    peerlib.exit_on_sigterm()
    osrm_pkg = osrm_package()
    results = [run_extract(name, args, osrm_pkg) for name in args.extracts.split(",")]
    Path(args.out).write_text(json.dumps({"results": results}, indent=2) + "\n")
    print(json.dumps([{k: r[k] for k in ("extract", "pairs", "navgraph_median_ratio", "osrm_median_ratio")} for r in results]))


if __name__ == "__main__":
    main()
