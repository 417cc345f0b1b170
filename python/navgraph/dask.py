"""Matrices and batch routes on a Dask `distributed` cluster: the job is split into blocks (matrix tiles, or
partitions of origin-destination pairs); each worker process opens the graph file once (`GraphPlugin`) and keeps
it mapped; blocks are retried (`retries=`); a bad point or pair gets an error, not a failed job."""
import math
import operator
import os

import numpy as np
import pandas as pd

import dask
import dask.array as da
import dask.dataframe as dd
from distributed import WorkerPlugin, get_client, get_worker

from .graph import Graph, NavGraphError, _avoid, coordinates

#: How many times this process opened a graph for tasks (tests read it through `Client.run`).
open_count = 0
#: Graphs opened outside a worker plugin (a local scheduler), by path.
_local_graphs = {}


def plugin_name(path):
    """The worker plugin's name for one graph file."""
    return "navgraph:" + os.path.abspath(path)


class GraphPlugin(WorkerPlugin):
    """Opens one graph file in each worker process at setup and keeps it mapped for every task there;
    `threads` sets the engine's threads per worker (NAVGRAPH_THREADS; None: every core)."""

    def __init__(self, path, threads=1, verify=False):
        self.path = os.path.abspath(path)
        self.threads = threads
        self.verify = verify
        self.name = plugin_name(self.path)
        self.graph = None

    def __getstate__(self):
        state = dict(self.__dict__)
        state["graph"] = None
        return state

    def setup(self, worker):
        """Opens the graph (the engine reads NAVGRAPH_THREADS on its first parallel query)."""
        global open_count
        if self.threads is not None:
            os.environ["NAVGRAPH_THREADS"] = str(self.threads)
        self.graph = Graph.open(self.path, verify=self.verify)
        open_count += 1

    def teardown(self, worker):
        """Releases the graph."""
        if self.graph is not None:
            self.graph.close()
            self.graph = None


def worker_graph(path):
    """The graph the current worker's plugin opened, or one opened once per process without a plugin."""
    global open_count
    try:
        plugin = get_worker().plugins.get(plugin_name(path))
    except ValueError:
        plugin = None
    if plugin is not None and plugin.graph is not None:
        return plugin.graph
    key = os.path.abspath(path)
    if key not in _local_graphs:
        _local_graphs[key] = Graph.open(key, verify=False)
        open_count += 1
    return _local_graphs[key]


def register(client, graph_path, threads=1):
    """Registers the graph plugin on `client`'s cluster once (workers that join later get it too)."""
    if not os.path.isfile(graph_path):
        raise FileNotFoundError(f"graph_path={graph_path!r}: no such file")
    done = getattr(client, "_navgraph_plugins", set())
    key = (os.path.abspath(graph_path), threads)
    if key not in done:
        client.register_plugin(GraphPlugin(graph_path, threads=threads))
        done.add(key)
        client._navgraph_plugins = done
    return client


def _valid(points):
    """Which (lon, lat) rows are finite and in range."""
    lon, lat = points[:, 0], points[:, 1]
    with np.errstate(invalid="ignore"):
        return np.isfinite(lon) & np.isfinite(lat) & (np.abs(lon) <= 180) & (np.abs(lat) <= 90)


def _as_points(points, what):
    """An (n, 2) float64 array that may hold bad rows (they are reported per point, not raised)."""
    if hasattr(points, "geometry") or type(points).__name__ == "GeoSeries":
        return coordinates(points, what)
    array = np.asarray(points, dtype=np.float64)
    if array.ndim != 2 or array.shape[1] != 2 or len(array) == 0:
        raise ValueError(f"{what}: expected (lon, lat) pairs, got an array of shape {array.shape}")
    return array


def _matrix_block(graph_path, sources, destinations, annotations, profile, avoid, dtype, fail_marker=None):
    """One tile: durations/distances for the valid points (NaN elsewhere) and which points snapped."""
    if fail_marker is not None and not os.path.exists(fail_marker):
        open(fail_marker, "w").close()
        raise RuntimeError(f"injected failure (test hook; {fail_marker} now exists)")
    graph = worker_graph(graph_path)
    source_ok, destination_ok = _valid(sources), _valid(destinations)
    out = {name: np.full((len(sources), len(destinations)), np.nan, dtype=dtype) for name in annotations}
    snapped_sources = np.zeros(len(sources), dtype=bool)
    snapped_destinations = np.zeros(len(destinations), dtype=bool)
    if source_ok.any() and destination_ok.any():
        result = graph.matrix(sources[source_ok], destinations[destination_ok], annotations=annotations, profile=profile,
                              avoid=avoid, dtype=dtype, skip_unsnappable=True)
        rows, columns = np.flatnonzero(source_ok), np.flatnonzero(destination_ok)
        for name, values in (("duration", result.durations), ("distance", result.distances)):
            if name in out:
                out[name][np.ix_(rows, columns)] = values
        snapped_sources[rows] = result.sources_snapped
        snapped_destinations[columns] = result.destinations_snapped
    out["sources_snapped"] = snapped_sources
    out["destinations_snapped"] = snapped_destinations
    return out


