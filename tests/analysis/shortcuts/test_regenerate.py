"""``generate vsibench --debias`` (issue 23 item 4): re-draw the questions a text-only forest answers.

On the demo's first two procedural scenes (the rooms ``spatialbench demo --scenes 2`` plans, every object
listed, nothing rendered): the re-drawn folder keeps every task's count, ids and scenes; its ``debias.json``
figures are what an independent stress-test of the written files gives; TsT accuracy never rises; the
same seed writes the same bytes, from the command and from the library; bad values are one line, exit 2.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.analysis.shortcuts import stress_test
from spatialbench.benchmarks import get_benchmark
from spatialbench.cli.main import app
from spatialbench.records import AnswerKind, Item
from spatialbench.synth import generate_scene
from spatialbench.synth.pipeline import scene_configs, scene_ids

THRESHOLD = 0.25
FILES = ["README.md", "debias.json", "manifest.json", "test.jsonl", "test.parquet", "vsibench_files.txt"]


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The meta-info of the demo's two scenes, its plain and its re-drawn benchmark (seed 0)."""
    root = tmp_path_factory.mktemp("regenerate")
    plan = zip(scene_configs(2, 0), scene_ids(2, 0), strict=True)
    meta = {sid: generate_scene(config, seed, scene_id=sid).meta_info(f"synthetic/{sid}.mp4")
            for (config, seed), sid in plan}
    (root / "meta.json").write_text(json.dumps(meta))
    for name, extra in (("plain", []), ("debiased", ["--debias"])):
        result = _generate(root / "meta.json", root / name, *extra)
        assert result.exit_code == 0, result.output
        (root / f"{name}.out").write_text(result.stdout)
    return {"meta": root / "meta.json", "plain": root / "plain", "debiased": root / "debiased",
            "printed": root / "debiased.out"}


def _generate(meta: Path, out: Path, *extra: str):  # noqa: ANN202 (typer's own click Result)
    args = ["generate", "vsibench", "--meta-info", str(meta), "--out", str(out), *extra]
    return CliRunner().invoke(app, args)


def _items(folder: Path) -> list[Item]:
    return list(get_benchmark("vsibench").load_items(folder / "test.jsonl"))


def test_counts_ids_and_scenes_are_kept_and_questions_are_new(folders: dict[str, Path]) -> None:
    plain, debiased = _items(folders["plain"]), _items(folders["debiased"])
    assert len(plain) == len(debiased) == 88
    where = {it.id: (it.task, it.scene_id) for it in plain}
    assert {it.id: (it.task, it.scene_id) for it in debiased} == where  # per task and scene, same ids
    report = json.loads((folders["debiased"] / "debias.json").read_text())
    changed = Counter(b.task for a, b in zip(plain, debiased, strict=True) if a.question != b.question)
    assert sum(changed.values()) > 0
    # every kept replacement is a new question: at most as many items differ as were replaced
    merged = Counter[str]()  # per TsT type: the three relative-direction levels are one
    for name, n in changed.items():
        merged[re.sub(r"_(easy|medium|hard)$", "", name)] += n
    for name, entry in report["tasks"].items():
        assert 0 < merged[name] <= entry["replaced"] or merged[name] == entry["replaced"] == 0, name
    asked = Counter((it.task, it.scene_id, it.question, tuple(sorted(it.options))) for it in debiased)
    assert max(asked.values()) == 1  # no question asked twice
    manifest = json.loads((folders["debiased"] / "manifest.json").read_text())
    plain_manifest = json.loads((folders["plain"] / "manifest.json").read_text())
    assert {t: e["count"] for t, e in manifest["tasks"].items()} == {
        t: e["count"] for t, e in plain_manifest["tasks"].items()}
    assert manifest["debias"] == {"folds": "random", "generator_seed": 0, "report": "debias.json",
                                  "rounds": 5, "seed": 42, "threshold": THRESHOLD, "numbers": "above_chance"}


def test_the_report_is_an_independent_stress_test_and_never_rises(folders: dict[str, Path]) -> None:
    report = json.loads((folders["debiased"] / "debias.json").read_text())
    before = stress_test(_items(folders["plain"]), "random", seed=42)
    debiased = _items(folders["debiased"])
    after = stress_test(debiased, "random", seed=42)
    assert report["settings"] == {"folds": "random", "generator_seed": 0, "rounds": 5, "seed": 42,
                                  "threshold": THRESHOLD, "numbers": "above_chance"}
    assert set(report["tasks"]) == set(before.tasks) == set(after.tasks)
    assert report["skipped"] == {"room_size_estimation": "2 items in 2 rows < k=5"}
    options = {it.id: len(it.options) for it in debiased if it.answer_kind is AnswerKind.MULTIPLE_CHOICE}
    task = {it.id: it.task for it in debiased}
    for name, entry in report["tasks"].items():
        assert entry["before"] == before.tasks[name].score and entry["after"] == after.tasks[name].score
        assert entry["chance"] == before.tasks[name].chance and entry["n"] == before.tasks[name].n
        assert entry["after"] <= entry["before"], name
        # bias above chance: multiple choice s - 1/options, numbers s - the MRA of the fold's mean answer
        chance = {i: 1 / options[i] if i in options else after.chances[i] for i in after.items}
        left = [i for i, s in after.items.items() if task[i].startswith(name) and s - chance[i] > THRESHOLD]
        assert entry["flagged_after"] == len(left), name
        assert (entry["left_because"] is None) == (not left), name
        assert entry["left_because"] in (None, *report["reasons"]), name
    direction = report["tasks"]["object_rel_direction"]
    assert direction["after"] < direction["before"]
    # counting and object size ask every question a scene allows: nothing to re-draw them with
    for name in ("object_counting", "object_size_estimation"):
        entry = report["tasks"][name]
        left = "no_spares" if entry["flagged_after"] else None  # none flagged: nothing needed re-drawing
        assert (entry["replaced"], entry["after"], entry["left_because"]) == (0, entry["before"], left)
    assert report["tasks"]["object_size_estimation"]["flagged_after"] > 0  # above chance, no spares


