#!/usr/bin/env python3
"""server_body_compare.py - response bodies of two `navgraph serve` builds, compared byte for byte.

Starts OLD and NEW on the same graph (and, with --traffic, loads the same traffic CSV into both), sends each the same
requests drawn with a fixed seed from a pair file (lon,lat,lon,lat per line) and compares status, content type and
body; only the random response `uuid` is masked. Route refreshes ask each server for its own uuid.
Request kinds: the navigation SDK's Mapbox request, OSRM's steps+annotations request, overview=full, alternatives,
several waypoints and silent via points, languages and units, GeoJSON geometry, Mapbox waypoint names, closures and
traffic tendencies, refreshes, POST forms, NextBillion /navigation/json and /directions/json, table, nearest, trip,
match, geojson, and error responses of every dialect.

Usage: server_body_compare.py OLD NEW GRAPH PAIRS [--traffic CSV] [--count N] [--seed S] [--port P]
Prints one line per kind (requests, bytes, mismatches) and exits 1 on any mismatch (the first diffs are shown).
"""
import argparse, http.client, random, re, subprocess, sys, time, urllib.parse

UUID = re.compile(rb'"uuid":"[0-9a-f-]{36}"')
SDK = ("alternatives=false&continue_straight=true&geometries=polyline6&overview=full&steps=true&language=en"
       "&voice_instructions=true&voice_units=metric&banner_instructions=true"
       "&annotations=distance,duration,speed,congestion,maxspeed&access_token=pk.test")


def serve(binary, graph, port):
    proc = subprocess.Popen([binary, "serve", graph, "--port", str(port), "--threads", "2", "--quiet"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(300):
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            c.request("GET", "/health")
            c.getresponse().read()
            return proc
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"{binary} did not come up on {port}")


class Client:
    def __init__(self, port):
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def ask(self, method, path, body=None, ctype=None):
        headers = {"Content-Type": ctype} if ctype else {}
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=body, headers=headers)
                r = self.conn.getresponse()
                return r.status, r.getheader("Content-Type"), r.read()
            except (http.client.HTTPException, OSError):
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        raise SystemExit(f"request failed on {self.port}: {path}")