def _matrix_block_to_parquet(block, output, row, column, annotations):
    """Writes one tile as a long-form Parquet file (source, destination, one column per annotation); returns its cell count."""
    rows, columns = block[annotations[0]].shape
    frame = pd.DataFrame({
        "source": np.repeat(np.arange(row, row + rows, dtype=np.int64), columns),
        "destination": np.tile(np.arange(column, column + columns, dtype=np.int64), rows),
    })
    for name in annotations:
        frame[name] = block[name].reshape(-1)
    frame.to_parquet(os.path.join(output, f"block-{row:09d}-{column:09d}.parquet"), index=False)
    return rows * columns


class DaskMatrix:
    """A distributed matrix: `durations` and `distances` as Dask arrays (NaN where unreachable or a point is bad),
    `point_errors()` the points that did not snap, `futures` the tiles' futures, `parquet` the output folder when written."""

    def __init__(self, arrays, sources_snapped, destinations_snapped, source_points, destination_points, parquet=None, futures=()):
        self.durations = arrays.get("duration")
        self.distances = arrays.get("distance")
        self.sources_snapped = sources_snapped
        self.destinations_snapped = destinations_snapped
        self._points = (source_points, destination_points)
        self.parquet = parquet
        self.futures = list(futures)

    def point_errors(self):
        """A DataFrame of every source or destination without a road snap: role, index, lon, lat, error."""
        rows = []
        for role, points, snapped in (("source", self._points[0], self.sources_snapped), ("destination", self._points[1], self.destinations_snapped)):
            flags = np.asarray(snapped.compute() if hasattr(snapped, "compute") else snapped)
            valid = _valid(points)
            for index in np.flatnonzero(~flags):
                lon, lat = (float(value) for value in points[index])
                error = (f"NoSegment: ({lon!r}, {lat!r}) is more than the snapping radius from any road" if valid[index]
                         else f"InvalidValue: ({lon!r}, {lat!r}) is not a longitude, latitude pair")
                rows.append((role, int(index), lon, lat, error))
        return pd.DataFrame(rows, columns=["role", "index", "lon", "lat", "error"])


def matrix(points, graph_path, *, destinations=None, block=1000, annotations=("duration",), profile="driving", avoid=None,
           dtype="float32", client=None, retries=2, threads=1, output=None, _fail_marker=None):
    """Sources × destinations (points × points without destinations) on the cluster of `client` (default: the
    current one), in block × block tiles; returns a DaskMatrix whose arrays are held on the workers, or, with
    `output` (a folder), writes one long-form Parquet file per tile there and returns it as `parquet` (a Dask DataFrame)."""
    if not isinstance(block, int) or block < 1:
        raise ValueError(f"block={block!r} is not a positive integer")
    annotations = [annotations] if isinstance(annotations, str) else list(annotations)
    for name in annotations:
        if name not in ("duration", "distance"):
            raise ValueError(f"annotations: {name!r} is not duration or distance")
    avoid_text = _avoid(avoid)
    dtype = np.dtype(dtype)
    client = register(client or get_client(), graph_path, threads)
    sources = _as_points(points, "points")
    targets = sources if destinations is None else _as_points(destinations, "destinations")
    row_starts, column_starts = range(0, len(sources), block), range(0, len(targets), block)
    # Each point block goes to the cluster once; tiles refer to it (a task carries a key, not the points).
    source_blocks = dict(zip(row_starts, client.scatter([sources[row:row + block] for row in row_starts])))
    target_blocks = source_blocks if destinations is None else \
        dict(zip(column_starts, client.scatter([targets[column:column + block] for column in column_starts])))
    tasks = {}
    for row in row_starts:
        for column in column_starts:
            marker = _fail_marker if (row, column) == (0, 0) else None
            tile = dask.delayed(_matrix_block, pure=True)(
                os.path.abspath(graph_path), source_blocks[row], target_blocks[column], annotations, profile,
                avoid_text.split(",") if avoid_text else None, dtype, marker)
            if output is not None:
                tile = dask.delayed(_matrix_block_to_parquet)(tile, output, row, column, annotations)
            tasks[row, column] = tile
    if output is not None:
        os.makedirs(output, exist_ok=True)
        futures = client.compute(list(tasks.values()), retries=retries)
        client.gather(futures)
        return DaskMatrix({}, None, None, sources, targets, parquet=dd.read_parquet(output))
    futures = dict(zip(tasks, client.compute(list(tasks.values()), retries=retries)))

    def piece(row, column, name, shape, piece_dtype):
        return da.from_delayed(dask.delayed(operator.getitem)(futures[row, column], name), shape=shape, dtype=piece_dtype)

    def height(row):
        return min(block, len(sources) - row)

    def width(column):
        return min(block, len(targets) - column)

    arrays = {name: da.block([[piece(r, c, name, (height(r), width(c)), dtype) for c in column_starts] for r in row_starts])
              for name in annotations}
    sources_snapped = da.concatenate([piece(r, 0, "sources_snapped", (height(r),), bool) for r in row_starts])
    destinations_snapped = da.concatenate([piece(0, c, "destinations_snapped", (width(c),), bool) for c in column_starts])
    return DaskMatrix(arrays, sources_snapped, destinations_snapped, sources, targets, futures=futures.values())


