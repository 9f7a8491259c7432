"""Back-end options of a run (``--model-option KEY=VALUE``, ``model.options``): checked, recorded, traces on.

The tiny random Qwen2.5-VL of the HF tests answers two ReMindView items with ``trace=true``; the traces land
in ``RUN/traces`` and ``spatialbench entropy RUN`` reads them.
"""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.models.errors import BackendError
from spatialbench.models.resolve import check_backend_options
from spatialbench.runs.config import RunConfig
from support.vsi_data import make_vsibench


def test_options_are_typed_by_the_constructor() -> None:
    checked = check_backend_options("hf:x", {"trace_layers": "-1,-2", "trace_top_k": 5, "device": "cpu"})
    assert checked == {"trace_layers": (-1, -2), "trace_top_k": 5, "device": "cpu"}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"trace_topk": 3}, "model option 'trace_topk': not an option of the hf back end (did you mean "
                            "trace_top_k"),
        ({"trace_top_k": "5"}, "model option 'trace_top_k': expected int, got '5'"),
        ({"trace_top_k": True}, "model option 'trace_top_k': expected int, got True"),
    ],
)
def test_bad_options_name_the_key(options: dict, message: str) -> None:
    with pytest.raises(BackendError, match=None) as caught:
        check_backend_options("hf:x", options)
    assert str(caught.value).startswith(message)


def test_trace_switch_is_a_folder_in_the_run(tmp_path: Path) -> None:
    base = {"data": {"benchmark": "vsibench", "path": "."}, "out": str(tmp_path / "run")}
    on = RunConfig.model_validate({**base, "model": {"name": "hf:x", "options": {"trace": True}}})
    assert on.backend_options() == {"trace_dir": str(tmp_path / "run" / "traces")}
    off = RunConfig.model_validate({**base, "model": {"name": "hf:x", "options": {"trace": False}}})
    assert off.backend_options() == {}
    rel = RunConfig.model_validate({**base, "model": {"name": "hf:x", "options": {"trace_dir": "t"}}})
    assert rel.backend_options() == {"trace_dir": str(tmp_path / "run" / "t")}


def test_unknown_option_is_one_line_and_no_folder(tmp_path: Path) -> None:
    data = tmp_path / "data"
    make_vsibench(data, n_videos=1, per_video=2)
    out = tmp_path / "run"
    args = ["run", "--benchmark", "vsibench", "--data", str(data), "--model", f"hf:{tmp_path}",
            "--out", str(out), "--model-option", "trace_topk=3"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "--model-option: model option 'trace_topk': not an option of the hf back end" in result.output
    assert not out.exists()


def test_run_file_option_error_names_the_file(tmp_path: Path) -> None:
    data = tmp_path / "data"
    make_vsibench(data, n_videos=1, per_video=2)
    file = tmp_path / "run.yaml"
    file.write_text(f"out: run\ndata: {{benchmark: vsibench, path: {data}}}\n"
                    f"model: {{name: 'hf:{tmp_path}', options: {{trace_top_k: '5'}}}}\n")
    result = CliRunner().invoke(app, ["run", "--config", str(file)])
    assert result.exit_code == 2, result.output
    assert f"{file}: model.options: model option 'trace_top_k': expected int, got '5'" in result.output


def test_baseline_takes_no_model_options(tmp_path: Path) -> None:
    data = tmp_path / "data"
    make_vsibench(data, n_videos=1, per_video=2)
    args = ["run", "--benchmark", "vsibench", "--data", str(data), "--model", "chance-random",
            "--out", str(tmp_path / "run"), "--model-option", "dtype=float32"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "chance-random is a baseline: it takes no --model-option" in result.output


@pytest.fixture(scope="module")
def traced_cli_run(tmp_path_factory) -> tuple[Path, list[str]]:
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from benchmarks.mmsi_remindview_fixtures import build_remindview
    from support.tiny_vlm import build_qwen2_5_vl

    root = tmp_path_factory.mktemp("model-options")
    model = build_qwen2_5_vl(root / "tiny-qwen")
    data = build_remindview(root / "data")
    args = ["run", "--benchmark", "remindview", "--data", str(data), "--model", f"hf:{model}", "--limit", "2",
            "--max-new-tokens", "8", "--out", str(root / "run"), "--no-progress",
            "-M", "trace=true", "-M", "device=cpu", "-M", "local_files_only=true", "-M", "trace_top_k=50"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code in (0, 1), result.output  # a random model's answers may not parse
    return root / "run", args


def test_trace_true_writes_traces_in_the_run_folder(traced_cli_run: tuple[Path, list[str]]) -> None:
    run_dir, _ = traced_cli_run
    record = json.loads((run_dir / "config.json").read_text())
    assert record["config"]["model"]["options"] == {
        "trace": True, "device": "cpu", "local_files_only": True, "trace_top_k": 50}
    assert record["backend"]["trace_dir"] == str(run_dir / "traces")
    assert record["backend"]["trace_top_k"] == 50
    assert len(list((run_dir / "traces").glob("*.npz"))) == 2
    result = CliRunner().invoke(app, ["entropy", str(run_dir)])
    assert result.exit_code == 0, result.output
    doc = json.loads((run_dir / "analysis" / "entropy.json").read_text())
    assert doc["trace_dir"] == str(run_dir / "traces")


def test_resume_with_other_options_is_refused(traced_cli_run: tuple[Path, list[str]]) -> None:
    run_dir, args = traced_cli_run
    result = CliRunner().invoke(app, [*args, "-M", "dtype=float32"])
    assert result.exit_code == 2, result.output
    assert "model options differ" in result.output and "dtype" in result.output
    assert "float32" in result.output


def test_python_runs_build_the_back_end_with_its_options(tmp_path: Path) -> None:
    # run(config) without a back end object builds it from model.options, as the CLI does
    from spatialbench.runs.prepare import prepare

    data = tmp_path / "data"
    make_vsibench(data, n_videos=1, per_video=1)
    config = RunConfig.model_validate({
        "data": {"benchmark": "vsibench", "path": str(data)}, "out": str(tmp_path / "run"),
        "model": {"name": f"hf:{tmp_path}", "options": {"trace": True, "trace_top_k": 7}},
    })
    backend = prepare(config).backend()  # type: ignore[misc]
    assert backend.traces is not None  # type: ignore[attr-defined]
    assert backend.traces.folder == tmp_path / "run" / "traces"  # type: ignore[attr-defined]
    assert backend.traces.top_k == 7  # type: ignore[attr-defined]
