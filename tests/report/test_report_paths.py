"""Local absolute paths in a report's files become paths relative to the report folder (issue 22)."""

from __future__ import annotations

from pathlib import Path

from spatialbench.report.paths import relativize


def test_known_folders_become_relative_as_whole_segments_only(tmp_path: Path) -> None:
    out, run, sibling = tmp_path / "report", tmp_path / "runs" / "run", tmp_path / "runs" / "run2"
    (out / "items").mkdir(parents=True)
    page = out / "items" / "a.html"
    page.write_text(f"<pre>{run}/analysis/judge.json · {sibling}/x · {out}/index.html · {tmp_path}</pre>")
    (out / "figure.png").write_bytes(f"{run}".encode())  # not a text file of the report: left alone
    assert relativize(out, [run]) == 1
    text = page.read_text()
    assert text.startswith("<pre>../runs/run/analysis/judge.json · ")
    # run2 is not under run: its path stays absolute (only the known folders and the report move)
    assert f"{sibling}/x · ./index.html · " in text
    assert (out / "figure.png").read_bytes() == f"{run}".encode()


def test_the_home_folder_is_written_as_a_tilde(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    home = tmp_path / "home" / "me"
    monkeypatch.setenv("HOME", str(home))
    out = tmp_path / "report"
    out.mkdir()
    (out / "t.md").write_text(f"data in {home}/data/VSI-Bench")
    relativize(out, [])
    assert (out / "t.md").read_text() == "data in ~/data/VSI-Bench"
