"""Shared fixtures: the bundled Monaco extract imported by the CLI, the graph opened in process, and `navgraph serve` on it."""
import json
import os
import re
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest

import navgraph

REPO = Path(__file__).resolve().parents[2]
CLI = REPO / ".build" / "release" / "navgraph"


def run_cli(*arguments):
    """Runs the navgraph CLI; fails the test with its stderr if it fails."""
    if not CLI.is_file():
        pytest.fail(f"{CLI} is missing: run `swift build -c release --product navgraph` (Tools/test.sh does)")
    result = subprocess.run([str(CLI), *map(str, arguments)], capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        pytest.fail(f"navgraph {' '.join(map(str, arguments))} failed ({result.returncode}): {result.stderr}")
    return result.stdout


@pytest.fixture(scope="session")
def graph_path(tmp_path_factory):
    """Data/monaco.osm.pbf imported by the CLI."""
    path = tmp_path_factory.mktemp("graph") / "monaco.navgraph"
    run_cli("import", REPO / "Data" / "monaco.osm.pbf", "-o", path)
    return path


@pytest.fixture(scope="session")
def graph(graph_path):
    """The Monaco graph in process."""
    with navgraph.Graph.open(graph_path) as opened:
        yield opened


class Server:
    """A running `navgraph serve` on an ephemeral port."""

    def __init__(self, process, port):
        self.process, self.port = process, port

    def get(self, target):
        """(status, parsed JSON body) of one GET."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{target}", timeout=60) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())


@pytest.fixture(scope="session")
def server(graph_path):
    """`navgraph serve` on the same graph file (port 0: the server prints the one it bound)."""
    process = subprocess.Popen([str(CLI), "serve", str(graph_path), "--port", "0", "--quiet", "--max-table-size", "10000"],
                               stderr=subprocess.PIPE, text=True)
    port = None
    for line in process.stderr:
        found = re.search(r"on http://127\.0\.0\.1:(\d+)", line)
        if found:
            port = int(found.group(1))
            break
    if port is None:
        process.kill()
        pytest.fail("navgraph serve did not report its port")
    yield Server(process, port)
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture(scope="session")
def monaco_points():
    """Points on Monaco's streets (lon, lat), from the README's examples and around the city."""
    return [(7.4246, 43.7384), (7.4268, 43.7402), (7.4197, 43.7311), (7.4163, 43.7258), (7.4290, 43.7440),
            (7.4128, 43.7310), (7.4215, 43.7356), (7.4335, 43.7475)]


@pytest.fixture(autouse=True, scope="session")
def _phrasebook_env():
    """The engine finds its phrasebooks beside the build when the package is not bundled with them."""
    os.environ.setdefault("NAVGRAPH_PHRASEBOOK_DIR", str(REPO / "Sources" / "NavGraph" / "Resources" / "phrasebook"))
    yield
