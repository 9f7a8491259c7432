"""An imported run says only what its source recorded (issue 22 item 5, newcomer round).

Found by a newcomer: the settings line of an lmms-eval import read "frames uniform:32 · strategy direct"
(defaults nobody chose; lmms-eval's log records neither), its extraction footnote said "robust" as if
spatialbench had read the model's replies (it read lmms-eval's ``filtered_resps``), ``run --config`` of it
failed unclearly, ``compare`` printed its 66 ids inline, and ``export`` hinted ``inspect view --log-dir``
for a file that viewer does not list, or printed a raw Errno.
"""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.runs.folder import open_run
from spatialbench.runs.transcript import settings_line
from support.shared_data import require_file

LMMS = "lmms_eval/lmms_eval_0.7.3_samples_vsibench.jsonl"
LMMS_DATA = "lmms_eval/demo_seed3_annotations.jsonl"
VLM = "vlmevalkit/noisy_loopback_VSI-Bench_32frame.xlsx"
VLM_DATA = "vlmevalkit/demo_seed5_annotations.jsonl"


def _invoke(*args: object, code: int = 0) -> str:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result.output


@pytest.fixture
def imported(shared_data: Path, tmp_path: Path) -> dict[str, Path]:
    """The lmms-eval 0.7.3 log and the VLMEvalKit prediction file, imported."""
    for name, log, data in (("lmms", LMMS, LMMS_DATA), ("vlm", VLM, VLM_DATA)):
        _invoke("import", require_file(shared_data / log), "-b", "vsibench", "-a",
                require_file(shared_data / data), "--out", tmp_path / name)
    return {"lmms": tmp_path / "lmms", "vlm": tmp_path / "vlm"}


def test_the_settings_line_holds_only_what_the_source_recorded(imported: dict[str, Path]) -> None:
    assert settings_line(open_run(imported["lmms"])) == (
        "lmms-eval:lmms_eval_0.7.3_samples_vsibench · imported from lmms-eval 0.7.3 · frames not recorded · "
        "strategy not recorded · extraction robust, by spatialbench on lmms-eval's filtered_resps "
        "(the output of its filters)")
    # VLMEvalKit names the dataset it ran by its frames; its version is in no file it wrote (README)
    assert settings_line(open_run(imported["vlm"])) == (
        "vlmevalkit:noisy_loopback_VSI-Bench_32frame · imported from vlmevalkit (version not recorded) · "
        "frames 32 (VLMEvalKit dataset VSI-Bench_32frame) · strategy not recorded · extraction robust, by "
        "spatialbench on VLMEvalKit's prediction column (the raw reply)")


def test_the_extraction_footnote_names_the_text_read(imported: dict[str, Path]) -> None:
    scores = json.loads((imported["lmms"] / "scores.json").read_text())
    assert scores["modes"]["extract"] == ("robust, by spatialbench on lmms-eval's filtered_resps "
                                          "(the output of its filters)")
    assert (imported["lmms"] / "scores.md").read_text().startswith(
        "**vsibench** · extraction: robust, by spatialbench on lmms-eval's filtered_resps")


def test_run_config_of_an_imported_run_is_one_line(imported: dict[str, Path]) -> None:
    out = _invoke("run", "--config", imported["lmms"] / "config.json", "--no-progress", code=2)
    assert out.strip().splitlines() == [
        f"Error: Invalid value for --config {imported['lmms'] / 'config.json'}: imported from lmms-eval "
        "0.7.3; it cannot be re-run (its answers came from that tool's file)"]


def test_compare_counts_the_ids_of_an_imported_run(imported: dict[str, Path], tmp_path: Path) -> None:
    out = _invoke("compare", imported["lmms"], imported["vlm"], "--against", imported["lmms"],
                  "--out", tmp_path / "cmp")
    note = next(line for line in out.splitlines() if line.startswith("* vlm − lmms"))
    assert "data.ids (61 entries: 0, 1, 2, 3, 4, … vs 66 entries: 0, 1, 2, 3, 4, …)" in note, note
    assert "full lists in each run's config.json" in note and '"65"' not in note


def test_export_hints_by_the_name_written_and_words_an_unwritable_out(imported: dict[str, Path],
                                                                      tmp_path: Path) -> None:
    out = _invoke("export", imported["lmms"], "--out", tmp_path / "mine.json")
    assert "not named as Inspect names its logs, so `inspect view --log-dir` does not list it" in out, out
    out = _invoke("export", imported["lmms"], "--out", "/proc/x", code=2)
    assert out.strip() == "error: --out /proc/x: cannot write the log there (No such file or directory)"