def test_one_line_per_type_before_and_after_and_the_honest_note(folders: dict[str, Path]) -> None:
    report = json.loads((folders["debiased"] / "debias.json").read_text())
    printed = folders["printed"].read_text().splitlines()
    for name, entry in report["tasks"].items():
        [line] = [p for p in printed if p.startswith(f"{name} ") and " TsT " in p]
        before, after = f"{entry['before']:5.1f}", f"{entry['after']:5.1f}"
        assert f"TsT {before} -> {after} (chance, item mean {entry['chance']:.1f}" in line
    assert "room_size_estimation         not stress-tested (2 items in 2 rows < k=5), not re-drawn" in printed
    [note] = [p for p in printed if p.startswith("note (random folds, seed 42): ")]
    assert "below chance means fitted to this forest, not free of shortcuts" in note


def test_same_seed_same_bytes_from_the_command_and_the_library(
    folders: dict[str, Path], tmp_path: Path
) -> None:
    import spatialbench

    spatialbench.generate("vsibench", tmp_path / "api", meta_info=folders["meta"], debias=True)
    for name in FILES[:-1]:  # the library keeps no file journal
        assert (tmp_path / "api" / name).read_bytes() == (folders["debiased"] / name).read_bytes(), name
    assert sorted(p.name for p in folders["debiased"].iterdir()) == FILES
    journal = (folders["debiased"] / "vsibench_files.txt").read_text().splitlines()
    assert journal[1:] == [n for n in FILES if n != "vsibench_files.txt"]


def test_a_plain_rerun_removes_the_earlier_report(folders: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "again"
    out.mkdir()
    for name in FILES:
        (out / name).write_bytes((folders["debiased"] / name).read_bytes())
    assert _generate(folders["meta"], out, "--tasks", "object_counting").exit_code == 0
    assert not (out / "debias.json").exists()
    assert "debias.json" not in (out / "vsibench_files.txt").read_text().splitlines()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--debias", "--debias-threshold", "1.5"], "debias threshold 1.5: use a bias score in [0, 1)"),
        (["--debias", "--debias-threshold", "-0.1"], "debias threshold -0.1: use a bias score in [0, 1)"),
        (["--debias", "--debias-threshold", "nan"], "debias threshold nan: use a bias score in [0, 1)"),
        (["--debias", "--debias-rounds", "0"], "debias rounds 0: use a whole number of at least 1"),
        (["--debias-rounds", "3"], "--debias-rounds without --debias: add --debias or leave them out"),
        (["--debias", "--debias-numbers", "log"], "debias numbers 'log': use one of above_chance, mra"),
        (["--debias-numbers", "mra"], "--debias-numbers without --debias: add --debias or leave them out"),
    ],
)
def test_a_bad_value_is_one_line_exit_2_and_nothing_made(
    folders: dict[str, Path], tmp_path: Path, extra: list[str], message: str
) -> None:
    result = _generate(folders["meta"], tmp_path / "out", *extra)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1 and lines[0].endswith(message), result.output
    assert not (tmp_path / "out").exists()


def test_the_library_refuses_the_same_values() -> None:
    from spatialbench.analysis.shortcuts.regenerate import DebiasSettings, DebiasSettingsError

    for bad in ({"threshold": math.inf}, {"rounds": 2.5}, {"rounds": True}):
        with pytest.raises(DebiasSettingsError):
            DebiasSettings(**bad)  # type: ignore[arg-type]


def test_a_task_without_questions_is_carried_through() -> None:
    # the docs' one-scene demo sees one object of each category: no counting question, a task the
    # re-draw rounds once looked up among the tested ones (KeyError)
    from spatialbench.analysis.shortcuts.regenerate import regenerate_biased
    from spatialbench.generate.vsi import GenerationSettings, builtin_tasks, generate_vsibench
    from spatialbench.scene import scene_from_meta

    [((config, seed), sid)] = zip(scene_configs(1, 0), scene_ids(1, 0), strict=True)
    room = generate_scene(config, seed, scene_id=sid)
    first = {obj.category: obj.instance_id for obj in reversed(room.objects)}  # one of each category
    scene = scene_from_meta(sid, room.meta_info(f"synthetic/{sid}.mp4", visible=set(first.values())))
    plain = generate_vsibench([scene], builtin_tasks(), GenerationSettings())
    regen = regenerate_biased([scene], builtin_tasks(), GenerationSettings())
    assert plain.manifest["tasks"]["object_counting"]["count"] == 0
    assert {t: e["count"] for t, e in regen.bench.manifest["tasks"].items()} == {
        t: e["count"] for t, e in plain.manifest["tasks"].items()}
    assert [(it.id, it.task) for it in regen.bench.items] == [(it.id, it.task) for it in plain.items]
