"""Newcomer findings on MMSI-Video-Bench and ReMindView-Bench (issue 6 follow-up), failing inputs first."""

import json
import math

import pandas as pd
import pytest
from mmsi_remindview_fixtures import (
    build_mmsi,
    build_remindview,
    mmsi_responses,
    mmsi_samples,
    remindview_responses,
)
from typer.testing import CliRunner

from spatialbench.benchmarks import get_benchmark, load_items
from spatialbench.benchmarks.mmsi_video.extraction import extract_official
from spatialbench.benchmarks.remindview.phases import phases_choice
from spatialbench.cli.main import app
from spatialbench.runs.defaults import apply_benchmark_defaults
from spatialbench.scoring.extraction import extract_choice
from support.configs import run_config
from support.openai_server import OpenAIServer, ServerScript

OPTIONS = ("A. sofa", "B. chair", "C. table", "D. bed")


def _invoke(args):
    return CliRunner().invoke(app, [str(a) for a in args])


def _one_line(output):
    return " ".join(output.replace("│", " ").split())


def _predictions(path, responses):
    path.write_text("".join(json.dumps({"id": k, "response": v}) + "\n" for k, v in responses.items()))
    return path


def _run_args(benchmark, data, url, out, *extra):
    model = f"openai-compatible:{url}#t"
    return ["run", "--benchmark", benchmark, "--data", data, "--model", model, "--out", out, "--no-progress",
            *extra]


# 1, 2: the benchmark's answer budget, frame strategy and default setting ---------------------------------


def _served_run(benchmark, data, answer, out):
    """``spatialbench run`` (no --frames, --setting or --max-new-tokens) against a loopback server."""
    script = ServerScript(answer=answer)
    with OpenAIServer(script) as server:
        result = _invoke(_run_args(benchmark, data, server.url, out))
    assert result.exit_code == 0, result.output
    config = json.loads((out / "config.json").read_text())["config"]
    return result, script, config


def test_remindview_run_uses_its_answer_budget_and_all_frames(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data = build_remindview(tmp_path / "rmv")
    answer = "(1) a\n(2) b\n(3) c\n(4) A.x"
    _, script, config = _served_run("remindview", data, lambda text: answer, tmp_path / "run")
    # 128 (the old fallback) cut the 4-phase answer; 5000 is the official --max-new-tokens default
    assert {r.body["max_tokens"] for r in script.answered()} == {5000}
    assert all(r.n_images == 4 for r in script.answered())  # every frame of the set, not uniform:32
    assert (config["media"]["frames"], config["model"]["max_new_tokens"]) == ("all", 5000)


def test_mmsi_run_without_setting_uses_uniform_50_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data = build_mmsi(tmp_path / "mmsi")
    result, script, config = _served_run("mmsi-video", data, lambda text: "\\boxed{A}", tmp_path / "run")
    assert "note: mmsi-video: no setting given; using the paper's default setting=uniform-50" in result.output
    assert "14 answered now" in result.output
    assert {r.body["max_tokens"] for r in script.answered()} == {10_000}
    assert config["data"]["options"] == {"setting": "uniform-50"}
    assert (config["media"]["frames"], config["model"]["max_new_tokens"]) == ("all", 10_000)
    # every fixture sample has under 50 frames: Uniform-50 sends them all (frames + reference images):
    # 0000 3, 0001 2+1, 0006 4, 0009 3+2, 0010 2+1+2 + 2 images, 0011 2+1, the other eight 2
    assert sorted(r.n_images for r in script.answered()) == [2] * 8 + [3, 3, 3] + [4] + [5, 7]


def test_setting_with_a_resampling_frame_strategy_is_refused(tmp_path):
    data = build_mmsi(tmp_path / "mmsi")
    args = _run_args("mmsi-video", data, "http://127.0.0.1:9/v1", tmp_path / "run")
    result = _invoke([*args, "--setting", "uniform-4", "--frames", "uniform:2"])
    assert result.exit_code == 2, result.output
    assert "--frames uniform:2 conflicts with setting=uniform-4" in _one_line(result.output)
    assert not (tmp_path / "run").exists()
    explicit = _invoke([*args, "-o", "setting=uniform-4", "--frames", "all", "--max-new-tokens", "7"])
    assert "conflicts" not in explicit.output  # --frames all is what the setting needs


def _config(benchmark, **sections):
    return run_config("d", "o", benchmark=benchmark, **sections)

def test_own_frame_strategy_without_setting_gets_no_default_setting():
    config = _config("mmsi-video", media={"frames": "uniform:8"})
    spec = get_benchmark("mmsi-video")
    resolved, notes = apply_benchmark_defaults(config, spec)
    assert (resolved.media.frames, resolved.data.options) == ("uniform:8", {})
    assert notes == [
        "note: mmsi-video: --frames uniform:8 samples the media itself; no setting applied "
        "(the paper's is setting=uniform-50)"
    ]
    # the note repeats, nothing else changes
    assert apply_benchmark_defaults(resolved, spec) == (resolved, notes)


def test_vsibench_defaults_are_unchanged():
    resolved, notes = apply_benchmark_defaults(_config("vsibench"), get_benchmark("vsibench"))
    assert (resolved.media.frames, resolved.model.max_new_tokens, resolved.data.options, notes) == (
        "uniform:32",
        None,  # the VSI-Bench prompt builder's 16 applies per item
        {},
        [],
    )


# 3: unreadable annotation files --------------------------------------------------------------------------


def _latin1_csv(folder):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "latin1.csv"
    header = "folder_path,query_type,query,ground_truth,choices,cross_frame,object_num\n"
    row = "object_centric/x,view-view|relative_distance|0,Which caf\xe9?,frame1,\"frame1,frame2\",True,3\n"
    path.write_bytes((header + row).encode("latin-1"))
    return path, 2


def _empty_csv(folder):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "empty.csv").write_text("")
    return folder / "empty.csv", None


