"""``spatialbench compare``: runs against the loopback OpenAI-compatible server, differences by hand."""

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from support.analysis_runs import mra, run
from support.openai_server import OpenAIServer, ServerScript
from support.vsi_data import answer_script, make_vsibench, question_tag


def blind_answer(text: str) -> str:
    """Blind model: 'A' to every multiple-choice question, 4 to every count."""
    return "A" if "Options:" in text else "4"


def sighted_server(answers: dict[str, str]) -> ServerScript:
    """One model: right when the request carries images, :func:`blind_answer` when it carries none.

    The request being answered is the last one logged: runs use ``--concurrency 1``.
    """
    script = ServerScript()
    correct = answer_script(answers)
    script.answer = lambda text: correct(text) if script.log[-1].n_images else blind_answer(text)
    return script


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    base = tmp_path_factory.mktemp("compare")
    answers = make_vsibench(base / "data", n_videos=2, per_video=4)
    with OpenAIServer(sighted_server(answers)) as server:
        model = f"openai-compatible:{server.url}#m"
        run(base / "data", base / "vision", model, "--frames", "uniform:4", "--concurrency", "1")
        run(
            base / "data",
            base / "vision-qfirst",
            model,
            "--frames",
            "uniform:6",
            "--order",
            "question_first",
            "--concurrency",
            "1",
        )
        run(base / "data", base / "blind", model, "--blind", "--concurrency", "1")
    run(base / "data", base / "chance", "chance-frequency")
    return base, answers


