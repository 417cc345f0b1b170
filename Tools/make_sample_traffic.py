#!/usr/bin/env python3
"""Makes a deterministic, real-looking congestion CSV for an extract's main roads.

Usage: Tools/make_sample_traffic.py EXTRACT.osm.pbf > traffic.csv   (needs osmium-tool from Debian)

Every segment (consecutive OSM node pair, both directions unless oneway) of motorway, trunk, primary and
secondary ways gets a congestion level. Levels follow each way (seeded by its id) and are heavier on
primary roads, so a route across the city meets every level.
"""
import hashlib
import subprocess
import sys

MAIN = {"motorway", "motorway_link", "trunk", "trunk_link", "primary", "primary_link", "secondary"}
LEVELS = [("low", 45), ("moderate", 25), ("heavy", 18), ("severe", 12)]


def level_for(way_id, highway):
    draw = int(hashlib.sha256(f"{way_id}".encode()).hexdigest(), 16) % 100
    if highway.startswith("primary"):
        draw = min(99, draw + 20)
    for name, share in LEVELS:
        if draw < share:
            return name
        draw -= share
    return "severe"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    opl = subprocess.run(["osmium", "cat", "-t", "way", "-f", "opl", sys.argv[1]], check=True, capture_output=True, text=True).stdout
    print("from_osm_id,to_osm_id,congestion")
    rows = 0
    for line in opl.splitlines():
        fields = dict((part[0], part[1:]) for part in line.split(" ") if part)
        tags = dict(kv.split("=", 1) for kv in fields.get("T", "").split(",") if "=" in kv)
        highway = tags.get("highway", "")
        if highway not in MAIN:
            continue
        way_id = int(fields["w"])
        nodes = [int(ref[1:]) for ref in fields.get("N", "").split(",") if ref]
        level = level_for(way_id, highway)
        oneway = tags.get("oneway") in ("yes", "1", "true") or highway == "motorway" or tags.get("junction") == "roundabout"
        for a, b in zip(nodes, nodes[1:]):
            print(f"{a},{b},{level}")
            rows += 1
            if not oneway:
                print(f"{b},{a},{level}")
                rows += 1
    print(f"{rows} rows", file=sys.stderr)


if __name__ == "__main__":
    main()
