"""The engine in process: `Graph.open(path)` maps a graph file; queries run in the engine with the GIL released."""
import ctypes
import json
import math
from urllib.parse import quote

import numpy as np

from . import _ffi

#: Profile names the engine accepts (the server's path segment).
PROFILES = ("driving", "car", "truck", "motorcycle", "cycling", "bicycle", "walking", "foot")
#: Classes `avoid` takes (the server's `exclude`).
AVOID_CLASSES = ("toll", "ferry", "motorway")


class NavGraphError(Exception):
    """An engine error: `code` is the server's error code (NoSegment, NoRoute, InvalidValue, BadFile, ...)."""

    def __init__(self, code, message):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class NoSegment(NavGraphError):
    """A point is too far from any usable road."""


class NoRoute(NavGraphError):
    """The points are not connected under the request's options."""


class InvalidValue(NavGraphError, ValueError):
    """A request value is malformed or out of range."""


class BadFile(NavGraphError, OSError):
    """The graph file is missing, unreadable, damaged or of another format version."""


_ERRORS = {"NoSegment": NoSegment, "NoRoute": NoRoute, "InvalidValue": InvalidValue, "BadFile": BadFile}


def _raise_last(lib):
    """Raises the calling thread's last engine error as its exception class."""
    code = _ffi.take_string(lib, lib.ng_last_error_code()) or "Unknown"
    message = _ffi.take_string(lib, lib.ng_last_error_message()) or ""
    raise _ERRORS.get(code, NavGraphError)(code, message)


def coordinates(points, what="points"):
    """An (n, 2) float64 array of lon, lat from pairs, an array, or a GeoDataFrame/GeoSeries of points (reprojected to EPSG:4326)."""
    geometry = getattr(points, "geometry", None)
    if geometry is None and type(points).__name__ == "GeoSeries":
        geometry = points
    if geometry is not None and hasattr(geometry, "geom_type"):
        if geometry.crs is not None and geometry.crs.to_epsg() != 4326:
            geometry = geometry.to_crs(4326)
        if not (geometry.geom_type == "Point").all():
            bad = geometry[geometry.geom_type != "Point"]
            raise InvalidValue("InvalidValue", f"{what}: row {bad.index[0]!r} is a {bad.iloc[0].geom_type}, not a Point")
        array = np.column_stack([geometry.x.to_numpy(), geometry.y.to_numpy()]).astype(np.float64)
    else:
        try:
            array = np.asarray(points, dtype=np.float64)
        except (TypeError, ValueError) as error:
            raise InvalidValue("InvalidValue", f"{what}: not (lon, lat) pairs ({error})") from None
        if array.ndim == 1 and array.shape == (2,):
            array = array.reshape(1, 2)
    if array.ndim != 2 or array.shape[1] != 2:
        raise InvalidValue("InvalidValue", f"{what}: expected (lon, lat) pairs, got an array of shape {array.shape}")
    if len(array) == 0:
        raise InvalidValue("InvalidValue", f"{what}: no points")
    for index, (lon, lat) in enumerate(array.tolist()):
        if not (math.isfinite(lon) and math.isfinite(lat) and -180 <= lon <= 180 and -90 <= lat <= 90):
            raise InvalidValue("InvalidValue", f"{what}[{index}] = ({lon!r}, {lat!r}) is not a longitude, latitude pair")
    return array


def _coordinate_text(array):
    """OSRM's `lon,lat;lon,lat` with exact (round-tripping) decimals."""
    return ";".join(f"{lon!r},{lat!r}" for lon, lat in array.tolist())


