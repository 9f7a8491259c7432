"""The library's entry points: ``spatialbench.run``, ``arun``, ``prepare``, ``open_run``, ``score``...

The scripted loopback server answers q0 and q1 right and q2, q3 with "?" (no answer): counting (q0, q2) is
(1 + 0) / 2 = 50.0 MRA, relative distance (q1, q3) 1 of 2 = 50.0, so VSI-Bench's Avg. is 50.0.
"""

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

import spatialbench
from spatialbench.analysis.registry import Analysis, AnalysisDocument, NoParams
from spatialbench.registry import Registry, UnknownNameError
from spatialbench.runs import RunConfig
from spatialbench.runs.checks import ConfigValueError, RunSetupError
from spatialbench.runs.config_file import RunConfigError
from support.openai_server import OpenAIServer, ServerScript
from support.vsi_data import make_vsibench, question_tag

RIGHT = ("q0", "q1")


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("vsi")
    return root, make_vsibench(root, n_videos=1, per_video=4)


@pytest.fixture(scope="module")
def server(data):  # type: ignore[no-untyped-def]
    _, answers = data

    def answer(text: str) -> str:
        tag = question_tag(text)
        return answers[tag] if tag in RIGHT else "?"

    with OpenAIServer(ServerScript(answer=answer)) as running:
        yield running


def _config(root: Path, url: str, out: Path) -> dict:
    return {"data": {"benchmark": "vsibench", "path": str(root)}, "out": str(out),
            "model": {"name": f"openai-compatible:{url}#m", "concurrency": 2},
            "media": {"frames": "uniform:2"}}


def test_import_spatialbench_imports_nothing_else() -> None:
    heavy = "('spatialbench', 'numpy', 'pydantic')"
    code = f"import sys, spatialbench; print(sorted(m for m in sys.modules if m.startswith({heavy})))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['spatialbench']"


def test_run_a_mapping_then_open_and_score_the_folder(data, server, tmp_path) -> None:
    root, _ = data
    out = tmp_path / "run"
    summary = spatialbench.run(_config(root, server.url, out), progress=False)
    assert summary.counts == {"ok": 4, "empty": 0, "failed": 0}
    assert summary.score.table.average == 50.0
    assert summary.score.table.task_scores == {"object_counting": 50.0, "object_rel_distance": 50.0}
    folder = spatialbench.open_run(out)
    assert folder.model == f"openai-compatible:{server.url}#m"
    assert spatialbench.score(out).table.average == 50.0
    assert spatialbench.score(folder, exclude=["1"]).table.task_scores["object_rel_distance"] in (0.0, 100.0)
    assert json.loads((out / "scores.json").read_text())


def test_arun_is_awaited(data, server, tmp_path) -> None:
    root, _ = data
    summary = asyncio.run(spatialbench.arun(_config(root, server.url, tmp_path / "a"), progress=False))
    assert summary.score.table.average == 50.0


def test_run_works_inside_a_running_event_loop(data, server, tmp_path) -> None:
    root, _ = data

    async def notebook_cell():  # type: ignore[no-untyped-def]
        asyncio.get_running_loop()  # a loop is running here, as in Jupyter
        return spatialbench.run(_config(root, server.url, tmp_path / "in-loop"), progress=False)

    assert asyncio.run(notebook_cell()).score.table.average == 50.0


def test_a_run_file_with_overrides(data, server, tmp_path) -> None:
    root, _ = data
    file = tmp_path / "run.json.yaml"
    file.write_text(json.dumps(_config(root, server.url, tmp_path / "from-file")))  # JSON is YAML
    summary = spatialbench.run(file, progress=False, out=tmp_path / "other", data={"limit": 2})
    assert summary.selected == 2 and (tmp_path / "other" / "scores.json").is_file()
    assert not (tmp_path / "from-file").exists()
    recorded = spatialbench.open_run(tmp_path / "other").raw_config
    assert recorded["data"]["limit"] == 2 and recorded["data"]["benchmark"] == "vsibench"


