#!/usr/bin/env python3
"""guidance_overhead_inprocess.py - what steps add to a route query inside the engine's process, OSRM v26 next to
navgraph, on the same pairs and with the same round scheme.

OSRM runs in this process through the `osrm-bindings` wheel (`osrm.OSRM(...).Route(params)`, CH, car.lua): the call
returns OSRM's own JSON object tree without serializing it, so it times snapping, the query, unpacking, (with
`steps`) OSRM's guidance, and building the response object. navgraph runs `navgraph-bench GRAPH PAIRS
--guidance-rounds N --back-to-back B`, which times snapping, the query, unpacking, leg building and (with steps)
`Router.addSteps`; it builds no JSON. So OSRM's figure includes building its response's JSON objects and
navgraph's does not: the comparison shows the two designs' in-process costs, not identical work.

Round scheme (both engines): every pair is routed plain and with steps in one round; which goes first alternates
from pair to pair and from round to round; with `--back-to-back other` the second query of a slot is on the pair
n/2 further down the list, so that no query repeats the pair just routed. Each round gives p50(steps) / p50(plain);
the median over rounds is reported, after one warm-up pass of each kind.

Usage: Benchmarks/guidance_overhead_inprocess.py --extracts monaco,malta,porto,milan [--pairs-dir /tmp/lat]
       [--rounds 5] [--back-to-back other|same] [--navgraph-bench .build/release/navgraph-bench]
       [--out Benchmarks/results/guidance-overhead-inprocess.json]
PAIRS files are `<pairs-dir>/<extract>-pairs.csv` (lon,lat,lon,lat per line, as Tools/make_pairs.py writes) and
graphs `<pairs-dir>/<extract>.navgraph`; OSRM data are taken from Benchmarks/work/<extract>/osrm/<extract>.osrm.
Needs the peers venv (Tools/setup_peers.sh).
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def read_pairs(path):
    pairs = []
    for number, line in enumerate(Path(path).read_text().split(), start=1):
        values = line.split(",")
        if len(values) != 4:
            sys.exit(f"{path}:{number}: expected lon,lat,lon,lat, got {line!r}")
        pairs.append(tuple(float(v) for v in values))
    return pairs


def osrm_rounds(base, pairs, rounds, same_pair):
    import osrm  # noqa: PLC0415

    engine = osrm.OSRM(storage_config=str(base), algorithm="CH", use_shared_memory=False)

    def query(pair, steps):
        params = osrm.RouteParameters(coordinates=[(pair[0], pair[1]), (pair[2], pair[3])], steps=steps,
                                      geometries="polyline6", overview="full", generate_hints=False)
        begin = time.perf_counter()
        try:
            result = engine.Route(params)
        except RuntimeError:
            return None
        elapsed = (time.perf_counter() - begin) * 1000
        del result
        return elapsed

    for steps in (False, True):
        for pair in pairs:
            query(pair, steps)
    ratios, plain_p50s, steps_p50s = [], [], []
    n = len(pairs)
    for round_index in range(1, rounds + 1):
        times = {False: [], True: []}
        for index in range(n):
            order = (False, True) if (index + round_index) % 2 == 0 else (True, False)
            for turn, steps in enumerate(order):
                pair = pairs[index] if turn == 0 or same_pair else pairs[(index + n // 2) % n]
                elapsed = query(pair, steps)
                if elapsed is not None:
                    times[steps].append(elapsed)
        plain, stepped = statistics.median(times[False]), statistics.median(times[True])
        plain_p50s.append(plain)
        steps_p50s.append(stepped)
        ratios.append(stepped / plain)
        print(f"  osrm round {round_index}: plain p50 {plain:.3f} ms, steps p50 {stepped:.3f} ms, ratio {stepped / plain:.2f}",
              file=sys.stderr)
    return {"ratios": ratios, "medianRatio": statistics.median(ratios), "plainP50": plain_p50s, "stepsP50": steps_p50s}


def navgraph_rounds(bench, graph, pairs_path, rounds, back_to_back):
    run = subprocess.run([bench, graph, pairs_path, "--guidance-rounds", str(rounds), "--back-to-back", back_to_back],
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"navgraph-bench failed on {graph}: {run.stderr.strip()[-400:]}")
    result = json.loads(run.stdout)
    return {"ratios": result["ratios"], "medianRatio": result["medianRatio"], "plainP50": result["plainP50"],
            "stepsP50": result["stepsP50"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--extracts", default="monaco,malta,porto,milan")
    parser.add_argument("--pairs-dir", default="/tmp/lat")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--back-to-back", choices=["same", "other"], default="other")
    parser.add_argument("--navgraph-bench", default=str(ROOT / ".build" / "release" / "navgraph-bench"))
    parser.add_argument("--out", default=str(ROOT / "Benchmarks" / "results" / "guidance-overhead-inprocess.json"))
    args = parser.parse_args()
    if args.rounds < 1:
        sys.exit(f"--rounds: expected at least 1, got {args.rounds}")
    report = {"backToBack": args.back_to_back, "rounds": args.rounds, "extracts": {}}
    for name in args.extracts.split(","):
        pairs_path = Path(args.pairs_dir) / f"{name}-pairs.csv"
        graph = Path(args.pairs_dir) / f"{name}.navgraph"
        base = ROOT / "Benchmarks" / "work" / name / "osrm" / f"{name}.osrm"
        for needed in (pairs_path, graph, Path(str(base) + ".hsgr")):
            if not needed.exists():
                sys.exit(f"{name}: missing {needed}")
        pairs = read_pairs(pairs_path)
        print(f"{name}: {len(pairs)} pairs", file=sys.stderr)
        # The two engines take turns, so that a slow spell of the shared machine does not fall on one alone.
        ours = navgraph_rounds(args.navgraph_bench, graph, pairs_path, args.rounds, args.back_to_back)
        theirs = osrm_rounds(base, pairs, args.rounds, args.back_to_back == "same")
        report["extracts"][name] = {"pairs": len(pairs), "navgraph": ours, "osrm": theirs}
        print(f"{name}: navgraph median ratio {ours['medianRatio']:.2f}x, OSRM {theirs['medianRatio']:.2f}x", file=sys.stderr)
    Path(args.out).write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
