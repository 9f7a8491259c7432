"""Ingestion of bad or partial input: labels remapped or dropped (reported), errors naming the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.scene import load_meta_info
from spatialbench.scene.ingest import IngestError, ingest
from spatialbench.synth import SceneConfig, generate_scene
from spatialbench.synth.plan import PlanKind
from support.scan_writers import write_arkitscenes, write_scannet


@pytest.fixture(scope="module")
def scene():  # type: ignore[no-untyped-def]
    return generate_scene(SceneConfig(room_type="bedroom", plan=PlanKind.L_SHAPE), seed=3)  # has a book


def test_unknown_labels_are_dropped_and_counted(tmp_path: Path, scene) -> None:  # type: ignore[no-untyped-def]
    write_scannet(scene, tmp_path)
    (result,) = ingest("scannet", tmp_path)
    # 'book' is no VSI-Bench category; ScanNet's raw 'trash can' became 'trash bin'; walls/floor silent.
    books = sum(o.category == "book" for o in scene.objects)
    assert books >= 1 and result.dropped == {"book": books}
    assert "trash bin" in result.scene.objects and "trash can" not in result.scene.objects


def test_segment_count_mismatch_names_the_file(tmp_path: Path, scene) -> None:  # type: ignore[no-untyped-def]
    folder = write_scannet(scene, tmp_path)
    segs = folder / f"{scene.scene_id}_vh_clean_2.0.010000.segs.json"
    data = json.loads(segs.read_text())
    data["segIndices"] = data["segIndices"][:-5]
    segs.write_text(json.dumps(data))
    with pytest.raises(IngestError, match=rf"{segs.name}: segIndices has \d+ entries, the mesh \d+ vertices"):
        ingest("scannet", folder)


def test_missing_box_field_names_the_entry(tmp_path: Path, scene) -> None:  # type: ignore[no-untyped-def]
    folder = write_arkitscenes(scene, tmp_path)
    annotation = folder / f"{scene.scene_id}_3dod_annotation.json"
    data = json.loads(annotation.read_text())
    del data["data"][2]["segments"]["obbAligned"]["axesLengths"]
    annotation.write_text(json.dumps(data))
    with pytest.raises(IngestError, match=r"data\[2\]\.segments\.obbAligned: missing field 'axesLengths'"):
        ingest("arkitscenes", tmp_path)


def test_folder_without_scans(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match="no scannetpp scan folder"):
        ingest("scannetpp", tmp_path)


def test_cli_writes_meta_info_and_report(tmp_path: Path, scene) -> None:  # type: ignore[no-untyped-def]
    write_scannet(scene, tmp_path / "scans")
    labels = tmp_path / "labels.json"
    labels.write_text(json.dumps({"book": "bookshelf"}))  # a target must be a VSI-Bench category
    out = tmp_path / "out"
    result = CliRunner().invoke(
        app, ["ingest", "scannet", str(tmp_path / "scans"), "--out", str(out), "--labels", str(labels)]
    )
    assert result.exit_code == 0, result.output
    scenes = load_meta_info(out / "scannet_meta_info.json")
    shelves = sum(o.category in ("book", "bookshelf") for o in scene.objects)
    assert list(scenes) == [scene.scene_id] and "book" not in scenes[scene.scene_id].objects
    assert len(scenes[scene.scene_id].objects["bookshelf"]) == shelves
    report = json.loads((out / "ingest.json").read_text())
    assert report == {scene.scene_id: {"dropped_labels": {}, "skipped_instances": {}}}


def test_cli_unknown_label_target_names_file_line_and_near_misses(tmp_path: Path, scene) -> None:  # type: ignore[no-untyped-def]
    write_scannet(scene, tmp_path / "scans")
    labels = tmp_path / "labels.json"
    labels.write_text('{\n  "book": "bookshelf",\n  "armchair": "chiar"\n}\n')
    out = tmp_path / "out"
    result = CliRunner().invoke(
        app, ["ingest", "scannet", str(tmp_path / "scans"), "--out", str(out), "--labels", str(labels)]
    )
    assert result.exit_code == 2
    assert result.output.strip() == (
        f"error: --labels {labels} line 3: 'armchair' -> 'chiar' is not a VSI-Bench category "
        "(did you mean chair?)"
    )
    assert not out.exists()


def test_cli_unknown_format_exits_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["ingest", "scanet", str(tmp_path), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and "did you mean 'scannet'" in result.output


def test_scannet_axis_alignment_is_applied(tmp_path: Path, scene) -> None:  # type: ignore[no-untyped-def]
    folder = write_scannet(scene, tmp_path)
    (plain,) = ingest("scannet", folder)
    # a quarter turn about +z, then 1 m along x and 2 m along y (row-major 4x4, as ScanNet's <scene>.txt)
    matrix = [0, -1, 0, 1, 1, 0, 0, 2, 0, 0, 1, 0, 0, 0, 0, 1]
    (folder / f"{scene.scene_id}.txt").write_text(
        "colorHeight = 968\naxisAlignment = " + " ".join(str(v) for v in matrix) + "\n"
    )
    (aligned,) = ingest("scannet", folder)
    bed = plain.scene.objects["bed"][0].box.center
    assert aligned.scene.objects["bed"][0].box.center == pytest.approx(
        [1 - bed[1], 2 + bed[0], bed[2]], abs=1e-6
    )
    assert aligned.scene.room_size == pytest.approx(plain.scene.room_size, rel=1e-9)


def _ingest_cli(scans: Path, out: Path) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["ingest", "scannet", str(scans), "--out", str(out)])
    assert "Traceback" not in result.output and not isinstance(result.exception, ValueError)
    return result.exit_code, result.output.strip()


def test_cli_nan_in_axis_alignment_names_the_line(tmp_path: Path, scene) -> None:  # type: ignore[no-untyped-def]
    folder = write_scannet(scene, tmp_path / "scans")
    (folder / f"{scene.scene_id}.txt").write_text(
        "colorHeight = 968\naxisAlignment = "
        + " ".join(["1", "0", "0", "nan", "0", "1", "0", "0", "0", "0", "1", "0", "0", "0", "0", "1"])
        + "\n"
    )
    code, output = _ingest_cli(tmp_path / "scans", tmp_path / "out")
    assert code == 2
    assert output == (
        f"error: {folder / f'{scene.scene_id}.txt'}:2: axisAlignment: expected 16 finite "
        "numbers, not NaN or inf"
    )
    assert not (tmp_path / "out").exists()


def test_cli_nan_mesh_vertex_names_the_file_and_vertex(tmp_path: Path, scene) -> None:  # type: ignore[no-untyped-def]
    import numpy as np
    import trimesh

    folder = write_scannet(scene, tmp_path / "scans")
    ply = folder / f"{scene.scene_id}_vh_clean_2.ply"
    mesh = trimesh.load(ply, process=False, force="mesh")
    vertices = np.array(mesh.vertices)
    vertices[7, 1] = np.nan
    trimesh.Trimesh(vertices, mesh.faces, process=False).export(ply, encoding="binary")
    code, output = _ingest_cli(tmp_path / "scans", tmp_path / "out")
    assert code == 2
    assert output.startswith(f"error: {ply}: vertex 7 is not finite (")
    assert output.endswith("); 1 such vertices")
    assert not (tmp_path / "out").exists()
