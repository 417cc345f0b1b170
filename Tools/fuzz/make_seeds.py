#!/usr/bin/env python3
"""Writes the small seed corpora of Tools/fuzz/corpus (run once; the seeds are committed).

Needs the release navgraph (swift build -c release) and pyosmium (pip install osmium) for the PBFs.
The town is the crafted 4x4 grid of Sources/FuzzSupport (OSM nodes 1..16).
"""
import os
import subprocess
import osmium

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
corpus = os.path.join(here, "corpus")
navgraph = os.path.join(root, ".build", "release", "navgraph")
scratch = os.path.join(here, ".build", "seeds")
os.makedirs(scratch, exist_ok=True)


def put(target, name, data):
    os.makedirs(os.path.join(corpus, target), exist_ok=True)
    with open(os.path.join(corpus, target, name), "wb") as out:
        out.write(data if isinstance(data, bytes) else data.encode())


def town_xml():
    lines = ["<?xml version='1.0' encoding='UTF-8'?>", '<osm version="0.6" generator="navgraph-fuzz">']
    for row in range(4):
        for column in range(4):
            lines.append(f'<node id="{row * 4 + column + 1}" version="1" lat="{45.0 + row * 0.0009:.7f}" lon="{7.0 + column * 0.00127:.7f}"/>')
    ways = []
    for row in range(4):
        for column in range(3):
            a = row * 4 + column + 1
            tags = {"highway": "primary" if row == 0 else "residential", "name": f"Row {row}"}
            if a == 5:
                tags["oneway"] = "yes"
            if a == 10:
                tags["toll"] = "yes"
            ways.append(([a, a + 1], tags))
    for column in range(4):
        for row in range(3):
            if column == 2 and row == 1:
                continue
            a = row * 4 + column + 1
            ways.append(([a, a + 4], {"highway": "secondary" if column == 3 else "residential"}))
    ways.append(([7, 11], {"route": "ferry"}))
    for number, (refs, tags) in enumerate(ways, start=1):
        body = "".join(f'<nd ref="{r}"/>' for r in refs) + "".join(f'<tag k="{k}" v="{v}"/>' for k, v in sorted(tags.items()))
        lines.append(f'<way id="{number}" version="1">{body}</way>')
    lines.append('<relation id="1" version="1"><member type="way" ref="1" role="from"/><member type="node" ref="2" role="via"/>'
                 '<member type="way" ref="2" role="to"/><tag k="type" v="restriction"/><tag k="restriction" v="no_straight_on"/></relation>')
    lines.append("</osm>")
    return "\n".join(lines) + "\n"


def to_pbf(source, target):
    if os.path.exists(target):
        os.remove(target)
    writer = osmium.SimpleWriter(target)
    for obj in osmium.FileProcessor(source):
        writer.add(obj)
    writer.close()


def monaco_crop(target, south=43.7370, west=7.4220, north=43.7400, east=7.4260):
    """A few streets of Monaco: the ways with every node inside the box."""
    inside = {}
    for node in osmium.FileProcessor(os.path.join(root, "Data", "monaco.osm.pbf"), osmium.osm.NODE):
        if south <= node.location.lat <= north and west <= node.location.lon <= east:
            inside[node.id] = (node.location.lon, node.location.lat)
    kept_ways, used = [], set()
    for way in osmium.FileProcessor(os.path.join(root, "Data", "monaco.osm.pbf"), osmium.osm.WAY):
        refs = [n.ref for n in way.nodes]
        if "highway" in way.tags and refs and all(r in inside for r in refs):
            kept_ways.append((way.id, refs, {t.k: t.v for t in way.tags}))
            used.update(refs)
    if os.path.exists(target):
        os.remove(target)
    writer = osmium.SimpleWriter(target)
    for node_id in sorted(used):
        writer.add_node(osmium.osm.mutable.Node(id=node_id, version=1, location=osmium.osm.Location(*inside[node_id])))
    for way_id, refs, tags in kept_ways:
        writer.add_way(osmium.osm.mutable.Way(id=way_id, version=1, nodes=refs, tags=tags))
    writer.close()


xml = os.path.join(scratch, "town.osm")
with open(xml, "w") as out:
    out.write(town_xml())
to_pbf(xml, os.path.join(scratch, "town.osm.pbf"))
put("osm-pbf", "town.osm.pbf", open(os.path.join(scratch, "town.osm.pbf"), "rb").read())
monaco_crop(os.path.join(scratch, "monaco-crop.osm.pbf"))
put("osm-pbf", "monaco-crop.osm.pbf", open(os.path.join(scratch, "monaco-crop.osm.pbf"), "rb").read())

graph = os.path.join(scratch, "town.navgraph")
subprocess.run([navgraph, "import", xml, "-o", graph, "--quiet"], check=True)
put("graph-file", "town", open(graph, "rb").read())