def _junk_parquet(folder):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "junk.parquet").write_bytes(b"not parquet")
    return folder / "junk.parquet", None


def _latin1_json(folder):
    build = build_mmsi(folder)
    text = json.dumps(mmsi_samples(), indent=1).replace("Options", "Opti\xf6ns", 1)
    (build / "mmsivideo.json").write_bytes(text.encode("latin-1"))
    return build / "mmsivideo.json", text[: text.index("\xf6")].count("\n") + 1


def _truncated_json(folder):
    build = build_mmsi(folder)
    (build / "mmsivideo.json").write_text('[\n{"id": "question_0000",\n')
    return build / "mmsivideo.json", 3


def _empty_json(folder):
    build = build_mmsi(folder)
    (build / "mmsivideo.json").write_text("")
    return build / "mmsivideo.json", None


BAD_FILES = {
    "latin1-csv": ("remindview", _latin1_csv, "not UTF-8 text at line {line} (byte 0xe9)"),
    "empty-csv": ("remindview", _empty_csv, "empty file (no header row)"),
    "junk-parquet": ("remindview", _junk_parquet, "not a Parquet file (it does not end in Parquet's PAR1"),
    "latin1-json": ("mmsi-video", _latin1_json, "not UTF-8 text at line {line} (byte 0xf6)"),
    "truncated-json": ("mmsi-video", _truncated_json, "invalid JSON at line {line}, column 1"),
    "empty-json": ("mmsi-video", _empty_json, "empty file (expected JSON)"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_unreadable_annotation_file_is_one_line_naming_it(case, tmp_path):
    benchmark, make, reason = BAD_FILES[case]
    path, line = make(tmp_path / "data")
    expected = f"{path}: {reason.format(line=line)}"
    out = tmp_path / "run"
    data = path if benchmark == "remindview" else path.parent
    result = _invoke(
        ["run", "--benchmark", benchmark, "--data", data, "--model", "chance-random", "--out", out]
    )
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)  # no traceback
    assert f"error: {expected}" in _one_line(result.output)
    assert not (out / "run.lock").exists()
    for command in (["baseline", "-m", "chance-random"], ["breakdown", "-p", tmp_path / "none.jsonl"]):
        other = _invoke([*command, "-b", benchmark, "-a", data])
        assert other.exit_code == 2 and f"error: {expected}" in _one_line(other.output), other.output


def test_broken_difficulty_list_drops_only_its_table(tmp_path):
    data = build_mmsi(tmp_path / "mmsi")
    (data / "meta_data" / "easy2hard_bench.json").write_text("{bad")
    preds = _predictions(tmp_path / "p.jsonl", mmsi_responses())
    result = _invoke(["breakdown", "-a", data, "-p", preds])
    assert result.exit_code == 0, result.output
    assert "Table 2" in result.output and "Table 3" in result.output
    assert "Difficulty levels" not in result.output
    warning = f"warning: {data / 'meta_data' / 'easy2hard_bench.json'}: invalid JSON at line 1, column 2"
    assert warning in result.output and "difficulty table left out" in result.output


# 4: Avg. over the table's questions only -----------------------------------------------------------------


def test_unknown_type_is_outside_avg_and_warned(tmp_path):
    samples = mmsi_samples()
    unknown = next(s for s in samples if s["id"] == "question_0013")  # Pred., answered right ("D")
    unknown["type"] = "(New) Unlisted Type"
    data = build_mmsi(tmp_path / "mmsi", samples)
    preds = _predictions(tmp_path / "p.jsonl", mmsi_responses())
    score = _invoke(["score", "-b", "mmsi-video", "-a", data, "-p", preds])
    assert score.exit_code == 0, score.output
    # robust: 10 of 14 right; without question_0013 (right) it is 9 of the 13 in the table
    assert "| | Avg. (question-weighted) |" in score.output and "| all | 69.2 |" in score.output
    assert "Tasks outside the table (not in Avg.): (New) Unlisted Type." in score.output
    breakdown = _invoke(["breakdown", "-a", data, "-p", preds])
    assert breakdown.exit_code == 0, breakdown.output
    assert "Avg. = question-weighted over the 13 subtypes" in breakdown.output
    assert "| n | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 13 |" in breakdown.output
    assert "warning: 1 item(s) of a type outside Tables 2/3 ('(New) Unlisted Type'; question_0013)" in (
        breakdown.output
    )


# 5: robust reads every form the official MMSI extractor reads --------------------------------------------


@pytest.mark.parametrize(
    ("text", "letter"),
    [
        ("<answer>B</answer>", "B"),
        ('{"answer": "A", "reason": "x"}', "A"),
        ('{"reason": "b", "answer": "d"}', "D"),
    ],
)
def test_robust_reads_answer_tags_and_json(text, letter):
    assert extract_choice(text, OPTIONS, "robust").value == letter


def test_robust_is_a_superset_of_the_official_mmsi_extractor_on_the_fixtures(tmp_path):
    items = {item.id: item for item in load_items("mmsi-video", build_mmsi(tmp_path / "mmsi"))}
    extra = {"tag": "<answer>B</answer>", "json": '{"answer": "A", "reason": "x"}'}
    cases = [(items[k].options, text) for k, text in mmsi_responses().items()]
    cases += [(OPTIONS, text) for text in extra.values()]
    read_by_official = 0
    for options, text in cases:
        official = extract_official(text)
        if official is not None and official in {o[0] for o in options}:
            read_by_official += 1
            robust = extract_choice(text, options, "robust").value
            # one deliberate difference (issue 6): a later "Final answer:" overrides "My answer is B."
            expected = "A" if text == "My answer is B. Final answer: A" else official
            assert robust == expected, text
    assert read_by_official == 11  # 9 fixture responses (0000, 0001, 0005-0010, 0013) + tag + json
    json_answer = mmsi_responses()["question_0007"]
    assert extract_choice(json_answer, items["question_0007"].options, "robust").value == "A"


# 6: MMSI rows with impossible segments or paths ----------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        (lambda s: s["frames_list"][0].__setitem__(0, "../mmsivideo.json"), "frames_list[0][0]", "leaves"),
        (lambda s: s["video_list"][0].__setitem__("start", math.nan), "video_list[0].start", "finite number"),
        (lambda s: s["video_list"][0].update(start=9.0, end=2.0), "video_list[0].end", "before start"),
        (lambda s: s["video_list"][0].__setitem__("base_fps", 0), "video_list[0].base_fps", "must be > 0"),
    ],
)
def test_mmsi_impossible_segment_is_a_row_error(tmp_path, change, field, message):
    samples = mmsi_samples()
    change(samples[0])
    data = build_mmsi(tmp_path / "mmsi")
    (data / "mmsivideo.json").write_text(json.dumps(samples))  # NaN is written as the JSON extension NaN
    loaded = load_items("mmsi-video", data)
    assert len(loaded) == len(samples) - 1
    [error] = loaded.errors
    assert error.field == field and message in error.message
    assert error.message.startswith(f"sample '{samples[0]['id']}': ")


