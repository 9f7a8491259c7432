"""A file without a column its benchmark needs is one line, exit 2, before any row is read (issue 24).

A 3DSRBench TSV without ``answer`` printed "11 row(s) skipped ... '' is not one of the options", then "no
usable items"; an MMSI-Bench Parquet without ``question_type`` the same. Another benchmark's file of the
same suffix (``--benchmark embspatial`` on ``ViewSpatial-Bench.json``) printed a row list and no hint: it
now names the benchmark whose columns the file has. Each file is the benchmark's own test fixture.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from benchmarks import test_mmsi_bench, test_threedsr, test_viewspatial, test_vsi_super
from spatialbench.cli.main import app
from support.image_tables import write_parquet, write_tsv
from support.kit_tsvs import TSVS


def _baseline(benchmark: str, annotations: Path) -> tuple[int, list[str]]:
    command = ["baseline", "-m", "chance-random", "-b", benchmark, "-a", str(annotations)]
    result = CliRunner().invoke(app, command)
    return result.exit_code, result.stderr.splitlines()


def test_a_3dsrbench_tsv_without_answers_is_one_line(tmp_path: Path) -> None:
    rows = [{k: v for k, v in row.items() if k != "answer"} for row in test_threedsr._kit_rows()]
    table = write_tsv(rows, tmp_path / "3dsrbench_v1_vlmevalkit_circular.tsv")
    assert _baseline("3dsrbench", table) == (2, [
        f"error: {table}: no column 'answer' (columns: index, qid, question, A, B, C, D, category, image, "
        "image_source, image_url)"])


def test_an_mmsi_parquet_without_question_types_is_one_line(tmp_path: Path) -> None:
    parquet, _ = test_mmsi_bench._write_both(tmp_path)
    rows = pd.read_parquet(parquet).drop(columns=["question_type"]).to_dict(orient="records")
    table = write_parquet(rows, tmp_path / "MMSI_Bench.parquet")
    assert _baseline("mmsi-bench", table) == (2, [
        f"error: {table}: no column 'question_type' (columns: id, images, question, answer, thought)"])


def test_viewspatial_json_read_as_embspatial_names_viewspatial(tmp_path: Path) -> None:
    table = test_viewspatial.write_release(tmp_path)
    assert table.name == "ViewSpatial-Bench.json"
    assert _baseline("embspatial", table) == (2, [
        f"error: {table}: no column 'question_id' (columns: question_type, image_path, question, answer, "
        "choices); another benchmark's file? (its columns are those of --benchmark viewspatial)"])


def test_mmsi_parquet_read_as_blink_names_mmsi_bench(tmp_path: Path) -> None:
    parquet, _ = test_mmsi_bench._write_both(tmp_path)
    assert _baseline("blink", parquet) == (2, [
        f"error: {parquet}: no column 'idx' (columns: id, images, question_type, question, answer, "
        "thought); another benchmark's file? (its columns are those of --benchmark mmsi-bench)"])


@pytest.mark.parametrize("benchmark", ["cvbench", "3dsrbench", "mmsi-bench", "viewspatial"])
def test_a_blink_tsv_read_as_another_kit_benchmark_names_blink(benchmark: str, tmp_path: Path) -> None:
    # BLINK's TSV has the kit columns MindCube, MMSI-Bench and ViewSpatial-Bench require too: only its
    # category values (Jigsaw, Relative Depth...) are BLINK's subtasks alone, so blink alone is named
    table = TSVS["blink"](tmp_path)
    code, lines = _baseline(benchmark, table)
    assert code == 2 and len(lines) == 1
    assert lines[0].startswith(f"error: {table}: not a TSV of ")
    assert lines[0].endswith("another benchmark's file? (its columns are those of --benchmark blink)")
    if benchmark == "cvbench":
        assert lines == [f"error: {table}: not a TSV of CV-Bench: no source column (its columns: index, "
                         "question, A, B, answer, category, image); another benchmark's file? (its columns "
                         "are those of --benchmark blink)"]


VSIBENCH_ROW = ('{"id": 0, "dataset": "arkitscenes", "scene_name": "41069025", '
                '"question_type": "object_counting", "question": "How many chair(s) are in this room?", '
                '"options": null, "ground_truth": "2"}\n')


def test_a_vsibench_jsonl_read_as_vsi_super_recall_names_vsibench(tmp_path: Path) -> None:
    table = tmp_path / "test.jsonl"
    table.write_text(VSIBENCH_ROW * 3)
    assert _baseline("vsi-super-recall", table) == (2, [
        f"error: {table}: no column 'video_path' / 'video' (columns: id, dataset, scene_name, question_type, "
        "question, options, ground_truth); another benchmark's file? (its columns are those of --benchmark "
        "vsibench)"])


def test_a_vsi_super_recall_json_read_as_vsibench_names_vsi_super(tmp_path: Path) -> None:
    # the three VSI-SUPER benchmarks require the same columns (their rows tell them apart): all three named
    table = test_vsi_super.recall_release(tmp_path / "data") / "test.json"
    assert _baseline("vsibench", table) == (2, [
        f"error: {table}: no column 'dataset' (columns: id, video_path, split, answer, question, options); "
        "another benchmark's file? (its columns are those of --benchmark vsi-super-recall or --benchmark "
        "vsi-super-count or --benchmark vsi-super-count-streaming)"])


def test_a_mindcube_jsonl_without_answers_is_one_line(tmp_path: Path) -> None:
    # issue 24 leftover: MindCube's JSONL (read line by line, a bad line a row error) printed one
    # "gt_answer: missing" row per line, then "no usable items"
    from benchmarks import test_mindcube

    table = test_mindcube.write_release(tmp_path) / "data" / "raw" / "MindCube_tinybench.jsonl"
    lines = [json.loads(line) for line in table.read_text().splitlines()]
    unanswered = [json.dumps({k: v for k, v in e.items() if k != "gt_answer"}) for e in lines]
    table.write_text("\n".join([*unanswered, "not json"]) + "\n")
    assert _baseline("mindcube", table) == (2, [
        f"error: {table}: no column 'gt_answer' (columns: id, category, type, meta_info, question, images)"])


def test_a_revsi_parquet_without_ground_truth_is_one_line(tmp_path: Path) -> None:
    # issue 24 leftover: a ReVSI budget file without ground_truth printed a row error per row
    from benchmarks import test_revsi

    table = test_revsi.write_release(tmp_path / "revsi") / "all_frame" / "test-00000-of-00001.parquet"
    rows = pd.read_parquet(table).drop(columns=["ground_truth"]).to_dict(orient="records")
    write_parquet(rows, table)
    assert _baseline("revsi", tmp_path / "revsi") == (2, [
        f"error: {table}: no column 'ground_truth' (columns: id, scene_id, question_type, question, "
        "options)"])
