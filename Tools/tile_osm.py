#!/usr/bin/env python3
"""tile_osm.py - tile a real OSM extract K x K times into one larger .osm.pbf.

Usage: tile_osm.py SRC.osm.pbf K OUT.osm.pbf [--gap-deg 0.01] [--links 3]

Tile (row r, col c), r and c in 0..K-1, index t = r*K + c, is a copy of SRC with:
  - coordinates shifted by c*(bbox width + gap) east and r*(bbox height + gap) north
    (bbox = the extent of SRC's node locations);
  - every node, way and relation id increased by t*S, where S is a power of ten
    (times two) above every |id| of SRC, so all ids stay unique; way node refs and
    relation members (turn restrictions included) get the same per-type offsets;
  - all tags and relations kept as they are.
Neighbouring tiles (east-west and south-north) are stitched by --links new
two-node ways tagged highway=motorway, oneway=no (ids from K*K*S up, no new
nodes). Each joins, in one of --links equal bands along the facing borders
(bands span the extent of the car road nodes),
the outermost junction node of a major road (trunk..tertiary, else any car
road) of one tile to the facing one of the other tile.
Output is sorted by type, then id (all nodes, then ways, then relations); SRC
must be sorted the same way (`osmium sort` it first if not). Deterministic.
Counts go to stderr. Needs pyosmium (see Tools/setup_peers.sh).
"""
import argparse
import sys

import osmium

CAR = {"motorway", "trunk", "primary", "secondary", "tertiary", "unclassified", "residential",
       "service", "living_street", "motorway_link", "trunk_link", "primary_link",
       "secondary_link", "tertiary_link"}
MAJOR = {"trunk", "primary", "secondary", "tertiary"}
NO_ACCESS = {"no", "private"}


def scan(src):
    """One pass over SRC: node bbox, max |id|, junction nodes of car roads, sortedness."""
    lons, lats = [float("inf"), float("-inf")], [float("inf"), float("-inf")]
    max_abs, last, is_sorted = 0, (-1, float("-inf")), True
    order = {"n": 0, "w": 1, "r": 2}
    road_use = {}  # node id -> [ways using it, best class rank (0 major, 1 other car road)]
    locs = {}
    for o in osmium.FileProcessor(src):
        key = (order[o.type_str()], o.id)
        is_sorted &= key > last
        last = key
        max_abs = max(max_abs, abs(o.id))
        if o.is_node():
            if o.location.valid():
                lon, lat = o.location.lon, o.location.lat
                lons[0], lons[1] = min(lons[0], lon), max(lons[1], lon)
                lats[0], lats[1] = min(lats[0], lat), max(lats[1], lat)
                locs[o.id] = (lon, lat)
        elif o.is_way():
            hw = o.tags.get("highway")
            if hw in CAR and o.tags.get("access") not in NO_ACCESS and o.tags.get("area") != "yes":
                rank = 0 if hw in MAJOR else 1
                for ref in {n.ref for n in o.nodes}:
                    use = road_use.setdefault(ref, [0, rank])
                    use[0] += 1
                    use[1] = min(use[1], rank)
    return {"bbox": (lons[0], lats[0], lons[1], lats[1]), "max_abs": max_abs, "sorted": is_sorted,
            "road_use": road_use, "locs": locs}


