"""Executors of the embarrassingly parallel per-scene work (issue 15): ``local`` (this process) or ``ray``.

Scenes are independent and seeded by their index (:func:`spatialbench.synth.pipeline.scene_configs`), so a
scene renders to the same bytes wherever it runs: ``--executor ray`` writes exactly the files of
``--executor local`` (:func:`spatialbench.synth.pipeline.generate_synthetic`), one Ray task per scene
(layout, render, h264 encode, visibility). Ray (an optional extra, ``pip install 'spatialbench[ray]'``) is
imported only here and only when used; ``address`` None connects to the cluster in ``RAY_ADDRESS`` (Ray reads
it) or starts a local Ray for the command with ``workers`` CPUs, shut down afterwards.

Every node must see ``out`` (a shared file system: the tasks write the scene files there, the driver
writes the combined meta-info). A task that raises or whose worker dies is retried ``max_retries`` times
(Ray's ``max_retries`` with ``retry_exceptions``); scenes that still fail are reported together once the
others are done (:class:`SceneTasksFailed`; finished scenes stay on disk). Progress is reported on the
driver as tasks finish. A re-run resumes: a scene whose complete files are in ``out`` is not rendered again
(:func:`spatialbench.synth.pipeline.render_scene` reuses them).
"""

from __future__ import annotations

import functools
import os
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from spatialbench.errors import SpatialBenchError
from spatialbench.synth.export import write_json
from spatialbench.synth.generator import SceneConfig, generate_scene
from spatialbench.synth.pipeline import (
    RenderConfig,
    RenderedScene,
    generate_synthetic,
    record_written,
    recorded_scenes,
    remove_stale,
    render_scene,
    scene_configs,
    scene_ids,
)
from spatialbench.synth.renderer import Renderer
from spatialbench.synth.scene import SYNTHETIC_DATASET

EXECUTORS = ("local", "ray")
Progress = Callable[[int, int, str], None]
R = TypeVar("R")


class RayUnavailableError(SpatialBenchError, RuntimeError):
    """``--executor ray`` without Ray installed (the message says how to install it)."""


class SceneTasksFailed(SpatialBenchError, RuntimeError):
    """Scenes that failed after their retries; ``failures`` maps scene id → the last error's text."""

    exit_code = 1  # the other scenes ran; a re-run retries these

    def __init__(self, failures: dict[str, str]) -> None:
        shown = "; ".join(f"{scene}: {error}" for scene, error in list(failures.items())[:5])
        super().__init__(f"{len(failures)} scene(s) failed after retries (finished scenes are kept): {shown}")
        self.failures = failures


@dataclass(frozen=True)
class ExecutorSettings:
    """Where per-scene tasks run.

    Attributes:
        name: ``local`` or ``ray``.
        address: Ray cluster address (None: ``RAY_ADDRESS``, else a local Ray for the command).
        workers: CPUs of a local Ray (None: all of the machine's).
        max_retries: retries of a failed scene task (Ray executor).
    """

    name: str = "local"
    address: str | None = None
    workers: int | None = None
    max_retries: int = 2


@functools.cache
def _renderer(width: int, height: int) -> Renderer:
    """One renderer per worker process and frame size, kept for the process's later scenes."""
    return Renderer(width, height)


def render_task(
    out: str, config: SceneConfig, seed: int, scene_id: str, render: RenderConfig
) -> RenderedScene:
    """One scene task: generate scene ``scene_id`` from its config and seed and render it into ``out``."""
    scene = generate_scene(config, seed, scene_id=scene_id)
    return render_scene(scene, Path(out), render, _renderer(render.width, render.height))


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RayUnavailableError(
            "--executor ray needs Ray: pip install 'spatialbench[ray]' (or ray>=2.9)"
        ) from None
    return ray