def requests(pairs, n, rng):
    """(kind, method, path, body, content type) in a fixed order."""
    def pick(k=1):
        return [rng.choice(pairs) for _ in range(k)]

    def coords(points):
        return ";".join(f"{p[0]},{p[1]}" for p in points)

    def stops(k):
        chosen = pick((k + 1) // 2)
        flat = [(p[0], p[1]) for p in chosen] + [(p[2], p[3]) for p in chosen]
        return flat[:k]

    def latlng(p):
        return f"{p[1]},{p[0]}"

    out = []
    for _ in range(n):
        p = pick()[0]
        out.append(("sdk", "GET", f"/directions/v5/mapbox/driving-traffic/{coords([p[:2], p[2:]])}?{SDK}", None, None))
    for _ in range(n):
        p = pick()[0]
        out.append(("osrm_steps", "GET", f"/route/v1/driving/{coords([p[:2], p[2:]])}?steps=true&annotations=duration,distance,speed", None, None))
    for _ in range(n):
        p = pick()[0]
        out.append(("full", "GET", f"/route/v1/driving/{coords([p[:2], p[2:]])}?overview=full&geometries=polyline6", None, None))
    osrm_variants = [
        "alternatives=3&steps=true&annotations=true&overview=full",
        "alternatives=true&steps=true&geometries=geojson&overview=simplified",
        "annotations=duration,distance,speed,congestion,congestion_numeric,maxspeed&overview=false",
        "steps=true&language=de&voice_instructions=true&banner_instructions=true&voice_units=imperial",
        "steps=true&language=fr&banner_instructions=true&geometries=polyline",
        "steps=true&language=it&voice_instructions=true&annotations=maxspeed,congestion",
        "skip_waypoints=true&overview=false",
        "",
        "overview=simplified&geometries=geojson&annotations=speed",
        "steps=true&exclude=toll&continue_straight=false&geometries=geojson&overview=full",
        "steps=true&annotations=true&language=es&voice_instructions=true&banner_instructions=true",
    ]
    for i in range(2 * len(osrm_variants) * max(1, n // 20)):
        p = pick()[0]
        out.append(("osrm_variants", "GET", f"/route/v1/driving/{coords([p[:2], p[2:]])}?{osrm_variants[i % len(osrm_variants)]}", None, None))
    multi = [
        "steps=true&annotations=duration,distance,speed,congestion,congestion_numeric,maxspeed&geometries=geojson",
        "steps=true&waypoints=0;2;LAST&overview=simplified&annotations=true",
        "waypoints=0;LAST&overview=full&geometries=polyline6",
        "steps=true&waypoints=0;1;LAST&voice_instructions=true&banner_instructions=true&language=de",
        "alternatives=true&overview=false",
    ]
    for i in range(3 * len(multi) * max(1, n // 20)):
        k = 3 + i % 2
        out.append(("multi_waypoints", "GET", f"/route/v1/driving/{coords(stops(k))}?{multi[i % len(multi)].replace(';2;LAST', ';2' if k == 3 else ';2;3').replace('LAST', str(k - 1))}", None, None))
    mapbox = [
        SDK + "&waypoints=0;2&waypoint_names=Start;Goal",
        SDK.replace("annotations=distance,duration,speed,congestion,maxspeed", "annotations=closure,traffic_tendency,duration"),
        SDK.replace("annotations=distance,duration,speed,congestion,maxspeed", "annotations=closure,traffic_tendency"),
        "steps=true&geometries=geojson&overview=simplified&waypoint_names=;Home;Work&language=fr",
        "alternatives=true&steps=true&voice_instructions=true&banner_instructions=true&annotations=congestion_numeric,maxspeed&exclude=toll",
        "overview=false&skip_waypoints=true",
        SDK.replace("voice_units=metric", "voice_units=imperial").replace("language=en", "language=it") + "&max_height=3.5",
    ]
    for i in range(3 * len(mapbox) * max(1, n // 20)):
        profile = ["driving-traffic", "driving", "driving-traffic"][i % 3]
        out.append(("mapbox_variants", "GET", f"/directions/v5/mapbox/{profile}/{coords(stops(3))}.json?{mapbox[i % len(mapbox)]}", None, None))
    for i in range(max(4, n // 10)):
        p = pick()[0]
        form = f"coordinates={coords([p[:2], p[2:]])}&" + SDK.replace("&access_token=pk.test", "")
        out.append(("mapbox_post", "POST", "/directions/v5/mapbox/driving-traffic?access_token=pk.test", form, "application/x-www-form-urlencoded"))
    for i in range(max(6, n // 5)):
        a, b = pick(2)
        out.append(("refresh", "REFRESH", f"/directions/v5/mapbox/driving-traffic/{coords([a[:2], b[:2], a[2:]])}?{SDK}&enable_refresh=true"
                    + ("&waypoints=0;2" if i % 3 == 1 else "") .replace("annotations=distance,duration,speed,congestion,maxspeed", "annotations=closure,traffic_tendency,congestion" if i % 3 == 2 else "annotations=distance,duration,speed,congestion,maxspeed"),
                    None, f"{i % 2}/{i % 3 == 0 and 1 or 0}"))
    for i in range(max(6, n // 5)):
        a, b = pick(2)
        q = [f"origin={latlng(a[:2])}", f"destination={latlng(a[2:])}"]
        if i % 3 == 1: q.append(f"waypoints={latlng(b[:2])}")
        if i % 4 == 2: q.append("lang=de")
        if i % 5 == 3: q.append("geometry=geojson")
        if i % 5 == 4: q.append("geometry=polyline&overview=simplified")
        if i % 6 == 5: q.append("alternatives=true&altcount=2&lang=fr")
        if i % 7 == 6: q.append("overview=false&avoid=toll")
        out.append(("nextbillion_navigation", "GET", "/navigation/json?" + "&".join(q), None, None))
        q = [f"origin={latlng(a[:2])}", f"destination={latlng(a[2:])}"]
        if i % 2 == 0: q.append("alternatives=true")
        if i % 3 == 0: q.append("steps=true")
        if i % 4 == 1: q.append("geometry=geojson")
        if i % 5 == 2: q.append(f"waypoints={latlng(b[:2])}|{latlng(b[2:])}")
        if i % 6 == 3: q.append("overview=simplified&geometry=polyline6")
        if i % 7 == 4: q.append("overview=false&mode=car")
        out.append(("nextbillion_directions", "GET", "/directions/json?" + "&".join(q), None, None))
    for i in range(max(4, n // 10)):
        a, b = pick(2)
        out.append(("other_services", "GET", f"/table/v1/driving/{coords([a[:2], a[2:], b[:2], b[2:]])}?annotations=duration,distance", None, None))
        out.append(("other_services", "GET", f"/nearest/v1/driving/{coords([a[:2]])}?number=3", None, None))
        out.append(("other_services", "GET", f"/trip/v1/driving/{coords([a[:2], a[2:], b[:2]])}?steps=true&annotations=true", None, None))
        out.append(("other_services", "GET", f"/geojson/v1/driving/{coords([a[:2], a[2:]])}?steps=true", None, None))
        out.append(("other_services", "GET", f"/distancematrix/json?origins={latlng(a[:2])}&destinations={latlng(a[2:])}|{latlng(b[:2])}", None, None))
    p = pairs[0]
    here = coords([p[:2], p[2:]])
    errors = [
        f"/route/v1/driving/{here}?steps=maybe",
        f"/route/v1/driving/{here}?alternatives=-1",
        f"/route/v1/driving/{here}?frobnicate=1",
        "/route/v1/driving/0,0;0.001,0.001",
        "/route/v1/driving/200,0;1,1",
        "/route/v1/hovercraft/1,1;2,2",
        f"/route/v1/driving/{p[0]},{p[1]}",
        f"/route/v1/driving/{here}?waypoints=1;0",
        f"/route/v1/driving/{here}?annotations=nonsense",
        f"/directions/v5/mapbox/driving-traffic/{here}?steps=perhaps",
        f"/directions/v5/mapbox/flying/{here}",
        "/directions/v5/mapbox/driving/0,0;0.001,0.001?steps=true",
        f"/directions/v5/mapbox/driving/{here}?waypoint_names=a;b;c",
        f"/directions/v5/mapbox/driving/{here}?exclude=cobblestones",
        "/directions-refresh/v1/mapbox/driving-traffic/00000000-0000-0000-0000-000000000000/0/0",
        "/directions-refresh/v1/mapbox/driving-traffic/x/y/0",
        "/navigation/json?origin=0,0&destination=0.001,0.001",
        f"/navigation/json?origin={latlng(p[:2])}",
        f"/directions/json?origin={latlng(p[:2])}&destination={latlng(p[2:])}&mode=submarine",
        "/directions/json?origin=abc&destination=1,2",
        f"/table/v1/driving/{here}?sources=9",
        "/nosuchservice/v1/driving/1,1",
        f"/route/v1/driving/{here}?depart_at=yesterday",
        f"/route/v1/driving/{here}?radiuses=-5;1",
    ]
    out += [("errors", "GET", e, None, None) for e in errors]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old"); ap.add_argument("new"); ap.add_argument("graph"); ap.add_argument("pairs")
    ap.add_argument("--traffic"); ap.add_argument("--count", type=int, default=100); ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--port", type=int, default=5741)
    a = ap.parse_args()
    pairs = [tuple(float(x) for x in l.split(",")) for l in open(a.pairs) if l.count(",") == 3]
    procs = [serve(a.old, a.graph, a.port), serve(a.new, a.graph, a.port + 1)]
    try:
        old, new = Client(a.port), Client(a.port + 1)
        if a.traffic:
            csv = open(a.traffic, "rb").read()
            for c in (old, new):
                status, _, body = c.ask("POST", "/traffic", csv, "text/csv")
                assert status == 200, body
        stats, shown, total = {}, 0, 0
        for kind, method, path, body, extra in requests(pairs, a.count, random.Random(a.seed)):
            if method == "REFRESH":
                answers = []
                for c in (old, new):
                    status, ctype, first = c.ask("GET", path)
                    m = re.search(rb'"uuid":"([0-9a-f-]{36})"', first)
                    answers.append((status, ctype, UUID.sub(b'"uuid":"-"', first)))
                    if m:
                        route, leg = extra.split("/")
                        for suffix in (f"/{route}/{leg}", f"/0/0?current_route_geometry_index=3", "/0/0"):
                            answers.append(c.ask("GET", f"/directions-refresh/v1/mapbox/driving-traffic/{m.group(1).decode()}{suffix}"))
                half = len(answers) // 2
                pairs_of = list(zip(answers[:half], answers[half:]))
            else:
                pairs_of = [(old.ask(method, path, body, extra), new.ask(method, path, body, extra))]
            for x, y in pairs_of:
                x = (x[0], x[1], UUID.sub(b'"uuid":"-"', x[2])); y = (y[0], y[1], UUID.sub(b'"uuid":"-"', y[2]))
                s = stats.setdefault(kind, [0, 0, 0, {}])
                s[0] += 1; s[1] += len(x[2])
                s[3][x[0]] = s[3].get(x[0], 0) + 1
                total += 1
                if x != y:
                    s[2] += 1
                    if shown < 5:
                        shown += 1
                        i = next((k for k in range(min(len(x[2]), len(y[2]))) if x[2][k] != y[2][k]), min(len(x[2]), len(y[2])))
                        print(f"MISMATCH {kind} {method} {path[:160]}\n  status {x[0]} {y[0]} type {x[1]} {y[1]} len {len(x[2])} {len(y[2])} at {i}\n"
                              f"  old ...{x[2][max(0, i - 80):i + 80]!r}\n  new ...{y[2][max(0, i - 80):i + 80]!r}")
        bad = 0
        for kind, (count, size, mismatches, statuses) in stats.items():
            bad += mismatches
            print(f"{kind:24} {count:5} responses {size / 1e6:8.2f} MB  statuses {dict(sorted(statuses.items()))}  mismatches {mismatches}")
        print(f"total {total} responses, {sum(s[1] for s in stats.values()) / 1e6:.2f} MB, {bad} mismatches")
        return 1 if bad else 0
    finally:
        for p in procs:
            p.terminate()
            p.wait()


if __name__ == "__main__":
    sys.exit(main())