def _compare(*args: str) -> dict:
    result = CliRunner().invoke(app, ["compare", *args, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_enabled_minus_disabled_and_disabled_minus_chance(runs):
    base, answers = runs
    doc = _compare(str(base / "vision"), str(base / "blind"), str(base / "chance"))
    assert (doc["schema"], doc["version"]) == ("spatialbench.compare", 1)
    # by hand: q0, q2, q4, q6 are counts (blind says 4), q1, q3, q5, q7 relative distance (blind says A)
    counts = [float(answers[f"q{k}"]) for k in (0, 2, 4, 6)]
    letters = [answers[f"q{k}"] for k in (1, 3, 5, 7)]
    blind_count = 100 * float(np.mean([mra(4.0, g) for g in counts]))
    blind_dist = 100 * letters.count("A") / 4
    vision, blind, chance = (r["scores"] for r in doc["runs"])
    assert [r["role"] for r in doc["runs"]] == ["vision", "blind", "chance"]
    assert vision["object_counting"] == 100.0 and vision["object_rel_distance"] == 100.0
    assert blind["object_counting"] == pytest.approx(blind_count)
    assert blind["object_rel_distance"] == pytest.approx(blind_dist)
    assert blind["overall"] == pytest.approx((blind_count + blind_dist) / 2)  # Avg. over the 2 tasks present
    enabled, disabled = doc["differences"]
    assert enabled["label"] == "Enabled−Disabled (vision − blind)" and not enabled["flagged"]
    assert enabled["scores"]["object_counting"] == pytest.approx(100 - blind_count)
    assert enabled["scores"]["object_rel_distance"] == pytest.approx(100 - blind_dist)
    assert enabled["scores"]["route_planning"] is None
    # chance-frequency: the most frequent letter (relative distance) and best constant count (baseline code)
    assert disabled["label"] == "Disabled−Chance (blind − chance)" and not disabled["flagged"]
    for key in ("overall", "object_counting", "object_rel_distance"):
        assert disabled["scores"][key] == pytest.approx(blind[key] - chance[key])
    stored = json.loads((base / "chance" / "scores.json").read_text())
    assert chance["object_rel_distance"] == pytest.approx(stored["object_rel_distance"])


def test_compare_agrees_with_each_runs_scores_json(runs):
    base, _ = runs
    doc = _compare(str(base / "vision"), str(base / "blind"))
    for row in doc["runs"]:
        stored = json.loads((base / row["name"] / "scores.json").read_text())
        assert row["scores"]["overall"] == pytest.approx(stored["overall"])


def test_all_four_formats_are_written_next_to_the_first_run(runs):
    base, _ = runs
    result = CliRunner().invoke(app, ["compare", str(base / "vision"), str(base / "blind")])
    assert result.exit_code == 0, result.output
    assert "| Enabled−Disabled (vision − blind) | " in result.output
    folder = base / "vision" / "analysis"
    written = sorted(p.name for p in folder.iterdir())
    stem = "compare_vision_vs_blind"
    # named by the runs compared: the earlier comparison of three runs in this folder is still there
    assert {f"{stem}.csv", f"{stem}.json", f"{stem}.md", f"{stem}.tex"} <= set(written)
    assert "compare_vision_vs_blind_vs_chance.json" in written
    csv_lines = (folder / f"{stem}.csv").read_text().splitlines()
    assert csv_lines[0].startswith('"","Avg.","Obj. Count","Abs. Dist."')  # text quoted (issue 26)
    assert csv_lines[3].startswith('"Enabled−Disabled (vision − blind)",')
    tex = (folder / f"{stem}.tex").read_text()
    assert tex.startswith("\\begin{tabular}{lrrrrrrrrr}") and "Enabled$-$Disabled (vision $-$ blind)" in tex


def test_runs_differing_in_more_than_the_compared_setting_are_flagged(runs):
    base, _ = runs
    doc = _compare(str(base / "vision-qfirst"), str(base / "vision"), "--against", "vision")
    (diff,) = doc["differences"]
    assert diff["label"] == "vision-qfirst − vision" and diff["flagged"]
    assert diff["compared"] == []
    assert diff["other"] == [
        {"setting": "media.frames", "minuend": "uniform:6", "subtrahend": "uniform:4"},
        {"setting": "prompt.order", "minuend": "question_first", "subtrahend": "video_first"},
    ]
    assert doc["notes"][0].startswith(
        "* vision-qfirst − vision: differs in more than one setting: media.frames"
    )


def test_two_models_pairs_get_a_mean_row(runs):
    base, _ = runs
    doc = _compare(*(str(base / n) for n in ("vision", "vision-qfirst", "blind")))
    first, second, mean = doc["differences"]
    assert second["label"] == "Enabled−Disabled (vision-qfirst − blind)" and second["flagged"]
    assert second["other"] == [
        {"setting": "prompt.order", "minuend": "question_first", "subtrahend": "video_first"}
    ]
    assert mean["label"] == "Enabled−Disabled (mean of 2)" and mean["kind"] == "enabled-disabled-mean"
    for key in ("overall", "object_counting", "object_rel_distance"):
        assert mean["scores"][key] == pytest.approx((first["scores"][key] + second["scores"][key]) / 2)
    assert mean["scores"]["route_planning"] is None


def test_a_blind_runs_media_settings_are_not_compared(runs):
    base, _ = runs
    doc = _compare(str(base / "vision"), str(base / "blind"), "--against", "blind")
    (diff,) = doc["differences"]
    assert diff["compared"] == ["prompt.blind"] and not diff["flagged"]  # frames differ, but blind sends none


def test_subset_tiny_scores_only_tiny_ids_and_names_the_missing(runs):
    base, answers = runs
    doc = _compare(str(base / "vision"), str(base / "blind"), "--subset", "tiny")
    # of ids 0..7 only 3 is in VSI-Bench (tiny); q3 is a relative-distance question
    assert [r["n_items"] for r in doc["runs"]] == [1, 1]
    assert doc["runs"][1]["scores"]["object_rel_distance"] == (100.0 if answers["q3"] == "A" else 0.0)
    assert doc["runs"][0]["scores"]["object_counting"] is None
    assert doc["notes"][0].startswith("vision: 399 VSI-Bench (tiny) ids not scored: 9, 22, 27,")


def test_against_takes_a_run_folder_path(runs, tmp_path, monkeypatch):
    base, _ = runs
    by_name = _compare(str(base / "vision"), str(base / "blind"), "--against", "blind")
    assert _compare(str(base / "vision"), str(base / "blind"), "--against", str(base / "blind")) == by_name
    monkeypatch.chdir(base)
    assert _compare("vision", "blind", "--against", "./blind/") == by_name


def test_against_a_folder_not_compared_is_named(runs):
    base, _ = runs
    result = CliRunner().invoke(app, ["compare", str(base / "vision"), str(base / "blind"),
                                      "--against", str(base / "chance")])
    assert result.exit_code == 2
    assert f"--against {base / 'chance'}: a folder, but not one of the runs compared" in result.output


def test_against_naming_one_run_and_the_folder_of_another_is_refused(runs, tmp_path, monkeypatch):
    base, _ = runs
    (tmp_path / "vision").symlink_to(base / "blind")  # ./vision is the blind run's folder
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["compare", str(base / "vision"), str(base / "blind"),
                                      "--against", "vision"])
    assert result.exit_code == 2
    assert ("--against 'vision' is ambiguous: the run named vision, and the folder of the run blind; "
            f"give that run's folder ({base / 'vision'} or {base / 'blind'})") in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--against", "nope"], "--against 'nope' is not one of the runs (vision, blind)"),
        (["--subset", "huge"], "vsibench has no subset 'huge'; its subsets: "),
        (["--format", "yaml"], "--format 'yaml': choose from markdown, csv, latex, json"),
    ],
)
def test_bad_options_are_one_line_exit_2(runs, args, message):
    base, _ = runs
    result = CliRunner().invoke(app, ["compare", str(base / "vision"), str(base / "blind"), *args])
    assert result.exit_code == 2 and message in result.output