def _option_value(name, value):
    """One query value as the server spells it (booleans lower case, lists comma-separated)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(item) for item in value)
    return str(value)


def _target(service, profile, array, options):
    """The OSRM-style request target the server would receive."""
    if profile not in PROFILES:
        raise InvalidValue("InvalidValue", f"profile={profile!r} is not one of {', '.join(PROFILES)}")
    query = "&".join(f"{quote(name)}={quote(_option_value(name, value), safe=',;')}" for name, value in options.items() if value is not None)
    return f"/{service}/v1/{profile}/{_coordinate_text(array)}" + (f"?{query}" if query else "")


def _avoid(avoid):
    """The `exclude` value of an avoid list (None when empty); unknown classes name themselves."""
    if avoid is None or avoid == () or avoid == []:
        return None
    items = [avoid] if isinstance(avoid, str) else list(avoid)
    for item in items:
        if item not in AVOID_CLASSES:
            raise InvalidValue("InvalidValue", f"avoid: {item!r} is not one of {', '.join(AVOID_CLASSES)}")
    return ",".join(items)


class Matrix:
    """A matrix result: `durations` (s) and `distances` (m) as NumPy arrays (NaN where unreachable), and which points snapped."""

    def __init__(self, durations, distances, sources_snapped, destinations_snapped):
        self.durations = durations
        self.distances = distances
        self.sources_snapped = sources_snapped
        self.destinations_snapped = destinations_snapped

    def __repr__(self):
        shape = (self.durations if self.durations is not None else self.distances).shape
        return f"<navgraph.Matrix {shape[0]} x {shape[1]}>"


class Graph:
    """One mapped graph file; thread-safe: many Python threads may query one Graph at once."""

    def __init__(self, handle, path, lib):
        self._handle = handle
        self._lib = lib
        self.path = path

    @classmethod
    def open(cls, path, verify=True):
        """Maps the graph file at `path` (from `navgraph import`); `verify` checks its section checksums."""
        lib = _ffi.library()
        handle = lib.ng_open(str(path).encode("utf-8"), 1 if verify else 0)
        if not handle:
            _raise_last(lib)
        return cls(handle, str(path), lib)

    def close(self):
        """Releases the engine's handle (queries after this raise InvalidValue)."""
        handle, self._handle = self._handle, None
        if handle:
            self._lib.ng_close(handle)

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _json(self, function, target):
        """Runs one request through the engine and parses its JSON answer."""
        pointer = function(self._handle, target.encode("utf-8"))
        if not pointer:
            _raise_last(self._lib)
        return json.loads(_ffi.take_string(self._lib, pointer))

    def info(self):
        """The graph's path and routing-node count (the server's /health)."""
        pointer = self._lib.ng_info(self._handle)
        if not pointer:
            _raise_last(self._lib)
        return json.loads(_ffi.take_string(self._lib, pointer))

    def route_target(self, points, profile="driving", avoid=None, alternatives=False, steps=False, language=None, **options):
        """The `/route/v1` target `route` sends (for comparing with a server)."""
        array = coordinates(points)
        if len(array) < 2:
            raise InvalidValue("InvalidValue", f"points: a route needs at least 2, got {len(array)}")
        query = {"alternatives": alternatives, "steps": steps, "exclude": _avoid(avoid), "language": language}
        query.update(options)
        return _target("route", profile, array, {name: value for name, value in query.items() if value is not None})

    def route(self, points, profile="driving", avoid=None, alternatives=False, steps=False, language=None, **options):
        """The server's `/route` JSON document (a dict) through `points` ((lon, lat) pairs or a GeoDataFrame);
        further OSRM options (`geometries="geojson"`, `overview`, `annotations`, ...) pass through."""
        return self._json(self._lib.ng_route, self.route_target(points, profile, avoid, alternatives, steps, language, **options))

    def nearest(self, point, number=1, profile="driving", **options):
        """The server's `/nearest` JSON: the `number` nearest road snaps of one (lon, lat) point."""
        array = coordinates(point, "point")
        if len(array) != 1:
            raise InvalidValue("InvalidValue", f"point: nearest takes one point, got {len(array)}")
        return self._json(self._lib.ng_nearest, _target("nearest", profile, array, {"number": number, **options}))

    def isochrone_geojson(self, point, minutes=(5, 10, 15), profile="driving", reverse=False, avoid=None):
        """The isochrone GeoJSON (FeatureCollection, one polygon feature per contour) around one (lon, lat) point."""
        array = coordinates(point, "point")
        if len(array) != 1:
            raise InvalidValue("InvalidValue", f"point: an isochrone takes one point, got {len(array)}")
        minutes = [minutes] if isinstance(minutes, (int, float)) else list(minutes)
        options = {"contours_minutes": ",".join(f"{value:g}" for value in minutes), "reverse": reverse or None, "exclude": _avoid(avoid)}
        return self._json(self._lib.ng_isochrone, _target("isochrone", profile, array, {k: v for k, v in options.items() if v is not None}))

    def isochrone(self, point, minutes=(5, 10, 15), profile="driving", reverse=False, avoid=None):
        """The isochrone as a GeoDataFrame (EPSG:4326), one row per contour with its `contour` in minutes."""
        from .geo import frame_from_geojson
        return frame_from_geojson(self.isochrone_geojson(point, minutes, profile, reverse, avoid))

    def route_frame(self, points, profile="driving", avoid=None, alternatives=False, **options):
        """The route (and its alternatives) as a GeoDataFrame (EPSG:4326): one LineString row per route."""
        from .geo import routes_frame
        document = self.route(points, profile, avoid, alternatives, geometries="geojson", overview="full", **options)
        return routes_frame(document)

    def table_target(self, sources, destinations=None, annotations=("duration", "distance"), profile="driving", avoid=None):
        """The `/table/v1` target `matrix` computes (for comparing with a server); returns (target, n, m)."""
        source_array = coordinates(sources, "sources")
        annotations = [annotations] if isinstance(annotations, str) else list(annotations)
        for name in annotations:
            if name not in ("duration", "distance"):
                raise InvalidValue("InvalidValue", f"annotations: {name!r} is not duration or distance")
        if not annotations:
            raise InvalidValue("InvalidValue", "annotations: name duration, distance or both")
        options = {"annotations": ",".join(annotations), "exclude": _avoid(avoid)}
        if destinations is None:
            array, rows, columns = source_array, len(source_array), len(source_array)
        else:
            destination_array = coordinates(destinations, "destinations")
            array = np.vstack([source_array, destination_array])
            rows, columns = len(source_array), len(destination_array)
            options["sources"] = ";".join(map(str, range(rows)))
            options["destinations"] = ";".join(map(str, range(rows, rows + columns)))
        return _target("table", profile, array, {k: v for k, v in options.items() if v is not None}), rows, columns

    def matrix(self, sources, destinations=None, annotations=("duration", "distance"), profile="driving", avoid=None,
               dtype=np.float64, skip_unsnappable=False):
        """Durations (s) and distances (m) from every source to every destination (sources × sources without
        destinations) as NumPy arrays written by the engine (NaN where unreachable); `skip_unsnappable` gives
        points far from any road NaN rows/columns instead of raising NoSegment."""
        dtype = np.dtype(dtype)
        if dtype not in (np.dtype(np.float32), np.dtype(np.float64)):
            raise InvalidValue("InvalidValue", f"dtype={dtype} is not float32 or float64")
        annotations = [annotations] if isinstance(annotations, str) else list(annotations)
        target, rows, columns = self.table_target(sources, destinations, annotations, profile, avoid)
        durations = np.empty((rows, columns), dtype=dtype) if "duration" in annotations else None
        distances = np.empty((rows, columns), dtype=dtype) if "distance" in annotations else None
        count = rows if destinations is None else rows + columns
        snapped = np.zeros(count, dtype=np.uint8)

        def address(array):
            return None if array is None else array.ctypes.data

        status = self._lib.ng_matrix(self._handle, target.encode("utf-8"), 1 if skip_unsnappable else 0, rows, columns,
                                     dtype.itemsize, address(durations), address(distances), snapped.ctypes.data, count)
        if status != 0:
            _raise_last(self._lib)
        flags = snapped.astype(bool)
        return Matrix(durations, distances, flags[:rows], flags if destinations is None else flags[rows:])


def version():
    """The engine's version string."""
    lib = _ffi.library()
    return _ffi.take_string(lib, lib.ng_version())
