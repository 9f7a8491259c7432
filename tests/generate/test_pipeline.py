import json
from collections import Counter

import numpy as np
import pyarrow.json
import pyarrow.parquet as pq
import pytest

from spatialbench.benchmarks.vsibench import load_vsibench
from spatialbench.generate.vsi import (
    Candidate,
    GenerationSettings,
    TaskResult,
    assemble,
    builtin_tasks,
    generate_vsibench,
    write_benchmark,
)
from spatialbench.generate.vsi.options import LetterBalancer, numeric_options
from spatialbench.scene import load_meta_info

SCANNET = "vsibench/meta_info/scannet_meta_info_val.json"


@pytest.fixture(scope="module")
def scannet(shared_data):
    return list(load_meta_info(shared_data / SCANNET).values())[:20]


def test_same_seed_same_bytes_other_seed_differs(scannet, tmp_path):
    outs = []
    for name, seed in (("a", 5), ("b", 5), ("c", 6)):
        bench = generate_vsibench(scannet, builtin_tasks(), GenerationSettings(seed=seed))
        paths = write_benchmark(bench.items, bench.manifest, tmp_path / name)
        outs.append(
            (paths["jsonl"].read_bytes(), paths["manifest"].read_bytes(), paths["parquet"].read_bytes())
        )
    assert outs[0] == outs[1]
    assert outs[0][0] != outs[2][0]


def test_written_files_follow_the_official_schema(scannet, tmp_path):
    bench = generate_vsibench(scannet, builtin_tasks(), GenerationSettings())
    paths = write_benchmark(bench.items, bench.manifest, tmp_path)
    first = json.loads(paths["jsonl"].read_text().splitlines()[0])
    assert list(first)[:7] == [
        "id",
        "dataset",
        "scene_name",
        "question_type",
        "question",
        "options",
        "ground_truth",
    ]
    loaded = load_vsibench(paths["jsonl"])
    assert not loaded.errors and len(loaded) == len(bench.items)
    assert [i.ground_truth for i in loaded] == [i.ground_truth for i in bench.items]
    # datasets.load_dataset("json") reads JSON Lines with pyarrow's reader: same rows, same columns
    as_json = pyarrow.json.read_json(paths["jsonl"])
    assert (
        as_json.num_rows == len(bench.items)
        and as_json.column_names == pq.read_schema(paths["parquet"]).names
    )
    table = pq.read_table(paths["parquet"])
    assert table.num_rows == len(bench.items)
    assert table.column("ground_truth").to_pylist() == [i.ground_truth for i in bench.items]
    manifest = json.loads(paths["manifest"].read_text())
    assert sum(t["count"] for t in manifest["tasks"].values()) == manifest["total"] == len(bench.items)


def test_manifest_counts_removed_candidates_per_rule(scannet):
    bench = generate_vsibench(scannet, ["object_counting", "object_rel_direction_hard"], GenerationSettings())
    counting = bench.manifest["tasks"]["object_counting"]
    singles = sum(sum(1 for c in s.counts.values() if c == 1) for s in scannet)
    assert counting["removed"]["single_instance"] == singles
    hard = bench.manifest["tasks"]["object_rel_direction_hard"]
    rules = {"not_drawn", "too_close", "too_far", "corner_sector", "angle_boundary", "per_scene_cap"}
    assert set(hard["removed"]) == rules
    assert hard["candidates"] - hard["removed"]["per_scene_cap"] == hard["count"]


def test_letters_are_balanced_within_a_task(scannet):
    bench = generate_vsibench(scannet, ["object_rel_direction_hard"], GenerationSettings(caps={}))
    letters = Counter(i.ground_truth for i in bench.items)
    assert max(letters.values()) - min(letters.values()) <= 1


def test_balancer_places_answers_evenly():
    balancer, rng = LetterBalancer(), np.random.default_rng(0)
    positions = [balancer.order("b", ("a", "b", "c"), rng)[1] for _ in range(9)]
    assert Counter(positions) == {0: 3, 1: 3, 2: 3}


