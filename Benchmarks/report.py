#!/usr/bin/env python3
"""report.py - turn Benchmarks/results/results.json (from run.py) into report.md and scaling.svg.

Usage: report.py [RESULTS.json]   (writes report.md and scaling.svg next to it)

Tables: import (navgraph import vs osrm-extract), CH preprocessing and latency vs OSRM CH,
customization (avoid combinations, traffic) vs OSRM segment-speed updates, latency with
avoidance/traffic vs plain, alternatives share, DIMACS, and the scaling summary with ratios
navgraph/peer (all measured in the same run). The SVG is hand-written (no plotting library):
three log-log panels (preprocessing time, peak RSS, p50 latency) over routing nodes.
"""
import json
import math
import re
import sys
from pathlib import Path


def g(d, *keys):
    """Nested lookup that returns None on any missing level."""
    for k in keys:
        if not isinstance(d, dict) or k not in d:
            return None
        d = d[k]
    return d


def f(x, digits=2, unit=""):
    if x is None:
        return "–"
    if isinstance(x, int) or abs(x) >= 100:
        return f"{x:,.0f}{unit}"
    return f"{x:.{digits}f}{unit}"


def ratio(a, b):
    return f"{a / b:.2f}×" if a is not None and b not in (None, 0) else "–"


def mib(kb):
    return kb / 1024 if kb is not None else None


def run_of(summary, algorithm=None, mode="inproc", alternatives=0):
    for r in (summary or {}).get("runs", []):
        if (algorithm is None or r.get("algorithm") == algorithm) and r["mode"] == mode and r["alternatives"] == alternatives:
            return r
    return None


def p50(summary, algorithm, mode="inproc", alternatives=0):
    return g(run_of(summary, algorithm, mode, alternatives), "summary", "latency_routed", "p50_ms")


def measurement(rec, label_prefix):
    for m in g(rec, "navgraph", "bench", "measurements") or []:
        if m["label"].startswith(label_prefix):
            return m
    return None


def nodes(rec):
    return g(rec, "navgraph", "bench", "routingNodes") or g(rec, "navgraph", "info", "routingNodes")


def cli_customize(rec):
    """Customization seconds printed by `navgraph traffic` (customize phase only)."""
    m = re.search(r"customization ([\d.]+) s", g(rec, "navgraph", "traffic_cli", "stdout") or "")
    return float(m.group(1)) if m else None


def peer_pairs(rec, engine):
    return g(rec, engine, "n_pairs") or "–"


def osrm_steps(rec):
    return g(rec, "osrm", "steps") or {}


def engines(rec):
    """{engine: (preprocessing s, peak RSS MiB, p50 in-process ms)} for the scaling table and plot."""
    s = osrm_steps(rec)
    wall = lambda k: g(s, k, "wall_s")
    rss = lambda *ks: max([g(s, k, "max_rss_kb") or 0 for k in ks]) / 1024 or None
    out = {"navgraph": (g(rec, "navgraph", "import", "wall_s"), mib(g(rec, "navgraph", "import", "max_rss_kb")),
                        g(measurement(rec, "plain"), "p50") or g(measurement(rec, "node to node"), "p50"))}
    if s:
        if wall("extract") is not None and wall("contract") is not None:
            out["OSRM CH"] = (wall("extract") + wall("contract"), rss("extract", "contract"), p50(rec["osrm"], "ch"))
        if wall("partition") is not None and wall("customize") is not None:
            out["OSRM MLD"] = (wall("extract") + wall("partition") + wall("customize"),
                               rss("extract", "partition", "customize"), p50(rec["osrm"], "mld"))
    v = g(rec, "valhalla", "steps", "build_tiles")
    if v:
        out["Valhalla"] = (v.get("wall_s"), mib(v.get("max_rss_kb")), p50(rec["valhalla"], None))
    return out


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|"]
    return "\n".join(lines + ["| " + " | ".join(str(c) for c in r) + " |" for r in rows])


