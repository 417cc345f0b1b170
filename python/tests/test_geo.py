"""GeoPandas in and out."""
import geopandas
import numpy as np
import pytest
from shapely.geometry import Point


def test_points_from_geodataframe(graph, monaco_points):
    frame = geopandas.GeoDataFrame({"name": [f"p{i}" for i in range(len(monaco_points))]},
                                   geometry=[Point(lon, lat) for lon, lat in monaco_points], crs="EPSG:4326")
    assert np.array_equal(graph.matrix(frame).durations, graph.matrix(monaco_points).durations)
    projected = frame.to_crs(3857)
    # Reprojected back to EPSG:4326 inside: the same snaps up to rounding of the projection.
    assert np.allclose(graph.matrix(projected.geometry).durations, graph.matrix(monaco_points).durations, atol=0.01)
    assert graph.route(frame.iloc[:2])["routes"][0]["duration"] == graph.route(monaco_points[:2])["routes"][0]["duration"]


def test_non_point_geometry_is_named(graph, monaco_points):
    from shapely.geometry import LineString
    import navgraph
    frame = geopandas.GeoDataFrame(geometry=[Point(monaco_points[0]), LineString(monaco_points[:2])], crs="EPSG:4326")
    with pytest.raises(navgraph.InvalidValue, match="LineString"):
        graph.matrix(frame)


def test_route_frame(graph, monaco_points):
    frame = graph.route_frame(monaco_points[:3], alternatives=True)
    document = graph.route(monaco_points[:3], alternatives=True, geometries="geojson", overview="full")
    assert frame.crs.to_epsg() == 4326
    assert len(frame) == len(document["routes"]) >= 1
    assert (frame.geometry.geom_type == "LineString").all()
    assert frame["duration"].tolist() == [route["duration"] for route in document["routes"]]
    assert list(frame.geometry.iloc[0].coords) == [tuple(point) for point in document["routes"][0]["geometry"]["coordinates"]]


def test_isochrone_frame(graph, monaco_points):
    frame = graph.isochrone(monaco_points[0], minutes=(2, 4))
    assert frame.crs.to_epsg() == 4326
    polygons = frame[frame.geometry.geom_type.isin(["Polygon", "MultiPolygon"])]
    assert sorted(polygons["contour"].tolist()) == [2, 4]
    inner, outer = (polygons.set_index("contour").geometry.loc[minutes] for minutes in (2, 4))
    assert outer.area > inner.area > 0
    assert outer.buffer(1e-6).contains(Point(monaco_points[0]))
