"""``generate remindview`` end to end: run on a loopback server, score, breakdown; seeds, presets, subsets."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pandas as pd
from remindview_cli import generate
from typer.testing import CliRunner

from spatialbench.benchmarks.remindview import load_remindview
from spatialbench.cli.main import app
from support.openai_server import OpenAIServer, ServerScript

TABLE1 = ("V–V", "V–O", "O–O", "Dir.", "Dis.", "SP", "PC", "CF", "NCF")


def _rows(folder: Path) -> pd.DataFrame:
    tables = [pd.read_csv(t, dtype=str, keep_default_na=False) for t in sorted(folder.glob("*_qa.csv"))]
    return pd.concat(tables, ignore_index=True)


def _digest(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_run_against_a_loopback_server_then_score_by_every_table1_dimension(three_scenes, tmp_path):
    script = ServerScript(answer=lambda text: "(1) a\n(2) b\n(3) c\n(4) A. first")
    run_dir = tmp_path / "run"
    with OpenAIServer(script) as server:
        model = f"openai-compatible:{server.url}#test-vlm"
        args = ["run", "--benchmark", "remindview", "--data", str(three_scenes), "--model", model]
        result = CliRunner().invoke(app, [*args, "--out", str(run_dir), "--no-progress"])
    assert result.exit_code == 0, result.output
    rows = _rows(three_scenes)
    assert len(script.answered()) == len(rows)
    frames = sorted(len(list((three_scenes / f).glob("frame*.png"))) for f in rows["folder_path"])
    assert sorted(r.n_images for r in script.answered()) == frames  # every frame of each set was sent
    # always answering A scores the share of questions whose answer is lettered A
    share_a = 100.0 * (rows["answer_index"] == "0").mean()
    predictions = tmp_path / "predictions.jsonl"
    stems = [(t.stem, len(pd.read_csv(t))) for t in sorted(three_scenes.glob("*_qa.csv"))]
    lines = [
        json.dumps({"id": f"{stem}:{i}", "response": "(4) A. first"}) for stem, n in stems for i in range(n)
    ]
    predictions.write_text("\n".join(lines) + "\n")
    score = CliRunner().invoke(
        app, ["score", "-b", "remindview", "-a", str(three_scenes), "-p", str(predictions)]
    )
    assert score.exit_code == 0, score.output
    assert f"| all | {share_a:.1f} |" in score.output
    breakdown = CliRunner().invoke(
        app, ["breakdown", "-b", "remindview", "-a", str(three_scenes), "-p", str(predictions)]
    )
    assert breakdown.exit_code == 0, breakdown.output
    object_centric = breakdown.output.split("Object-centric (Table 1)")[1].split("\n\n")[1]
    assert all(f" {label} |" in object_centric.splitlines()[0] for label in TABLE1)
    assert "accuracy by distance level" in breakdown.output


def test_same_seed_gives_byte_identical_output(tmp_path):
    extra = ("--scenes", "1", "--levels", "5", "--max-targets", "2")
    generate(tmp_path / "a", *extra)
    generate(tmp_path / "b", *extra)
    first, second = _digest(tmp_path / "a"), _digest(tmp_path / "b")
    assert first == second and any(name.endswith(".png") for name in first)
    generate(tmp_path / "c", *extra, "--seed", "1")
    assert _digest(tmp_path / "c") != first


def test_per_template_keeps_at_most_n_of_each(three_scenes, tmp_path):
    generate(tmp_path / "small", "--per-template", "3")
    rows = _rows(tmp_path / "small")
    counts = rows["template"].astype(int).value_counts()
    full = _rows(three_scenes)["template"].astype(int).value_counts()
    assert counts.max() == 3
    assert all(counts[t] == min(3, full[t]) for t in full.index)
    # the frame sets the subset left without a question are removed (issue 27)
    written = {
        p.parent.relative_to(tmp_path / "small").as_posix()
        for p in (tmp_path / "small").rglob("frame_set.json")
    }
    assert written == set(rows["folder_path"])


def test_official_code_preset_uses_the_released_values(tmp_path):
    generate(tmp_path / "code", "--preset", "official-code", "--scenes", "1", "--levels", "10")
    manifest = json.loads((tmp_path / "code" / "manifest.json").read_text())
    assert manifest["settings"]["preset"] == "official-code"
    assert manifest["settings"]["visible_ratio"] == 0.1
    assert manifest["settings"]["rig"]["level_offset"] == 1.2
    frame_sets = [json.loads(p.read_text()) for p in (tmp_path / "code").rglob("frame_set.json")]
    assert frame_sets and all(f["elevation_deg"] == 15.0 for f in frame_sets)


def test_every_sample_has_a_view_graph_matching_its_visibility(three_scenes):
    for folder in sorted({r for r in _rows(three_scenes)["folder_path"]}):
        frame_set = json.loads((three_scenes / folder / "frame_set.json").read_text())
        graph = json.loads((three_scenes / folder / "view_graph.json").read_text())
        assert len(graph["nodes"]["frames"]) == len(frame_set["cam_to_world"])
        names = {o["instance_id"] for o in frame_set["objects"]}
        expected = {
            (f"frame{f}", int(i))
            for f, ratios in enumerate(frame_set["visibility"])
            for i, r in ratios.items()
            if r > frame_set["threshold"] and int(i) in names
        }
        assert {(e["frame"], e["object"]) for e in graph["edges"]["visible"]} == expected
        n = len(frame_set["cam_to_world"])
        assert len(graph["edges"]["frame_relations"]) == n * (n - 1)


def test_manifest_has_the_statistics_table_of_app_a3(three_scenes):
    manifest = json.loads((three_scenes / "manifest.json").read_text())
    rows = _rows(three_scenes)
    table4 = {r["statistic"]: r for r in manifest["statistics"]["table4"]}
    cross = int((rows["cross_frame"] == "True").sum())
    assert table4["Cross-frame VQA number"]["count"] == cross
    assert table4["Cross-frame VQA number"]["paper_percent"] == 81.3
    choices = rows["choices"].str.count(", ") + 1
    assert [table4[f"{k} choices"]["count"] for k in (2, 3, 4)] == [
        int((choices == k).sum()) for k in (2, 3, 4)
    ]
    assert sum(r["count"] for r in manifest["statistics"]["table5"]) == len(rows)
    assert "| Cross-frame VQA number |" in (three_scenes / "statistics.md").read_text()


def test_a_rerun_with_one_rig_leaves_no_stale_table_or_frame_set(tmp_path):
    out = tmp_path / "set"
    generate(out, "--scenes", "1", "--levels", "5", "--max-targets", "2")
    assert (out / "view_centric_qa.csv").exists()
    (out / "notes.txt").write_text("mine")
    generate(out, "--scenes", "1", "--levels", "0", "--max-targets", "1", "--rig", "object-centric")
    assert not (out / "view_centric_qa.csv").exists() and not (out / "view_centric_outputs").exists()
    assert not list(out.rglob("level_5")) and (out / "notes.txt").read_text() == "mine"
    assert len(load_remindview(out)) == len(_rows(out))


def test_bad_levels_and_rig_are_one_line_errors(tmp_path):
    for extra in (["--levels", "3,11"], ["--levels", "a"], ["--rig", "orbit"], ["--preset", "codex"]):
        result = CliRunner().invoke(app, ["generate", "remindview", "--out", str(tmp_path / "x"), *extra])
        assert result.exit_code == 2 and "error:" in result.output, (extra, result.output)
