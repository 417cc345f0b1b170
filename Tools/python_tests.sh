#!/usr/bin/env bash
# The Python package's tests: builds libNavGraphC and the CLI (release), installs ./python with its test dependencies
# from PyPI into a virtualenv (.build/python-venv; Debian's python3-venv from apt if missing: a fresh Debian's
# Python refuses system-wide pip installs), and runs pytest on python/tests (against navgraph serve and the CLI,
# GeoPandas, a Dask LocalCluster of 2 worker processes), then the API clients' tests in Tools/clients (NextBillion's
# official `nextbillion-sdk` against navgraph serve). No tests collected (pytest exit 5) is a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product navgraph >&2
swift build -c release --product NavGraphC >&2
venv=.build/python-venv
if [ ! -x "$venv/bin/python" ]; then
  if ! python3 -m venv "$venv" >/dev/null 2>&1; then
    rm -rf "$venv"
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get -o DPkg::Lock::Timeout=300 update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get -o DPkg::Lock::Timeout=300 install -y -qq python3-venv >&2
    python3 -m venv "$venv"
  fi
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip >&2
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "./python[test]" nextbillion-sdk >&2
status=0
"$venv/bin/python" -m pytest -q -p no:cacheprovider python/tests Tools/clients || status=$?
if [ "$status" -eq 5 ]; then
  echo "python_tests: pytest collected no tests in python/tests and Tools/clients: failing" >&2
  exit 1
fi
exit "$status"