def pick_border_nodes(info, side, links):
    """For each of `links` bands along one bbox side, the outermost road junction node id."""
    horizontal = side in ("east", "west")  # bands split latitude for east/west sides
    road = [(nid, use, info["locs"][nid]) for nid, use in info["road_use"].items() if nid in info["locs"]]
    if not road:
        return []
    alongs = [loc[1] if horizontal else loc[0] for _, _, loc in road]
    lo, hi = min(alongs), max(alongs)  # bands span the road network, not the whole node bbox
    best = [None] * links
    for nid, (uses, rank), loc in road:
        along = loc[1] if horizontal else loc[0]
        band = min(links - 1, int((along - lo) / (hi - lo) * links)) if hi > lo else 0
        outward = {"east": loc[0], "west": -loc[0], "north": loc[1], "south": -loc[1]}[side]
        # junctions first, then major roads, then the outermost, then the smallest id
        score = (uses >= 2, rank == 0, outward, -nid)
        if best[band] is None or score > best[band][0]:
            best[band] = (score, nid)
    return [b[1] for b in best if b is not None]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("src")
    ap.add_argument("k", type=int)
    ap.add_argument("out")
    ap.add_argument("--gap-deg", type=float, default=0.01, help="gap between tiles in degrees")
    ap.add_argument("--links", type=int, default=3, help="stitch motorways per shared border")
    args = ap.parse_args()
    k = args.k

    info = scan(args.src)
    if not info["sorted"]:
        sys.exit("tile_osm: SRC is not sorted by type then id; run `osmium sort` first")
    x0, y0, x1, y1 = info["bbox"]
    dx, dy = (x1 - x0) + args.gap_deg, (y1 - y0) + args.gap_deg
    stride = 2 * 10 ** len(str(info["max_abs"]))
    if (k * k + 1) * stride >= 2 ** 63:
        sys.exit("tile_osm: ids would overflow int64")
    tiles = [(r, c) for r in range(k) for c in range(k)]
    print(f"tile_osm: {args.src} bbox {info['bbox']}, {k}x{k} tiles, id stride {stride}, "
          f"shift {dx:.6f} x {dy:.6f} deg", file=sys.stderr)

    header = osmium.io.Header()
    header.set("generator", "navgraph Tools/tile_osm.py")
    header.set("sorting", "Type_then_ID")
    header.add_box(osmium.osm.Box(osmium.osm.Location(x0, y0),
                                  osmium.osm.Location(x1 + (k - 1) * dx, y1 + (k - 1) * dy)))
    counts = {"nodes": 0, "ways": 0, "relations": 0, "stitch_ways": 0}
    with osmium.SimpleWriter(args.out, header=header, overwrite=True) as w:
        for r, c in tiles:
            off, sx, sy = (r * k + c) * stride, c * dx, r * dy
            for n in osmium.FileProcessor(args.src, osmium.osm.NODE):
                loc = n.location
                if loc.valid():
                    loc = osmium.osm.Location(loc.lon + sx, loc.lat + sy)
                w.add_node(n.replace(id=n.id + off, location=loc))
                counts["nodes"] += 1
        for r, c in tiles:
            off = (r * k + c) * stride
            for o in osmium.FileProcessor(args.src, osmium.osm.WAY):
                w.add_way(o.replace(id=o.id + off, nodes=[n.ref + off for n in o.nodes]))
                counts["ways"] += 1
        # stitch ways: east side of (r, c) to west side of (r, c+1); north of (r, c) to south of (r+1, c)
        east, west = pick_border_nodes(info, "east", args.links), pick_border_nodes(info, "west", args.links)
        north, south = pick_border_nodes(info, "north", args.links), pick_border_nodes(info, "south", args.links)
        sid = k * k * stride
        for r, c in tiles:
            t = r * k + c
            pairs = []
            if c + 1 < k:
                pairs += [(a + t * stride, b + (t + 1) * stride) for a, b in zip(east, west)]
            if r + 1 < k:
                pairs += [(a + t * stride, b + (t + k) * stride) for a, b in zip(north, south)]
            for a, b in pairs:
                sid += 1
                w.add_way(osmium.osm.mutable.Way(id=sid, nodes=[a, b], tags={
                    "highway": "motorway", "oneway": "no", "ref": f"TILE{t}", "maxspeed": "110",
                    "note": "tile_osm.py stitch"}))
                counts["stitch_ways"] += 1
        for r, c in tiles:
            off = (r * k + c) * stride
            for o in osmium.FileProcessor(args.src, osmium.osm.RELATION):
                members = [(m.type, m.ref + off, m.role) for m in o.members]
                w.add_relation(o.replace(id=o.id + off, members=members))
                counts["relations"] += 1
    print("tile_osm: wrote {} nodes, {} ways (+{} stitch motorways), {} relations to {}".format(
        counts["nodes"], counts["ways"], counts["stitch_ways"], counts["relations"], args.out), file=sys.stderr)


if __name__ == "__main__":
    main()
