"""``spatialbench errors sample`` / ``errors table``: the App. B.2 sample, annotation file, 1/n shares."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.analysis.errors import taxonomy
from spatialbench.cli.main import app
from support.analysis_runs import mra, run
from support.cot_server import CoTModel, CoTServer
from support.vsi_data import make_vsibench


def choose(tag: str, phase: str, sample: int) -> str:
    """Counts (even tags) are answered 4, relative distance (odd tags) A."""
    return "4" if int(tag[1:]) % 2 == 0 else "A"


@pytest.fixture(scope="module")
def explained_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    base = tmp_path_factory.mktemp("errors")
    answers = make_vsibench(base / "data", n_videos=2, per_video=6)  # q0..q11
    with CoTServer(CoTModel(choose)) as server:
        model = f"openai-compatible:{server.url}#m"
        run(base / "data", base / "run", model, "--frames", "uniform:4", "--strategy", "self-explanation")
    return base, answers


def _expected_sample(base: Path, answers: dict[str, str]) -> list[str]:
    """By hand: wrong letters, plus the 6 // 2 = 3 lowest MRA counts (ties in file order)."""
    order = [str(json.loads(line)["id"]) for line in (base / "data" / "test.jsonl").read_text().splitlines()]
    wrong = {i for i in order if int(i) % 2 and answers[f"q{i}"] != "A"}
    counts = [i for i in order if int(i) % 2 == 0]
    worst = sorted(counts, key=lambda i: mra(4.0, float(answers[f"q{i}"])))[:3]  # sorted() is stable
    return [i for i in order if i in wrong or i in worst]


def test_sample_is_wrong_mca_plus_worst_half_of_na_with_explanations(explained_run):
    base, answers = explained_run
    result = CliRunner().invoke(app, ["errors", "sample", str(base / "run")])
    assert result.exit_code == 0, result.output
    doc = json.loads((base / "run" / "analysis" / "errors.json").read_text())
    assert (doc["schema"], doc["version"], doc["taxonomy"]) == (
        "spatialbench.error-annotations",
        1,
        "vsi-bench",
    )
    assert [c["key"] for c in doc["categories"]] == [
        "visual_perception",
        "linguistic_intelligence",
        "relational_reasoning",
        "egocentric_allocentric_transformation",
    ]
    expected = _expected_sample(base, answers)
    assert [e["id"] for e in doc["items"]] == expected
    first = doc["items"][0]
    assert first["explanation"] == f"Explanation: I counted what I saw for q{first['id']}."
    assert first["errors"] == [] and first["note"] == ""
    assert (
        f"{len(expected)} errors sampled" in result.output
        and f"self-explanations: {len(expected)}" in result.output
    )


def test_table_counts_a_multi_cause_error_one_nth_each(explained_run, tmp_path):
    base, _ = explained_run
    path = tmp_path / "errors.json"
    assert CliRunner().invoke(app, ["errors", "sample", str(base / "run"), "--out", str(path)]).exit_code == 0
    doc = json.loads(path.read_text())
    counting = [e for e in doc["items"] if e["task"] == "object_counting"]
    distance = [e for e in doc["items"] if e["task"] == "object_rel_distance"]
    counting[0]["errors"] = ["visual_perception"]
    counting[1]["errors"] = ["visual_perception", "linguistic_intelligence"]
    distance[0]["errors"] = [
        "relational_reasoning",
        "egocentric_allocentric_transformation",
        "visual_perception",
    ]
    path.write_text(json.dumps(doc))
    result = CliRunner().invoke(app, ["errors", "table", str(path), "--format", "json"])
    assert result.exit_code == 0, result.output
    table = json.loads(result.output)
    # counting: perception 1 + 1/2 = 1.5, linguistic 0.5 of 2 annotated; distance: 1/3 each of 1 annotated
    assert table["tasks"] == ["Obj. Count", "Rel. Dist.", "all"]  # the paper's task columns
    assert table["counts"]["visual_perception"]["Obj. Count"] == pytest.approx(1.5)
    assert table["shares"]["visual_perception"]["Obj. Count"] == pytest.approx(75.0)
    assert table["shares"]["linguistic_intelligence"]["Obj. Count"] == pytest.approx(25.0)
    assert table["counts"]["relational_reasoning"]["Rel. Dist."] == pytest.approx(1 / 3)
    # all: perception 1.5 + 1/3 of 3 annotated; spatial reasoning group = relational + ego-allo = 2/3
    assert table["shares"]["visual_perception"]["all"] == pytest.approx(100 * (1.5 + 1 / 3) / 3)
    assert table["shares"]["spatial_reasoning"]["all"] == pytest.approx(100 * (2 / 3) / 3)
    assert table["annotated"]["all"] == 3
    assert table["not_annotated"]["all"] == len(doc["items"]) - 3
    assert (tmp_path / "errors_table.md").read_text().startswith("**error types (vsi-bench)")


