#!/usr/bin/env python3
"""run.py - one benchmark run: navgraph vs OSRM (CH, MLD) vs Valhalla on the same inputs.

Usage (from the repo root, with the peers venv python from Tools/setup_peers.sh):
  Benchmarks/run.py --inputs monaco,milan,milan-2x2,milan-5x5,NY [--pairs 10000]
                    [--import-only helgoland,kotka,...] [--peer-limit milan-5x5=2000]
                    [--valhalla-limit milan-5x5=500] [--no-valhalla milan-5x5]
                    [--no-ch-speeds milan-5x5] [--navgraph-only milan-9x9]
                    [--results Benchmarks/results]

Inputs: an extract name resolves to ../shared/data/NAME.osm.pbf (relative to the repo,
override with --data), `milan-KxK` is made by Tools/tile_osm.py into Benchmarks/work/tiled,
NY/BAY are the DIMACS graphs (dimacs/USA-road-d.NAME.gr.gz, navgraph only, node pairs).
Per input, one after the other: navgraph import (under /usr/bin/time -v), `navgraph info --json`,
`navgraph traffic`, navgraph-bench (customization per avoid combination and traffic update,
in-process latency plain/avoid/traffic/alternatives 3), `navgraph route --pairs` (CLI batch);
then Benchmarks/peers/osrm_bench.py (extract, contract, partition, customize, latency inproc +
HTTP), osrm-customize / osrm-contract --segment-speed-file on the extracted files, and
Benchmarks/peers/valhalla_bench.py. Pairs: Tools/make_pairs.py N, seed 1 (peers may use the
first --peer-limit of them). --import-only inputs get navgraph import vs osrm-extract only;
--navgraph-only inputs get the whole navgraph part and no peers (the record says why).
Each run starts from an empty RESULTS/parts, so results.json holds this run only.

Each input's record goes to RESULTS/parts/NAME.json as soon as it is done; at the end all
parts are merged into RESULTS/results.json and Benchmarks/report.py writes report.md and
scaling.svg. Progress and timings go to stderr; every subprocess has a bounded timeout.
"""
import argparse
import gzip
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WORK = REPO / "Benchmarks" / "work"
PY = sys.executable
NAVGRAPH = REPO / ".build" / "release" / "navgraph"
BENCH = REPO / ".build" / "release" / "navgraph-bench"
# navgraph's speed share per congestion level (TrafficTable.speedShare of namedLevels):
# low 20 -> 1.0, moderate 50 -> 0.7, heavy 70 -> 0.5, severe 90 -> 0.3.
SPEED_SHARE = {"low": 1.0, "moderate": 0.7, "heavy": 0.5, "severe": 0.3}
OSRM_BASE_KMH = 50.0


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def load():
    return round(os.getloadavg()[0], 2)


def run(cmd, timeout, stdout=None, cwd=REPO, stderr=None):
    """Run cmd (own session) with a bounded timeout: SIGTERM to its process group, 30 s grace, then SIGKILL.

    Returns (returncode, wall seconds, stdout text or None)."""
    cmd = [str(c) for c in cmd]
    log("$ " + " ".join(cmd))
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=stdout or subprocess.PIPE, stderr=stderr,
                            text=True, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        log(f"timeout after {timeout} s: stopping {proc.pid}")
        try:
            os.killpg(proc.pid, signal.SIGTERM)  # the whole group: drivers and their build steps
            out, _ = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            out = None
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
        return -1, time.monotonic() - t0, out
    return proc.returncode, time.monotonic() - t0, out


def timed(cmd, timeout, cwd=REPO, stderr=None):
    """Run cmd under /usr/bin/time -v; return {wall_s, max_rss_kb, rc, load_before, stdout}."""
    tfile = WORK / "last.time"
    lb = load()
    rc, _, out = run(["/usr/bin/time", "-v", "-o", tfile] + list(cmd), timeout, cwd=cwd, stderr=stderr)
    text = tfile.read_text() if tfile.exists() else ""
    res = {"rc": rc, "load_before": lb, "stdout": out}
    m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", text)
    if m:
        wall = 0.0
        for part in m.group(1).split(":"):
            wall = wall * 60 + float(part)
        res["wall_s"] = round(wall, 3)
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    if m:
        res["max_rss_kb"] = int(m.group(1))
    log(f"  -> rc {rc}, wall {res.get('wall_s')} s, RSS {res.get('max_rss_kb', 0) / 1024:.0f} MiB, load {lb}")
    return res


