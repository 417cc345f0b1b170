#!/usr/bin/env python3
"""match_bench.py - `navgraph serve` /match and /trip against osrm-routed v26 (car.lua, CH) in one run.

Not a test. Run with the peers venv python (Tools/setup_peers.sh, or a venv with osrm-bindings==26.10.0):

    Benchmarks/work/peers-venv/bin/python Benchmarks/match_bench.py [--extracts monaco,andorra] [--routes 20]

Matching: routes between random road points (alternately navgraph's and OSRM's fastest route, so neither router's
path choice is the truth every time) are driven at the speeds of their annotations and sampled every 1 s and every
10 s; each fix gets Gaussian noise of sigma = 5, 10, 20 m and 10 % of the fixes are dropped (never the first or last); a
trace keeps at most 100 fixes (both servers' default matching limit) and its truth is the route up to its last fix.
Both servers get the same GET /match/v1/driving/{trace}?timestamps=..&radiuses=sigma..&overview=full&geometries=geojson
(one keep-alive connection each, requests one after another). Recall: the share of the truth's length (every 5 m)
within 15 m of a matched line; precision: the share of the matched lines' length within 15 m of the truth (0 and 0
for an error or NoMatch). Time: the sum of request wall times.

Trips: random road points; on instances of 4-10 points navgraph's round trip is checked against the optimum by
Held-Karp over its own /table durations; on 60 points both servers' round-trip orders (source=any) are costed on
navgraph's /table durations (the routers' speed models differ, so their own trip durations are not comparable).

Writes Benchmarks/MATCH.md (ratios, not absolute times) and the raw numbers to Benchmarks/work/match/results.json.
"""
import argparse
import http.client
import json
import os
import math
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "peers"))
import peerlib  # noqa: E402

REPO = peerlib.REPO
WORK = peerlib.WORK / "match"
NAVGRAPH = REPO / ".build" / "release" / "navgraph"
DATA = REPO.parent / "shared" / "data"


def osrm_pkg():
    try:
        import osrm  # noqa: F401
        return Path(osrm.__file__).resolve().parent
    except ImportError:
        sys.exit("match_bench: run with the peers venv python (osrm-bindings)")


