"""GeoPandas in and out: route lines and isochrones as GeoDataFrames in EPSG:4326."""


def _geopandas():
    try:
        import geopandas
    except ImportError as error:
        raise ImportError("navgraph's GeoDataFrame output needs geopandas: pip install './python[geo]'") from error
    return geopandas


def frame_from_geojson(document):
    """A GeoJSON FeatureCollection (the isochrone endpoint's) as a GeoDataFrame with CRS EPSG:4326."""
    return _geopandas().GeoDataFrame.from_features(document["features"], crs="EPSG:4326")


def routes_frame(document):
    """A `/route` document with GeoJSON geometries as a GeoDataFrame: one LineString per route, with its
    index (0 the fastest), duration (s), distance (m) and weight."""
    from shapely.geometry import shape
    routes = document.get("routes", [])
    return _geopandas().GeoDataFrame(
        {
            "route": list(range(len(routes))),
            "duration": [route["duration"] for route in routes],
            "distance": [route["distance"] for route in routes],
            "weight": [route.get("weight") for route in routes],
        },
        geometry=[shape(route["geometry"]) for route in routes],
        crs="EPSG:4326",
    )