def source_of(name, data):
    """(path, kind) for an input name; tiles milan-KxK on demand."""
    if name.upper() in ("NY", "BAY", "COL", "FLA"):
        return Path(data) / "dimacs" / f"USA-road-d.{name.upper()}.gr.gz", "dimacs"
    m = re.fullmatch(r"(.+)-(\d+)x\2", name)
    if m:
        out = WORK / "tiled" / f"{name}.osm.pbf"
        if not out.exists():
            out.parent.mkdir(parents=True, exist_ok=True)
            rc, _, _ = run([PY, REPO / "Tools/tile_osm.py", Path(data) / f"{m.group(1)}.osm.pbf", m.group(2), out], 1800)
            if rc != 0:
                sys.exit(f"tiling {name} failed")
        return out, "osm"
    return Path(data) / f"{name}.osm.pbf", "osm"


def cached(path, producer):
    """Return path, running producer(tmp) first if it does not exist yet."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        producer(tmp)
        tmp.rename(path)
    return path


def make_pairs(src, n, dst):
    with open(dst, "w") as f:
        if run([PY, REPO / "Tools/make_pairs.py", src, n, 1], 1800, stdout=f)[0] != 0:
            sys.exit("make_pairs failed")


def make_traffic(src, dst):
    with open(dst, "w") as f:
        if run(["python3", REPO / "Tools/make_sample_traffic.py", src], 1800, stdout=f)[0] != 0:
            sys.exit("make_sample_traffic failed")


def dimacs_pairs(src, n, dst):
    """n random 1-based node id pairs `S,T` (random.Random(1)) over the DIMACS graph's nodes."""
    with gzip.open(src, "rt") as f:
        count = next(int(line.split()[2]) for line in f if line.startswith("p "))
    rnd = random.Random(1)
    dst.write_text("".join(f"{rnd.randint(1, count)},{rnd.randint(1, count)}\n" for _ in range(n)))


def osrm_speeds(traffic_csv, dst):
    """OSRM segment speed file `from,to,speed_kmh`: 50 km/h x navgraph's speed share of the level."""
    with open(traffic_csv) as f, open(dst, "w") as out:
        next(f)
        for line in f:
            a, b, level = line.strip().split(",")
            out.write(f"{a},{b},{round(OSRM_BASE_KMH * SPEED_SHARE[level])}\n")


def navgraph_part(name, src, kind, pairs, traffic, import_only):
    """Import, info, traffic customization, navgraph-bench and the CLI batch for one input."""
    gdir = WORK / "navgraph"
    gdir.mkdir(parents=True, exist_ok=True)
    graph = gdir / f"{name}.navgraph"
    rec = {"import": timed([NAVGRAPH, "import", src, "-o", graph], 3600)}
    rec["import"].pop("stdout", None)
    rec["graph_bytes"] = graph.stat().st_size
    rc, _, out = run([NAVGRAPH, "info", graph, "--json"], 300)
    rec["info"] = json.loads(out) if rc == 0 else None
    if import_only:
        return rec
    if traffic:
        res = timed([NAVGRAPH, "traffic", graph, traffic, "-o", gdir / f"{name}.traffic"], 1800)
        res["stdout"] = (res.get("stdout") or "").strip()[-2000:]
        rec["traffic_cli"] = res
    cmd = [BENCH, graph, pairs] + (["--node-pairs", "yes"] if kind == "dimacs" else
                                   ["--traffic", traffic, "--avoid", "toll,ferry,highway", "--alternatives", 3])
    lb = load()
    rc, wall, out = run(cmd, 3600)
    rec["bench"] = json.loads(out) if rc == 0 else {"rc": rc}
    rec["bench"]["load_before"], rec["bench"]["wall_s"] = lb, round(wall, 3)
    if kind == "osm":
        errfile = gdir / f"{name}-batch.log"
        with open(errfile, "w") as err:
            res = timed([NAVGRAPH, "route", graph, "--pairs", pairs, "--output", gdir / f"{name}-batch.csv"], 3600,
                        stderr=err)
        res.pop("stdout", None)
        m = re.search(r"p50 ([\d.]+) p95 ([\d.]+) p99 ([\d.]+)", errfile.read_text())
        if m:
            res["p50_ms"], res["p95_ms"], res["p99_ms"] = map(float, m.groups())
        res["queries"] = sum(1 for line in open(pairs) if line.strip())
        res["note"] = "CLI batch (navgraph route --pairs): p50/p95/p99 of the per-query route() time it prints; mean = process wall incl. graph load and CSV I/O / queries"
        if res.get("wall_s"):
            res["mean_ms_per_query"] = round(1000 * res["wall_s"] / res["queries"], 4)
        rec["cli_batch"] = res
    return rec


