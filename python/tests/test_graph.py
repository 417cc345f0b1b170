"""The in-process engine against `navgraph serve` and the CLI on the same graph file."""
import json
import threading
import time

import numpy as np
import pytest

import navgraph
from conftest import run_cli


def coordinates_text(points):
    return ";".join(f"{lon},{lat}" for lon, lat in points)


ROUTE_CASES = [
    ([0, 2], {}, ""),
    ([0, 1, 2], {"alternatives": 2}, "alternatives=2"),
    ([0, 2], {"steps": True, "language": "de"}, "steps=true&language=de"),
    ([3, 4], {"avoid": ["toll", "ferry"], "geometries": "geojson", "overview": "full"}, "exclude=toll,ferry&geometries=geojson&overview=full"),
    ([5, 6, 7], {"steps": True, "annotations": "duration,distance"}, "steps=true&annotations=duration,distance"),
]


@pytest.mark.parametrize("indices,options,query", ROUTE_CASES)
def test_route_equals_server(graph, server, monaco_points, indices, options, query):
    points = [monaco_points[index] for index in indices]
    ours = graph.route(points, **options)
    status, theirs = server.get(f"/route/v1/driving/{coordinates_text(points)}" + (f"?{query}" if query else ""))
    assert status == 200
    assert ours["code"] == "Ok"
    # Every response gets a fresh uuid; everything else is the same document.
    assert len(ours.pop("uuid")) == len(theirs.pop("uuid")) == 36
    assert ours == theirs


def test_route_equals_cli(graph, graph_path, monaco_points):
    a, b = monaco_points[0], monaco_points[2]
    cli = json.loads(run_cli("route", graph_path, f"{a[1]},{a[0]}", f"{b[1]},{b[0]}", "--format", "directions", "--geometry", "geojson"))
    ours = graph.route([a, b], geometries="geojson", overview="full")["routes"][0]
    theirs = cli["routes"][0]
    assert ours["duration"] == pytest.approx(theirs["duration"], abs=0.05)
    assert ours["distance"] == pytest.approx(theirs["distance"], abs=0.05)
    assert np.allclose(np.array(ours["geometry"]["coordinates"]), np.array(theirs["geometry"]["coordinates"]), atol=1e-6)


def test_matrix_equals_table_and_cli(graph, graph_path, server, monaco_points, tmp_path):
    sources, destinations = monaco_points[:5], monaco_points[3:]
    ours = graph.matrix(sources, destinations)
    assert ours.durations.shape == (5, 5) and ours.durations.dtype == np.float64
    everything = sources + destinations
    query = "sources=0;1;2;3;4&destinations=5;6;7;8;9&annotations=duration,distance"
    status, table = server.get(f"/table/v1/driving/{coordinates_text(everything)}?{query}")
    assert status == 200
    assert np.array_equal(np.round(ours.durations, 1), np.array(table["durations"], dtype=float))
    assert np.array_equal(np.round(ours.distances, 1), np.array(table["distances"], dtype=float))
    # The CLI writes 3 decimals of seconds and 2 of metres.
    (tmp_path / "s.csv").write_text("".join(f"{lon},{lat}\n" for lon, lat in sources))
    (tmp_path / "d.csv").write_text("".join(f"{lon},{lat}\n" for lon, lat in destinations))
    run_cli("matrix", graph_path, tmp_path / "s.csv", "--destinations", tmp_path / "d.csv", "-o", tmp_path / "m.json",
            "--annotations", "duration,distance", "--quiet")
    cli = json.loads((tmp_path / "m.json").read_text())
    assert np.array_equal(np.round(ours.durations, 3), np.array(cli["durations"], dtype=float))
    assert np.allclose(ours.distances, np.array(cli["distances"], dtype=float), atol=0.006)
    assert ours.sources_snapped.all() and ours.destinations_snapped.all()


def test_square_matrix_and_float32(graph, monaco_points):
    double = graph.matrix(monaco_points, annotations="duration")
    single = graph.matrix(monaco_points, annotations=["duration"], dtype=np.float32)
    assert double.distances is None and single.durations.dtype == np.float32
    assert np.all(np.diag(double.durations) == 0)
    assert np.allclose(single.durations, double.durations, rtol=1e-6)
    assert np.all(double.durations[~np.eye(len(monaco_points), dtype=bool)] > 0)


