"""UTF-8 files with a byte-order mark (Windows editors, Excel) load: MMSI-Video-Bench annotations, pruned-id
lists and run files; a byte that is not UTF-8 is an error naming the file and its line."""

import json
from pathlib import Path

import pytest
from mmsi_remindview_fixtures import build_mmsi, mmsi_samples

from spatialbench.benchmarks.mmsi_video.loader import load_mmsi_video
from spatialbench.benchmarks.vsibench.pruned_ids import read_pruned_ids
from spatialbench.runs.config_file import read_config_file

BOM = b"\xef\xbb\xbf"


def test_mmsi_annotations_with_a_bom_load(tmp_path: Path) -> None:
    data = build_mmsi(tmp_path / "mmsi")
    plain = load_mmsi_video(data)
    path = data / "mmsivideo.json"
    path.write_bytes(BOM + path.read_bytes())
    loaded = load_mmsi_video(data)
    assert len(loaded) == len(plain) == len(mmsi_samples()) and not loaded.errors
    assert [item.id for item in loaded] == [item.id for item in plain]


def test_pruned_ids_with_a_bom_and_a_bad_byte(tmp_path: Path) -> None:
    path = tmp_path / "pruned.txt"
    path.write_bytes(BOM + b"14\n15\n")
    assert read_pruned_ids(path) == {"14", "15"}
    path.write_bytes(b"14\n1\xff5\n")
    with pytest.raises(ValueError, match=r"pruned\.txt:2: not UTF-8 text \(byte 0xff at column 2\)"):
        read_pruned_ids(path)


@pytest.mark.parametrize(("suffix", "text"), [
    (".toml", 'out = "run"\n[model]\nname = "chance-random"\n'),
    (".yaml", "out: run\nmodel: {name: chance-random}\n"),
])
def test_run_files_with_a_bom(tmp_path: Path, suffix: str, text: str) -> None:
    path = tmp_path / f"run{suffix}"
    path.write_bytes(BOM + text.encode())
    data = read_config_file(path)
    assert data["model"] == {"name": "chance-random"} and data["out"] == str(tmp_path / "run")


def test_run_file_with_a_bad_byte_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "run.toml"
    path.write_bytes(b'out = "run"\n[model]\nname = "chance-r\xe9ndom"\n')
    with pytest.raises(ValueError) as caught:
        read_config_file(path)
    assert str(caught.value) == (f"--config {path}:3: not UTF-8 text (byte 0xe9 at column 17); "
                                 "save the file as UTF-8")
    assert json.dumps(str(caught.value))  # one line
