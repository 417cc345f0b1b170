"""peerlib.py - shared helpers for the peer benchmarks (osrm_bench.py, valhalla_bench.py).

Step timing through GNU time, percentiles, polyline decoding, pair files,
loopback server start/stop with bounded waits, and the result JSON layout.
"""
import argparse
import gzip
import http.client
import json
import os
import platform
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
WORK = REPO / "Benchmarks" / "work"


def exit_on_sigterm():
    """Turn SIGTERM (e.g. from `timeout`) into SystemExit so `with Server(...)` blocks stop their server."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def read_pairs(path, limit=None):
    """Return [(lon1, lat1, lon2, lat2), ...] from a make_pairs.py CSV."""
    pairs = []
    with open(path) as f:
        for line in f:
            if line.strip():
                pairs.append(tuple(float(x) for x in line.split(",")))
    return pairs[:limit] if limit else pairs


def timed_step(name, cmd, cwd, log_path):
    """Run cmd under `/usr/bin/time -v`; return wall/user/sys seconds and peak RSS (kB)."""
    tfile = Path(cwd) / f"{name}.time"
    log(f"[{name}] {' '.join(map(str, cmd))}")
    with open(log_path, "ab") as lf:
        rc = subprocess.call(["/usr/bin/time", "-v", "-o", str(tfile)] + [str(c) for c in cmd],
                             cwd=cwd, stdout=lf, stderr=subprocess.STDOUT)
    text = tfile.read_text()
    if rc != 0:
        raise RuntimeError(f"{name} failed (rc {rc}), see {log_path}")

    def field(label):
        return re.search(re.escape(label) + r":\s*(\S+)", text).group(1)

    wall = 0.0
    for part in field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":"):
        wall = wall * 60 + float(part)
    res = {"wall_s": round(wall, 3), "user_s": float(field("User time (seconds)")),
           "sys_s": float(field("System time (seconds)")),
           "max_rss_kb": int(field("Maximum resident set size (kbytes)"))}
    log(f"[{name}] wall {res['wall_s']} s, max RSS {res['max_rss_kb'] / 1024:.1f} MiB")
    return res


def percentile(sorted_vals, p):
    """Nearest-rank percentile of an ascending list."""
    if not sorted_vals:
        return None
    k = max(0, min(len(sorted_vals) - 1, int(-(-p * len(sorted_vals) // 100)) - 1))
    return sorted_vals[k]


def latency_summary(ms):
    s = sorted(ms)
    if not s:
        return {}
    return {"n": len(s), "p50_ms": round(percentile(s, 50), 3), "p95_ms": round(percentile(s, 95), 3),
            "p99_ms": round(percentile(s, 99), 3), "mean_ms": round(sum(s) / len(s), 3),
            "max_ms": round(s[-1], 3)}


def run_summary(queries, alternatives):
    """Summary of one pass: status counts, latency percentiles, alternative shares."""
    codes = {}
    for q in queries:
        codes[q["code"]] = codes.get(q["code"], 0) + 1
    ok = [q for q in queries if q.get("distance_m") is not None]
    out = {"queries": len(queries), "routed": len(ok), "codes": codes,
           "latency_all": latency_summary([q["latency_ms"] for q in queries]),
           "latency_routed": latency_summary([q["latency_ms"] for q in ok])}
    if alternatives:
        n = len(ok) or 1
        out["share_ge1_alternative"] = round(sum(len(q["routes"]) >= 2 for q in ok) / n, 4)
        out["share_ge2_alternatives"] = round(sum(len(q["routes"]) >= 3 for q in ok) / n, 4)
        out["mean_routes"] = round(sum(len(q["routes"]) for q in ok) / n, 3)
    return out


def decode_polyline(s, precision=6):
    """Decode a Google-style encoded polyline into [[lon, lat], ...]."""
    coords, idx, lat, lon, factor = [], 0, 0, 0, 10.0 ** precision
    while idx < len(s):
        vals = []
        for _ in range(2):
            shift = result = 0
            while True:
                b = ord(s[idx]) - 63
                idx += 1
                result |= (b & 0x1F) << shift
                shift += 5
                if b < 0x20:
                    break
            vals.append(~(result >> 1) if result & 1 else result >> 1)
        lat += vals[0]
        lon += vals[1]
        coords.append([round(lon / factor, precision), round(lat / factor, precision)])
    return coords


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A loopback server process; always stopped on exit from the with block."""

    def __init__(self, cmd, cwd, log_path, port):
        self.port = port
        self.log = open(log_path, "ab")
        log(f"[server] {' '.join(map(str, cmd))}")
        self.proc = subprocess.Popen([str(c) for c in cmd], cwd=cwd, stdout=self.log,
                                     stderr=subprocess.STDOUT, start_new_session=True)

    def wait_ready(self, probe, timeout_s=300):
        """Call probe(conn) until it returns True, the process dies, or timeout_s passes."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with rc {self.proc.returncode}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                if probe(conn):
                    conn.close()
                    return time.monotonic() - (deadline - timeout_s)
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError("server not ready in time")

    def peak_rss_kb(self):
        try:
            for line in open(f"/proc/{self.proc.pid}/status"):
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        except OSError:
            return None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        # The server runs in its own process group (start_new_session): signal that group only.
        for sig, wait_s in ((signal.SIGINT, 5), (signal.SIGTERM, 5), (signal.SIGKILL, 15)):
            if self.proc.poll() is not None:
                break
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                self.proc.wait(timeout=wait_s)
            except subprocess.TimeoutExpired:
                pass
        self.log.close()
        log(f"[server] stopped (rc {self.proc.returncode})")


class KeepAliveClient:
    """One keep-alive HTTP/1.1 connection to 127.0.0.1:port; counts reconnects.

    timed(method, path, ...) returns (status, body bytes, latency ms), latency
    from writing the request to reading the whole body."""

    def __init__(self, port, timeout=60):
        self.port, self.timeout, self.connects = port, timeout, 0
        self.conn = None

    def timed(self, method, path, body=None, headers=None):
        for attempt in (0, 1):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
                self.connects += 1
            try:
                t0 = time.perf_counter()
                self.conn.request(method, path, body=body, headers=headers or {})
                resp = self.conn.getresponse()
                data = resp.read()
                ms = (time.perf_counter() - t0) * 1000.0
                if resp.will_close:
                    self.close()
                return resp.status, data, ms
            except (http.client.HTTPException, OSError):
                self.close()
                if attempt:
                    raise

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def run_passes(result, pairs, algorithm, mode, label, alt_values, runner, warmup):
    """One timed pass over all pairs per alternatives value, appended to result["runs"].

    runner(alt, pairs) -> (per-query records, extra run fields). Before each pass
    the first `warmup` pairs run untimed. The load average is noted around each
    pass: the machine has 2 cores, so a load above ~1.5 means another job shared
    the CPU and that pass's latencies are inflated."""
    for alt in alt_values:
        if warmup:
            runner(alt, pairs[:warmup])
        load0, t0 = os.getloadavg()[0], time.monotonic()
        queries, extra = runner(alt, pairs)
        run = {"algorithm": algorithm, "mode": mode, "latency": label, "alternatives": alt, **extra,
               "warmup_queries": warmup, "wall_s": round(time.monotonic() - t0, 3),
               "loadavg_1m_before": round(load0, 2), "loadavg_1m_after": round(os.getloadavg()[0], 2)}
        run["summary"] = summ = run_summary(queries, alt)
        run["queries"] = queries
        lat = summ["latency_routed"]
        log(f"[{algorithm}/{mode} alt={alt}] {summ['routed']}/{summ['queries']} routed in {run['wall_s']:.1f} s; "
            f"p50 {lat.get('p50_ms')} p95 {lat.get('p95_ms')} p99 {lat.get('p99_ms')} ms"
            + (f"; >=1 alt {summ['share_ge1_alternative']}" if alt else "")
            + f"; load {run['loadavg_1m_before']}..{run['loadavg_1m_after']}")
        if max(run["loadavg_1m_before"], run["loadavg_1m_after"]) > 1.5:
            log("  warning: load average above 1.5: the CPU was shared during this pass")
        result["runs"].append(run)