def test_matrix_skip_unsnappable(graph, monaco_points):
    points = monaco_points[:3] + [(0.0, 0.0)]
    with pytest.raises(navgraph.NoSegment) as raised:
        graph.matrix(points)
    assert raised.value.code == "NoSegment" and "0.000000" in raised.value.message
    result = graph.matrix(points, skip_unsnappable=True)
    assert result.sources_snapped.tolist() == [True, True, True, False]
    assert np.isnan(result.durations[3]).all() and np.isnan(result.durations[:, 3]).all()
    assert np.array_equal(result.durations[:3, :3], graph.matrix(points[:3]).durations)


def test_nearest_and_isochrone_equal_server(graph, server, monaco_points):
    lon, lat = monaco_points[0]
    status, nearest = server.get(f"/nearest/v1/driving/{lon},{lat}?number=3")
    assert status == 200 and graph.nearest((lon, lat), number=3) == nearest
    status, isochrone = server.get(f"/isochrone/v1/driving/{lon},{lat}?contours_minutes=2,4")
    assert status == 200 and graph.isochrone_geojson((lon, lat), minutes=(2, 4)) == isochrone


def test_errors_carry_engine_codes(graph, graph_path, tmp_path, monaco_points):
    with pytest.raises(navgraph.NoSegment) as raised:
        graph.route([monaco_points[0], (0.0, 0.0)])
    assert raised.value.code == "NoSegment" and "waypoint 2" in raised.value.message
    with pytest.raises(navgraph.InvalidValue, match="'lorry'"):
        graph.route(monaco_points[:2], profile="lorry")
    with pytest.raises(navgraph.InvalidValue, match="'tolls'"):
        graph.route(monaco_points[:2], avoid=["tolls"])
    with pytest.raises(navgraph.InvalidValue, match="nan"):
        graph.matrix([(float("nan"), 43.7)])
    with pytest.raises(navgraph.InvalidValue, match=r"\(7.4, 95.0\)"):
        graph.nearest((7.4, 95.0))
    with pytest.raises(navgraph.NavGraphError) as raised:
        graph.route(monaco_points[:2], alternatives=9)
    assert raised.value.code == "TooBig" and "alternatives=9" in raised.value.message
    with pytest.raises(navgraph.NavGraphError) as raised:
        graph.route(monaco_points[:2], overview="sometimes")
    assert raised.value.code == "InvalidQuery" and "'sometimes'" in raised.value.message
    with pytest.raises(navgraph.InvalidValue) as raised:
        graph.route(monaco_points[:2], radiuses="-5;3")
    assert raised.value.code == "InvalidValue" and "-5" in raised.value.message
    broken = tmp_path / "broken.navgraph"
    broken.write_bytes(b"not a graph")
    with pytest.raises(navgraph.NavGraphError) as raised:
        navgraph.Graph.open(broken)
    assert "broken.navgraph" in raised.value.message and "not a navgraph file" in raised.value.message
    with pytest.raises(navgraph.NavGraphError, match="missing.navgraph"):
        navgraph.Graph.open(tmp_path / "missing.navgraph")


def test_many_threads_share_one_graph(graph, monaco_points):
    pairs = [(a, b) for a in monaco_points for b in monaco_points if a != b]
    expected = [graph.route([a, b])["routes"][0]["duration"] for a, b in pairs]
    results = {}

    def work(worker):
        results[worker] = [graph.route([a, b])["routes"][0]["duration"] for a, b in pairs]

    threads = [threading.Thread(target=work, args=(index,)) for index in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 6 and all(value == expected for value in results.values())


def test_gil_released_during_queries(graph):
    rng = np.random.default_rng(7)
    points = np.column_stack([rng.uniform(7.41, 7.44, 700), rng.uniform(43.725, 43.75, 700)])
    started = time.perf_counter()
    graph.matrix(points, annotations="duration", skip_unsnappable=True)
    alone = time.perf_counter() - started
    done = threading.Event()
    counted = 0

    def query():
        for _ in range(3):
            graph.matrix(points, annotations="duration", skip_unsnappable=True)
        done.set()

    thread = threading.Thread(target=query)
    thread.start()
    while not done.is_set():
        counted += 1
    thread.join()
    # While the engine computes three matrices the main thread keeps running Python: with the GIL held it
    # would count only at the few switch points between calls.
    assert alone > 0.005
    assert counted > 10_000
