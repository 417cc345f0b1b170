"""navgraph.dask on a LocalCluster of 2 worker processes (one thread each)."""
import numpy as np
import pandas as pd
import pytest
from distributed import Client, LocalCluster

import navgraph
import navgraph.dask as nd


@pytest.fixture(scope="module")
def client():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as connected:
        yield connected


@pytest.fixture(scope="module")
def points():
    rng = np.random.default_rng(11)
    array = np.column_stack([rng.uniform(7.41, 7.44, 60), rng.uniform(43.725, 43.75, 60)])
    array[4] = (np.nan, 43.73)      # not a coordinate
    array[9] = (0.0, 0.0)           # far from any road
    return array


def test_matrix_blocks_equal_one_matrix(client, graph, graph_path, points):
    result = nd.matrix(points, str(graph_path), block=16, annotations=("duration", "distance"), client=client)
    durations, distances = result.durations.compute(), result.distances.compute()
    assert durations.shape == distances.shape == (60, 60)
    good = np.ones(60, dtype=bool)
    good[[4, 9]] = False
    whole = graph.matrix(points[good], dtype=np.float32)
    assert np.array_equal(durations[np.ix_(good, good)], whole.durations, equal_nan=True)
    assert np.array_equal(distances[np.ix_(good, good)], whole.distances, equal_nan=True)
    assert np.isnan(durations[[4, 9]]).all() and np.isnan(durations[:, [4, 9]]).all()
    errors = result.point_errors()
    assert sorted(zip(errors["role"], errors["index"])) == [("destination", 4), ("destination", 9), ("source", 4), ("source", 9)]
    assert errors.set_index(["role", "index"]).loc[("source", 4), "error"].startswith("InvalidValue")
    assert errors.set_index(["role", "index"]).loc[("source", 9), "error"].startswith("NoSegment")
    # Every worker opened the graph file once, whatever the number of blocks.
    assert sorted(client.run(lambda: nd.open_count).values()) == [1, 1]


def test_matrix_to_parquet(client, graph, graph_path, points, tmp_path):
    sources, destinations = points[10:30], points[30:55]
    result = nd.matrix(sources, str(graph_path), destinations=destinations, block=8, client=client, output=str(tmp_path / "m"))
    frame = result.parquet.compute().sort_values(["source", "destination"])
    assert len(frame) == 20 * 25 and len(list((tmp_path / "m").glob("*.parquet"))) == 3 * 4
    expected = graph.matrix(sources, destinations, annotations="duration", dtype=np.float32).durations
    assert np.array_equal(frame["duration"].to_numpy().reshape(20, 25), expected, equal_nan=True)


def test_failed_block_is_retried(client, graph_path, points, tmp_path):
    marker = tmp_path / "failed-once"
    result = nd.matrix(points[:20], str(graph_path), block=10, client=client, retries=1, _fail_marker=str(marker))
    assert np.isfinite(result.durations.compute()).any()
    assert marker.exists()  # the first attempt of block (0, 0) failed
    with pytest.raises(RuntimeError, match="injected failure"):
        nd.matrix(points[:20], str(graph_path), block=10, client=client, retries=0, _fail_marker=str(tmp_path / "again")).durations.compute()


def test_routes_with_bad_rows(client, graph, graph_path, points, tmp_path):
    pairs = pd.DataFrame({"src_lon": points[:30, 0], "src_lat": points[:30, 1], "dst_lon": points[30:, 0], "dst_lat": points[30:, 1],
                          "id": np.arange(30)})
    routed = nd.routes(pairs, str(graph_path), partition_size=7, client=client).compute().sort_values("id")
    assert routed["id"].tolist() == list(range(30))
    for row in routed.itertuples():
        a, b = (row.src_lon, row.src_lat), (row.dst_lon, row.dst_lat)
        if row.id in (4, 9):
            assert np.isnan(row.duration) and row.error.startswith("InvalidValue" if row.id == 4 else "NoSegment")
        else:
            route = graph.route([a, b], overview="false")["routes"][0]
            assert row.error is None or pd.isna(row.error)
            assert (row.duration, row.distance) == (route["duration"], route["distance"])
    written = nd.routes(pairs, str(graph_path), partition_size=10, client=client, output=str(tmp_path / "r")).compute().sort_values("id")
    assert np.array_equal(written["duration"].to_numpy(), routed["duration"].to_numpy(), equal_nan=True)
    assert written["error"].notna().sum() == 2


def test_bad_arguments_are_named(client, graph_path, points):
    with pytest.raises(ValueError, match="block=0"):
        nd.matrix(points, str(graph_path), block=0, client=client)
    with pytest.raises(ValueError, match="'src_lon'"):
        nd.routes(pd.DataFrame({"from_lon": [1.0]}), str(graph_path), client=client)
    with pytest.raises(FileNotFoundError, match="nowhere.navgraph"):
        nd.matrix(points, "nowhere.navgraph", client=client)
    with pytest.raises(navgraph.InvalidValue, match="'tolls'"):
        nd.matrix(points, str(graph_path), client=client, avoid=["tolls"])
