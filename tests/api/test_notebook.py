"""A Jupyter notebook executed headless (nbclient + ipykernel) runs a benchmark via ``spatialbench.run``.

The kernel's event loop is running while a cell executes, so ``spatialbench.run`` there goes through
``run_sync``'s worker-thread path. The kernel is this venv's Python with this test's ``PYTHONPATH``; it
reaches the scripted loopback server the test started. The server answers q0 and q1 right and q2, q3 with
"?": counting (q0, q2) (1 + 0) / 2 = 50.0 MRA, relative distance 1 of 2 = 50.0, Avg. 50.0.
"""

import json
import os
import sys
from pathlib import Path

import pytest

from support.openai_server import OpenAIServer, ServerScript
from support.vsi_data import make_vsibench, question_tag

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

CELLS = [
    "import asyncio, json, spatialbench\nasyncio.get_running_loop()  # the kernel's loop is running",
    "summary = spatialbench.run(CONFIG, progress=False)\nsummary.counts",
    "run = spatialbench.open_run(CONFIG['out'])\nscored = spatialbench.score(run)\n"
    "print(json.dumps({'run': summary.score.table.average, 'folder': scored.table.average,\n"
    "                  'tasks': scored.table.task_scores, 'model': run.model}))",
]


def _kernel_spec(folder: Path) -> str:
    """Write a ``python3``-like kernelspec running this interpreter; return its name."""
    spec = folder / "kernels" / "spatialbench-test"
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(json.dumps({"argv": argv, "display_name": "spatialbench test",
                                                  "language": "python"}))
    return spec.name


@pytest.mark.slow
def test_a_notebook_runs_opens_and_scores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    answers = make_vsibench(data, n_videos=1, per_video=4)
    kernel = _kernel_spec(tmp_path / "jupyter")
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in sys.path if p))  # this test's sources

    def answer(text: str) -> str:
        tag = question_tag(text)
        return answers[tag] if tag in ("q0", "q1") else "?"

    with OpenAIServer(ServerScript(answer=answer)) as server:
        config = {"data": {"benchmark": "vsibench", "path": str(data)}, "out": str(tmp_path / "run"),
                  "model": {"name": f"openai-compatible:{server.url}#m"}, "media": {"frames": "uniform:2"}}
        cells = [nbformat.v4.new_code_cell(f"CONFIG = {config!r}"), *map(nbformat.v4.new_code_cell, CELLS)]
        notebook = nbformat.v4.new_notebook(cells=cells)
        client = nbclient.NotebookClient(notebook, kernel_name=kernel, timeout=120, resources={
            "metadata": {"path": str(tmp_path)}})
        client.execute()
    printed = json.loads(notebook.cells[-1].outputs[0]["text"])
    assert printed == {"run": 50.0, "folder": 50.0, "model": f"openai-compatible:{server.url}#m",
                       "tasks": {"object_counting": 50.0, "object_rel_distance": 50.0}}
    assert (tmp_path / "run" / "scores.json").is_file()
