#!/usr/bin/env python3
"""Checks a navgraph Directions JSON against the OSRM / Mapbox Directions response shape, and against the
styled GeoJSON of the same route.

- top level: code "Ok", waypoints [{name, location [lon, lat], distance}], routes [...]
- each route: distance, duration, weight, weight_name, geometry (polyline6 by default), legs
- each leg: distance, duration, weight, summary, steps, annotation with distance/duration/speed/congestion/
  congestion_numeric arrays of (leg coordinate count - 1) entries; legs share their joint coordinate, so
  the entries of all legs add up to (geometry coordinate count - 1), and leg i ends at waypoint i + 1
- leg distance = sum of its annotation distances; route distance = sum of leg distances
- steps (check_steps): depart first, arrive last; each step has distance, duration, weight, name, mode,
  driving_side, geometry, maneuver {type, modifier, location, bearing_before, bearing_after, exit on roundabouts}
  in the OSRM v5 vocabulary, and intersections {location, bearings, entry, in, out, geometry_index, lanes};
  step geometries concatenate to the leg's geometry; step distances and durations add up to the leg's
- with --geojson: the decoded geometry of route i equals the coordinates of that GeoJSON's route feature
  with routeIndex i (to 1e-6 degrees)

Usage: Tools/check_directions.py DIRECTIONS.json [--geojson ROUTE.geojson] [--precision 6]
Exit status 1 on any mismatch.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Benchmarks" / "peers"))
from peerlib import decode_polyline  # noqa: E402  (the one polyline decoder, shared with the peer benches)


def haversine(a, b) -> float:
    (lon1, lat1), (lon2, lat2) = a, b
    p1, p2 = math.radians(lat1), math.radians(lat2)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * 6371008.8 * math.asin(math.sqrt(h))


MANEUVER_TYPES = {"depart", "arrive", "turn", "new name", "continue", "merge", "on ramp", "off ramp", "fork", "end of road",
                  "roundabout", "rotary", "exit roundabout", "exit rotary", "roundabout turn", "notification", "use lane"}
MODIFIERS = {"uturn", "sharp right", "right", "slight right", "straight", "slight left", "left", "sharp left"}
LANE_INDICATIONS = MODIFIERS | {"none"}
COMPONENT_TYPES = {"text", "icon", "delimiter", "exit", "exit-number", "lane", "guidance-view"}


def timed_instructions(step, key, where, expect):
    """Yields (label, item) for a step's list of instructions placed by distanceAlongGeometry (voice or banner),
    checking on the way that it is a list and that each distance lies within the step and counts down strictly."""
    items = step[key]
    expect(isinstance(items, list), f"{where}.{key} is not a list")
    if not isinstance(items, list):
        return
    length = step.get("distance", 0)
    previous = math.inf
    for i, item in enumerate(items):
        label = f"{where}.{key}[{i}]"
        d = item.get("distanceAlongGeometry")
        expect(isinstance(d, (int, float)) and -0.05 <= d <= length + 0.05,
               f"{label}.distanceAlongGeometry {d} is not within the step's {length} m")
        if isinstance(d, (int, float)):
            expect(d < previous, f"{label}.distanceAlongGeometry {d} does not decrease (previous {previous})")
            previous = d
        yield label, item


def check_voice_instructions(step, where, expect):
    """voiceInstructions (Mapbox SpokenInstruction): distanceAlongGeometry counts down strictly within the step;
    announcement is plain text, ssmlAnnouncement the same inside <speak>...</speak>."""
    for vw, v in timed_instructions(step, "voiceInstructions", where, expect):
        text, ssml = v.get("announcement"), v.get("ssmlAnnouncement")
        expect(isinstance(text, str) and text.strip() != "", f"{vw}.announcement is empty or missing")
        expect(isinstance(text, str) and "{" not in text and "}" not in text, f"{vw}.announcement has a placeholder: {text!r}")
        expect(isinstance(ssml, str) and ssml.startswith("<speak>") and ssml.endswith("</speak>"),
               f"{vw}.ssmlAnnouncement is not <speak>...</speak>: {ssml!r}")


def check_banner_content(content, where, expect, lanes_only=False):
    """One banner row (Mapbox VisualInstruction): text, components, and type/modifier/degrees/driving_side when given."""
    expect(isinstance(content, dict), f"{where} is not an object")
    if not isinstance(content, dict):
        return
    expect(isinstance(content.get("text"), str), f"{where}.text is not a string")
    if "type" in content:
        expect(content["type"] in MANEUVER_TYPES, f"{where}.type {content['type']!r} is not a maneuver type")
    else:
        expect(lanes_only, f"{where} has no type")
    if content.get("modifier") is not None:
        expect(content["modifier"] in MODIFIERS, f"{where}.modifier {content['modifier']!r} is not a modifier")
    if content.get("degrees") is not None:
        expect(isinstance(content["degrees"], (int, float)) and 0 <= content["degrees"] <= 360,
               f"{where}.degrees {content['degrees']!r} is not within 0...360")
    if content.get("driving_side") is not None:
        expect(content["driving_side"] in ("left", "right"), f"{where}.driving_side {content['driving_side']!r}")
    components = content.get("components")
    expect(isinstance(components, list), f"{where}.components is not a list")
    for c, comp in enumerate(components if isinstance(components, list) else []):
        cw = f"{where}.components[{c}]"
        kind = comp.get("type")
        expect(kind in COMPONENT_TYPES, f"{cw}.type {kind!r} is unknown")
        if kind == "lane":
            directions = comp.get("directions")
            expect(isinstance(directions, list) and all(d in LANE_INDICATIONS for d in directions),
                   f"{cw}.directions {directions!r} are not lane indications")
            expect(isinstance(comp.get("active"), bool), f"{cw}.active is not a boolean")
            if comp.get("active_direction") is not None:
                expect(comp["active_direction"] in MODIFIERS, f"{cw}.active_direction {comp['active_direction']!r}")
        else:
            expect(isinstance(comp.get("text"), str) and comp["text"] != "", f"{cw}.text is empty or missing")
        if "abbr_priority" in comp:
            expect(isinstance(comp["abbr_priority"], int), f"{cw}.abbr_priority is not an integer")


def check_banner_instructions(step, where, expect):
    """bannerInstructions (Mapbox VisualInstructionBanner): the first at the step start, counting down strictly;
    primary (required), secondary (object or null) and sub (optional) rows."""
    banners = step["bannerInstructions"]
    length = step.get("distance", 0)
    for bw, b in timed_instructions(step, "bannerInstructions", where, expect):
        expect("primary" in b, f"{bw} has no primary")
        check_banner_content(b.get("primary"), f"{bw}.primary", expect)
        if b.get("secondary") is not None:
            check_banner_content(b["secondary"], f"{bw}.secondary", expect)
        if b.get("sub") is not None:
            check_banner_content(b["sub"], f"{bw}.sub", expect, lanes_only=True)
    if isinstance(banners, list) and banners and isinstance(banners[0].get("distanceAlongGeometry"), (int, float)):
        expect(abs(banners[0]["distanceAlongGeometry"] - length) < 0.15,
               f"{where}: the first banner is at {banners[0]['distanceAlongGeometry']} m, not at the step start ({length} m)")


def check_step_narration(leg, where, expect):
    """Voice and banner instructions of every step of a leg, where the steps carry them."""
    for s, step in enumerate(leg.get("steps", [])):
        if "voiceInstructions" in step:
            check_voice_instructions(step, f"{where}.steps[{s}]", expect)
        if "bannerInstructions" in step:
            check_banner_instructions(step, f"{where}.steps[{s}]", expect)


def step_coordinates(step, precision):
    geometry = step.get("geometry")
    if isinstance(geometry, str):
        return [tuple(c) for c in decode_polyline(geometry, precision)]
    return [tuple(c) for c in (geometry or {}).get("coordinates", [])]


def check_intersection(i, where, expect):
    """One intersection of a step."""
    bearings, entry = i.get("bearings"), i.get("entry")
    expect(isinstance(bearings, list) and all(isinstance(b, int) and 0 <= b <= 359 for b in bearings),
           f"{where}.bearings are not integers 0..359: {bearings}")
    expect(isinstance(entry, list) and len(entry) == len(bearings or []) and all(isinstance(e, bool) for e in entry),
           f"{where}.entry does not match bearings")
    for key in ("in", "out"):
        if key in i:
            expect(isinstance(i[key], int) and 0 <= i[key] < len(bearings or []), f"{where}.{key} = {i[key]} is not an index of bearings")
    if "out" in i and isinstance(entry, list) and isinstance(i["out"], int) and i["out"] < len(entry):
        expect(entry[i["out"]], f"{where}: the road taken (out) cannot be entered")
    expect(isinstance(i.get("geometry_index"), int), f"{where} has no integer geometry_index")
    loc = i.get("location")
    expect(isinstance(loc, list) and len(loc) == 2, f"{where}.location is not [lon, lat]")
    for n, lane in enumerate(i.get("lanes", []) or []):
        expect(isinstance(lane.get("valid"), bool) and isinstance(lane.get("active"), bool), f"{where}.lanes[{n}] lacks valid/active")
        expect(isinstance(lane.get("indications"), list) and set(lane["indications"]) <= LANE_INDICATIONS,
               f"{where}.lanes[{n}].indications {lane.get('indications')} outside the vocabulary")


def check_steps(leg, lw, leg_coords, precision, expect):
    """The steps of one leg: fields, vocabulary, geometry and totals (Mapbox Directions v5 / OSRM shape)."""
    steps = leg.get("steps", [])
    expect(len(steps) >= 2, f"{lw}: {len(steps)} steps (need depart and arrive)")
    if len(steps) < 2:
        return
    expect(steps[0].get("maneuver", {}).get("type") == "depart", f"{lw}: first step is not depart")
    expect(steps[-1].get("maneuver", {}).get("type") == "arrive", f"{lw}: last step is not arrive")
    joined = []
    for n, step in enumerate(steps):
        sw = f"{lw}.steps[{n}]"
        for key in ("distance", "duration", "weight", "name", "mode", "driving_side", "geometry", "maneuver", "intersections"):
            expect(key in step, f"{sw} has no {key}")
        expect(step.get("mode") in ("driving", "ferry"), f"{sw}.mode is {step.get('mode')!r}")
        expect(step.get("driving_side") in ("left", "right"), f"{sw}.driving_side is {step.get('driving_side')!r}")
        m = step.get("maneuver", {})
        expect(m.get("type") in MANEUVER_TYPES, f"{sw}.maneuver.type {m.get('type')!r} outside the vocabulary")
        expect(m.get("modifier") is None or m.get("modifier") in MODIFIERS, f"{sw}.maneuver.modifier {m.get('modifier')!r}")
        for key in ("bearing_before", "bearing_after"):
            expect(isinstance(m.get(key), int) and 0 <= m[key] <= 359, f"{sw}.maneuver.{key} is {m.get(key)!r}")
        if m.get("type") in ("roundabout", "rotary", "exit roundabout", "exit rotary"):
            expect(isinstance(m.get("exit"), int) and m["exit"] >= 1, f"{sw}: {m.get('type')} without an exit number")
        intersections = step.get("intersections", [])
        expect(len(intersections) >= 1, f"{sw} has no intersections")
        for k, i in enumerate(intersections):
            check_intersection(i, f"{sw}.intersections[{k}]", expect)
        coords = step_coordinates(step, precision)
        expect(len(coords) >= 2, f"{sw}.geometry has {len(coords)} coordinates")
        if coords and m.get("location"):
            expect(haversine(coords[0], m["location"]) < 0.5, f"{sw}: the maneuver is not where the step geometry starts")
        if m.get("type") != "arrive":
            joined += coords if not joined else coords[1:]
    same = len(joined) == len(leg_coords) and all(abs(a[0] - b[0]) <= 1.5e-6 and abs(a[1] - b[1]) <= 1.5e-6
                                                  for a, b in zip(joined, leg_coords))
    expect(same, f"{lw}: step geometries join to {len(joined)} coordinates, the leg has {len(leg_coords)}")
    for key in ("distance", "duration"):
        total = sum(step.get(key, 0) for step in steps)
        expect(abs(total - leg.get(key, 0)) < 0.05 * len(steps) + 0.1, f"{lw}: step {key}s add up to {total:.1f}, the leg's is {leg.get(key)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directions")
    parser.add_argument("--geojson")
    parser.add_argument("--precision", type=int, default=6)
    args = parser.parse_args()
    doc = json.load(open(args.directions))
    errors: list[str] = []

    def expect(condition, message):
        if not condition:
            errors.append(message)

    expect(doc.get("code") == "Ok", f"code is {doc.get('code')!r}")
    waypoints = doc.get("waypoints", [])
    for i, w in enumerate(waypoints):
        expect(isinstance(w.get("name"), str), f"waypoints[{i}].name is not a string")
        loc = w.get("location")
        expect(isinstance(loc, list) and len(loc) == 2 and -180 <= loc[0] <= 180 and -90 <= loc[1] <= 90,
               f"waypoints[{i}].location is not [lon, lat]: {loc}")
        expect(isinstance(w.get("distance"), (int, float)), f"waypoints[{i}].distance is not a number")

    geo_routes = {}
    if args.geojson:
        for f in json.load(open(args.geojson))["features"]:
            p = f["properties"]
            if p.get("featureType") == "route":
                geo_routes[p["routeIndex"]] = [tuple(c) for c in f["geometry"]["coordinates"]]

    for r, route in enumerate(doc.get("routes", [])):
        where = f"routes[{r}]"
        for key in ("distance", "duration", "weight", "weight_name", "geometry", "legs"):
            expect(key in route, f"{where} has no {key}")
        geometry = route.get("geometry")
        if isinstance(geometry, str):
            coords = [tuple(c) for c in decode_polyline(geometry, args.precision)]
        else:
            coords = [tuple(c) for c in geometry["coordinates"]]
        legs = route.get("legs", [])
        expect(len(legs) == max(0, len(waypoints) - 1), f"{where}: {len(legs)} legs for {len(waypoints)} waypoints")
        start = 0
        for l, leg in enumerate(legs):
            lw = f"{where}.legs[{l}]"
            for key in ("distance", "duration", "weight", "summary", "steps", "annotation"):
                expect(key in leg, f"{lw} has no {key}")
            check_step_narration(leg, lw, expect)
            annotation = leg.get("annotation", {})
            lengths = {k: len(v) for k, v in annotation.items()}
            expect(len(set(lengths.values())) == 1, f"{lw}: annotation arrays differ in length: {lengths}")
            n = lengths.get("distance", 0)
            end = start + n
            expect(end < len(coords), f"{lw}: {n} annotation entries run past the geometry ({len(coords)} coordinates)")
            if end < len(coords):
                # The annotation distances should match the geometry's segment lengths.
                for s, d in enumerate(annotation.get("distance", [])):
                    if d is None:
                        continue
                    g = haversine(coords[start + s], coords[start + s + 1])
                    if abs(g - d) > max(1.0, 0.02 * d):
                        errors.append(f"{lw}: annotation.distance[{s}] = {d} m but the geometry segment is {g:.1f} m")
                        break
                if l + 1 < len(waypoints):
                    w = waypoints[l + 1]["location"]
                    expect(haversine(coords[end], w) < 0.5,
                           f"{lw} ends at {coords[end]} but waypoint {l + 1} is at {w}")
            total = sum(d for d in annotation.get("distance", []) if d is not None)
            expect(abs(total - leg.get("distance", 0)) < 0.1 * n + 0.5,
                   f"{lw}: distance {leg.get('distance')} but annotations add up to {total:.1f}")
            valid_congestion = {"unknown", "low", "moderate", "heavy", "severe"}
            expect(all(c in valid_congestion for c in annotation.get("congestion", [])), f"{lw}: unknown congestion value")
            if "steps" in leg and end < len(coords):
                check_steps(leg, lw, coords[start:end + 1], args.precision, expect)
            start = end
        expect(start == len(coords) - 1, f"{where}: legs cover {start} segments, the geometry has {len(coords) - 1}")
        if waypoints and coords:
            expect(haversine(coords[0], waypoints[0]["location"]) < 0.5, f"{where}: geometry does not start at waypoint 0")
        leg_sum = sum(leg.get("distance", 0) for leg in legs)
        expect(abs(leg_sum - route.get("distance", 0)) < 0.1 * len(legs) + 0.1,
               f"{where}: distance {route.get('distance')} but legs add up to {leg_sum}")
        if args.geojson:
            geo = geo_routes.get(r)
            if geo is None:
                errors.append(f"{where}: no route feature with routeIndex {r} in {args.geojson}")
            else:
                same = len(geo) == len(coords) and all(abs(a[0] - b[0]) <= 1.5e-6 and abs(a[1] - b[1]) <= 1.5e-6
                                                       for a, b in zip(geo, coords))
                expect(same, f"{where}: polyline has {len(coords)} coordinates, the GeoJSON route {len(geo)}; "
                             f"first difference at {next((i for i, (a, b) in enumerate(zip(geo, coords)) if a != b), None)}")
        print(f"{where}: {len(coords)} coordinates, {len(legs)} legs with "
              f"{[len(leg.get('annotation', {}).get('distance', [])) for leg in legs]} annotation entries, "
              f"{route.get('distance')} m, {route.get('duration')} s"
              + (", geometry matches the GeoJSON" if args.geojson and not any(where in e for e in errors) else ""))
    for e in errors:
        print(f"error: {e}")
    print(f"{args.directions}: {len(doc.get('routes', []))} route(s), {len(errors)} error(s)")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
