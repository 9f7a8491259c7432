"""``--executor ray``: the same bytes as the local executor, failures retried and reported, re-runs resume."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.generate.executors import (
    ExecutorSettings,
    SceneTasksFailed,
    generate_synthetic_on,
    render_task,
    run_scene_tasks,
)
from spatialbench.synth import RenderConfig, SceneConfig

ray = pytest.importorskip("ray")  # the optional extra spatialbench[ray]
pytestmark = pytest.mark.slow
SMALL = RenderConfig(width=96, height=72, fps=8, max_seconds=1.5)


@pytest.fixture(scope="module")
def cluster():  # type: ignore[no-untyped-def]
    """One local 2-CPU Ray for the module (run_scene_tasks uses it and leaves it running)."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def _digests(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_ray_writes_the_bytes_of_the_local_executor(cluster, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    local = generate_synthetic_on(ExecutorSettings("local"), tmp_path / "local", 3, 5, SMALL)
    seen: list[tuple[int, int, str]] = []
    remote = generate_synthetic_on(
        ExecutorSettings("ray"), tmp_path / "ray", 3, 5, SMALL, progress=lambda *a: seen.append(a)
    )
    assert [r.scene.scene_id for r in remote] == [r.scene.scene_id for r in local]
    digests = _digests(tmp_path / "ray")
    assert digests == _digests(tmp_path / "local") and any(name.endswith(".mp4") for name in digests)
    assert sorted(done for done, _, _ in seen) == [1, 2, 3] and {total for _, total, _ in seen} == {3}
    again = generate_synthetic_on(ExecutorSettings("ray"), tmp_path / "ray", 3, 5, SMALL)
    assert all(r.reused for r in again) and _digests(tmp_path / "ray") == digests  # a re-run resumes


def test_failed_scene_is_reported_and_the_others_kept(cluster, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    good = (str(tmp_path), SceneConfig(room_type="office"), 3, "ok_scene", SMALL)
    bad = (str(tmp_path), SceneConfig(room_type="attic"), 3, "bad_scene", SMALL)  # no such room type
    with pytest.raises(SceneTasksFailed) as caught:
        tasks = [("ok_scene", good), ("bad_scene", bad)]
        run_scene_tasks(render_task, tasks, ExecutorSettings("ray", max_retries=1))
    assert list(caught.value.failures) == ["bad_scene"] and "1 scene(s) failed" in str(caught.value)
    assert "attic" in caught.value.failures["bad_scene"]
    assert (tmp_path / "synthetic" / "ok_scene.mp4").is_file()  # the finished scene is kept


def test_unknown_executor_is_exit_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["generate", "synthetic", "--out", str(tmp_path), "--executor", "dask"])
    assert result.exit_code == 2 and "use one of: local, ray" in result.output


def test_unreachable_ray_address_is_one_line_exit_2_within_seconds(tmp_path: Path) -> None:
    import time

    args = ["generate", "synthetic", "--out", str(tmp_path / "o"), "--scenes", "1", "--executor", "ray"]
    started = time.monotonic()
    result = CliRunner().invoke(app, [*args, "--ray-address", "127.0.0.1:1"])  # port 1: nothing listens
    assert time.monotonic() - started < 30  # was minutes of Ray's GCS warnings
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: --ray-address 127.0.0.1:1: no Ray cluster reachable")
    assert len(result.output.strip().splitlines()) == 1