def report(res):
    inputs = res["inputs"]
    full = [r for r in inputs.values() if not r["import_only"] and r["kind"] == "osm"]
    full.sort(key=lambda r: nodes(r) or 0)
    out = [f"# navgraph benchmark report\n",
           f"Command: `{res['command']}`  \nFinished {res['finished']}, total wall {res['wall_s'] / 60:.1f} min, "
           f"{res['machine']['cpus']} CPUs. Load average (1 min) before each input is listed; the machine was shared "
           f"with other jobs at times, so absolute times are noisy — ratios are between runs of the same input "
           f"minutes apart.\n"]

    rows = []
    for r in sorted(inputs.values(), key=lambda r: r["source_bytes"]):
        if r["kind"] != "osm":
            continue
        n = r["navgraph"]
        ext = g(r, "osrm_import", "extract") or osrm_steps(r).get("extract") or {}
        obytes = ext.get("files_bytes") or r.get("osrm_extract_bytes")
        rows.append([r["name"], f(r["source_bytes"] / 1e6, 1), f(nodes(r) or g(n, "info", "routingNodes")),
                     f(g(n, "import", "wall_s")), f(mib(g(n, "import", "max_rss_kb")), 0), f(n["graph_bytes"] / 1e6, 1),
                     f(ext.get("wall_s")), f(mib(ext.get("max_rss_kb")), 0), f(obytes / 1e6, 1) if obytes else "–",
                     ratio(g(n, "import", "wall_s"), ext.get("wall_s")),
                     ratio(g(n, "import", "max_rss_kb"), ext.get("max_rss_kb")), f(r.get("load_before"))])
    out.append("## Import (issue 2): `navgraph import` (parse + graph + CCH, ready to route) vs `osrm-extract`\n")
    out.append(table(["input", "pbf MB", "routing nodes", "navgraph s", "navgraph RSS MiB", "graph MB",
                      "osrm-extract s", "extract RSS MiB", ".osrm* MB", "time ratio", "RSS ratio", "load"], rows))
    out.append("\nnavgraph's time includes its whole preprocessing (CCH order + contraction + customization); "
               "osrm-extract is only OSRM's first step (see the next table for contract/partition/customize).\n")

    rows = []
    for r in full:
        s, n = osrm_steps(r), r["navgraph"]
        ph = g(n, "info", "metadata", "phaseSeconds") or {}
        cch = sum(v for k, v in ph.items() if k in ("order", "contract", "customize"))
        ch_total = (g(s, "extract", "wall_s") or 0) + (g(s, "contract", "wall_s") or 0)
        pl = measurement(r, "plain")
        rows.append([r["name"], f(nodes(r)), f(g(n, "import", "wall_s")), f(cch or None), f(g(s, "extract", "wall_s")),
                     f(g(s, "contract", "wall_s")), ratio(g(n, "import", "wall_s"), ch_total),
                     f(g(pl, "p50"), 3), f(p50(r.get("osrm"), "ch"), 3), ratio(g(pl, "p50"), p50(r.get("osrm"), "ch")),
                     f(g(pl, "p99"), 3), f(g(run_of(r.get("osrm"), "ch"), "summary", "latency_routed", "p99_ms"), 3),
                     f(p50(r.get("osrm"), "ch", "http"), 3), f(g(n, "cli_batch", "p50_ms"), 3),
                     f"{g(pl, 'queries')}/{peer_pairs(r, 'osrm')}"])
    out.append("\n## CH preprocessing and query latency vs OSRM CH (issue 3)\n")
    out.append(table(["input", "routing nodes", "navgraph import s", "of which CCH phases s", "osrm-extract s",
                      "osrm-contract s", "prep ratio (vs extract+contract)", "navgraph p50 ms", "OSRM CH p50 ms (in-proc)",
                      "p50 ratio", "navgraph p99", "OSRM CH p99", "OSRM CH p50 HTTP loopback", "navgraph CLI batch p50",
                      "pairs navgraph/OSRM"], rows))
    out.append("\nLatency: navgraph = navgraph-bench in-process `Router.route` (snap + query + unpack + legs); OSRM = "
               "in-process `osrm.OSRM.Route()` via the Python bindings (overview=full, annotations), the closest to "
               "server-side time; HTTP = client-side loopback keep-alive, labelled. CLI batch = `navgraph route --pairs` "
               "(its own per-query timer). CCH phases = navgraph phaseSeconds order + contract + customize (nested dissection, chordal contraction, first customization).\n")

    rows = []
    for r in full:
        c = g(r, "navgraph", "bench", "customizationSeconds") or {}
        u = r.get("osrm_speed_update") or {}
        rows.append([r["name"], f(nodes(r))] + [f(c.get(k), 3) for k in
                    ("avoid toll", "avoid ferry", "avoid highway", "avoid toll+ferry", "avoid toll+highway",
                     "avoid ferry+highway", "avoid toll+ferry+highway", "traffic update (load + customize)")] +
                    [f(cli_customize(r), 3), f(g(u, "mld_customize", "wall_s")), f(g(u, "ch_contract", "wall_s")) if g(u, "ch_contract", "wall_s")
                     else "skipped", ratio(c.get("traffic update (load + customize)"), g(u, "mld_customize", "wall_s")),
                     ratio(c.get("traffic update (load + customize)"), g(u, "ch_contract", "wall_s"))])
    out.append("\n## Customization per avoid combination and traffic update vs OSRM segment speeds (issue 4)\n")
    out.append(table(["input", "nodes", "toll s", "ferry s", "highway s", "toll+ferry", "toll+highway", "ferry+highway",
                      "toll+ferry+highway", "navgraph traffic (load+customize) s", "`navgraph traffic` customize s", "osrm-customize --segment-speed-file s",
                      "osrm-contract --segment-speed-file s", "ratio vs MLD", "ratio vs CH"], rows))
    out.append("\nOSRM speed file: the same sample traffic (Tools/make_sample_traffic.py), one `from,to,speed_kmh` row per "
               "directed segment with speed = 50 km/h × navgraph's speed share of the level (low 1.0, moderate 0.7, "
               "heavy 0.5, severe 0.3 = TrafficTable.speedShare of the named levels), run on the already extracted "
               "files. OSRM times are whole processes (load + customize/contract + write); navgraph's are in-process.\n")

    rows = []
    for r in full:
        pl = measurement(r, "plain")
        av, tr, al = measurement(r, "avoid"), measurement(r, "traffic"), measurement(r, "alternatives")
        rows.append([r["name"], f(g(pl, "p50"), 3), f(g(av, "p50"), 3), ratio(g(av, "p50"), g(pl, "p50")),
                     f(g(tr, "p50"), 3), ratio(g(tr, "p50"), g(pl, "p50")), f(g(al, "p50"), 3), ratio(g(al, "p50"), g(pl, "p50")),
                     f(g(pl, "throughputPerSecond"), 0), f(g(av, "failed"))])
    out.append("\n## navgraph latency with avoidance / traffic / alternatives vs plain (issue 4), in-process\n")
    out.append(table(["input", "plain p50 ms", "avoid toll+ferry+highway p50", "ratio", "traffic p50", "ratio",
                      "alternatives 3 p50", "ratio", "plain queries/s", "avoid: unroutable"], rows))

    rows = []
    for r in full:
        al = measurement(r, "alternatives")
        oc, om = run_of(r.get("osrm"), "ch", "inproc", 3), run_of(r.get("osrm"), "mld", "inproc", 3)
        va = run_of(r.get("valhalla"), None, "inproc", 3)
        share = lambda run: f(g(run, "summary", "share_ge1_alternative"), 3)
        rows.append([r["name"], f(g(al, "shareWithAlternative"), 3), f(g(al, "p50"), 3), share(oc), f(p50(r.get("osrm"), "ch", "inproc", 3), 3),
                     share(om), f(p50(r.get("osrm"), "mld", "inproc", 3), 3), share(va), f(p50(r.get("valhalla"), None, "inproc", 3), 3)])
    out.append("\n## Alternatives (3 asked): share of routed queries with ≥ 1 alternative, and p50 ms\n")
    out.append(table(["input", "navgraph share", "navgraph p50", "OSRM CH share", "CH p50", "OSRM MLD share", "MLD p50",
                      "Valhalla share", "Valhalla p50"], rows))
    out.append("\nSee Benchmarks/ALTERNATIVES.md for the quality comparison of the alternatives themselves.\n")

    rows = []
    for r in full:
        e = engines(r)
        nav = e["navgraph"]
        for name in ("OSRM CH", "OSRM MLD", "Valhalla"):
            if name not in e:
                why = r.get("peers_skipped") or g(r, "valhalla", "skipped") or "not measured"
                rows.append([r["name"], f(nodes(r)), name, "–", "–", "–", "–", "–", "–", why])
                continue
            t, m, l = e[name]
            rows.append([r["name"], f(nodes(r)), name, f(t), ratio(nav[0], t), f(m, 0), ratio(nav[1], m), f(l, 3),
                         ratio(nav[2], l), f"{peer_pairs(r, 'valhalla' if name == 'Valhalla' else 'osrm')} pairs"])
    out.append("\n## Scaling summary (issue 7): navgraph / peer ratios, same run (< 1 = navgraph better)\n")
    out.append(table(["input", "routing nodes", "peer", "peer prep s", "prep ratio", "peer peak RSS MiB", "RSS ratio",
                      "peer p50 ms (in-proc)", "p50 ratio", "peer pairs"], rows))
    out.append("\nnavgraph per input: " + "; ".join(
        f"{r['name']} import {f(engines(r)['navgraph'][0])} s, {f(engines(r)['navgraph'][1], 0)} MiB, p50 "
        f"{f(engines(r)['navgraph'][2], 3)} ms on {g(measurement(r, 'plain'), 'queries')} pairs" for r in full) +
        ". Peer preprocessing = OSRM extract+contract (CH), extract+partition+customize (MLD), valhalla_build_tiles; "
        "peak RSS = the largest step. Plot: scaling.svg.\n")

    for r in inputs.values():
        if r["kind"] != "dimacs":
            continue
        n = r["navgraph"]
        m = measurement(r, "node to node")
        out.append(f"\n## DIMACS {r['name']} (navgraph only; node-to-node CCH queries, {g(m, 'queries')} random pairs, seed 1)\n")
        out.append(table(["routing nodes", "import + CCH s", "phases", "peak RSS MiB", "graph MB", "p50 ms", "p95 ms",
                          "p99 ms", "queries/s", "no path"],
                         [[f(nodes(r)), f(g(n, "import", "wall_s")),
                           ", ".join(f"{k} {v:.2f}" for k, v in (g(n, "info", "metadata", "phaseSeconds") or {}).items()),
                           f(mib(g(n, "import", "max_rss_kb")), 0), f(n["graph_bytes"] / 1e6, 1), f(g(m, "p50"), 3),
                           f(g(m, "p95"), 3), f(g(m, "p99"), 3), f(g(m, "throughputPerSecond"), 0), f(g(m, "failed"))]]))
        out.append("")
    return "\n".join(out) + "\n"