def check_ray_address(address: str | None, timeout_s: float = 5.0) -> None:
    """Refuse a Ray cluster address (``HOST:PORT`` or ``ray://HOST:PORT``) that nothing answers at.

    ``None`` (a local Ray), ``auto``, ``local`` or an address without a port are left to Ray.

    Raises:
        RayUnavailableError: no TCP connection within ``timeout_s`` seconds (Ray itself retries for
            minutes, printing its GCS warnings).
    """
    host, _, port = (address or "").removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout_s).close()
    except (OSError, OverflowError) as err:
        why = getattr(err, "strerror", None) or str(err)
        raise RayUnavailableError(
            f"--ray-address {address}: no Ray cluster reachable ({why}); start one with `ray start --head` "
            "or leave --ray-address out for a local Ray"
        ) from None


def run_scene_tasks(
    fn: Callable[..., R],
    tasks: Sequence[tuple[str, tuple[Any, ...]]],
    settings: ExecutorSettings,
    progress: Progress | None = None,
) -> list[R]:
    """Run ``fn(*args)`` for every (scene id, args) on Ray; results in task order.

    ``fn`` must be a module-level function (Ray ships it to the workers by name), its arguments and result
    picklable; :func:`render_task` is the synthetic pipeline's. Any other per-scene stage (ReMindView-Bench
    scenes, frame extraction) runs the same way.

    Raises:
        RayUnavailableError: Ray is not installed, or nothing answers at the cluster address
            (:func:`check_ray_address`). SceneTasksFailed: scenes failed after their retries.
    """
    ray = _ray()
    started = not ray.is_initialized()
    check_ray_address(settings.address or (os.environ.get("RAY_ADDRESS") if started else None))
    if started:
        ray.init(
            address=settings.address, num_cpus=settings.workers, include_dashboard=False, log_to_driver=False
        )
    try:
        remote = ray.remote(fn).options(max_retries=settings.max_retries, retry_exceptions=True)
        pending = {remote.remote(*args): scene_id for scene_id, args in tasks}
        results: dict[str, R] = {}
        failures: dict[str, str] = {}
        while pending:
            (ready,), _ = ray.wait(list(pending), num_returns=1)
            scene_id = pending.pop(ready)
            try:
                results[scene_id] = ray.get(ready)
            except Exception as exc:  # noqa: BLE001  (RayTaskError wraps whatever the task raised)
                failures[scene_id] = str(getattr(exc, "cause", None) or exc).strip().splitlines()[-1]
            if progress is not None:
                progress(len(results) + len(failures), len(tasks), scene_id)
    finally:
        if started:
            ray.shutdown()
    if failures:
        raise SceneTasksFailed(failures)
    return [results[scene_id] for scene_id, _ in tasks]


def generate_synthetic_on(
    settings: ExecutorSettings,
    out: Path,
    scenes: int = 3,
    seed: int = 0,
    config: RenderConfig | None = None,
    progress: Progress | None = None,
) -> list[RenderedScene]:
    """:func:`spatialbench.synth.pipeline.generate_synthetic` on the executor of ``settings``.

    ``local`` calls it as it is; ``ray`` runs one task per scene and then, on the driver, does what it does
    after rendering (stale files removed, the combined meta-info written), so the folder is the same.

    Raises:
        ValueError: an unknown executor. RayUnavailableError, SceneTasksFailed: see :func:`run_scene_tasks`.
    """
    if settings.name not in EXECUTORS:
        raise ValueError(f"unknown executor {settings.name!r}; use one of: {', '.join(EXECUTORS)}")
    config = config or RenderConfig()
    if settings.name == "local":
        return generate_synthetic(out, scenes, seed, config, progress=progress)
    out.mkdir(parents=True, exist_ok=True)
    ids = scene_ids(scenes, seed)
    record_written(out, recorded_scenes(out) | set(ids))  # before any file, as the local executor does
    tasks = [
        (i, (str(out), c, s, i, config)) for i, (c, s) in zip(ids, scene_configs(scenes, seed), strict=True)
    ]
    results = run_scene_tasks(render_task, tasks, settings, progress)
    remove_stale(out, set(ids))
    (out / "meta_info").mkdir(exist_ok=True)
    combined = {r.scene.scene_id: r.seen_meta_info for r in results}
    write_json(out / "meta_info" / f"{SYNTHETIC_DATASET}_meta_info.json", combined)
    return results
