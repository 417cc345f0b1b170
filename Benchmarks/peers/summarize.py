#!/usr/bin/env python3
"""summarize.py - print Markdown tables from peer benchmark *.summary.json files.

Usage: summarize.py RESULT.summary.json [...] > tables.md
One table of build steps (wall time, peak RSS) and one of query passes
(latency p50/p95/p99 of routed queries, failures, alternative shares, load).
"""
import json
import sys


def main():
    docs = [(p, json.load(open(p))) for p in sys.argv[1:]]
    print("| engine | extract | step | wall s | user s | peak RSS MiB |\n|---|---|---|---:|---:|---:|")
    for _, d in docs:
        name = d["pbf"].rsplit("/", 1)[-1]
        for step, v in d["steps"].items():
            if isinstance(v, dict) and "max_rss_kb" in v:
                print(f"| {d['engine']} {d['version']} | {name} | {step} | {v['wall_s']} | {v['user_s']} | "
                      f"{v['max_rss_kb'] / 1024:.1f} |")
    print()
    print("| engine | extract | algo | latency measured | alts asked | routed/queries | p50 ms | p95 ms | p99 ms "
          "| >=1 alt | >=2 alts | load 1m |\n|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for _, d in docs:
        name = d["pbf"].rsplit("/", 1)[-1]
        for r in d["runs"]:
            s, lat = r["summary"], r["summary"]["latency_routed"]
            alt1 = s.get("share_ge1_alternative", "")
            alt2 = s.get("share_ge2_alternatives", "")
            print(f"| {d['engine']} | {name} | {r['algorithm']} | {r['mode']} | {r['alternatives']} | "
                  f"{s['routed']}/{s['queries']} | {lat.get('p50_ms')} | {lat.get('p95_ms')} | {lat.get('p99_ms')} | "
                  f"{alt1} | {alt2} | {r.get('loadavg_1m_before')}..{r.get('loadavg_1m_after')} |")


if __name__ == "__main__":
    main()
