"""The README's Python example runs as written (on a freshly imported Monaco graph), as a notebook runs it: the code
is the main program without a file (`python -c`), so the cluster's worker processes do not re-run it."""
import re
import subprocess
import sys

from conftest import REPO


def test_readme_python_example_runs(graph_path):
    readme = (REPO / "README.md").read_text()
    section = readme.split("## Python", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert "navgraph.dask.matrix" in code and "graph.matrix(stops)" in code
    code = code.replace("out/monaco.navgraph", str(graph_path))
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "LINESTRING" in result.stdout and "NoSegment" in result.stdout