ROUTE_COLUMNS = ("src_lon", "src_lat", "dst_lon", "dst_lat")


def _route_partition(frame, graph_path, columns, profile, avoid, geometry):
    """Routes every pair of one partition: duration (s), distance (m), error (None, or the engine's code and message)."""
    graph = worker_graph(graph_path)
    durations = np.full(len(frame), np.nan)
    distances = np.full(len(frame), np.nan)
    errors = [None] * len(frame)
    lines = [None] * len(frame)
    values = frame[list(columns)].to_numpy(dtype=np.float64, na_value=np.nan)
    options = {"overview": "full", "geometries": "geojson"} if geometry else {"overview": "false"}
    for index, (a, b, c, d) in enumerate(values):
        try:
            route = graph.route([(a, b), (c, d)], profile=profile, avoid=avoid, **options)["routes"][0]
        except NavGraphError as error:
            errors[index] = f"{error.code}: {error.message}"
            continue
        durations[index], distances[index] = route["duration"], route["distance"]
        if geometry:
            lines[index] = "LINESTRING (" + ", ".join(f"{x!r} {y!r}" for x, y in route["geometry"]["coordinates"]) + ")"
    out = frame.copy()
    out["duration"], out["distance"], out["error"] = durations, distances, pd.Series(errors, index=frame.index, dtype="string")
    if geometry:
        out["geometry_wkt"] = pd.Series(lines, index=frame.index, dtype="string")
    return out


def routes(pairs, graph_path, *, columns=ROUTE_COLUMNS, partition_size=1000, profile="driving", avoid=None, client=None,
           retries=2, threads=1, output=None, geometry=False):
    """Routes every row of `pairs` (a pandas or Dask DataFrame with src_lon, src_lat, dst_lon, dst_lat, or `columns`)
    on the cluster: a Dask DataFrame with the input columns plus duration, distance and error (a bad row's engine
    error), held on the workers; with `output` (a folder) written as Parquet partitions and read back lazily."""
    missing = [name for name in columns if name not in pairs.columns]
    if missing:
        raise ValueError(f"pairs: no column {missing[0]!r} (has {', '.join(map(str, pairs.columns))})")
    if not isinstance(partition_size, int) or partition_size < 1:
        raise ValueError(f"partition_size={partition_size!r} is not a positive integer")
    avoid_list = _avoid(avoid)
    avoid_list = avoid_list.split(",") if avoid_list else None
    client = register(client or get_client(), graph_path, threads)
    frame = pairs if isinstance(pairs, dd.DataFrame) else dd.from_pandas(pairs, npartitions=max(1, math.ceil(len(pairs) / partition_size)), sort=False)
    meta = frame._meta.assign(duration=pd.Series(dtype=np.float64), distance=pd.Series(dtype=np.float64), error=pd.Series(dtype="string"))
    if geometry:
        meta = meta.assign(geometry_wkt=pd.Series(dtype="string"))
    routed = frame.map_partitions(_route_partition, os.path.abspath(graph_path), tuple(columns), profile, avoid_list, geometry, meta=meta)
    if output is not None:
        client.compute(routed.to_parquet(output, compute=False, write_index=False), retries=retries).result()
        return dd.read_parquet(output)
    futures = client.compute(routed.to_delayed(), retries=retries)
    return dd.from_delayed(futures, meta=meta, verify_meta=False)