def osrm_bin(tool):
    import osrm  # noqa: F401  (the osrm-bindings wheel ships the binaries)
    return Path(osrm.__file__).parent / "bin" / tool


def summary_of(out_json):
    p = out_json.with_name(out_json.name.removesuffix(".gz").removesuffix(".json") + ".summary.json")
    return json.loads(p.read_text()) if p.exists() else None


def peers_part(name, src, pairs, traffic, limit, vlimit, valhalla, ch_speeds):
    """osrm_bench.py (CH + MLD), segment-speed updates, valhalla_bench.py for one extract."""
    rec, res_dir = {}, WORK / "results"
    out = res_dir / f"osrm-{name}.json.gz"
    rc, wall, _ = run([PY, REPO / "Benchmarks/peers/osrm_bench.py", "--pbf", src, "--pairs", pairs, "--out", out,
                       "--alternatives", 3, "--algorithms", "ch,mld", "--limit", limit], 7200)
    rec["osrm"] = summary_of(out) if rc == 0 else {"rc": rc}
    rec["osrm_extract_bytes"] = sum(f.stat().st_size for f in (WORK / "osrm" / name).glob(f"{name}.osrm*"))
    speeds = WORK / "traffic" / f"{name}.osrm-speeds.csv"
    osrm_speeds(traffic, speeds)
    odir = WORK / "osrm" / name
    upd = {"speed_file": str(speeds.relative_to(REPO)), "rule": f"{OSRM_BASE_KMH:g} km/h x navgraph speed share {SPEED_SHARE}"}
    if rc == 0:
        upd["mld_customize"] = timed([osrm_bin("osrm-customize"), "--segment-speed-file", speeds, f"{name}.osrm"],
                                     3600, cwd=odir / "mld")
        if ch_speeds:
            upd["ch_contract"] = timed([osrm_bin("osrm-contract"), "--segment-speed-file", speeds, f"{name}.osrm"],
                                       7200, cwd=odir / "ch")
        else:
            upd["ch_contract"] = {"skipped": "time budget; --segment-speed-file re-runs the whole contraction"}
        for v in upd.values():
            if isinstance(v, dict):
                v.pop("stdout", None)
    rec["osrm_speed_update"] = upd
    if valhalla:
        out = res_dir / f"valhalla-{name}.json.gz"
        rc, wall, _ = run([PY, REPO / "Benchmarks/peers/valhalla_bench.py", "--pbf", src, "--pairs", pairs,
                           "--out", out, "--alternatives", 3, "--limit", vlimit], 7200)
        rec["valhalla"] = summary_of(out) if rc == 0 else {"rc": rc}
    else:
        rec["valhalla"] = {"skipped": "time budget"}
    return rec


def osrm_extract_only(name, src):
    d = WORK / "osrm-import" / name
    d.mkdir(parents=True, exist_ok=True)
    for f in d.glob("*"):
        f.unlink()
    (d / f"{name}.osm.pbf").symlink_to(src)
    import osrm
    profile = Path(osrm.__file__).parent / "share" / "profiles" / "car.lua"
    res = timed([osrm_bin("osrm-extract"), "-p", profile, f"{name}.osm.pbf"], 3600, cwd=d)
    res.pop("stdout", None)
    res["files_bytes"] = sum(f.stat().st_size for f in d.glob(f"{name}.osrm*"))
    return {"extract": res}


