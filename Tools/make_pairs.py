#!/usr/bin/env python3
"""make_pairs.py - deterministic random routing query pairs from an OSM extract.

Usage: make_pairs.py EXTRACT.osm.pbf N SEED > pairs.csv

Collects every node (with a known location) of the car-routable highway ways of
the extract (motorway..residential, unclassified, service, living_street and the
*_link classes), sorts them by node id, and draws N pairs of distinct nodes
uniformly with random.Random(SEED). Prints one "lon,lat,lon,lat" line per pair
(6 decimals, no header). Same file + N + SEED gives the same output.
Needs pyosmium (`osmium` on PyPI; see Tools/setup_peers.sh).
"""
import random
import sys

import osmium

CAR_HIGHWAYS = {
    "motorway", "trunk", "primary", "secondary", "tertiary", "unclassified",
    "residential", "service", "living_street",
    "motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link",
}


def road_nodes(path):
    """Return {node_id: (lon, lat)} for nodes of car-routable highway ways."""
    nodes = {}
    fp = osmium.FileProcessor(path, osmium.osm.NODE | osmium.osm.WAY).with_locations()
    for way in fp:
        if not way.is_way() or way.tags.get("highway") not in CAR_HIGHWAYS:
            continue
        for n in way.nodes:
            if n.location.valid():  # bbox-cut extracts reference missing nodes
                nodes[n.ref] = (n.location.lon, n.location.lat)
    return nodes


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    path, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    nodes = road_nodes(path)
    ids = sorted(nodes)
    if len(ids) < 2:
        sys.exit(f"make_pairs: only {len(ids)} road nodes in {path}")
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        a, b = rng.sample(ids, 2)
        (lon1, lat1), (lon2, lat2) = nodes[a], nodes[b]
        out.append(f"{lon1:.6f},{lat1:.6f},{lon2:.6f},{lat2:.6f}\n")
    sys.stdout.write("".join(out))
    print(f"make_pairs: {len(ids)} road nodes, {count} pairs, seed {seed}", file=sys.stderr)


if __name__ == "__main__":
    main()
