#!/usr/bin/env bash
# The Python package's tests: builds libNavGraphC (release), installs ./python with its test dependencies from PyPI,
# and runs pytest on python/tests (GeoPandas, Dask LocalCluster with 2 worker processes). No tests collected
# (pytest exit 5) is a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product navgraph >&2
swift build -c release --product NavGraphC >&2
python3 -m pip install --quiet --disable-pip-version-check "./python[test]" >&2
status=0
python3 -m pytest -q -p no:cacheprovider python/tests || status=$?
if [ "$status" -eq 5 ]; then
  echo "python_tests: pytest collected no tests in python/tests: failing" >&2
  exit 1
fi
exit "$status"
