#!/usr/bin/env python3
"""guidance_compare.py - navgraph's turn-by-turn maneuvers against OSRM's on the same routes.

For each extract: imports it with navgraph (if needed), builds OSRM CH with car.lua from the osrm-bindings wheel
(if needed), starts osrm-routed on 127.0.0.1 (stopped at the end), draws random road-node pairs
(Tools/make_pairs.py), routes each pair with `navgraph route --format directions --geometry geojson` and with
osrm-routed `steps=true`, and keeps the pairs whose two routes follow the same path (lengths within 3 % and
every vertex of each route within 20 m of the other). Over those, with depart/arrive left out:

- recall: share of OSRM maneuvers with a navgraph maneuver within 30 m (one-to-one, nearest first)
- precision: share of navgraph maneuvers with an OSRM one within 30 m
- type / modifier: among matched maneuvers, share with the same type / the same modifier
- exits: among matched roundabout/rotary maneuvers where OSRM gives an exit number, share with the same exit

Usage: Benchmarks/guidance_compare.py [--extracts monaco,malta,porto,milan] [--pairs 150] [--seed 11]
       [--out Benchmarks/results/guidance-compare.json]
Run with the peers venv python (Tools/setup_peers.sh): it needs pyosmium for the pairs.
"""
from __future__ import annotations

import argparse
import collections
import http.client
import json
import math
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Benchmarks" / "peers"))
import peerlib  # noqa: E402

WORK = ROOT / "Benchmarks" / "work" / "guidance"
MATCH_METRES = 30.0
SAME_PATH_LENGTH = 0.03
SAME_PATH_METRES = 20.0
ROUNDABOUT_TYPES = {"roundabout", "rotary", "exit roundabout", "exit rotary"}


def osrm_package():
    import osrm  # noqa: PLC0415
    return Path(osrm.__file__).parent


def metres(a, b):
    (lon1, lat1), (lon2, lat2) = a, b
    x = math.radians(lon2 - lon1) * math.cos(math.radians((lat1 + lat2) / 2))
    y = math.radians(lat2 - lat1)
    return 6371008.8 * math.hypot(x, y)


def point_to_polyline(p, line):
    """Metres from p to the nearest segment of line (equirectangular around p)."""
    best = float("inf")
    k = math.cos(math.radians(p[1]))
    px, py = p[0] * k, p[1]
    for (ax, ay), (bx, by) in zip(line, line[1:]):
        ax, bx = ax * k, bx * k
        dx, dy = bx - ax, by - ay
        t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
        qx, qy = ax + t * dx, ay + t * dy
        best = min(best, math.hypot(px - qx, py - qy))
    if len(line) == 1:
        best = math.hypot(px - line[0][0] * k, py - line[0][1])
    return math.radians(best) * 6371008.8


def same_path(a, b, length_a, length_b):
    if max(length_a, length_b) < 50:
        return False
    if abs(length_a - length_b) > SAME_PATH_LENGTH * max(length_a, length_b):
        return False
    return all(point_to_polyline(p, b) <= SAME_PATH_METRES for p in a[::2]) and \
        all(point_to_polyline(p, a) <= SAME_PATH_METRES for p in b[::2])


def maneuvers(route):
    out = []
    for leg in route["legs"]:
        previous = ""
        for step in leg["steps"]:
            m = step["maneuver"]
            if m["type"] not in ("depart", "arrive"):
                out.append({"type": m["type"], "modifier": m.get("modifier"), "exit": m.get("exit"),
                            "location": m["location"], "name": step.get("name", ""), "from": previous,
                            "roads": len(step["intersections"][0]["bearings"]) if step.get("intersections") else None})
            previous = step.get("name", "")
    return out


def match(osrm_list, navgraph_list):
    """One-to-one matches within MATCH_METRES, closest pairs first."""
    candidates = sorted((metres(o["location"], n["location"]), i, j)
                        for i, o in enumerate(osrm_list) for j, n in enumerate(navgraph_list))
    used_o, used_n, pairs = set(), set(), []
    for d, i, j in candidates:
        if d > MATCH_METRES:
            break
        if i in used_o or j in used_n:
            continue
        used_o.add(i)
        used_n.add(j)
        pairs.append((osrm_list[i], navgraph_list[j]))
    return pairs, used_o, used_n


