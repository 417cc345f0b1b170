#!/usr/bin/env python3
"""profile_compare.py - vehicle profiles: import cost against a car-only import, and bicycle/foot ETAs against OSRM.

For each extract (default milan, porto), in one run:
  * imports it with the car-only binary (--baseline, e.g. the main branch before profiles), with this branch's binary
    restricted to the motor road set (--road-sets motor: car, truck, motorcycle) and with all road sets (default),
    and reports wall time and file size of each, and the ratios to the car-only import;
  * draws pairs with Tools/make_pairs.py (road nodes, fixed seed), builds OSRM CH data with the wheel's bicycle.lua and
    foot.lua (cached under Benchmarks/work/profiles/osrm/<profile>/<name>/), routes the pairs with
    `navgraph route --pairs --profile bicycle|foot` and the in-process OSRM bindings, and reports over the pairs both
    routed the median of |navgraph/OSRM - 1| for duration and distance, and the median signed ratio.

With --routes-only the import-cost part is skipped: the extract is imported once with --binary (--profiles
car,bicycle,foot) and only the routes are compared, with the p90 deviations, and --worst N lists each profile's N
pairs whose duration differs most (coordinates, both engines' duration and distance) for tracing them to OSM tags.

Usage (the OSRM bindings need the venv of Tools/setup_peers.sh):
  Benchmarks/work/peers-venv/bin/python Benchmarks/profile_compare.py --baseline /work/main/.build/release/navgraph \
      --binary .build/release/navgraph [--pairs 500] [--seed 16] [--extracts milan,porto] [--output Benchmarks/results/profiles.json]
  Benchmarks/work/peers-venv/bin/python Benchmarks/profile_compare.py --routes-only --binary .build/release/navgraph \
      --pairs 200 --extracts kotka,helgoland,helsinki,baltimore,monaco,andorra,isle-of-man,porto,malta,milan [--worst 5]
"""
import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WORK = REPO / "Benchmarks" / "work" / "profiles"
DATA = Path(os.environ.get("NAVGRAPH_DATA", REPO.parent / "shared" / "data"))

sys.path.insert(0, str(REPO / "Benchmarks" / "peers"))
from pair_routes import log, osrm_py, osrm_routes, read_route_csv, run  # noqa: E402
import pair_routes  # noqa: E402

TARGETS = {"duration_median": 0.10, "distance_median": 0.05}


def make_pairs(pbf, n, seed):
    return pair_routes.make_pairs(WORK / "pairs", pbf, n, seed)


def timed_import(binary, pbf, graph, extra=()):
    graph.parent.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    with open(graph.with_suffix(".import.log"), "w") as logf:
        run([binary, "import", pbf, "-o", graph, *extra], stdout=logf, stderr=logf)
    return {"seconds": round(time.monotonic() - start, 2), "bytes": graph.stat().st_size}


def osrm_data(pbf, name, profile):
    return pair_routes.osrm_data(WORK / "osrm" / profile / name, pbf, name, profile)


def navgraph_routes(binary, graph, pairs_file, profile):
    results = graph.with_name(f"{graph.stem}-{profile}.csv")
    with open(graph.with_name(f"{graph.stem}-{profile}.route.log"), "w") as logf:
        run([binary, "route", graph, "--pairs", pairs_file, "--profile", profile, "--radius", "2000", "--output", results], stderr=logf)
    return read_route_csv(results)


def compare(nav, ref, with_p90=False):
    return pair_routes.compare(nav, ref, with_p90=with_p90)


def worst(nav, ref, pairs, count):
    """The count pairs both routed whose navgraph/OSRM duration ratio is farthest from 1."""
    rows = [(abs(a[1] / b[1] - 1), p, a, b) for p, a, b in zip(pairs, nav, ref) if a and b and b[1] > 0]
    rows.sort(key=lambda row: -row[0])
    return [{"pair": list(p), "navgraph": [round(a[0]), round(a[1], 1)], "osrm": [round(b[0]), round(b[1], 1)],
             "duration_ratio": round(a[1] / b[1], 3)} for _, p, a, b in rows[:count]]