def svg(res):
    """Three log-log panels: preprocessing s, peak RSS MiB, p50 ms over routing nodes, one line per engine."""
    colors = {"navgraph": "#d62728", "OSRM CH": "#1f77b4", "OSRM MLD": "#2ca02c", "Valhalla": "#9467bd"}
    recs = sorted((r for r in res["inputs"].values() if not r["import_only"] and r["kind"] == "osm" and nodes(r)),
                  key=nodes)
    panels = [("preprocessing time (s)", 0), ("peak RSS (MiB)", 1), ("p50 latency, in-process (ms)", 2)]
    W, H, pad = 330, 280, 55
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{3 * W + 20}" height="{H + 70}" font-family="sans-serif" font-size="11">',
             '<rect width="100%" height="100%" fill="white"/>']
    for pi, (title, idx) in enumerate(panels):
        ox = 10 + pi * W
        pts = {e: [(nodes(r), engines(r)[e][idx]) for r in recs if e in engines(r) and engines(r)[e][idx]] for e in colors}
        xs = [x for v in pts.values() for x, _ in v]
        ys = [y for v in pts.values() for _, y in v]
        if not xs:
            continue
        lx0, lx1 = math.floor(math.log10(min(xs))), math.ceil(math.log10(max(xs)))
        ly0, ly1 = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))
        lx1, ly1 = max(lx1, lx0 + 1), max(ly1, ly0 + 1)
        X = lambda x: ox + pad + (math.log10(x) - lx0) / (lx1 - lx0) * (W - pad - 15)
        Y = lambda y: 30 + (ly1 - math.log10(y)) / (ly1 - ly0) * (H - 60)
        parts.append(f'<text x="{ox + W / 2}" y="18" text-anchor="middle" font-weight="bold">{title}</text>')
        parts.append(f'<rect x="{ox + pad}" y="30" width="{W - pad - 15}" height="{H - 60}" fill="none" stroke="#888"/>')
        for e in range(lx0, lx1 + 1):
            parts.append(f'<line x1="{X(10 ** e):.1f}" y1="30" x2="{X(10 ** e):.1f}" y2="{H - 30}" stroke="#eee"/>'
                         f'<text x="{X(10 ** e):.1f}" y="{H - 16}" text-anchor="middle">1e{e}</text>')
        for e in range(ly0, ly1 + 1):
            parts.append(f'<line x1="{ox + pad}" y1="{Y(10 ** e):.1f}" x2="{ox + W - 15}" y2="{Y(10 ** e):.1f}" stroke="#eee"/>'
                         f'<text x="{ox + pad - 4}" y="{Y(10 ** e) + 4:.1f}" text-anchor="end">{10 ** e:g}</text>')
        parts.append(f'<text x="{ox + W / 2 + 20}" y="{H - 2}" text-anchor="middle">routing nodes (navgraph)</text>')
        for eng, v in pts.items():
            if v:
                path = " ".join(f"{X(x):.1f},{Y(y):.1f}" for x, y in v)
                parts.append(f'<polyline points="{path}" fill="none" stroke="{colors[eng]}" stroke-width="2"/>')
                parts += [f'<circle cx="{X(x):.1f}" cy="{Y(y):.1f}" r="3" fill="{colors[eng]}"/>' for x, y in v]
    for i, (eng, c) in enumerate(colors.items()):
        parts.append(f'<rect x="{80 + i * 160}" y="{H + 40}" width="14" height="4" fill="{c}"/>'
                     f'<text x="{100 + i * 160}" y="{H + 46}">{eng}</text>')
    parts.append(f'<text x="10" y="{H + 64}" fill="#555">log-log; inputs: {", ".join(r["name"] for r in recs)}; '
                 f'same run; see report.md for pairs per engine and load.</text></svg>')
    return "\n".join(parts) + "\n"


def main():
    path = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent / "results" / "results.json")
    res = json.loads(path.read_text())
    (path.parent / "report.md").write_text(report(res))
    (path.parent / "scaling.svg").write_text(svg(res))
    print(f"wrote {path.parent / 'report.md'} and {path.parent / 'scaling.svg'}", file=sys.stderr)


if __name__ == "__main__":
    main()