def test_a_run_config_and_a_baseline(data, tmp_path) -> None:
    root, _ = data
    config = RunConfig.model_validate({"data": {"benchmark": "vsibench", "path": str(root)},
                                       "model": {"name": "chance-frequency"}, "out": str(tmp_path / "c")})
    summary = spatialbench.run(config, progress=False)
    assert summary.counts["ok"] + summary.counts.get("not_applicable", 0) == 4
    assert spatialbench.score(tmp_path / "c").table.average == summary.score.table.average


def test_an_unknown_override_is_named(data, tmp_path) -> None:
    root, _ = data
    config = _config(root, "http://127.0.0.1:9/v1", tmp_path / "x")
    hint = r"unknown override 'limit'.*did you mean data=\{'limit': \.\.\.\}"
    with pytest.raises(RunConfigError, match=hint) as err:
        spatialbench.run(config, limit=5)
    assert err.value.location == "limit"
    with pytest.raises(RunConfigError, match="override model: a section is a mapping"):
        spatialbench.run(config, model="chance-random")
    with pytest.raises(RunConfigError, match=r"Invalid value for data\.limit: Input should be a valid int"):
        spatialbench.run(config, data={"limit": "five"})
    assert not (tmp_path / "x").exists()


def test_a_run_file_value_is_named_with_the_file(data, tmp_path) -> None:
    root, _ = data
    file = tmp_path / "bad.yaml"
    file.write_text(f"out: o\ndata: {{benchmark: vsibench, path: {root}, limit: -1}}\n"
                    "model: {name: chance-random}\n")
    with pytest.raises(RunConfigError, match=rf"^{file}: Invalid value for data\.limit: ") as err:
        spatialbench.prepare(file)
    assert err.value.location == f"{file}:data.limit"


def test_prepare_checks_everything_once_before_writing(data, tmp_path) -> None:
    root, _ = data
    base = _config(root, "http://127.0.0.1:9/v1", tmp_path / "p")
    prepared = spatialbench.prepare(base)
    assert len(prepared.selected) == 4 and prepared.baseline is None
    assert prepared.config.media.frames == "uniform:2"
    with pytest.raises(ConfigValueError, match="unknown benchmark option 'nope'") as err:
        spatialbench.prepare(base, data={"options": {"nope": 1}})
    assert err.value.location == "data.options"
    with pytest.raises(UnknownNameError, match="chance-randon"):
        spatialbench.prepare(base, model={"name": "chance-randon"})
    (tmp_path / "empty.jsonl").write_text("")
    with pytest.raises(RunSetupError, match="no items"):
        spatialbench.prepare(base, data={"path": str(tmp_path / "empty.jsonl")})
    assert not (tmp_path / "p").exists()


class _Count(Analysis):
    name = "count"
    description = "answers counted"
    Params = NoParams

    def compute(self, run, params):  # type: ignore[no-untyped-def]
        return AnalysisDocument(analysis="count", version=1, answered=len(run.answers()))


def test_analyze_writes_the_document(data, tmp_path, monkeypatch) -> None:
    root, _ = data
    config = {"data": {"benchmark": "vsibench", "path": str(root)}, "model": {"name": "chance-random"},
              "out": str(tmp_path / "r")}
    spatialbench.run(config, progress=False)
    registry: Registry[Analysis] = Registry("analysis")
    registry.add("count", _Count())
    monkeypatch.setattr("spatialbench.api.analyses.ANALYSES", registry)
    doc = spatialbench.analyze("count", tmp_path / "r")
    assert doc.model_dump()["answered"] == 4
    assert json.loads((tmp_path / "r" / "analysis" / "count.json").read_text())["answered"] == 4


def test_generate_is_the_entry_point_and_the_package(tmp_path) -> None:
    import spatialbench.generate.vsi  # the package of the same name, imported

    assert callable(spatialbench.generate)
    assert spatialbench.generate.vsi.builtin_tasks()[0] == "object_counting"
    with pytest.raises(UnknownNameError, match="unknown generator 'vsibnch'; did you mean 'vsibench'"):
        spatialbench.generate("vsibnch", tmp_path)
