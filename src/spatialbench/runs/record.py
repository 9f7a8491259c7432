"""What every run writes and reads first: its items loaded, its configuration recorded (``config.json``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from spatialbench.benchmarks.spec import BenchmarkSpec
from spatialbench.records.files import atomic_write_text
from spatialbench.records.redaction import redact
from spatialbench.records.rows import LoadedItems
from spatialbench.runs.checks import RunSetupError
from spatialbench.runs.config import RunConfig
from spatialbench.runs.environment import environment
from spatialbench.runs.store import RunStore


def load_run_items(config: RunConfig, spec: BenchmarkSpec) -> LoadedItems:
    """Load the run's benchmark; an unreadable annotation file or no items is one RunSetupError naming it.

    Raises:
        RunSetupError: the data cannot be read (the message names the path) or holds no item.
    """
    data = config.data.path
    try:
        loaded = spec.load_items(data, **config.data.options)
    except (ValueError, OSError) as exc:  # AnnotationFileError, FileNotFoundError, bad option value
        message = str(exc)
        raise RunSetupError(message if data in message else f"{data}: {message}") from None
    if not loaded:
        errors = [str(e) for e in loaded.errors]
        unread = f"; {len(errors)} row(s) could not be read, first: {errors[0]}" if errors else ""
        raise RunSetupError(f"no items in {data}{unread}")
    return loaded


def recorded_config(config: RunConfig) -> dict[str, Any]:
    """Return ``config`` as recorded: JSON, with ``out``, ``data.path`` and a given ``meta_info`` absolute.

    So the analyses of a run (``errors``, ``cogmap``, ``score --run``) find its data from any folder, and
    ``run --config RUN/config.json`` (or a YAML file made from the record) resumes the same folder from
    anywhere (:mod:`spatialbench.runs.config_file`).
    """
    record = config.model_dump(mode="json")
    record["out"] = str(Path(config.out).absolute())
    record["data"]["path"] = str(Path(config.data.path).absolute())
    params = record["strategy"]["params"]
    if isinstance(params.get("meta_info"), str) and params["meta_info"]:
        params["meta_info"] = str(Path(params["meta_info"]).absolute())
    return record


def record_run(
    store: RunStore, config: RunConfig, backend: dict[str, Any], prompt: dict[str, Any], secrets: list[str]
) -> None:
    """Write config, package versions and back-end settings (redacted) to the store and ``config.json``.

    ``config.json`` is replaced whole (:func:`~spatialbench.records.files.atomic_write_text`).

    Raises:
        OSError: ``config.json`` cannot be written (a full disk); the earlier one is kept.
    """
    record = {
        "config": recorded_config(config),
        "environment": environment(),
        "backend": backend,
        "prompt": prompt,
    }
    record = json.loads(redact(json.dumps(record), secrets))  # describe() may hold a URL
    store.record_invocation(record["config"], record["environment"], record["backend"])
    atomic_write_text(Path(config.out) / "config.json", json.dumps(record, indent=2) + "\n")  # no 0-byte file
