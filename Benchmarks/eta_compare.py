#!/usr/bin/env python3
"""eta_compare.py - navgraph ETAs and distances against OSRM v26 (car.lua) on the same random pairs.

For every shared extract: draws pairs with Tools/make_pairs.py (road nodes, fixed seed), builds OSRM CH data with
the wheel's car.lua (osrm-extract + osrm-contract, cached under Benchmarks/work/eta/osrm/<name>/), imports the extract
with each given navgraph binary, routes the pairs with `navgraph route --pairs` and with the in-process OSRM
bindings, and reports over the pairs both routed the median and p90 of |navgraph/OSRM - 1| for duration and
distance (plus the median signed ratio). Several binaries (e.g. before=... after=...) run in the same call on the
same pairs and the same OSRM data.

Usage (the OSRM bindings need Python >= 3.12: the venv made by Tools/setup_peers.sh):
  Benchmarks/work/peers-venv/bin/python Benchmarks/eta_compare.py \
      --binary before=/path/to/old/navgraph --binary after=.build/release/navgraph [--pairs 1000] [--seed 14] \
      [--extracts milan,porto] [--output Benchmarks/results/eta-turncost.json]
Writes the JSON result and prints a Markdown table (the one in Benchmarks/ETA.md) to stdout.
"""
import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WORK = REPO / "Benchmarks" / "work" / "eta"
DATA = Path(os.environ.get("NAVGRAPH_DATA", REPO.parent / "shared" / "data"))

sys.path.insert(0, str(REPO / "Benchmarks" / "peers"))
from pair_routes import compare, log, osrm_py, osrm_routes, read_route_csv, run  # noqa: E402
import pair_routes  # noqa: E402

TARGETS = {"duration_median": 0.05, "distance_median": 0.02, "p90": 0.15}
LONG_M = 1000.0  # the second set of figures: pairs whose OSRM route is at least this long


def make_pairs(pbf, n, seed):
    return pair_routes.make_pairs(WORK / "pairs", pbf, n, seed)


def osrm_data(pbf, name):
    """CH data for the extract, built once with the wheel's car.lua."""
    return pair_routes.osrm_data(WORK / "osrm" / name, pbf, name, "car")


def navgraph_routes(binary, label, pbf, name, pairs_file):
    d = WORK / label
    d.mkdir(parents=True, exist_ok=True)
    graph, results = d / f"{name}.navgraph", d / f"{name}.csv"
    with open(d / f"{name}.import.log", "w") as logf:
        run([binary, "import", pbf, "-o", graph], stderr=logf, stdout=logf)
    with open(d / f"{name}.route.log", "w") as logf:
        run([binary, "route", graph, "--pairs", pairs_file, "--output", results], stderr=logf)
    return read_route_csv(results)


def meets(stats):
    return (stats["duration"]["median"] <= TARGETS["duration_median"] and stats["distance"]["median"] <= TARGETS["distance_median"]
            and stats["duration"]["p90"] <= TARGETS["p90"] and stats["distance"]["p90"] <= TARGETS["p90"])


def table(result):
    labels = [b["label"] for b in result["binaries"]]
    lines = ["| extract | pairs both routed (≥ 1 km) | " + " | ".join(
        f"{l}: duration median / p90 (ratio) | {l}: distance median / p90" for l in labels) + " | targets met (last) |",
             "|---|---:|" + "---|---|" * len(labels) + "---|"]
    for name, per in result["extracts"].items():
        cells = []
        for l in labels:
            s = per[l]
            cells.append(f"{100 * s['duration']['median']:.1f}% / {100 * s['duration']['p90']:.1f}% ({s['duration']['median_ratio']:.3f})")
            cells.append(f"{100 * s['distance']['median']:.1f}% / {100 * s['distance']['p90']:.1f}%")
        last = per[labels[-1]]
        lines.append(f"| {name} | {last['both_routed']} ({last['from_1km']['both_routed']}) | " + " | ".join(cells)
                     + f" | {'yes' if meets(last) else 'no'} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", action="append", required=True, help="LABEL=PATH of a navgraph executable (repeatable)")
    ap.add_argument("--pairs", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--extracts", default="", help="comma-separated names (default: every *.osm.pbf in the data folder)")
    ap.add_argument("--output", default=str(REPO / "Benchmarks" / "results" / "eta-turncost.json"))
    args = ap.parse_args()
    binaries = []
    for spec in args.binary:
        label, _, path = spec.partition("=")
        binaries.append({"label": label, "path": str(Path(path).resolve())})
    names = [n for n in args.extracts.split(",") if n] or sorted(p.name.replace(".osm.pbf", "") for p in DATA.glob("*.osm.pbf"))
    result = {"osrm": {"version": getattr(osrm_py, "__version__", "osrm-bindings"), "profile": "car.lua (wheel)", "algorithm": "CH"},
              "pairs_per_extract": args.pairs, "seed": args.seed, "binaries": binaries, "targets": TARGETS,
              "machine": {"cpus": os.cpu_count(), "platform": platform.platform()},
              "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "extracts": {}}
    for name in names:
        pbf = DATA / f"{name}.osm.pbf"
        pairs_file, pairs = make_pairs(pbf, args.pairs, args.seed)
        ref = osrm_routes(osrm_data(pbf, name), pairs)
        result["extracts"][name] = {}
        for b in binaries:
            nav = navgraph_routes(b["path"], b["label"], pbf, name, pairs_file)
            stats = compare(nav, ref)
            stats["from_1km"] = {k: v for k, v in compare(nav, ref, LONG_M).items() if k in ("both_routed", "duration", "distance")}
            stats["osrm_median_distance_m"] = round(statistics.median([b[0] for a, b in zip(nav, ref) if a and b] or [0]), 1)
            result["extracts"][name][b["label"]] = stats
            log(f"{name} {b['label']}: {json.dumps(stats)}")
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(result, indent=1) + "\n")
    print(table(result))


if __name__ == "__main__":
    main()
