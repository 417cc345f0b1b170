"""The README's Python example runs as written (on a freshly imported Monaco graph)."""
import re
import subprocess
import sys

from conftest import REPO


def test_readme_python_example_runs(graph_path, tmp_path):
    readme = (REPO / "README.md").read_text()
    section = readme.split("## Python", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert "navgraph.dask.matrix" in code and "graph.matrix(stops)" in code
    code = code.replace("out/monaco.navgraph", str(graph_path))
    script = tmp_path / "example.py"
    script.write_text(code)
    result = subprocess.run([sys.executable, str(script)], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "LINESTRING" in result.stdout and "NoSegment" in result.stdout