put("traffic-csv", "congestion", "from_osm_id,to_osm_id,congestion\n1,2,severe\n2,3,40\n# comment\n\n10,11,heavy\n")
put("traffic-csv", "speed-crlf", "\ufeff1,2,30\r\n2,1,0\r\n5,6,25.5,1\r\n")
put("traffic-csv", "hourly", "from_osm_id,to_osm_id,speed_kmh,hour_of_day\n1,2,10,8\n1,2,50,12\n6,7,5,17\n")
put("traffic-csv", "weekly", "from_osm_id,to_osm_id,congestion,hour_of_week\n2,3,low,0\n2,3,severe,167\n")
put("pairs-csv", "header-crlf", "\ufeffsrc_lon,src_lat,dst_lon,dst_lat\r\n7.0,45.0,7.0038,45.0027\r\n# c\r\n\r\n 7.0038 , 45.0027 ,7.0,45.0\r\n")
put("pairs-csv", "latfirst", "lat,lon,lat,lon\n45.0,7.0,45.0027,7.0038\n")
put("pairs-csv", "points", "lon,lat\n7.0,45.0\n\"7.0038\",\"45.0027\"\n")
def polyline(points, precision=5):
    """Google's encoded polyline of (lat, lon) points."""
    out, last = [], (0, 0)
    for lat, lon in points:
        values = (round(lat * 10 ** precision), round(lon * 10 ** precision))
        for value, previous in zip(values, last):
            delta = value - previous
            delta = ~(delta << 1) if delta < 0 else delta << 1
            while delta >= 0x20:
                out.append(chr((0x20 | (delta & 0x1f)) + 63))
                delta >>= 5
            out.append(chr(delta + 63))
        last = values
    return "".join(out)


# http-request: request lines of the server (METHOD TARGET [HTTP/1.1], or a bare target for GET); a POST's body
# follows up to an empty line. The town: lon 7.0..7.0038, lat 45.0..45.0027.
route = "/route/v1/driving/7.0,45.0;7.0038,45.0027"
put("http-request", "route", f"GET {route}?steps=true&alternatives=2&annotations=true&geometries=geojson&overview=full HTTP/1.1\n")
put("http-request", "route-options",
    f"GET /route/v1/car/polyline({polyline([(45.0, 7.0), (45.0018, 7.0025), (45.0027, 7.0038)])})?radiuses=100;unlimited;&bearings=0,90;;"
    "&exclude=toll,ferry&approaches=curb;;unrestricted&depart_at=2026-11-30T08:15Z&language=de&voice_instructions=true"
    "&banner_instructions=true&voice_units=imperial&waypoints=0;2&annotations=duration,speed,congestion&continue_straight=true\n")
put("http-request", "table-nearest",
    "GET /table/v1/driving/7.0,45.0;7.0038,45.0027;7.0025,45.0018?sources=0;1&destinations=all&annotations=duration,distance\n"
    "GET /nearest/v1/driving/7.001,45.0009.json?number=3&radiuses=100\n"
    "GET /isochrone/v1/driving/7.0,45.0?contours_minutes=0.5,1&reverse=true\n")
put("http-request", "geojson-style",
    f"GET /geojson{route[6:]}?position=7.001,45.0009&units=imperial&theme=%7B%22routeCasingColor%22%3A%22%23f00%22%2C%22routeLineWidthByZoom%22%3A%7B%2210%22%3A8%7D%7D\n"
    f"GET /style{route[6:]}?alternatives=true&traffic=false\n")
put("http-request", "traffic",
    "POST /traffic HTTP/1.1\nfrom_osm_id,to_osm_id,congestion\n1,2,severe\n2,3,40\n\n"
    f"GET {route}?traffic=true&depart_at=2026-11-30T08:00\nGET /health\nHEAD /health\nGET /metrics\n")
put("http-request", "page",
    "GET /\nGET /info\nGET /map/v1/style.json\nGET /roads/v1/14/8510/5893.geojson\nGET /assets/maplibre-gl.js\n"
    "GET /fonts/Noto%20Sans%20Regular,Other/0-255.pbf\nGET /web/index.html\nGET /assets/../secret.txt\n")
put("http-request", "errors",
    "DELETE /route/v1/driving/7.0,45.0;7.0,45.0\nGET /traffic\nGET /route/v2/driving/7,45;7,45\nGET /route/v1/bike/7,45;7,45\n"
    "GET /%zz/v1/driving/7,45?&=&a=b+c%41&steps=maybe\nPOST /traffic\n\nGET /route/v1/driving/7,95;7,45.json?radiuses=-1;x\n")
for target in sorted(os.listdir(corpus)):
    files = os.listdir(os.path.join(corpus, target))
    print(target, len(files), "files,", sum(os.path.getsize(os.path.join(corpus, target, f)) for f in files), "bytes")
