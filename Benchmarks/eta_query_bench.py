#!/usr/bin/env python3
"""eta_query_bench.py - query latency of two navgraph builds on one extract, alternating rounds in one run.

Each build imports the extract itself (its own graph file), then `navgraph-bench GRAPH PAIRS` runs for each build in
turn, ROUNDS times (before, after, before, after, ...), so both see the same machine load. Reports per case (plain,
avoid toll+ferry+highway) the p50 of every round, the median of the p50s after/before and the lowest p50 after/before.

Usage: Benchmarks/eta_query_bench.py --before DIR --after DIR [--extract milan] [--rounds 6]
         [--pairs Benchmarks/work/eta/pairs/milan-1000-14.csv] [--output Benchmarks/results/eta-query-milan.json]
         [--keep-graphs]
DIR holds the build's `navgraph` and `navgraph-bench` executables. The extract is NAVGRAPH_DATA/EXTRACT.osm.pbf
(NAVGRAPH_DATA defaults to ../shared/data; a tile such as milan-5x5 lives elsewhere). --keep-graphs reuses graph
files a previous run imported with the same builds (a tiled input takes minutes per import).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("NAVGRAPH_DATA", REPO.parent / "shared" / "data"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", required=True)
    ap.add_argument("--extract", default="milan")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--pairs", default=None)
    ap.add_argument("--output", default=None)
    ap.add_argument("--keep-graphs", action="store_true", help="reuse the graph files of a previous run")
    args = ap.parse_args()
    pairs = args.pairs or str(REPO / "Benchmarks" / "work" / "eta" / "pairs" / f"{args.extract}-1000-14.csv")
    output = Path(args.output or REPO / "Benchmarks" / "results" / f"eta-query-{args.extract}.json")
    work = REPO / "Benchmarks" / "work" / "eta-query"
    work.mkdir(parents=True, exist_ok=True)
    sides = {"before": Path(args.before).resolve(), "after": Path(args.after).resolve()}
    graphs = {}
    for side, folder in sides.items():
        graphs[side] = work / f"{args.extract}-{side}.navgraph"
        if args.keep_graphs and graphs[side].exists() and graphs[side].stat().st_mtime > (folder / "navgraph").stat().st_mtime:
            continue
        subprocess.run([folder / "navgraph", "import", DATA / f"{args.extract}.osm.pbf", "-o", graphs[side], "--quiet"], check=True)
    rounds = []
    for number in range(1, args.rounds + 1):
        for side, folder in sides.items():
            load = os.getloadavg()[0]
            out = subprocess.run([folder / "navgraph-bench", graphs[side], pairs], check=True, capture_output=True, text=True).stdout
            report = json.loads(out)
            rounds.append({"round": number, "side": side, "load": round(load, 1),
                           "measurements": [m for m in report["measurements"] if m["label"] in ("plain", "avoid toll+ferry+highway")]})
            print(f"round {number} {side}: " + ", ".join(f"{m['label']} p50 {m['p50']:.3f} ms" for m in rounds[-1]["measurements"]),
                  f"(load {load:.1f})", file=sys.stderr, flush=True)
    summary = {}
    for label in ("plain", "avoid toll+ferry+highway"):
        p50 = {side: [m["p50"] for r in rounds if r["side"] == side for m in r["measurements"] if m["label"] == label] for side in sides}
        summary[label] = {"before_p50_ms": p50["before"], "after_p50_ms": p50["after"],
                          "median_ratio": round(statistics.median(p50["after"]) / statistics.median(p50["before"]), 3),
                          "lowest_ratio": round(min(p50["after"]) / min(p50["before"]), 3)}
    result = {"graph": args.extract, "pairs": pairs, "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
              "builds": {k: str(v) for k, v in sides.items()}, "rounds": rounds, "summary": summary}
    output.write_text(json.dumps(result, indent=1) + "\n")
    print("| case | before p50 | after p50 | median of p50s after / before | lowest p50 after / before |")
    print("|---|---|---|---|---|")
    for label, s in summary.items():
        print(f"| {label} | {min(s['before_p50_ms']):.3f}–{max(s['before_p50_ms']):.3f} ms | "
              f"{min(s['after_p50_ms']):.3f}–{max(s['after_p50_ms']):.3f} ms | {s['median_ratio']:.2f} | {s['lowest_ratio']:.2f} |")


if __name__ == "__main__":
    main()
