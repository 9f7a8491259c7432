"""``demo`` and ``generate synthetic``: one-line errors, Ctrl-C, re-runs, memory (issue 5 newcomer report)."""

from __future__ import annotations

from pathlib import Path

import av
import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.synth import RenderConfig, generate_synthetic
from spatialbench.synth.renderer import Renderer

runner = CliRunner()
TINY = ["--seconds", "1", "--fps", "4", "--width", "32", "--height", "24", "--render-only"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["demo", "--seconds", "inf"], "finite number of seconds"),
        (["demo", "--seconds", "nan"], "--seconds"),
        (["demo", "--seed", "-5"], "--seed"),
        (["demo", "--out", "{file}"], "not a writable folder (exists and is not a folder)"),
        (["demo", "--out", "{file}/sub"], "not a writable folder"),
        (["demo", "--out", "/proc/x"], "not a writable folder"),
        (["generate", "synthetic", "--out", "{file}"], "not a writable folder (exists and is not a folder)"),
        (["generate", "synthetic", "--out", "{dir}", "--width", "641"], "even number of pixels"),
        (["generate", "synthetic", "--out", "{dir}", "--width", "20000", "--height", "20000"], "up to 4096"),
        (["generate", "synthetic", "--out", "{dir}", "--seed", "-5"], "--seed"),
    ],
)
def test_bad_options_are_one_line_errors(tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "afile").write_text("x")
    fill = {"file": str(tmp_path / "afile"), "dir": str(tmp_path / "out")}
    result = runner.invoke(app, [a.format(**fill) for a in args])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert message in " ".join(result.output.replace("│", " ").split())  # rich boxes wrap long lines


def test_render_config_refuses_odd_sizes() -> None:
    with pytest.raises(ValueError, match="even"):
        RenderConfig(width=641)
    with pytest.raises(ValueError, match="finite"):
        RenderConfig(max_seconds=float("inf"))


def test_one_frame_is_singular(tmp_path: Path) -> None:
    args = ["--seconds", "1", "--fps", "1", "--width", "32", "--height", "24", "--render-only"]
    result = runner.invoke(app, ["generate", "synthetic", "--out", str(tmp_path), "--scenes", "1", *args])
    assert result.exit_code == 0, result.output
    assert ", 1 frame, " in result.output and "1 frames" not in result.output


def test_ctrl_c_leaves_no_truncated_video_and_a_rerun_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    render = Renderer.render
    calls = [0]

    def interrupting(self: Renderer, K, pose, **kwargs):  # type: ignore[no-untyped-def]
        calls[0] += 1
        if calls[0] == 6:  # scene 0 has 4 frames (1 s at 4 fps): Ctrl-C in the middle of scene 1
            raise KeyboardInterrupt
        return render(self, K, pose, **kwargs)

    monkeypatch.setattr(Renderer, "render", interrupting)
    out = tmp_path / "bench"
    result = runner.invoke(app, ["generate", "synthetic", "--out", str(out), "--scenes", "2", *TINY])
    assert result.exit_code == 130
    assert "interrupted; 1 scene finished; re-run" in result.output
    assert sorted(p.name for p in (out / "synthetic").iterdir()) == ["synth_0000_000.mp4"]  # no partial
    assert not list(out.rglob("*.part"))
    first = (out / "synthetic" / "synth_0000_000.mp4").stat().st_mtime_ns
    calls[0] = -(10**6)  # no more interruptions
    rendered = generate_synthetic(out, 2, 0, RenderConfig(width=32, height=24, fps=4, max_seconds=1.0))
    assert [r.reused for r in rendered] == [True, False]
    assert (out / "synthetic" / "synth_0000_000.mp4").stat().st_mtime_ns == first
    with av.open(str(out / "synthetic" / "synth_0000_001.mp4")) as video:
        assert sum(1 for _ in video.decode(video=0)) == len(rendered[1].visibility.timestamps)


def test_rerun_with_fewer_scenes_removes_stale_outputs(tmp_path: Path) -> None:
    config = RenderConfig(width=32, height=24, fps=4, max_seconds=1.0)
    generate_synthetic(tmp_path, 3, 0, config)
    (tmp_path / "synthetic" / ".synth_0000_002.mp4.part").write_bytes(b"left by a crash")
    (tmp_path / "synthetic" / "mine.mp4").write_bytes(b"a user's file: not ours to remove")
    (tmp_path / "scenes" / "notes").mkdir()
    rendered = generate_synthetic(tmp_path, 1, 0, config)
    assert sorted(p.name for p in (tmp_path / "synthetic").iterdir()) == ["mine.mp4", "synth_0000_000.mp4"]
    assert sorted(p.name for p in (tmp_path / "scenes").iterdir()) == ["notes", "synth_0000_000"]
    assert rendered[0].reused


def test_rendered_scenes_hold_no_frames(tmp_path: Path) -> None:
    # All scenes' masks and depth used to stay in the results list (~190 MB per 640x480 scene).
    rendered = generate_synthetic(tmp_path, 2, 0, RenderConfig(width=32, height=24, fps=4, max_seconds=1.0))
    for r in rendered:
        assert "frames" not in vars(r)
        frames = r.frames  # read back from frames.npz on demand
        assert frames.instance.shape == (len(r.visibility.timestamps), 24, 32)
        assert r.visibility.pixels.nbytes < frames.instance.nbytes


def test_rerun_after_a_synth_code_change_renders_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A re-run used to reuse videos rendered by older renderer code whenever the scene and poses matched.
    import spatialbench.synth.pipeline as pipeline

    config = RenderConfig(width=32, height=24, fps=4, max_seconds=1.0)
    generate_synthetic(tmp_path, 1, 0, config)
    assert generate_synthetic(tmp_path, 1, 0, config)[0].reused
    monkeypatch.setattr(pipeline, "synth_code_digest", lambda: "changed")
    assert not generate_synthetic(tmp_path, 1, 0, config)[0].reused