@pytest.mark.parametrize(("truth", "decimals"), [(2.0, 0), (0.1, 1), (3.7, 1), (154.0, 0), (43.0, 1)])
def test_numeric_options_distinct_positive_and_contain_truth(truth, decimals):
    settings = GenerationSettings()
    options = numeric_options(truth, decimals, settings, np.random.default_rng(1))
    assert len(set(options)) == 4 and min(map(float, options)) > 0
    assert options[0] == (f"{truth:.{decimals}f}" if decimals else str(int(truth)))


def test_external_task_goes_through_the_same_assembler():
    # e.g. appearance order built from rendered frames by another module
    cand = Candidate(
        task="obj_appearance_order",
        scene_id="s1",
        dataset="synthetic",
        question="What will be the first-time appearance order of the following categories in the "
        "video: sofa, tv, bed, lamp?",
        answer="tv, sofa, bed, lamp",
        choices=("tv, sofa, bed, lamp", "sofa, tv, bed, lamp", "bed, lamp, tv, sofa", "lamp, bed, sofa, tv"),
    )
    bench = assemble({"obj_appearance_order": [TaskResult([cand])]}, GenerationSettings())
    item = bench.items[0]
    assert item.options[ord(item.ground_truth) - ord("A")] == f"{item.ground_truth}. tv, sofa, bed, lamp"
    assert bench.manifest["tasks"]["obj_appearance_order"]["count"] == 1


def synthetic_room(tmp_path):
    """A 5 x 4 m synthetic room written in the official meta-info schema."""
    from spatialbench.scene import Scene, make_box, rotation_z, write_meta_info
    from spatialbench.scene.model import ObjectInstance

    boxes = {
        "sofa": [([1, 1, 0.4], [2, 0.9, 0.8], 0.0)],
        "tv": [([4.5, 1, 1.0], [1.2, 0.1, 0.7], 0.2)],
        "bed": [([2.5, 3.2, 0.3], [2, 1.6, 0.6], 0.0)],
        "lamp": [([0.4, 3.6, 0.8], [0.3, 0.3, 1.6], 0.0)],
        "chair": [([3, 1.5, 0.45], [0.5, 0.5, 0.9], 0.5), ([3.8, 2.5, 0.45], [0.5, 0.5, 0.9], 1.0)],
    }
    objects = {
        c: tuple(ObjectInstance(c, i, make_box(ctr, ext, rotation_z(a))) for i, (ctr, ext, a) in enumerate(v))
        for c, v in boxes.items()
    }
    scene = Scene(
        "synthetic_0001",
        "synthetic",
        20.0,
        np.array([2.5, 2.0, 1.2]),
        objects,
        {c: len(v) for c, v in objects.items()},
    )
    write_meta_info([scene], tmp_path / "synthetic.json")
    return tmp_path / "synthetic.json"


def test_cli_generates_from_a_synthetic_scene_file(tmp_path):
    from typer.testing import CliRunner

    from spatialbench.cli.main import app

    meta = synthetic_room(tmp_path)
    result = CliRunner().invoke(
        app, ["generate", "vsibench", "--meta-info", str(meta), "--out", str(tmp_path / "out"), "--seed", "3"]
    )
    assert result.exit_code == 0, result.output
    rows = [json.loads(x) for x in (tmp_path / "out" / "test.jsonl").read_text().splitlines()]
    by_task = Counter(r["question_type"] for r in rows)
    assert by_task["object_counting"] == 1 and by_task["room_size_estimation"] == 1
    assert by_task["object_size_estimation"] == 4  # sofa, tv, bed, lamp
    counting = next(r for r in rows if r["question_type"] == "object_counting")
    assert counting["question"] == "How many chair(s) are in this room?" and counting["ground_truth"] == "2"
    size = {
        r["question"].split(" of the ")[-1].split(",")[0]: r["ground_truth"]
        for r in rows
        if r["question_type"] == "object_size_estimation"
    }
    assert size == {"sofa": "200", "tv": "120", "bed": "200", "lamp": "160"}


def test_cli_reports_bad_meta_info(tmp_path):
    from typer.testing import CliRunner

    from spatialbench.cli.main import app

    (tmp_path / "bad.json").write_text('{"r": {"object_bbox": {}}}')
    result = CliRunner().invoke(
        app, ["generate", "vsibench", "--meta-info", str(tmp_path / "bad.json"), "--out", str(tmp_path / "o")]
    )
    assert result.exit_code == 2 and "missing field 'room_size'" in result.output