def prepare(pkg, name, logf):
    d = WORK / name
    d.mkdir(parents=True, exist_ok=True)
    graph = d / f"{name}.navgraph"
    if not graph.exists():
        subprocess.run([NAVGRAPH, "import", DATA / f"{name}.osm.pbf", "-o", graph], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    osrm_dir = d / "osrm"
    if not (osrm_dir / "done").exists():
        osrm_dir.mkdir(exist_ok=True)
        pbf = osrm_dir / f"{name}.osm.pbf"
        if not pbf.exists():
            pbf.symlink_to(DATA / f"{name}.osm.pbf")
        peerlib.timed_step("extract", [pkg / "bin" / "osrm-extract", "-p", pkg / "share" / "profiles" / "car.lua", pbf.name], osrm_dir, logf)
        peerlib.timed_step("contract", [pkg / "bin" / "osrm-contract", f"{name}.osrm"], osrm_dir, logf)
        (osrm_dir / "done").write_text("ok")
    return graph, osrm_dir / f"{name}.osrm"


def cpu_seconds(pid):
    """User + system CPU seconds of a process, all its threads."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def get(client, path):
    status, body, ms = client.timed("GET", path)
    try:
        return status, json.loads(body), ms
    except ValueError:
        return status, {}, ms


# --- geometry -------------------------------------------------------------------------------------------------------

def haversine(a, b):
    lon1, lat1, lon2, lat2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371008.8 * math.asin(min(1, math.sqrt(h)))


def resample(line, step):
    """Points every `step` metres along a [lon, lat] line."""
    if not line:
        return []
    out, carried = [line[0]], 0.0
    for a, b in zip(line, line[1:]):
        length = haversine(a, b)
        at = step - carried
        while at <= length:
            t = at / length
            out.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
            at += step
        carried = length - (at - step)
    return out


class LineIndex:
    """Segments of lines in a grid of ~30 m cells, for distance-within-15-m checks."""

    def __init__(self, lines, lat0):
        self.kx = 111195 * math.cos(math.radians(lat0))
        self.ky = 111195
        self.cells = {}
        for line in lines:
            for a, b in zip(line, line[1:]):
                ax, ay, bx, by = a[0] * self.kx, a[1] * self.ky, b[0] * self.kx, b[1] * self.ky
                for cx in range(int(min(ax, bx) // 30) - 1, int(max(ax, bx) // 30) + 2):
                    for cy in range(int(min(ay, by) // 30) - 1, int(max(ay, by) // 30) + 2):
                        self.cells.setdefault((cx, cy), []).append((ax, ay, bx, by))

    def near(self, p, metres=15):
        px, py = p[0] * self.kx, p[1] * self.ky
        for ax, ay, bx, by in self.cells.get((int(px // 30), int(py // 30)), ()):
            dx, dy = bx - ax, by - ay
            l2 = dx * dx + dy * dy
            t = 0 if l2 == 0 else max(0, min(1, ((px - ax) * dx + (py - ay) * dy) / l2))
            if math.hypot(ax + t * dx - px, ay + t * dy - py) <= metres:
                return True
        return False


def share_near(points, index):
    return sum(1 for p in points if index.near(p)) / len(points) if points else 0.0


# --- traces ---------------------------------------------------------------------------------------------------------

def timed_route(route):
    """The route geometry with the time (s) at each vertex, from its per-segment duration annotations."""
    coords = route["geometry"]["coordinates"]
    durations = [d for leg in route["legs"] for d in leg["annotation"]["duration"]]
    times = [0.0]
    for d in durations:
        times.append(times[-1] + d)
    n = min(len(coords), len(times))
    return coords[:n], times[:n]


def position_at(coords, times, t):
    lo, hi = 0, len(times) - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if times[mid] <= t:
            lo = mid
        else:
            hi = mid
    span = times[hi] - times[lo]
    f = 0 if span <= 0 else (t - times[lo]) / span
    a, b = coords[lo], coords[hi]
    return (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f), lo


def make_trace(coords, times, interval, sigma, rng, limit=100):
    samples, t = [], 0.0
    while t <= times[-1] and len(samples) < limit:
        samples.append((t,) + position_at(coords, times, t))
        t += interval
    kx = 111195 * math.cos(math.radians(coords[0][1]))
    trace = []
    for index, (t, (lon, lat), _) in enumerate(samples):
        if 0 < index < len(samples) - 1 and rng.random() < 0.10:
            continue
        trace.append((lon + rng.gauss(0, sigma) / kx, lat + rng.gauss(0, sigma) / 111195, int(round(t)) + 1_700_000_000))
    # Unique, non-decreasing integer timestamps as OSRM wants them.
    last_t, end = samples[-1][0], samples[-1]
    truth = coords[:end[2] + 1] + [end[1]]
    return trace, truth, last_t


def match_path(trace, sigma):
    coords = ";".join(f"{lon:.6f},{lat:.6f}" for lon, lat, _ in trace)
    stamps = ";".join(str(t) for _, _, t in trace)
    radii = ";".join(str(sigma) for _ in trace)
    return f"/match/v1/driving/{coords}?timestamps={stamps}&radiuses={radii}&overview=full&geometries=geojson"


def score(answer, truth_points, truth_index, lat0):
    matchings = answer.get("matchings") or []
    lines = [m["geometry"]["coordinates"] for m in matchings if m.get("geometry")]
    if not lines:
        return 0.0, 0.0
    recall = share_near(truth_points, LineIndex(lines, lat0))
    matched_points = [p for line in lines for p in resample(line, 5)]
    precision = share_near(matched_points, truth_index)
    return recall, precision


# --- trips ----------------------------------------------------------------------------------------------------------

def held_karp(cost, n):
    full = 1 << (n - 1)
    best = [[math.inf] * (n - 1) for _ in range(full)]
    for j in range(n - 1):
        best[1 << j][j] = cost[0][j + 1]
    for mask in range(1, full):
        for j in range(n - 1):
            v = best[mask][j]
            if v == math.inf or not mask & (1 << j):
                continue
            for k in range(n - 1):
                if mask & (1 << k):
                    continue
                nm = mask | (1 << k)
                c = v + cost[j + 1][k + 1]
                if c < best[nm][k]:
                    best[nm][k] = c
    return min(best[full - 1][j] + cost[j + 1][0] for j in range(n - 1))


def road_points(client, bbox, count, rng):
    points = []
    while len(points) < count:
        lon, lat = rng.uniform(bbox[0], bbox[2]), rng.uniform(bbox[1], bbox[3])
        status, answer, _ = get(client, f"/nearest/v1/driving/{lon:.6f},{lat:.6f}")
        if status == 200 and answer["waypoints"][0]["distance"] < 300:
            points.append(tuple(answer["waypoints"][0]["location"]))
    return points


def tour_duration(order, table):
    return sum(table[a][b] for a, b in zip(order, order[1:] + order[:1]))


def trip_order(trip):
    """Input indices in visiting order, from the waypoints' waypoint_index."""
    return [index for index, _ in sorted(enumerate(trip["waypoints"]), key=lambda item: item[1]["waypoint_index"])]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--extracts", default="monaco,andorra")
    parser.add_argument("--routes", type=int, default=16, help="routes per extract (each gives 6 traces)")
    parser.add_argument("--trips", type=int, default=6, help="trip instances per size and extract")
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()
    pkg = osrm_pkg()
    WORK.mkdir(parents=True, exist_ok=True)
    logf = WORK / "run.log"
    boxes = {"monaco": (7.409, 43.725, 7.439, 43.751), "andorra": (1.41, 42.43, 1.78, 42.65), "malta": (14.18, 35.80, 14.57, 36.08),
             "porto": (-8.69, 41.10, -8.55, 41.21), "isle-of-man": (-4.79, 54.05, -4.31, 54.41)}
    results = {"match": [], "trip_small": [], "trip_large": [], "cpu": {}, "load": open("/proc/loadavg").read().split()[0]}
    for name in args.extracts.split(","):
        graph, osrm_base = prepare(pkg, name, logf)
        rng = random.Random(f"{args.seed}-{name}")
        nport, oport = peerlib.free_port(), peerlib.free_port()
        navgraph_cmd = [NAVGRAPH, "serve", graph, "--port", nport, "--threads", "2", "--quiet"]
        osrm_cmd = [pkg / "bin" / "osrm-routed", "-i", "127.0.0.1", "-p", oport, "-t", "2", "--max-matching-size", "100",
                    "--max-trip-size", "100", osrm_base.name]
        with peerlib.Server(navgraph_cmd, WORK, logf, nport) as ns, peerlib.Server(osrm_cmd, osrm_base.parent, logf, oport) as os_:
            probe = lambda conn: (conn.request("GET", "/nearest/v1/driving/%f,%f" % boxes[name][:2]) or conn.getresponse().status in (200, 400))
            ns.wait_ready(probe)
            os_.wait_ready(probe)
            nav, peer = peerlib.KeepAliveClient(nport), peerlib.KeepAliveClient(oport)
            bbox = boxes[name]
            # Matching. Besides each request's wall time, each server's CPU time over the whole matching phase (both
            # are idle between their own requests, so this is their matching work, less disturbed by other load).
            cpu_start = {"navgraph": cpu_seconds(ns.proc.pid), "osrm": cpu_seconds(os_.proc.pid)}
            routes = 0
            while routes < args.routes:
                a, b = road_points(nav, bbox, 2, rng)
                source = nav if routes % 2 == 0 else peer
                status, answer, _ = get(source, f"/route/v1/driving/{a[0]},{a[1]};{b[0]},{b[1]}?overview=full&geometries=geojson&annotations=duration")
                if status != 200 or answer["routes"][0]["distance"] < 1000:
                    continue
                routes += 1
                coords, times = timed_route(answer["routes"][0])
                for interval in (1, 10):
                    for sigma in (5, 10, 20):
                        trace, truth, _ = make_trace(coords, times, interval, sigma, rng)
                        if len(trace) < 2:
                            continue
                        lat0 = coords[0][1]
                        truth_points = resample(truth, 5)
                        truth_index = LineIndex([truth], lat0)
                        path = match_path(trace, sigma)
                        row = {"extract": name, "interval": interval, "sigma": sigma, "points": len(trace), "truth_by": "navgraph" if source is nav else "osrm",
                               "path": path, "truth": [[round(x, 6), round(y, 6)] for x, y in truth]}
                        for label, client in (("navgraph", nav), ("osrm", peer)):
                            status, answer, ms = get(client, path)
                            recall, precision = score(answer, truth_points, truth_index, lat0) if status == 200 else (0.0, 0.0)
                            row[label] = {"status": status, "code": answer.get("code"), "ms": ms, "recall": recall, "precision": precision,
                                          "matchings": len(answer.get("matchings") or []),
                                          "lines": [m["geometry"]["coordinates"] for m in answer.get("matchings") or []]}
                        results["match"].append(row)
            for label, server in (("navgraph", ns), ("osrm", os_)):
                results["cpu"][label] = results["cpu"].get(label, 0.0) + cpu_seconds(server.proc.pid) - cpu_start[label]
            peerlib.log(f"[{name}] {len(results['match'])} traces matched so far")
            # Trips: optimum on small instances.
            for n in range(4, 11):
                for _ in range(args.trips):
                    points = road_points(nav, bbox, n, rng)
                    coords = ";".join(f"{p[0]},{p[1]}" for p in points)
                    status, table, _ = get(nav, f"/table/v1/driving/{coords}")
                    status_t, trip, _ = get(nav, f"/trip/v1/driving/{coords}?overview=false")
                    if status != 200 or status_t != 200 or any(v is None for row in table["durations"] for v in row):
                        continue
                    optimum = held_karp(table["durations"], n)
                    results["trip_small"].append({"extract": name, "n": n, "navgraph": trip["trips"][0]["duration"], "optimum": optimum})
            # Trips: 60 points against OSRM.
            for _ in range(args.trips * 2):
                points = road_points(nav, bbox, 60, rng)
                coords = ";".join(f"{p[0]},{p[1]}" for p in points)
                # Both orders are costed on the same matrix (navgraph's durations), since the routers' speeds differ.
                status, table, _ = get(nav, f"/table/v1/driving/{coords}")
                if status != 200 or any(v is None for line in table["durations"] for v in line):
                    continue
                row = {"extract": name}
                for label, client in (("navgraph", nav), ("osrm", peer)):
                    status, trip, ms = get(client, f"/trip/v1/driving/{coords}?overview=false")
                    row[label] = tour_duration(trip_order(trip), table["durations"]) if status == 200 and len(trip.get("trips", [])) == 1 else None
                    row[label + "_ms"] = ms
                results["trip_large"].append(row)
            nav.close()
            peer.close()
    (WORK / "results.json").write_text(json.dumps(results, indent=1))
    write_report(results, args)


def write_report(results, args):
    lines = ["# Map matching and trips against OSRM v26", "",
             "Made by `Benchmarks/match_bench.py` (see its docstring for the method); current state, replaced by each run. "
             f"Extracts: {args.extracts}; {args.routes} routes each; 1-minute load average at the start {results['load']} "
             "(2 cores shared with other work: ratios, not absolute times).", "",
             "## Matching", "",
             "| sampling | σ (m) | traces | navgraph recall (median / mean) | OSRM recall (median / mean) | navgraph precision (median) | OSRM precision (median) | traces where navgraph recall < OSRM's − 0.01 | time navgraph / OSRM |",
             "|---|---|---|---|---|---|---|---|---|"]
    total = {"navgraph": 0.0, "osrm": 0.0}
    for interval in (1, 10):
        for sigma in (5, 10, 20):
            rows = [r for r in results["match"] if r["interval"] == interval and r["sigma"] == sigma]
            if not rows:
                continue
            nr = [r["navgraph"]["recall"] for r in rows]
            orr = [r["osrm"]["recall"] for r in rows]
            np_ = [r["navgraph"]["precision"] for r in rows]
            op = [r["osrm"]["precision"] for r in rows]
            worse = sum(1 for r in rows if r["navgraph"]["recall"] < r["osrm"]["recall"] - 0.01)
            tn = sum(r["navgraph"]["ms"] for r in rows)
            to = sum(r["osrm"]["ms"] for r in rows)
            total["navgraph"] += tn
            total["osrm"] += to
            lines.append(f"| {interval} s | {sigma} | {len(rows)} | {statistics.median(nr):.3f} / {statistics.mean(nr):.3f} | "
                         f"{statistics.median(orr):.3f} / {statistics.mean(orr):.3f} | {statistics.median(np_):.3f} | {statistics.median(op):.3f} | "
                         f"{worse} | {tn / max(to, 1e-9):.2f}× |")
    cpu = results.get("cpu", {})
    cpu_ratio = cpu.get("navgraph", 0.0) / max(cpu.get("osrm", 0.0), 1e-9)
    lines += ["", f"Total match time, navgraph / OSRM: **{total['navgraph'] / max(total['osrm'], 1e-9):.2f}×** "
              f"over {len(results['match'])} traces (target ≤ 0.5×). Server CPU time over the matching requests, "
              f"navgraph / OSRM: **{cpu_ratio:.2f}×** ({cpu.get('navgraph', 0.0):.2f} s / {cpu.get('osrm', 0.0):.2f} s).", ""]

    def median_recall(interval, sigma):
        rows = [r["navgraph"]["recall"] for r in results["match"] if r["interval"] == interval and r["sigma"] == sigma]
        return statistics.median(rows) if rows else float("nan")
    below = sum(1 for r in results["match"] if r["navgraph"]["recall"] < r["osrm"]["recall"] - 0.01)
    ratio = total["navgraph"] / max(total["osrm"], 1e-9)
    lines += ["Targets: median recall at σ = 10 m, 1 s ≥ 0.98: " + ("met" if median_recall(1, 10) >= 0.98 else "**not met**")
              + f" ({median_recall(1, 10):.3f}); at σ = 20 m, 10 s ≥ 0.95: " + ("met" if median_recall(10, 20) >= 0.95 else "**not met**")
              + f" ({median_recall(10, 20):.3f}); never below OSRM's recall: " + ("met" if below == 0 else f"**not met** ({below} of {len(results['match'])} traces more than 0.01 below)")
              + "; total time ≤ 0.5× OSRM's: " + ("met" if ratio <= 0.5 else f"**not met** ({ratio:.2f}× wall, {cpu_ratio:.2f}× CPU)") + ".", ""]
    small = results["trip_small"]
    optimal = sum(1 for r in small if r["navgraph"] <= r["optimum"] * 1.001 + 0.5)
    lines += ["## Trips", "",
              f"- 4–10 points: navgraph's round trip has the Held–Karp optimum of its own `/table` durations on {optimal} of {len(small)} instances "
              f"(largest excess {max([r['navgraph'] / r['optimum'] - 1 for r in small] or [0]) * 100:.2f} %; the trip's duration is summed from its legs, "
              "the optimum from the table, so a difference of rounding is tolerated: 0.1 % + 0.5 s)."]
    large = [r for r in results["trip_large"] if r["navgraph"] and r["osrm"]]
    if large:
        ratios = [r["navgraph"] / r["osrm"] for r in large]
        not_longer = sum(1 for x in ratios if x <= 1.0 + 1e-9)
        lines.append(f"- 60 points: navgraph's round-trip order is no longer than OSRM's (both costed on navgraph's table) on {not_longer} of {len(large)} instances "
                     f"({100 * not_longer / len(large):.0f} %, target ≥ 80 %); worst ratio {max(ratios):.3f}, median {statistics.median(ratios):.3f} "
                     f"(target never > 1.03); time navgraph / OSRM {sum(r['navgraph_ms'] for r in large) / sum(r['osrm_ms'] for r in large):.2f}×.")
    lines.append("")
    (REPO / "Benchmarks" / "MATCH.md").write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--report-only"]:
        class Saved:
            extracts, routes = "monaco,andorra", "(from results.json)"
        write_report(json.loads((WORK / "results.json").read_text()), Saved)
    else:
        main()