def test_a_folder_that_is_not_a_run_is_named(runs, tmp_path):
    base, _ = runs
    result = CliRunner().invoke(app, ["compare", str(base / "vision"), str(tmp_path)])
    assert result.exit_code == 2
    assert f"{tmp_path}: not a scored run folder (no config.json)" in result.output


def test_server_saw_no_images_in_the_blind_run(tmp_path):
    answers = make_vsibench(tmp_path / "data", n_videos=1, per_video=2)
    script = ServerScript(answer=blind_answer)
    with OpenAIServer(script) as server:
        run(tmp_path / "data", tmp_path / "blind", f"openai-compatible:{server.url}#m", "--blind")
    assert sorted(question_tag(r.text) for r in script.answered()) == sorted(answers)
    assert all(r.n_images == 0 for r in script.answered())


@pytest.mark.slow
def test_compare_on_the_demo_benchmark(tmp_path):
    """Must-show of issue 11: a vision and a blind run of the built-in demo, then compare."""
    args = ["demo", "--out", str(tmp_path / "demo"), "--scenes", "1", "--seconds", "6"]
    demo = CliRunner().invoke(app, args)
    assert demo.exit_code == 0, demo.output
    data = tmp_path / "demo" / "benchmark"
    records = [json.loads(line) for line in (data / "test.jsonl").read_text().splitlines()]
    truth = {r["question"]: r["ground_truth"] for r in records}

    def correct(text: str) -> str:
        return next(t for q, t in truth.items() if q in text)

    script = ServerScript()
    script.answer = lambda text: correct(text) if script.log[-1].n_images else blind_answer(text)
    with OpenAIServer(script) as server:
        model = f"openai-compatible:{server.url}#m"
        run(data, tmp_path / "vision", model, "--frames", "uniform:8", "--concurrency", "1")
        run(data, tmp_path / "blind", model, "--blind", "--concurrency", "1")
    run(data, tmp_path / "chance", "chance-frequency")
    result = CliRunner().invoke(app, ["compare", *(str(tmp_path / n) for n in ("vision", "blind", "chance"))])
    assert result.exit_code == 0, result.output
    assert "| Enabled−Disabled (vision − blind) |" in result.output
    assert "| Disabled−Chance (blind − chance) |" in result.output
    stem = "compare_vision_vs_blind_vs_chance"
    doc = json.loads((tmp_path / "vision" / "analysis" / f"{stem}.json").read_text())
    # by hand from test.jsonl: blind answers A to every multiple-choice question and 4 to every number
    for task in ("object_rel_distance", "route_planning", "obj_appearance_order"):
        rows = [r for r in records if r["question_type"] == task]
        blind = 100 * sum(r["ground_truth"] == "A" for r in rows) / len(rows) if rows else None
        enabled = doc["differences"][0]["scores"][task]
        assert enabled == (pytest.approx(100 - blind) if rows else None)
    sizes = [float(r["ground_truth"]) for r in records if r["question_type"] == "object_size_estimation"]
    if sizes:
        expected = 100 - 100 * float(np.mean([mra(4.0, g) for g in sizes]))
        assert doc["differences"][0]["scores"]["object_size_estimation"] == pytest.approx(expected)
    assert not doc["differences"][0]["flagged"] and not doc["differences"][1]["flagged"]