def routes_only(args, binary):
    """Imports each extract once with binary and compares bicycle and foot routes with OSRM (p90s included)."""
    result = {"osrm": {"version": getattr(osrm_py, "__version__", "osrm-bindings"), "profiles": "bicycle.lua, foot.lua (wheel)",
                       "algorithm": "CH"}, "pairs_per_extract": args.pairs, "seed": args.seed, "binary": binary,
              "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "extracts": {}}
    lines = ["| extract | bicycle pairs | bicycle duration median / p90 | bicycle distance median | foot pairs | "
             "foot duration median / p90 | foot distance median |", "|---|---:|---|---|---:|---|---|"]
    for name in [n for n in args.extracts.split(",") if n]:
        pbf = DATA / f"{name}.osm.pbf"
        graph = WORK / "routes" / f"{name}.navgraph"
        timed_import(binary, pbf, graph, ["--profiles", "car,bicycle,foot"])
        pairs_file, pairs = make_pairs(pbf, args.pairs, args.seed)
        per, cells = {}, []
        for profile in ["bicycle", "foot"]:
            ref = osrm_routes(osrm_data(pbf, name, profile), pairs)
            nav = navgraph_routes(binary, graph, pairs_file, profile)
            per[profile] = compare(nav, ref, with_p90=True)
            if args.worst:
                per[profile]["worst"] = worst(nav, ref, pairs, args.worst)
            s = per[profile]
            log(f"{name} {profile}: {json.dumps(s)}")
            cells += [str(s["both_routed"]), f"{100 * s['duration']['median']:.1f}% / {100 * s['duration']['p90']:.1f}%",
                      f"{100 * s['distance']['median']:.1f}%"]
        result["extracts"][name] = per
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(result, indent=1) + "\n")
    print("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--baseline", help="car-only navgraph executable (before profiles); not with --routes-only")
    ap.add_argument("--routes-only", action="store_true", help="skip the import cost; compare routes with p90s")
    ap.add_argument("--worst", type=int, default=0, help="with --routes-only: list this many most deviating pairs")
    ap.add_argument("--binary", required=True, help="navgraph executable with profiles")
    ap.add_argument("--pairs", type=int, default=500)
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--extracts", default="milan,porto")
    ap.add_argument("--output", default=str(REPO / "Benchmarks" / "results" / "profiles.json"))
    args = ap.parse_args()
    binary = str(Path(args.binary).resolve())
    if args.routes_only:
        return routes_only(args, binary)
    if not args.baseline:
        ap.error("--baseline is needed unless --routes-only")
    baseline = str(Path(args.baseline).resolve())
    result = {"osrm": {"version": getattr(osrm_py, "__version__", "osrm-bindings"), "profiles": "bicycle.lua, foot.lua (wheel)",
                       "algorithm": "CH"},
              "pairs_per_extract": args.pairs, "seed": args.seed, "baseline": baseline, "binary": binary, "targets": TARGETS,
              "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "load": os.getloadavg()},
              "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "extracts": {}}
    for name in [n for n in args.extracts.split(",") if n]:
        pbf = DATA / f"{name}.osm.pbf"
        per = {}
        car = timed_import(baseline, pbf, WORK / "car-only" / f"{name}.navgraph")
        motor = timed_import(binary, pbf, WORK / "motor" / f"{name}.navgraph", ["--road-sets", "motor"])
        full = WORK / "all" / f"{name}.navgraph"
        everything = timed_import(binary, pbf, full)
        per["import"] = {"car_only": car, "motor": motor, "all": everything,
                         "motor_ratio": {"seconds": round(motor["seconds"] / car["seconds"], 2), "bytes": round(motor["bytes"] / car["bytes"], 2)},
                         "all_ratio": {"seconds": round(everything["seconds"] / car["seconds"], 2), "bytes": round(everything["bytes"] / car["bytes"], 2)}}
        log(f"{name} import: {json.dumps(per['import'])}")
        pairs_file, pairs = make_pairs(pbf, args.pairs, args.seed)
        for profile in ["bicycle", "foot"]:
            ref = osrm_routes(osrm_data(pbf, name, profile), pairs)
            nav = navgraph_routes(binary, full, pairs_file, profile)
            per[profile] = compare(nav, ref)
            log(f"{name} {profile}: {json.dumps(per[profile])}")
        result["extracts"][name] = per
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(result, indent=1) + "\n")
    lines = ["| extract | import s car-only / motor / all (ratio all) | file MB car-only / motor / all (ratio all) | "
             "bicycle pairs | bicycle duration / distance median dev (ratio) | foot pairs | foot duration / distance median dev (ratio) |",
             "|---|---|---|---:|---|---:|---|"]
    for name, per in result["extracts"].items():
        imp = per["import"]
        cells = [f"{imp['car_only']['seconds']} / {imp['motor']['seconds']} / {imp['all']['seconds']} ({imp['all_ratio']['seconds']}x)",
                 f"{imp['car_only']['bytes'] / 1e6:.1f} / {imp['motor']['bytes'] / 1e6:.1f} / {imp['all']['bytes'] / 1e6:.1f} ({imp['all_ratio']['bytes']}x)"]
        for profile in ["bicycle", "foot"]:
            s = per[profile]
            cells.append(str(s["both_routed"]))
            cells.append(f"{100 * s['duration']['median']:.1f}% / {100 * s['distance']['median']:.1f}% "
                         f"({s['duration']['median_ratio']:.3f} / {s['distance']['median_ratio']:.3f})")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