# 7: --sub-bench is MMSI-Video-Bench's --------------------------------------------------------------------


def test_remindview_sub_bench_is_refused(tmp_path):
    data = build_remindview(tmp_path / "rmv")
    preds = _predictions(tmp_path / "p.jsonl", remindview_responses())
    result = _invoke(["breakdown", "-b", "remindview", "-a", data, "-p", preds, "--sub-bench", "robot"])
    assert result.exit_code == 2
    assert "error: --sub-bench does not apply to remindview" in _one_line(result.output)


# 8, 9: ReMindView rows ------------------------------------------------------------------------------------


def _remindview_table(tmp_path, rows):
    data = build_remindview(tmp_path / "rmv")
    table = pd.read_csv(data / "object_centric_qa.csv", dtype=str, keep_default_na=False)
    first = table.iloc[0].to_dict()
    frame = pd.DataFrame([{**first, **row} for row in rows])
    path = tmp_path / "rmv" / "object_centric_extra.csv"
    frame.to_csv(path, index=False)
    return load_items("remindview", path), str(path)


def test_remindview_rows_five_choices_empty_query_type_and_spelling(tmp_path):
    first = pd.read_csv(build_remindview(tmp_path / "x") / "object_centric_qa.csv", dtype=str).iloc[0]
    five = ",".join([*first["choices"].split(","), "frame8", "frame9"])
    loaded, path = _remindview_table(
        tmp_path,
        [
            {"choices": five},
            {"query_type": ""},
            {"query_type": " View-View | relative_distance | 1 "},
        ],
    )
    messages = [str(e) for e in loaded.errors]
    assert messages == [
        f"{path}:2: field 'choices': sample 'object_centric_extra:0': needs 2 to 4 comma-separated choices "
        f"(A-D), got 5: {five.split(',')}",
        f"{path}:3: field 'query_type': sample 'object_centric_extra:1': missing or empty",
    ]
    [item] = loaded
    assert (item.task, item.metadata["relation"]) == ("view-view|relative_distance|1", "view-view")


