"""pair_routes.py - shared by the comparisons against OSRM on random pairs (eta_compare.py, profile_compare.py).

Pairs drawn with Tools/make_pairs.py (cached per extract, count and seed), OSRM CH data built once with one of the
osrm-bindings wheel's profiles, the pairs routed in-process by the bindings, navgraph's `route --pairs` CSV read
back, and the deviation statistics of navgraph/OSRM ratios over the pairs both engines routed.
Needs the osrm-bindings wheel (the venv of Tools/setup_peers.sh).
"""
import csv
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import osrm as osrm_py  # osrm-bindings wheel

REPO = Path(__file__).resolve().parents[2]
OSRM_PKG = Path(osrm_py.__file__).parent


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def run(cmd, **kw):
    log("$", " ".join(map(str, cmd)))
    subprocess.run([str(c) for c in cmd], check=True, **kw)


def percentile(values, p):
    s = sorted(values)
    if not s:
        return None
    k = max(0, min(len(s) - 1, int(-(-p * len(s) // 100)) - 1))
    return s[k]


def make_pairs(folder, pbf, n, seed):
    """(CSV path, [(lon1, lat1, lon2, lat2), ...]): n pairs of road nodes of the extract, cached in folder."""
    out = folder / f"{pbf.stem.replace('.osm', '')}-{n}-{seed}.csv"
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        with open(out.with_suffix(".tmp"), "w") as f:
            run([sys.executable, REPO / "Tools" / "make_pairs.py", pbf, n, seed], stdout=f)
        out.with_suffix(".tmp").rename(out)
    with open(out) as f:
        pairs = [tuple(float(x) for x in line.split(",")) for line in f if line.strip()]
    return out, pairs


def osrm_data(folder, pbf, name, profile):
    """OSRM CH data of the extract in folder, built once with the wheel's PROFILE.lua; returns its .osrm base path."""
    base = folder / f"{name}.osrm"
    if (folder / "done").exists():
        return base
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    (folder / f"{name}.osm.pbf").symlink_to(pbf)
    bins = OSRM_PKG / "bin"
    with open(folder / "build.log", "w") as logf:
        run([bins / "osrm-extract", "-p", OSRM_PKG / "share" / "profiles" / f"{profile}.lua", f"{name}.osm.pbf"], cwd=folder, stdout=logf, stderr=subprocess.STDOUT)
        run([bins / "osrm-contract", f"{name}.osrm"], cwd=folder, stdout=logf, stderr=subprocess.STDOUT)
    (folder / "done").write_text("ok\n")
    return base


def osrm_routes(base, pairs):
    """[(distance m, duration s) or None] per pair, routed in-process by the bindings (CH)."""
    engine = osrm_py.OSRM(algorithm="CH", storage_config=str(base), use_shared_memory=False)
    out = []
    for p in pairs:
        params = osrm_py.RouteParameters(coordinates=[(p[0], p[1]), (p[2], p[3])], overview="false")
        try:
            res = engine.Route(params)
            r = res["routes"][0] if res["code"] == "Ok" and res["routes"] else None
            out.append((float(r["distance"]), float(r["duration"])) if r else None)
        except Exception:  # NoRoute / NoSegment raise
            out.append(None)
    del engine
    return out


def read_route_csv(path):
    """[(distance m, duration s) or None] per row of a `navgraph route --pairs` CSV."""
    out = []
    with open(path) as f:
        for row in csv.DictReader(f):
            out.append((float(row["distance_m"]), float(row["duration_s"])) if row["distance_m"] else None)
    return out


def compare(nav, ref, minimum_m=0.0, with_p90=True):
    """Over the pairs both routed (OSRM route at least minimum_m long): median (and p90) of |navgraph/OSRM - 1| and
    the median ratio, for duration and distance, plus the pairs only one engine routed."""
    both = [(a, b) for a, b in zip(nav, ref) if a and b and b[0] > 0 and b[1] > 0 and b[0] >= minimum_m]
    dist = [a[0] / b[0] for a, b in both]
    dur = [a[1] / b[1] for a, b in both]

    def dev(ratios):
        d = [abs(r - 1) for r in ratios]
        stats = {"median": round(statistics.median(d), 4) if d else None}
        if with_p90:
            stats["p90"] = round(percentile(d, 90), 4) if d else None
        stats["median_ratio"] = round(statistics.median(ratios), 4) if ratios else None
        return stats
    return {"both_routed": len(both), "navgraph_only": sum(1 for a, b in zip(nav, ref) if a and not b),
            "osrm_only": sum(1 for a, b in zip(nav, ref) if b and not a), "duration": dev(dur), "distance": dev(dist)}
