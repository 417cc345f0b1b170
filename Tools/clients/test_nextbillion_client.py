"""NextBillion's official Python client (`nextbillion-sdk`, module `nextbillionai`) against `navgraph serve`.

The client is pointed at a local server with `base_url`; its typed models must parse navgraph's answers, and the
answers must equal the OSRM dialect's for the same route, matrix and isochrone. Run by Tools/test.sh.
"""
import json
import os
import re
import subprocess
import tempfile
import urllib.request

import nextbillionai
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("NAVGRAPH_BINARY", os.path.join(ROOT, ".build", "release", "navgraph"))
KEY = "nb-test-key"
ORIGIN, DESTINATION, VIA = "43.7384,7.4246", "43.7311,7.4197", "43.7402,7.4268"


@pytest.fixture(scope="module")
def server():
    work = tempfile.mkdtemp(prefix="navgraph-nb-")
    graph = os.path.join(work, "monaco.navgraph")
    subprocess.run([BINARY, "import", os.path.join(ROOT, "Data", "monaco.osm.pbf"), "-o", graph],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    tokens = os.path.join(work, "tokens.txt")
    with open(tokens, "w") as handle:
        handle.write(KEY + "\n")
    process = subprocess.Popen([BINARY, "serve", graph, "--port", "0", "--threads", "2", "--access-tokens", tokens],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    port = None
    for line in process.stderr:
        found = re.search(r"on http://127\.0\.0\.1:(\d+)", line)
        if found:
            port = int(found.group(1))
            break
    assert port, "navgraph serve did not announce its port"
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=10)


def osrm(base, path):
    separator = "&" if "?" in path else "?"
    with urllib.request.urlopen(f"{base}{path}{separator}access_token={KEY}") as response:
        return json.load(response)


def client(base, key=KEY):
    return nextbillionai.NextbillionSDK(api_key=key, base_url=base, max_retries=0)


def test_navigation_route_parses_and_equals_the_osrm_route(server):
    answer = client(server).navigation.retrieve_route(key=KEY, origin=ORIGIN, destination=DESTINATION, waypoints=VIA,
                                                      mode="car", lang="de", geometry="polyline6", avoid="toll")
    assert answer.status == "Ok"
    route = answer.routes[0]
    reference = osrm(server, "/route/v1/driving/7.4246,43.7384;7.4268,43.7402;7.4197,43.7311?exclude=toll&overview=false")["routes"][0]
    assert route.distance == reference["distance"]
    assert len(route.legs) == 2
    step = route.legs[0].steps[0]
    assert step.maneuver.instruction
    assert step.maneuver.voice_instruction and step.maneuver.voice_instruction[0].instruction
    assert step.maneuver.coordinate.latitude == pytest.approx(43.738, abs=0.01)
    assert route.legs[0].distance.value == round(reference["legs"][0]["distance"])
    assert route.geometry and route.start_location.longitude == pytest.approx(7.4246, abs=0.01)


def test_directions_post_parses(server):
    answer = client(server).directions.compute_route(origin=ORIGIN, destination=DESTINATION, mode="car", steps=True)
    assert answer.status == "Ok"
    reference = osrm(server, "/route/v1/driving/7.4246,43.7384;7.4197,43.7311?overview=false")["routes"][0]
    assert answer.route.distance == reference["distance"]
    assert answer.route.legs[0].steps[0].maneuver.maneuver_type == "depart"


def test_distance_matrix_equals_the_table(server):
    answer = client(server).distance_matrix.json.retrieve(key=KEY, origins=f"{ORIGIN}|{VIA}", destinations=f"{DESTINATION}|{ORIGIN}", mode="car")
    assert answer.status == "Ok"
    table = osrm(server, "/table/v1/driving/7.4246,43.7384;7.4268,43.7402;7.4197,43.7311;7.4246,43.7384"
                         "?sources=0;1&destinations=2;3&annotations=duration,distance")
    assert [[cell.duration for cell in row.elements] for row in answer.rows] == table["durations"]
    assert [[cell.distance for cell in row.elements] for row in answer.rows] == table["distances"]


def test_isochrone_has_one_feature_per_contour(server):
    answer = client(server).isochrone.compute(key=KEY, coordinates=ORIGIN, contours_minutes=3, contours_meters=0, mode="car")
    assert answer.status == "Ok"
    assert [feature.properties.contour for feature in answer.features] == [3]
    assert answer.features[0].geometry.type == "MultiPolygon"


def test_errors_are_status_errors_with_codes(server):
    with pytest.raises(nextbillionai.APIStatusError) as wrong_key:
        client(server, key="not-listed").navigation.retrieve_route(key="not-listed", origin=ORIGIN, destination=DESTINATION)
    assert wrong_key.value.status_code == 401
    assert wrong_key.value.body["status"] == "InvalidToken"
    with pytest.raises(nextbillionai.APIStatusError) as bad_mode:
        client(server).directions.compute_route(origin=ORIGIN, destination=DESTINATION, mode="plane")
    assert bad_mode.value.status_code == 400
    assert bad_mode.value.body["parameter"] == "mode"


def test_snap_to_roads_parses_and_equals_the_osrm_match(server):
    # A trace along the OSRM route, points a few metres off the road, one every 4th shape point.
    line = osrm(server, "/route/v1/driving/7.4246,43.7384;7.4197,43.7311?overview=full&geometries=geojson")["routes"][0]["geometry"]["coordinates"]
    points = [(lat + 0.00002, lon - 0.00002) for lon, lat in line[::4]]
    path = "|".join(f"{lat:.6f},{lon:.6f}" for lat, lon in points)
    timestamps = "|".join(str(1_700_000_000 + 5 * index) for index in range(len(points)))
    answer = client(server).snap_to_roads.snap(key=KEY, path=path, timestamps=timestamps, mode="car", geometry="geojson",
                                               extra_query={"interpolate": "true"})
    assert answer.status == "Ok"
    reference = osrm(server, "/match/v1/driving/" + ";".join(f"{lon:.6f},{lat:.6f}" for lat, lon in points)
                     + "?timestamps=" + timestamps.replace("|", ";") + "&overview=full&geometries=polyline6")
    assert answer.distance == round(sum(matching["distance"] for matching in reference["matchings"]))
    assert answer.geometry == [matching["geometry"] for matching in reference["matchings"]]
    matched = [(index, point) for index, point in enumerate(reference["tracepoints"]) if point is not None]
    assert [point.original_index for point in answer.snapped_points] == [index for index, _ in matched]
    for snapped, (_, tracepoint) in zip(answer.snapped_points, matched):
        assert (snapped.location.longitude, snapped.location.latitude) == tuple(tracepoint["location"])
        assert snapped.name == tracepoint["name"]
        assert 0 <= snapped.bearing < 6.3
    assert answer.geojson.geometry.type == "LineString"
    with pytest.raises(nextbillionai.APIStatusError) as too_few:
        client(server).snap_to_roads.snap(key=KEY, path=points[0] and f"{points[0][0]},{points[0][1]}")
    assert too_few.value.status_code == 400
    assert too_few.value.body["status"] == "InvalidOptions"
