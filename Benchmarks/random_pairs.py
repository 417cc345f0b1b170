#!/usr/bin/env python3
"""random_pairs.py - deterministic random query pairs inside a bounding box (fallback when pyosmium is missing).

Usage: random_pairs.py MINLAT..MAXLAT MINLON..MAXLON N SEED > pairs.csv
Prints N "lon,lat,lon,lat" lines (6 decimals) drawn uniformly with random.Random(SEED); the router snaps them.
"""
import random
import sys


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    (min_lat, max_lat), (min_lon, max_lon) = (map(float, arg.split("..")) for arg in sys.argv[1:3])
    count, seed = int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(seed)
    for _ in range(count):
        a = (rng.uniform(min_lon, max_lon), rng.uniform(min_lat, max_lat))
        b = (rng.uniform(min_lon, max_lon), rng.uniform(min_lat, max_lat))
        print(f"{a[0]:.6f},{a[1]:.6f},{b[0]:.6f},{b[1]:.6f}")


if __name__ == "__main__":
    main()