def kv(text):
    return {k: int(v) for k, v in (item.split("=") for item in text.split(",") if item)} if text else {}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--inputs", default="monaco,milan,milan-2x2,milan-5x5,NY")
    ap.add_argument("--import-only", default="")
    ap.add_argument("--pairs", type=int, default=10000)
    ap.add_argument("--peer-limit", default="milan-2x2=2000,milan-5x5=2000", help="NAME=N: peers use the first N pairs")
    ap.add_argument("--valhalla-limit", default="monaco=2000,milan=2000,milan-2x2=2000,milan-5x5=500")
    ap.add_argument("--no-valhalla", default="", help="inputs without Valhalla (time budget)")
    ap.add_argument("--no-ch-speeds", default="", help="inputs without osrm-contract --segment-speed-file")
    ap.add_argument("--navgraph-only", default="", help="inputs measured without peers (too large for the time budget)")
    ap.add_argument("--data", default=str(REPO.parent / "shared" / "data"))
    ap.add_argument("--results", default=str(REPO / "Benchmarks" / "results"))
    args = ap.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    results = Path(args.results)
    (results / "parts").mkdir(parents=True, exist_ok=True)
    for old in (results / "parts").glob("*.json"):
        old.unlink()
    plimit, vlimit = kv(args.peer_limit), kv(args.valhalla_limit)
    no_val, no_ch = set(args.no_valhalla.split(",")), set(args.no_ch_speeds.split(","))
    nav_only = [n for n in args.navgraph_only.split(",") if n]
    jobs = [(n, False) for n in args.inputs.split(",") if n] + [(n, False) for n in nav_only] + \
           [(n, True) for n in args.import_only.split(",") if n]
    t_start = time.monotonic()
    for name, import_only in jobs:
        log(f"=== {name}{' (import only)' if import_only else ''}, load {load()}")
        t0 = time.monotonic()
        src, kind = source_of(name, args.data)
        rec = {"name": name, "source": str(src), "kind": kind, "source_bytes": src.stat().st_size,
               "import_only": import_only, "started": time.strftime("%Y-%m-%dT%H:%M:%S"), "load_before": load()}
        pairs = traffic = None
        if not import_only:
            pairs = WORK / "pairs" / f"{name}-{args.pairs}-s1.csv"
            if kind == "dimacs":
                cached(pairs, lambda tmp: dimacs_pairs(src, args.pairs, tmp))
                rec["navgraph"] = navgraph_part(name, src, kind, pairs, None, False)
            else:
                cached(pairs, lambda tmp: make_pairs(src, args.pairs, tmp))
                traffic = cached(WORK / "traffic" / f"{name}.csv", lambda tmp: make_traffic(src, tmp))
                rec["navgraph"] = navgraph_part(name, src, kind, pairs, traffic, False)
            rec["pairs"] = str(pairs.relative_to(REPO))
        else:
            rec["navgraph"] = navgraph_part(name, src, kind, None, None, True)
        if name in nav_only:
            rec["peers_skipped"] = ("navgraph only (--navgraph-only): OSRM extract+contract at this size would "
                                    "exceed the run's time budget")
        elif kind == "osm":
            if import_only:
                rec["osrm_import"] = osrm_extract_only(name, src)
            else:
                rec["peer_pairs"] = plimit.get(name, args.pairs)
                rec["valhalla_pairs"] = vlimit.get(name, args.pairs)
                rec.update(peers_part(name, src, pairs, traffic, rec["peer_pairs"], rec["valhalla_pairs"],
                                      name not in no_val, name not in no_ch))
        rec["wall_s"] = round(time.monotonic() - t0, 1)
        (results / "parts" / f"{name}.json").write_text(json.dumps(rec, indent=1) + "\n")
        log(f"=== {name} done in {rec['wall_s']} s (total {time.monotonic() - t_start:.0f} s)")
    merged = {"command": " ".join(sys.argv), "machine": {"cpus": os.cpu_count(), "uname": " ".join(os.uname())},
              "finished": time.strftime("%Y-%m-%dT%H:%M:%S"), "wall_s": round(time.monotonic() - t_start, 1),
              "inputs": {p.stem: json.loads(p.read_text()) for p in sorted((results / "parts").glob("*.json"))}}
    (results / "results.json").write_text(json.dumps(merged, indent=1) + "\n")
    run([PY, REPO / "Benchmarks/report.py", results / "results.json"], 600)


if __name__ == "__main__":
    main()