def test_resampling_keeps_annotations(explained_run, tmp_path):
    base, _ = explained_run
    path = tmp_path / "errors.json"
    CliRunner().invoke(app, ["errors", "sample", str(base / "run"), "--out", str(path)])
    doc = json.loads(path.read_text())
    doc["items"][0].update(errors=["relational_reasoning"], note="confused the sofa")
    path.write_text(json.dumps(doc))
    result = CliRunner().invoke(app, ["errors", "sample", str(base / "run"), "--out", str(path)])
    assert result.exit_code == 0, result.output
    again = json.loads(path.read_text())["items"][0]
    assert again["errors"] == ["relational_reasoning"] and again["note"] == "confused the sofa"


def test_resampling_refuses_to_switch_taxonomy_over_annotations(explained_run, tmp_path):
    # issue 11: the file was rewritten as mmsi-video keeping the VSI keys, and `errors table` then failed
    base, _ = explained_run
    path = tmp_path / "errors.json"
    CliRunner().invoke(app, ["errors", "sample", str(base / "run"), "--out", str(path)])
    doc = json.loads(path.read_text())
    doc["items"][0].update(errors=["detailed_grounding"])
    doc["taxonomy"] = "mmsi-video"  # annotated under another taxonomy than the one resampled
    path.write_text(json.dumps(doc))
    before = path.read_text()
    result = CliRunner().invoke(app, ["errors", "sample", str(base / "run"), "--out", str(path)])
    assert result.exit_code == 2, result.output
    assert len(result.output.strip().splitlines()) == 1
    assert "annotated with taxonomy 'mmsi-video'" in result.output and "vsi-bench" in result.output
    assert path.read_text() == before


def test_per_task_keeps_n_of_each_task(explained_run, tmp_path):
    base, _ = explained_run
    path = tmp_path / "few.json"
    args = ["errors", "sample", str(base / "run"), "--out", str(path), "--per-task", "1", "--seed", "3"]
    assert CliRunner().invoke(app, args).exit_code == 0
    tasks = [e["task"] for e in json.loads(path.read_text())["items"]]
    assert sorted(tasks) == ["object_counting", "object_rel_distance"]