def machine_info():
    return {"platform": platform.platform(), "cpus": os.cpu_count(), "python": platform.python_version()}


def write_results(out, result):
    """Write the full JSON (gzipped if OUT ends in .gz), OUT-stem.summary.json without
    per-query data, and OUT-stem.queries.json.gz: per-query data without geometries."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    opener = (lambda p, m: gzip.open(p, m, compresslevel=1)) if out.suffix == ".gz" else open
    with opener(out, "wt") as f:
        f.write(json.dumps(result, separators=(",", ":")))  # dumps: C encoder, dump() is pure Python
    summary = dict(result, runs=[{k: v for k, v in r.items() if k != "queries"} for r in result["runs"]])
    name = out.name.removesuffix(".gz").removesuffix(".json")
    spath = out.with_name(name + ".summary.json")
    spath.write_text(json.dumps(summary, indent=1) + "\n")
    compact = dict(result, runs=[dict(r, queries=[
        dict(q, routes=[{k: v for k, v in rt.items() if k != "geometry"} for rt in q["routes"]])
        if "routes" in q else q for q in r["queries"]]) for r in result["runs"]])
    qpath = out.with_name(name + ".queries.json.gz")
    with gzip.open(qpath, "wt") as f:
        f.write(json.dumps(compact, separators=(",", ":")))
    log(f"wrote {out}, {spath} and {qpath}")


def argument_parser(doc):
    """A parser with the options both peer benches share: inputs, output, alternatives, pair limit, warm-up."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pbf", required=True)
    ap.add_argument("--pairs", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--alternatives", type=int, default=0)
    ap.add_argument("--limit", type=int, help="use only the first N pairs")
    ap.add_argument("--warmup", type=int, default=100, help="untimed queries (first pairs) before each pass")
    return ap