def test_phase_four_final_answer_is_a_phase_four_read():
    text = "(1) a\n(2) b\n(3) I first thought A.\n(4) Final answer: C"
    read = phases_choice(text, OPTIONS)
    assert (read.value, read.rule) == ("C", "phase4:robust:marker:letter")


def test_baseline_without_out_does_not_point_at_scores_json(tmp_path):
    _, path = _remindview_table(tmp_path, [{"query_type": ""}, {}])
    result = _invoke(["baseline", "-b", "remindview", "-a", path, "-m", "chance-random"])
    assert result.exit_code == 0, result.output
    assert "Input rows skipped: 1 (listed above; --out writes them to scores.json)." in result.output
    assert "listed in scores.json" not in result.output


def test_score_reads_an_id_to_response_object(tmp_path):
    data = build_mmsi(tmp_path / "mmsi")
    preds = tmp_path / "pred.json"
    preds.write_text(json.dumps({"question_0000": "A", "question_0001": "Answer: B", "question_9999": "A"}))
    result = _invoke(["score", "-b", "mmsi-video", "-a", data, "-p", preds])
    assert result.exit_code == 0, result.output
    assert "missing predictions: 12" in result.output and "Predictions matching no item: 1." in result.output


# issue 10: missing media is found before anything is sent --------------------------------------------------


def test_missing_mmsi_frame_and_remindview_folder_are_setup_errors(tmp_path):
    mmsi = build_mmsi(tmp_path / "mmsi")
    frame = next((mmsi / "frames").rglob("*.jpg"))
    frame.unlink()
    rmv = build_remindview(tmp_path / "rmv")
    folder = next(p.parent for p in sorted((rmv / "frames").rglob("*.png")))
    for image in folder.iterdir():
        image.unlink()
    script = ServerScript(answer=lambda text: "A")
    with OpenAIServer(script) as server:
        first = _invoke(_run_args("mmsi-video", mmsi, server.url, tmp_path / "o1"))
        second = _invoke(_run_args("remindview", rmv, server.url, tmp_path / "o2"))
    assert first.exit_code == 2 and second.exit_code == 2 and script.log == []
    assert f"1 media file(s) or frame folder(s) missing under {mmsi.resolve()} (" in first.output
    assert str(frame.resolve()) in first.output and "expected layout <data>/frames/..." in first.output
    assert f"{folder.resolve()}; expected layout <data>/<folder_path>/frame<k>.png" in second.output