def test_the_mmsi_taxonomy_is_refused_on_a_vsi_run(explained_run, tmp_path):
    # issue 21: a taxonomy of another benchmark crossed its categories with this run's tasks
    base, _ = explained_run
    path = tmp_path / "mmsi.json"
    args = ["errors", "sample", str(base / "run"), "--out", str(path), "--taxonomy", "mmsi-video"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert result.output.strip() == (
        f"error: error taxonomy 'mmsi-video' does not apply to {base / 'run'}, a vsibench run; "
        "the taxonomy that applies: vsi-bench"
    )
    assert not path.exists()


def test_mmsi_taxonomy_has_five_categories():
    keys = [c["key"] for c in taxonomy("mmsi-video")["categories"]]
    assert keys == [
        "detailed_grounding",
        "id_mapping",
        "geometric_reasoning",
        "prompt_alignment",
        "latent_logical_inference",
    ]


def test_unknown_category_names_file_item_and_field(explained_run, tmp_path):
    base, _ = explained_run
    path = tmp_path / "errors.json"
    CliRunner().invoke(app, ["errors", "sample", str(base / "run"), "--out", str(path)])
    doc = json.loads(path.read_text())
    doc["items"][0]["errors"] = ["spelling"]
    path.write_text(json.dumps(doc))
    result = CliRunner().invoke(app, ["errors", "table", str(path)])
    assert result.exit_code == 2
    assert (
        f"{path}: item {doc['items'][0]['id']!r} field 'errors': unknown category 'spelling'" in result.output
    )
    # a malformed file is not overwritten by a new sample: the annotations stay
    result = CliRunner().invoke(app, ["errors", "sample", str(base / "run"), "--out", str(path)])
    assert result.exit_code == 2 and json.loads(path.read_text())["items"][0]["errors"] == ["spelling"]


def test_a_category_listed_twice_names_file_item_and_key(explained_run, tmp_path):
    base, _ = explained_run
    path = tmp_path / "errors.json"
    CliRunner().invoke(app, ["errors", "sample", str(base / "run"), "--out", str(path)])
    doc = json.loads(path.read_text())
    key = taxonomy(doc["taxonomy"])["categories"][0]["key"]
    doc["items"][0]["errors"] = [key, key]  # would count as one category: 1/1, not 1/2 each
    path.write_text(json.dumps(doc))
    result = CliRunner().invoke(app, ["errors", "table", str(path)])
    assert result.exit_code == 2
    assert (
        f"{path}: item {doc['items'][0]['id']!r} field 'errors': category {key!r} listed twice"
        in result.output
    )


def test_run_without_explanations_says_so(tmp_path):
    make_vsibench(tmp_path / "data", n_videos=1, per_video=2)
    args = [
        "run",
        "--benchmark",
        "vsibench",
        "--data",
        str(tmp_path / "data"),
        "--out",
        str(tmp_path / "run"),
        "--model",
        "chance-random",
        "--no-progress",
    ]
    assert CliRunner().invoke(app, args).exit_code == 0
    result = CliRunner().invoke(app, ["errors", "sample", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    assert "no self-explanations (run it with --strategy self-explanation)" in result.output


def test_subset_tiny_samples_only_tiny_items(explained_run, tmp_path):
    base, answers = explained_run
    path = tmp_path / "tiny.json"
    args = ["errors", "sample", str(base / "run"), "--out", str(path), "--subset", "tiny"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    doc = json.loads(path.read_text())
    # of ids 0..11 only 3 and 9 are in VSI-Bench (tiny): relative-distance items, wrong unless answered A
    order = [str(json.loads(line)["id"]) for line in (base / "data" / "test.jsonl").read_text().splitlines()]
    assert [e["id"] for e in doc["items"]] == [
        i for i in order if i in ("3", "9") and answers[f"q{i}"] != "A"
    ]
    assert doc["rule"].endswith("; among the given items only")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{oops", "not a JSON annotation file"),
        ('{"schema": "other", "version": 1}', "not a spatialbench.error-annotations version 1 file"),
        (
            '{"schema": "spatialbench.error-annotations", "version": 1, "taxonomy": "x", "items": []}',
            "field 'taxonomy': unknown error taxonomy 'x'; known: vsi-bench, mmsi-video",
        ),
        (
            '{"schema": "spatialbench.error-annotations", "version": 1, "taxonomy": "vsi-bench", '
            '"items": [{"id": "1", "task": "t"}, {"id": "1", "task": "t"}]}',
            "item '1': the id appears twice",
        ),
    ],
)
def test_a_bad_annotation_file_is_named(tmp_path, text, message):
    path = tmp_path / "errors.json"
    path.write_text(text)
    result = CliRunner().invoke(app, ["errors", "table", str(path)])
    assert result.exit_code == 2 and f"{path}: " in result.output and message in result.output


def _mmsi_doc(items: list[dict]) -> dict:
    return {
        "schema": "spatialbench.error-annotations",
        "version": 1,
        "taxonomy": "mmsi-video",
        "items": items,
    }


def test_vsi_error_table_columns_are_the_papers_8_tasks(tmp_path):
    from spatialbench.analysis.error_table import error_table, read_annotations

    # one annotated error per official question type, in reverse order; the 3 Rel. Dir. sub-types share
    # one column (the paper's tables), and columns follow the paper's order (Obj. Count ... Appr. Order)
    tasks = ["obj_appearance_order", "route_planning", "object_rel_direction_hard",
             "object_rel_direction_medium", "object_rel_direction_easy", "object_rel_distance",
             "room_size_estimation", "object_size_estimation", "object_abs_distance",
             "object_counting"]  # fmt: skip
    items = [{"id": str(k), "task": t, "errors": ["relational_reasoning"]} for k, t in enumerate(tasks)]
    items[4]["errors"] = ["visual_perception", "relational_reasoning"]  # an easy Rel. Dir.: 1/2 each
    path = tmp_path / "vsi.json"
    doc = {"schema": "spatialbench.error-annotations", "version": 1, "taxonomy": "vsi-bench", "items": items}
    path.write_text(json.dumps(doc))
    table = error_table([(str(path), read_annotations(path))])
    assert table.columns == ("Obj. Count", "Abs. Dist.", "Obj. Size", "Room Size", "Rel. Dist.",
                             "Rel. Dir.", "Route Plan", "Appr. Order", "all")  # fmt: skip
    assert table.annotated["Rel. Dir."] == 3 and table.annotated["Obj. Count"] == 1
    assert table.counts["relational_reasoning"]["Rel. Dir."] == pytest.approx(2.5)  # 1 + 1 + 1/2
    assert table.shares["visual_perception"]["Rel. Dir."] == pytest.approx(100 * 0.5 / 3)
    assert table.counts["relational_reasoning"]["all"] == pytest.approx(9.5)


def test_mmsi_error_table_columns_are_the_main_categories(tmp_path):
    from spatialbench.analysis.error_table import error_table, read_annotations

    # MMSI Sec. 6.2 / Fig. 7: error types per main category (SC., MU., Plan.&Pred., CV.), not per subtype
    items = [
        {
            "id": "1",
            "task": "(Spatial Construction) Instance/Scene Attribute",
            "errors": ["geometric_reasoning"],
        },
        {
            "id": "2",
            "task": "(Spatial Construction) Scene-Scene Spatial Relationship",
            "errors": ["id_mapping"],
        },
        {"id": "3", "task": "Planning", "errors": ["prompt_alignment"]},
        {"id": "4", "task": "Prediction", "errors": ["prompt_alignment"]},
        {"id": "5", "task": "(Cross-Video) Memory Update", "errors": ["detailed_grounding"]},  # the alias
    ]
    path = tmp_path / "mmsi.json"
    path.write_text(json.dumps(_mmsi_doc(items)))
    table = error_table([(str(path), read_annotations(path))])
    assert table.columns == ("SC.", "Plan.&Pred.", "CV.", "all")
    assert table.counts["geometric_reasoning"]["SC."] == 1.0 and table.counts["id_mapping"]["SC."] == 1.0
    assert table.counts["prompt_alignment"]["Plan.&Pred."] == 2.0 and table.annotated["CV."] == 1


def test_mmsi_refuses_two_categories_for_one_error(tmp_path):
    # Sec. 6.1: "non-overlapping" types: one category per error (VSI's 1/n sharing does not apply)
    path = tmp_path / "mmsi.json"
    items = [{"id": "7", "task": "Planning", "errors": ["prompt_alignment", "id_mapping"]}]
    path.write_text(json.dumps(_mmsi_doc(items)))
    result = CliRunner().invoke(app, ["errors", "table", str(path)])
    assert result.exit_code == 2
    assert f"{path}: item '7' field 'errors'" in result.output and "one category per error" in result.output


def test_mmsi_sample_is_thinned_per_main_category() -> None:
    from spatialbench.analysis.errors import thin

    mapping = taxonomy("mmsi-video")["columns"]
    tasks = {"a": "Planning", "b": "Prediction", "c": "(Motion Understanding) Camera Motion", "d": "Planning"}
    kept = thin(list(tasks), {i: mapping[t] for i, t in tasks.items()}, 1, 0)
    assert len(kept) == 2 and sorted(mapping[tasks[i]] for i in kept) == ["MU.", "Plan.&Pred."]


def _annotated(path, benchmark: str, run: str, ids: list[str]):
    """An annotation file of the VSI-Bench taxonomy: every item one visual-perception error."""
    items = [{"id": i, "task": "object_counting", "errors": ["visual_perception"]} for i in ids]
    doc = {"schema": "spatialbench.error-annotations", "version": 1, "taxonomy": "vsi-bench", "run": run,
           "benchmark": benchmark, "items": items}
    path.write_text(json.dumps(doc))
    return path


def test_the_same_file_twice_is_refused(tmp_path):
    """Issue 26: ``errors table A A`` doubled every count (2 of 2 read as 4 of 4, shares unchanged)."""
    path = _annotated(tmp_path / "a.json", "vsibench", "/runs/q7b", ["1", "2"])
    result = CliRunner().invoke(app, ["errors", "table", str(path), str(path)])
    assert (result.exit_code, result.stderr.splitlines()) == (2, [
        f"error: {tmp_path / 'a.json'} is given twice: each of its errors would count twice (give it once)"])
    assert not (tmp_path / "errors_table.json").exists()


def test_a_copy_annotating_the_same_items_is_refused(tmp_path):
    first = _annotated(tmp_path / "a.json", "vsibench", "/runs/q7b", ["1", "2"])
    copy = _annotated(tmp_path / "copy.json", "vsibench", "/runs/q7b", ["2", "3"])
    result = CliRunner().invoke(app, ["errors", "table", str(first), str(copy)])
    assert (result.exit_code, result.stderr.splitlines()) == (2, [
        f"error: {first} and {copy} both annotate item 2 of run /runs/q7b: it would count twice (give one of "
        "them)"])


def test_two_runs_of_one_benchmark_add_up(tmp_path):
    first = _annotated(tmp_path / "a.json", "vsibench", "/runs/q7b", ["1", "2"])
    second = _annotated(tmp_path / "b.json", "vsibench", "/runs/q72b", ["1"])
    result = CliRunner().invoke(app, ["errors", "table", str(first), str(second), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["annotated"] == {"Obj. Count": 3, "all": 3}  # the paper's 8 task columns


def test_files_of_two_benchmarks_are_refused(tmp_path):
    """ReMindView-Bench declares no taxonomy, so its files fall back to vsi-bench's and merged silently."""
    first = _annotated(tmp_path / "a.json", "vsibench", "/runs/q7b", ["1"])
    other = _annotated(tmp_path / "b.json", "remindview", "/runs/rmv", ["1"])
    result = CliRunner().invoke(app, ["errors", "table", str(first), str(other)])
    assert (result.exit_code, result.stderr.splitlines()) == (2, [
        f"error: {first} annotates vsibench, {other} remindview: make one table per benchmark"])