def test_strategy_against_direct_is_one_setting(tmp_path):
    from support.cot_server import CoTModel, CoTServer

    answers = make_vsibench(tmp_path / "data", n_videos=1, per_video=4)  # q0, q2 counts; q1, q3 letters

    def choose(tag: str, phase: str, sample: int) -> str:
        """Right after a chain of thought, 'A' / 4 when answering directly."""
        return answers[tag] if phase == "cot" else blind_answer("Options:" if int(tag[1:]) % 2 else "")

    with CoTServer(CoTModel(choose)) as server:
        model = f"openai-compatible:{server.url}#m"
        run(tmp_path / "data", tmp_path / "direct", model, "--frames", "uniform:4")
        cot = ["--frames", "uniform:4", "--strategy", "zero-shot-cot"]
        run(tmp_path / "data", tmp_path / "cot", model, *cot)
    doc = _compare(str(tmp_path / "cot"), str(tmp_path / "direct"), "--against", "direct")
    (diff,) = doc["differences"]
    assert diff["label"] == "cot − direct" and diff["compared"] == ["strategy"] and not diff["flagged"]
    # by hand: chain of thought is always right (100); direct answers A and 4
    share_a = 100 * sum(answers[f"q{k}"] == "A" for k in (1, 3)) / 2
    direct_count = 100 * float(np.mean([mra(4.0, float(answers[f"q{k}"])) for k in (0, 2)]))
    assert diff["scores"]["object_rel_distance"] == pytest.approx(100 - share_a)
    assert diff["scores"]["object_counting"] == pytest.approx(100 - direct_count)


def _copy_run(source: Path, target: Path) -> Path:
    target.mkdir()
    for name in ("config.json", "items.csv"):
        (target / name).write_text((source / name).read_text())
    return target


def _with_model(source: Path, target: Path, name: str) -> Path:
    _copy_run(source, target)
    config = json.loads((target / "config.json").read_text())
    config["config"]["model"]["name"] = name
    (target / "config.json").write_text(json.dumps(config))
    return target


def test_the_same_served_model_behind_another_port_is_the_same_model(runs, tmp_path):
    base, _ = runs
    served = json.loads((base / "vision" / "config.json").read_text())["config"]["model"]["name"]
    url, _, model = served.rpartition("#")
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    other_port = url.replace(f":{port}", f":{port + 1}")
    assert other_port != url and model == "m"
    moved = _with_model(base / "blind", tmp_path / "blind-moved", f"{other_port}#{model}")
    doc = _compare(str(base / "vision"), str(base / "vision-qfirst"), str(moved))
    first, second, mean = doc["differences"]
    assert first["label"] == "Enabled−Disabled (vision − blind-moved)" and not first["flagged"]
    assert first["other"] == [] and mean["other_models"] == []
    renamed = _with_model(base / "blind", tmp_path / "blind-other", f"{other_port}#other-model")
    doc = _compare(str(base / "vision"), str(base / "vision-qfirst"), str(renamed))
    first, second, mean = doc["differences"]
    assert first["other"] == [{"setting": "model.name", "minuend": served,
                               "subtrahend": f"{other_port}#other-model"}]  # fmt: skip
    assert len(mean["other_models"]) == 2


def test_runs_of_two_benchmarks_are_refused_naming_both(runs, tmp_path):
    base, _ = runs
    other = _copy_run(base / "blind", tmp_path / "other")
    config = json.loads((other / "config.json").read_text())
    config["config"]["data"]["benchmark"] = "remindview"
    (other / "config.json").write_text(json.dumps(config))
    result = CliRunner().invoke(app, ["compare", str(base / "vision"), str(other)])
    assert result.exit_code == 2
    assert (
        "runs of different benchmarks cannot be compared (vision: vsibench, other: remindview)"
        in result.output
    )


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("config.json", "{not json", "config.json: not a run configuration (JSONDecodeError"),
        ("config.json", '{"config": {"data": {}}}', "config.json: not a run configuration (KeyError"),
        ("items.csv", "id,prediction\n1,A\n", "items.csv: missing column(s) score, task"),
    ],
)
def test_a_damaged_run_file_is_named(runs, tmp_path, name, text, message):
    base, _ = runs
    damaged = _copy_run(base / "blind", tmp_path / "damaged")
    (damaged / name).write_text(text)
    result = CliRunner().invoke(app, ["compare", str(base / "vision"), str(damaged)])
    assert result.exit_code == 2 and message in result.output
    assert (base / "vision" / "items.csv").is_file()  # nothing of the good run touched


def test_relative_differences_are_percent_of_the_subtracted_run(runs):
    base, _ = runs
    plain = _compare(str(base / "vision"), str(base / "blind"))
    doc = _compare(str(base / "vision"), str(base / "blind"), "--relative")
    assert doc["relative"] is True
    blind = doc["runs"][1]["scores"]
    for key, delta in plain["differences"][0]["scores"].items():
        got = doc["differences"][0]["scores"][key]
        if delta is None or not blind[key]:
            assert got is None
        else:
            assert got == pytest.approx(100 * delta / blind[key])