def test_frequency_baseline_by_hand():
    from spatialbench.records.item import AnswerKind, Item
    from spatialbench.scoring.baselines import chance_frequency

    def frequency_baseline(items):
        return round(chance_frequency(items).table.task_scores[items[0].task], 1)

    def na(i, gt):
        return Item(
            id=str(i),
            benchmark="vsibench",
            task="t",
            question="q",
            ground_truth=gt,
            answer_kind=AnswerKind.NUMERICAL,
        )

    # restricted to ground truths: 2; MRA(2 vs 3) = 0.4 (relative error 1/3 <= 1 - theta for theta
    # 0.50..0.65): (1 + 1 + 0.4) / 3; the continuous optimum 2.1 (= 2 * 1.05, the end of 2's widest
    # interval): 1 + 1 + 0.5 (relative error 0.3 <= 1 - theta for theta 0.50..0.70), / 3
    from spatialbench.scoring.baselines import chance_frequency_restricted

    three = [na(0, "2"), na(1, "2"), na(2, "3")]
    assert round(chance_frequency_restricted(three).table.task_scores["t"], 1) == 80.0
    assert frequency_baseline(three) == 83.3

    def mc(i, options, gt):
        return Item(
            id=str(i),
            benchmark="vsibench",
            task="d",
            question="q",
            options=options,
            ground_truth=gt,
            answer_kind=AnswerKind.MULTIPLE_CHOICE,
        )

    items = [
        mc(0, ("A. left", "B. right"), "A"),
        mc(1, ("A. right", "B. left"), "B"),
        mc(2, ("A. right", "B. left"), "A"),
    ]
    # letter A is correct twice: always answering "A" scores 2 of 3
    assert frequency_baseline(items) == 66.7


def test_category_distance_is_minimum_over_instances_and_sampling_overestimates(tmp_path):
    from spatialbench.generate.vsi.distances import category_distances
    from spatialbench.scene import load_meta_info

    scene = load_meta_info(synthetic_room(tmp_path))["synthetic_0001"]
    exact = category_distances(scene, [("sofa", "chair"), ("bed", "sofa")], GenerationSettings(), "exact")
    # hand computation: sofa spans x 0..2, y 0.55..1.45; the nearer chair (centre (3, 1.5), 0.5 m square
    # turned 0.5 rad) has its leftmost corner at (3 - h(cos + sin), 1.5 + h(cos - sin)), h = 0.25, which
    # lies above the sofa's top edge, so the closest points are that corner and the sofa's corner (2, 1.45)
    c, s = np.cos(0.5), np.sin(0.5)
    corner = np.array([3 - 0.25 * (c + s), 1.5 + 0.25 * (c - s)])
    assert exact[("sofa", "chair")] == pytest.approx(np.linalg.norm(corner - [2.0, 1.45]))
    assert exact[("bed", "sofa")] == pytest.approx(2.4 - 1.45)
    sampled = category_distances(scene, [("sofa", "chair")], GenerationSettings(distance_method="sampled"))
    assert exact[("sofa", "chair")] <= sampled[("sofa", "chair")] <= exact[("sofa", "chair")] + 0.15


