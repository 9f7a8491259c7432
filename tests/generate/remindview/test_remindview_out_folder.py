"""``generate remindview --out``: only files the command recorded writing are ever removed (issue 12)."""

from __future__ import annotations

import pytest
from remindview_cli import generate
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.generate.remindview import pipeline
from spatialbench.generate.remindview.written import WRITTEN

# two targets: the first (the bed) has no frame set whose view-centric frames all show an object (issue 27)
TINY = ["--scenes", "1", "--max-targets", "2", "--levels", "0", "--width", "64", "--height", "48"]


def _invoke(out: str, *extra: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["generate", "remindview", "--out", out, *extra])
    return result.exit_code, result.output


def _one_error_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), output
    return lines[0]


def test_user_files_under_the_names_it_writes_are_refused_and_kept(tmp_path):
    out = tmp_path / "uf"
    (out / "object_centric_outputs").mkdir(parents=True)
    (out / "object_centric_outputs" / "mywork.txt").write_text("precious\n")
    (out / "manifest.json").write_text('{"mine":1}\n')
    code, output = _invoke(str(out), *TINY)
    assert code == 2
    line = _one_error_line(output)
    assert "object_centric_outputs/mywork.txt" in line and "manifest.json" in line
    assert (out / "object_centric_outputs" / "mywork.txt").read_text() == "precious\n"
    assert (out / "manifest.json").read_text() == '{"mine":1}\n'
    assert sorted(p.name for p in out.rglob("*")) == ["manifest.json", "mywork.txt", "object_centric_outputs"]


def test_a_users_dataset_card_and_metadata_are_refused_and_kept(tmp_path):
    # the Hugging Face folder's README.md and metadata.jsonl (issue 22 item 7) were overwritten
    out = tmp_path / "hf"
    out.mkdir()
    (out / "README.md").write_text("# my notes\n")
    (out / "metadata.jsonl").write_text('{"mine": 1}\n')
    code, output = _invoke(str(out), *TINY)
    line = _one_error_line(output)
    assert code == 2 and "README.md" in line and "metadata.jsonl" in line
    assert (out / "README.md").read_text() == "# my notes\n"
    assert (out / "metadata.jsonl").read_text() == '{"mine": 1}\n'


def test_a_file_added_to_a_generated_folder_is_refused_then_a_clean_rerun_works(tmp_path):
    out = tmp_path / "set"
    generate(out, *TINY)
    written = (out / WRITTEN).read_text().splitlines()[1:]
    assert "manifest.json" in written and any(name.endswith("frame0.png") for name in written)
    scene_json = next(out.rglob("scene.json"))
    mine = scene_json.with_name("notes.txt")
    mine.write_text("mine")
    code, output = _invoke(str(out), *TINY)
    assert code == 2 and mine.relative_to(out).as_posix() in _one_error_line(output)
    assert mine.read_text() == "mine"
    mine.unlink()
    generate(out, *TINY)  # everything left is recorded: the re-run replaces it
    assert sorted((out / WRITTEN).read_text().splitlines()[1:]) == sorted(written)


def test_an_empty_out_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, output = _invoke("", *TINY)
    assert code == 2 and "--out" in _one_error_line(output)
    assert list(tmp_path.iterdir()) == []


def test_other_csv_files_are_refused_up_front_naming_them(tmp_path):
    out = tmp_path / "set"
    out.mkdir()
    (out / "results.csv").write_text("a,b\n1,2\n")
    code, output = _invoke(str(out), *TINY)
    assert code == 2 and "results.csv" in _one_error_line(output)
    assert [p.name for p in out.iterdir()] == ["results.csv"]


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (["--width", "20000"], "--width 20000: use 16 to 4096 pixels"),
        (["--height", "8"], "--height 8: use 16 to 4096 pixels"),
        (["--rig", "sideways"], "--rig sideways: choose from object-centric, view-centric"),
        (["--scenes", "0"], "--scenes 0: use a whole number of at least 1"),
        (["--max-targets", "0"], "--max-targets 0: use a whole number of at least 1"),
        (["--seed", "-1"], "--seed -1: use a whole number of at least 0"),
    ],
)
def test_bad_options_are_one_line_errors(tmp_path, extra, expected):
    code, output = _invoke(str(tmp_path / "x"), *extra)
    assert code == 2 and _one_error_line(output) == f"error: {expected}"
    assert not (tmp_path / "x").exists()


def test_odd_frame_sides_are_fine_for_png_frames(tmp_path):
    generate(tmp_path / "odd", *TINY[:-4], "--width", "65", "--height", "49")
    assert next((tmp_path / "odd").rglob("frame0.png")).stat().st_size > 0


def test_ctrl_c_says_what_happens_and_the_same_command_then_completes(tmp_path, monkeypatch):
    out = tmp_path / "set"
    real = pipeline.scene_of

    def second_scene_interrupts(config, index):
        if index == 1:
            raise KeyboardInterrupt
        return real(config, index)

    monkeypatch.setattr(pipeline, "scene_of", second_scene_interrupts)
    args = ["--scenes", "2", *TINY[2:]]
    code, output = _invoke(str(out), *args)
    assert code == 130
    assert output.splitlines()[-1] == (
        "interrupted after 1 of 2 scenes; no QA tables were written yet; re-run the same command to start "
        "again (it first removes the files this run wrote)"
    )
    assert not (out / "manifest.json").exists() and (out / WRITTEN).exists()
    monkeypatch.setattr(pipeline, "scene_of", real)
    generate(out, *args)
    recorded = set((out / WRITTEN).read_text().splitlines()[1:])
    on_disk = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    assert on_disk - recorded == {WRITTEN}


def test_a_file_list_it_did_not_write_is_refused(tmp_path):
    out = tmp_path / "set"
    out.mkdir()
    (out / WRITTEN).write_text("manifest.json\n")  # no header: someone else's list
    (out / "manifest.json").write_text("mine\n")
    code, output = _invoke(str(out), *TINY)
    assert code == 2 and WRITTEN in _one_error_line(output)
    assert (out / "manifest.json").read_text() == "mine\n"


def test_a_link_to_a_folder_inside_the_generated_folder_is_refused_and_its_target_kept(tmp_path):
    out, theirs = tmp_path / "set", tmp_path / "theirs"
    generate(out, *TINY)
    theirs.mkdir()
    (theirs / "keep.txt").write_text("keep")
    link = out / "object_centric_outputs" / "Bedroom" / "linked"
    link.symlink_to(theirs, target_is_directory=True)
    code, output = _invoke(str(out), *TINY)
    assert code == 2 and "object_centric_outputs/Bedroom/linked" in _one_error_line(output)
    assert (theirs / "keep.txt").read_text() == "keep" and link.is_symlink()