def prepare(name, navgraph, osrm_pkg):
    work = WORK / name
    work.mkdir(parents=True, exist_ok=True)
    pbf = peerlib_data(name)
    graph = work / f"{name}.navgraph"
    subprocess.run([navgraph, "import", pbf, "-o", graph, "--quiet"], check=True)
    osrm_dir = work / "osrm"
    base = osrm_dir / f"{name}.osrm"
    if not (osrm_dir / f"{name}.osrm.hsgr").exists():
        osrm_dir.mkdir(exist_ok=True)
        link = osrm_dir / f"{name}.osm.pbf"
        if not link.exists():
            link.symlink_to(pbf)
        with open(osrm_dir / "build.log", "ab") as log:
            subprocess.run([osrm_pkg / "bin" / "osrm-extract", "-p", osrm_pkg / "share" / "profiles" / "car.lua", link.name],
                           cwd=osrm_dir, check=True, stdout=log, stderr=subprocess.STDOUT)
            subprocess.run([osrm_pkg / "bin" / "osrm-contract", base.name], cwd=osrm_dir, check=True, stdout=log,
                           stderr=subprocess.STDOUT)
    return graph, osrm_dir, base


def peerlib_data(name):
    return ROOT.parent / "shared" / "data" / f"{name}.osm.pbf"


def navgraph_route(navgraph, graph, pair):
    lon1, lat1, lon2, lat2 = pair
    run = subprocess.run([navgraph, "route", graph, f"{lat1},{lon1}", f"{lat2},{lon2}", "--format", "directions",
                          "--geometry", "geojson"], capture_output=True, text=True)
    if run.returncode != 0:
        return None
    return json.loads(run.stdout)


def osrm_route(port, pair):
    lon1, lat1, lon2, lat2 = pair
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)   # one per request: routing ours may outlast keep-alive
    conn.request("GET", f"/route/v1/driving/{lon1},{lat1};{lon2},{lat2}?steps=true&geometries=geojson&overview=full")
    response = conn.getresponse()
    body = response.read()
    conn.close()
    if response.status != 200:
        return None
    data = json.loads(body)
    return data if data.get("code") == "Ok" else None


def compare_extract(name, args, osrm_pkg):
    graph, osrm_dir, base = prepare(name, args.navgraph, osrm_pkg)
    pairs_text = subprocess.run([sys.executable, ROOT / "Tools" / "make_pairs.py", peerlib_data(name), str(args.pairs),
                                 str(args.seed)], capture_output=True, text=True, check=True).stdout
    pairs = [tuple(map(float, line.split(","))) for line in pairs_text.split()]
    port = peerlib.free_port()
    cmd = [osrm_pkg / "bin" / "osrm-routed", "-i", "127.0.0.1", "-p", port, "-a", "CH", base.name]
    tally = collections.Counter()
    confusion = collections.Counter()
    missed = collections.Counter()
    extra = collections.Counter()
    examples = []
    mismatch_examples = []
    with peerlib.Server(cmd, osrm_dir, osrm_dir / "routed.log", port) as server:
        server.wait_ready(lambda conn: (conn.request("GET", "/route/v1/driving/0,0;0,0"), conn.getresponse().read()) is not None)
        for pair in pairs:
            tally["pairs"] += 1
            ours, theirs = navgraph_route(args.navgraph, graph, pair), osrm_route(port, pair)
            if ours is None or theirs is None:
                tally["failed"] += 1
                continue
            a, b = ours["routes"][0], theirs["routes"][0]
            if not same_path(a["geometry"]["coordinates"], b["geometry"]["coordinates"], a["distance"], b["distance"]):
                tally["different_path"] += 1
                continue
            tally["compared"] += 1
            om, nm = maneuvers(b), maneuvers(a)
            matched, used_o, used_n = match(om, nm)
            tally["osrm"] += len(om)
            tally["navgraph"] += len(nm)
            tally["matched"] += len(matched)
            for o, n in matched:
                same_type = o["type"] == n["type"]
                same_modifier = o["modifier"] == n["modifier"]
                tally["same_type"] += same_type
                tally["same_modifier"] += same_modifier
                if not (same_type and same_modifier):
                    confusion[f"{o['type']}/{o['modifier']} -> {n['type']}/{n['modifier']}"] += 1
                    if len(mismatch_examples) < 400:
                        mismatch_examples.append({"osrm": o, "navgraph": n, "pair": pair})
                if o["type"] in ROUNDABOUT_TYPES and o.get("exit") is not None:
                    tally["exits"] += 1
                    tally["same_exit"] += o["exit"] == n.get("exit")
                    if o["exit"] != n.get("exit") and len(mismatch_examples) < 400:
                        mismatch_examples.append({"osrm": o, "navgraph": n, "exit_mismatch": True, "pair": pair})
            for i, o in enumerate(om):
                if i not in used_o:
                    missed[f"{o['type']}/{o['modifier']}"] += 1
                    if len(examples) < 80:
                        examples.append({"kind": "missed", "osrm": o, "pair": pair})
            for j, n in enumerate(nm):
                if j not in used_n:
                    extra[f"{n['type']}/{n['modifier']}"] += 1
                    if len(examples) < 80:
                        examples.append({"kind": "extra", "navgraph": n, "pair": pair})

    def share(numerator, denominator):
        return round(tally[numerator] / tally[denominator], 4) if tally[denominator] else None

    return {
        "extract": name, "pairs": tally["pairs"], "failed": tally["failed"], "different_path": tally["different_path"],
        "compared": tally["compared"], "osrm_maneuvers": tally["osrm"], "navgraph_maneuvers": tally["navgraph"],
        "matched": tally["matched"], "recall": share("matched", "osrm"), "precision": share("matched", "navgraph"),
        "same_type": share("same_type", "matched"), "same_modifier": share("same_modifier", "matched"),
        "roundabout_exits": tally["exits"], "same_exit": share("same_exit", "exits"),
        "top_mismatches": confusion.most_common(12), "top_missed": missed.most_common(10),
        "top_extra": extra.most_common(10), "examples": examples, "mismatch_examples": mismatch_examples,
    }