def test_rewrite_interrupted_midway_leaves_the_previous_benchmark_whole(tmp_path, monkeypatch):
    from spatialbench.generate.vsi import writers

    scenes = list(load_meta_info(synthetic_room(tmp_path)).values())
    old = generate_vsibench(scenes, builtin_tasks(), GenerationSettings(seed=1))
    paths = write_benchmark(old.items, old.manifest, tmp_path / "out")
    before = {name: p.read_bytes() for name, p in paths.items()}
    new = generate_vsibench(scenes, ["object_counting"], GenerationSettings(seed=2))

    def interrupted(items, path):
        raise KeyboardInterrupt

    monkeypatch.setattr(writers, "write_parquet", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_benchmark(new.items, new.manifest, tmp_path / "out")
    assert {name: p.read_bytes() for name, p in paths.items()} == before  # no new jsonl beside old parquet
    assert sorted(p.name for p in paths["jsonl"].parent.iterdir()) == sorted(p.name for p in paths.values())
    monkeypatch.undo()
    write_benchmark(new.items, new.manifest, tmp_path / "out")
    assert len(load_vsibench(paths["jsonl"])) == len(new.items) == 1
    assert json.loads(paths["manifest"].read_text())["total"] == 1


def test_rewritten_files_keep_the_usual_permissions(tmp_path):
    bench = generate_vsibench([], builtin_tasks(), GenerationSettings())
    (tmp_path / "probe").write_text("")
    expected = (tmp_path / "probe").stat().st_mode
    paths = write_benchmark(bench.items, bench.manifest, tmp_path / "out")
    assert {p.stat().st_mode for p in paths.values()} == {expected}


def test_a_task_named_twice_is_generated_once(tmp_path):
    from typer.testing import CliRunner

    from spatialbench.cli.main import app

    meta = synthetic_room(tmp_path)
    args = ["generate", "vsibench", "--meta-info", str(meta), "--tasks", "object_size_estimation"]
    result = CliRunner().invoke(
        app, [*args, "--tasks", "object_size_estimation", "--out", str(tmp_path / "o")]
    )
    assert result.exit_code == 0, result.output
    rows = [json.loads(x) for x in (tmp_path / "o" / "test.jsonl").read_text().splitlines()]
    assert len(rows) == 4 and len({r["question"] for r in rows}) == 4  # sofa, tv, bed, lamp once each
    scenes = list(load_meta_info(meta).values())
    twice = generate_vsibench(scenes, ["object_counting", "object_counting"], GenerationSettings())
    assert len(twice.items) == 1 and twice.manifest["tasks"]["object_counting"]["count"] == 1


def test_cli_rules_paper_records_the_papers_settings(tmp_path):
    from typer.testing import CliRunner

    from spatialbench.cli.main import app

    meta = synthetic_room(tmp_path)
    base = ["generate", "vsibench", "--meta-info", str(meta), "--tasks", "object_rel_distance"]
    for rules, extra, expected in (
        ("paper", [], "any_pair"),
        ("data", [], "data"),
        ("paper", ["--rel-distance-rule", "closest"], "closest"),
    ):
        out = tmp_path / f"{rules}{len(extra)}"
        result = CliRunner().invoke(app, [*base, "--rules", rules, *extra, "--out", str(out)])
        assert result.exit_code == 0, result.output
        settings = json.loads((out / "manifest.json").read_text())["settings"]
        assert settings["rel_distance_gap_rule"] == expected
        assert settings["direction_sampling"] == ("permutations" if rules == "paper" else "role_triples")
    bad = CliRunner().invoke(app, [*base, "--rules", "book", "--out", str(tmp_path / "x")])
    assert bad.exit_code == 2 and "--rules 'book'; use one of: data, paper" in bad.output


def test_generated_files_load_back_as_the_generated_records(tmp_path):
    from spatialbench.benchmarks.vsibench.format import item_to_record

    scenes = list(load_meta_info(synthetic_room(tmp_path)).values())
    bench = generate_vsibench(scenes, builtin_tasks(), GenerationSettings(seed=3))
    paths = write_benchmark(bench.items, bench.manifest, tmp_path / "out")
    records = [item_to_record(item) for item in bench.items]
    assert records and any(r["mc_options"] for r in records)  # numerical questions carry their MC version
    for kind in ("jsonl", "parquet"):
        loaded = load_vsibench(paths[kind])
        assert not loaded.errors and [item_to_record(item) for item in loaded] == records


def test_cli_refuses_a_meta_info_without_scenes(tmp_path):
    """Issue 26: ``{}`` wrote an empty benchmark and exited 0; now one line, exit 2, no folder made."""
    from typer.testing import CliRunner

    from spatialbench.cli.main import app

    (tmp_path / "empty.json").write_text("{}")
    args = ["generate", "vsibench", "--meta-info", str(tmp_path / "empty.json"), "--out", str(tmp_path / "o")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"error: {tmp_path / 'empty.json'}: no scenes in the meta-info (expected an object mapping "
        "scene_name -> entry); nothing to generate"]
    assert not (tmp_path / "o").exists()
