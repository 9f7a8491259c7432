"""Generated benchmarks are Hugging Face dataset folders (issue 22 item 7).

``datasets.load_dataset(folder)`` returns the questions (VSI-style: one row per ``test.jsonl`` record;
ReMindView-style: one row per question with its frames as ``Image`` features), and the card's YAML header
parses and names configs, data files, features, license, generator version and seed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from spatialbench.api.generating import generate
from spatialbench.benchmarks import load_items
from spatialbench.cli.main import app
from spatialbench.generate.card import generator_version

datasets = pytest.importorskip("datasets")

#: a 1x1 PNG (its first 8 bytes are the PNG signature)
PNG_1PX = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                        "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")


def _card(folder: Path) -> tuple[dict, str]:
    text = (folder / "README.md").read_text()
    _, header, body = text.split("---\n", 2)
    return yaml.safe_load(header), body


def test_a_remindview_folder_loads_as_its_questions_with_images(tmp_path: Path) -> None:
    out = tmp_path / "rv"
    (out / "mine").mkdir(parents=True)
    (out / "mine" / "photo.png").write_bytes(PNG_1PX)  # the user's own image: not a row
    generate("remindview", out, scenes=1, levels=[0, 5], max_targets=2, width=160, height=120, seed=4)
    manifest = json.loads((out / "manifest.json").read_text())
    rows = datasets.load_dataset(str(out), split="test", cache_dir=str(tmp_path / "cache"))
    assert rows.num_rows == manifest["questions"]
    assert isinstance(rows.features["images"].feature, datasets.Image)
    first = rows[0]
    frames = sorted((out / first["folder_path"]).glob("*.png"))
    assert len(first["images"]) == len(frames) and first["images"][0].size == (160, 120)
    assert "frame" in first["query"] and first["ground_truth"]  # a question, not an image labelled level_*
    header, body = _card(out)
    assert header["license"] == "apache-2.0"
    assert header["configs"][0]["data_files"] == [{"split": "test", "path": [
        "metadata.jsonl", "object_centric_outputs/**/frame*.png", "view_centric_outputs/**/frame*.png"]}]
    assert {"name": "images", "list": "image"} in header["dataset_info"]["features"]
    assert f"spatialbench {generator_version()}" in body and "- seed: 4" in body
    # the ReMindView loader still reads only its QA tables (the card's data is no .csv / .parquet)
    assert len(load_items("remindview", out)) == manifest["questions"]


def _card_features(folder: Path) -> object:
    """The features the card's YAML declares, as ``datasets`` reads them."""
    return datasets.DatasetInfo._from_yaml_dict(_card(folder)[0]["dataset_info"]).features


def test_a_remindview_card_declares_the_types_of_its_rows(tmp_path: Path) -> None:
    # the card declared every column string and the rows held "True", "1", "frame2, frame1" (newcomer)
    out = tmp_path / "rv"
    generate("remindview", out, scenes=1, levels=[0, 5], max_targets=2, width=160, height=120, seed=4)
    rows = datasets.load_dataset(str(out), split="test", cache_dir=str(tmp_path / "cache"))
    value, listed = datasets.Value, datasets.List
    assert rows.features == datasets.Features({
        "folder_path": value("string"), "query_type": value("string"), "query": value("string"),
        "ground_truth": value("string"), "choices": listed(value("string")), "cross_frame": value("bool"),
        "perspective_changing": value("bool"), "object_num": value("int64"), "template": value("int64"),
        "bindings": value("string"), "answer_index": value("int64"), "images": listed(datasets.Image())})
    assert _card_features(out) == rows.features
    first = {k: v for k, v in rows[0].items() if k != "images"}
    # the first question of seed 4 (its QA table row: choices "frame2, frame1", answer index 1)
    assert (first["choices"], first["answer_index"]) == (["frame2", "frame1"], 1)
    assert first["ground_truth"] == "frame1"
    assert first["choices"][first["answer_index"]] == first["ground_truth"]
    assert (first["cross_frame"], first["perspective_changing"], first["template"]) == (True, False, 1)


def test_a_remindview_folder_stores_each_frame_once(tmp_path: Path) -> None:
    # 138 questions over 5 frame sets (13 frames): embedding each question's frames made hf/test.arrow 5.4 MB
    out = tmp_path / "rv"
    generate("remindview", out, scenes=1, levels=[0, 5], max_targets=2, width=160, height=120, seed=4)
    frames = sorted(out.glob("*_outputs/**/frame*.png"))
    others = [p for p in out.rglob("*") if p.is_file() and p not in frames]
    assert len(frames) == 13 and all(PNG_1PX[:8] not in p.read_bytes() for p in others)
    lines = [json.loads(line) for line in (out / "metadata.jsonl").read_text().splitlines()]
    assert len(lines) == json.loads((out / "manifest.json").read_text())["questions"] == 138
    assert {f for line in lines for f in line["images_file_names"]} == {p.relative_to(out).as_posix()
                                                                         for p in frames}


def test_a_vsi_folder_loads_as_its_questions(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["demo", "--out", str(tmp_path / "demo"), "--scenes", "1",
                                      "--seconds", "4", "--seed", "2"])
    assert result.exit_code == 0, result.output
    bench = tmp_path / "demo" / "benchmark"
    records = [json.loads(line) for line in (bench / "test.jsonl").read_text().splitlines()]
    rows = datasets.load_dataset(str(bench), split="test", cache_dir=str(tmp_path / "cache"))
    assert rows.num_rows == len(records)
    by_id = {int(r["id"]): (r["question"], r["question_type"], r["ground_truth"]) for r in records}
    assert {r["id"]: (r["question"], r["question_type"], r["ground_truth"]) for r in rows} == by_id
    header, body = _card(bench)
    assert _card_features(bench) == rows.features  # the card declares the columns' own types
    assert rows.features["id"] == datasets.Value("int64")
    assert rows.features["mc_options"] == datasets.List(datasets.Value("string"))
    assert header["configs"][0]["data_files"] == [{"split": "test", "path": ["test.parquet"]}]
    names = [f["name"] for f in header["dataset_info"]["features"]]
    assert {"id", "question", "ground_truth", "scene_name"} <= set(names)
    assert header["dataset_info"]["splits"] == [{"name": "test", "num_examples": len(records)}]
    assert "- seed: 2" in body