TARGETS = {"recall": 0.85, "precision": 0.80, "same_type": 0.85, "same_modifier": 0.80, "same_exit": 0.95}


def markdown(report):
    """The results as a Markdown table, targets marked."""
    def cell(value, key):
        if value is None:
            return "n/a"
        return f"{100 * value:.1f} %" + ("" if value >= TARGETS[key] else " (below)")
    lines = [f"# Guidance vs OSRM ({report['osrm']}, {report['profile']})", "",
             f"{report['pairs_per_extract']} random road-node pairs per extract (seed {report['seed']}); pairs kept when both routes "
             f"follow the same path (length within {100 * report['same_path']['length']:.0f} %, every vertex within "
             f"{report['same_path']['metres']:.0f} m of the other route). Maneuvers other than depart/arrive match when within "
             f"{report['match_metres']:.0f} m (one-to-one, nearest first). Targets: recall >= 85 %, precision >= 80 %, "
             "type >= 85 %, modifier >= 80 %, roundabout exits >= 95 %.", "",
             "| extract | pairs compared | OSRM maneuvers | navgraph maneuvers | recall | precision | same type | same modifier | roundabout exits |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for e in report["extracts"]:
        lines.append(f"| {e['extract']} | {e['compared']}/{e['pairs']} | {e['osrm_maneuvers']} | {e['navgraph_maneuvers']} | "
                     f"{cell(e['recall'], 'recall')} | {cell(e['precision'], 'precision')} | {cell(e['same_type'], 'same_type')} | "
                     f"{cell(e['same_modifier'], 'same_modifier')} | {cell(e['same_exit'], 'same_exit')} ({e['roundabout_exits']}) |")
    lines += ["", "Most frequent disagreements (OSRM -> navgraph) per extract:", ""]
    for e in report["extracts"]:
        lines.append(f"- {e['extract']}: " + "; ".join(f"{k} x{v}" for k, v in e["top_mismatches"][:6]))
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--extracts", default="monaco,malta,porto,milan")
    parser.add_argument("--pairs", type=int, default=150)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--navgraph", default=str(ROOT / ".build" / "release" / "navgraph"))
    parser.add_argument("--out", default=str(ROOT / "Benchmarks" / "results" / "guidance-compare.json"))
    parser.add_argument("--markdown-only", action="store_true", help="rewrite the .md next to an existing --out JSON")
    args = parser.parse_args()
    if args.markdown_only:
        Path(args.out).with_suffix(".md").write_text(markdown(json.loads(Path(args.out).read_text())))
        return
    peerlib.exit_on_sigterm()
    osrm_pkg = osrm_package()
    version = subprocess.run([osrm_pkg / "bin" / "osrm-routed", "--version"], capture_output=True, text=True).stdout.strip()
    started = time.time()
    results = []
    for name in [n.strip() for n in args.extracts.split(",") if n.strip()]:
        result = compare_extract(name, args, osrm_pkg)
        results.append(result)
        print(f"{name}: {result['compared']}/{result['pairs']} pairs on the same path; recall {result['recall']}, "
              f"precision {result['precision']}, type {result['same_type']}, modifier {result['same_modifier']}, "
              f"exits {result['same_exit']} ({result['roundabout_exits']})", file=sys.stderr)
    report = {"osrm": version, "profile": "car.lua", "pairs_per_extract": args.pairs, "seed": args.seed,
              "match_metres": MATCH_METRES, "same_path": {"length": SAME_PATH_LENGTH, "metres": SAME_PATH_METRES},
              "seconds": round(time.time() - started, 1), "extracts": results}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=1) + "\n")
    Path(args.out).with_suffix(".md").write_text(markdown(report))
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
