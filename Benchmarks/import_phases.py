#!/usr/bin/env python3
"""import_phases.py LOG... - per-phase table (wall s, CPU s, peak MB; a trailing ∥ marks a phase that ran next to
another) of import_scale.sh logs side by side, then time -v totals, load averages, file bytes and CCH figures."""
import re, sys
rx = re.compile(r'^\[\s*([\d.]+)s\] ([^:]+): .*\(([\d.]+)s, CPU ([\d.]+)s, peak RSS (\d+) MB, now (\d+) MB\)( \[concurrent\])?')
def load(path):
    out = {}; order = []; extra = {}
    for line in open(path):
        m = rx.match(line)
        if m:
            at, name, wall, cpu, peak, now, conc = m.groups()
            out[name] = (float(at), float(wall), float(cpu), int(peak), int(now), bool(conc)); order.append(name)
        for key, pat in [('user', r'User time \(seconds\): ([\d.]+)'), ('sys', r'System time \(seconds\): ([\d.]+)'),
                         ('wall', r'Elapsed .*: (\S+)'), ('rss', r'Maximum resident set size \(kbytes\): (\d+)'),
                         ('load', r'load before: (.*)'), ('loadafter', r'load after: (.*)'), ('bytes', r'file bytes: (\d+)'), ('ss', r'search-space arcs mean (\d+) p50 (\d+)'), ('arcs', r'nodes, (\d+) arcs')]:
            mm = re.search(pat, line)
            if mm: extra[key] = mm.group(1) if key != 'ss' else mm.group(1) + ' / ' + mm.group(2)
    return out, order, extra
logs = sys.argv[1:]
data = [load(p) for p in logs]
names = []
for _, order, _ in data:
    for n in order:
        if n not in names: names.append(n)
print('| phase | ' + ' | '.join(f'{p} wall s | CPU s | peak MB' for p in logs) + ' |')
print('|---|' + '---:|---:|---:|' * len(logs))
for n in names:
    row = [n]
    for d, _, _ in data:
        v = d.get(n)
        row += [f'{v[1]:.2f}' + ('∥' if v[5] else ''), f'{v[2]:.2f}', str(v[3])] if v else ['–'] * 3
    print('| ' + ' | '.join(row) + ' |')
for key in ['wall', 'user', 'sys', 'rss', 'load', 'loadafter', 'bytes', 'arcs', 'ss']:
    print(f'| {key} | ' + ' | '.join(f'{e.get(key, "–")} | | ' for _, _, e in data) + '|')
