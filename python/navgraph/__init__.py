"""navgraph in process: `Graph.open(path)` for routes, NumPy matrices, isochrones and nearest roads;
`navgraph.dask` for matrices and batch routes on a Dask cluster."""
from .graph import PROFILES, BadFile, Graph, InvalidValue, Matrix, NavGraphError, NoRoute, NoSegment, coordinates, version

__all__ = ["Graph", "Matrix", "NavGraphError", "NoSegment", "NoRoute", "InvalidValue", "BadFile", "PROFILES", "coordinates", "version"]
