"""A run as an Inspect AI eval log, so ``inspect view`` opens it (``spatialbench export --format inspect``).

Written as Inspect's JSON log (``.json``, log format version 2: the fields of ``inspect_ai.log.EvalLog``)
from plain dicts, so writing needs no ``inspect_ai``:

* ``eval``: the eval spec — task = the benchmark, model, dataset (name, sample count and ids), the
  decoding settings as ``model_generate_config``, the run's settings line and frame strategy in
  ``metadata``; ``plan``: one step, the strategy with its parameters.
* ``samples``: one per item the run selected, in benchmark order — ``input`` (the question and options),
  ``target`` (the ground truth), ``messages`` (every turn as sent and received, from
  :func:`~spatialbench.runs.transcript.transcript`: the system text, each turn's user message, images as
  their labels, ``[0.07 s]``, or with ``images=True`` as JPEG data URLs, and the reply), ``output`` (the
  final answer), ``scores["spatialbench"]`` (the item's score in [0, 1], the extracted answer, the rule),
  token usage, latency, the run's error for a failed item, and the judge / consistency verdicts stored
  about it in ``metadata``.
* ``results``: the run's table as metrics (``Avg`` and each column, percent; VSI-Bench Table 1 layout).

Every text is redacted (:func:`~spatialbench.records.redaction.redact`); media paths are written relative
to the benchmark folder. The output depends only on the run folder (``created`` is ``config.json``'s time).
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import math
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from spatialbench.errors import SpatialBenchError
from spatialbench.records.files import atomic_write_text
from spatialbench.records.item import Item
from spatialbench.records.redaction import redact
from spatialbench.report.sheets import SheetMaker
from spatialbench.runs.folder import RunFolder, open_run
from spatialbench.runs.imported import imported_solver, imported_source
from spatialbench.runs.plan import data_root
from spatialbench.runs.transcript import Transcript, TranscriptTurn, data_relative, settings_line, transcripts
from spatialbench.scoring.scorer import ScoreResult

SCORER = "spatialbench"
"""The score name every sample and the results carry."""

Images = dict[tuple[str, int | None], str]
"""(stored source, frame number) → a JPEG data URL."""


class ExportError(SpatialBenchError, ValueError):
    """An export that cannot be written (the message names the file or the option)."""


def _content(turn: TranscriptTurn, images: Images) -> str | list[dict[str, Any]]:
    """Return a turn's user content: its text alone, or each image embedded before it (as sent)."""
    embedded = [images[(i.source, i.frame)] for i in turn.images if (i.source, i.frame) in images]
    if not embedded:
        return redact(turn.text)
    return [
        *({"type": "image", "image": url, "detail": "auto"} for url in embedded),
        {"type": "text", "text": redact(turn.text)},
    ]


def messages(found: Transcript, model: str, images: Images) -> list[dict[str, Any]]:
    """Return the item's dialogue as Inspect chat messages: system, then user / assistant per turn."""
    out: list[dict[str, Any]] = []
    for turn in found.turns:
        if turn.system:
            out.append({"role": "system", "content": redact(turn.system), "source": "input"})
        out.append(
            {
                "role": "user",
                "content": _content(turn, images),
                "source": "input",
                "metadata": {"turn": turn.name},
            }
        )
        meta = {
            "turn": turn.name,
            "status": turn.status,
            "latency_s": turn.latency_s,
            "input_tokens": turn.input_tokens,
            "output_tokens": turn.output_tokens,
        }
        if turn.error:
            meta["error"] = redact(turn.error)
        out.append(
            {
                "role": "assistant",
                "content": redact(turn.reply or ""),
                "source": "generate",
                "model": model,
                "metadata": meta,
            }
        )
    return out


def _usage(turns: list[TranscriptTurn]) -> dict[str, int]:
    given = [t for t in turns if t.input_tokens is not None or t.output_tokens is not None]
    inputs = sum(t.input_tokens or 0 for t in given)
    outputs = sum(t.output_tokens or 0 for t in given)
    return {"input_tokens": inputs, "output_tokens": outputs, "total_tokens": inputs + outputs}


def _frames(found: Transcript, root: Path) -> list[dict[str, Any]]:
    """Return the images sent, each source relative to the benchmark folder (else its name: no local path)."""

    def relative(source: str) -> str:
        inside = data_relative(root, source)
        return inside.as_posix() if inside is not None else Path(source).name

    return [
        {"source": relative(i.source), "frame": i.frame, "time_s": i.time_s, "label": i.label}
        for i in found.images
    ]


def _score(row: dict[str, Any] | None) -> dict[str, dict[str, Any]] | None:
    if row is None or _missing(row.get("score")):
        return None
    extracted = row.get("extracted")
    return {
        SCORER: {
            "value": float(row["score"]),
            "answer": None if _missing(extracted) else str(extracted),
            "explanation": f"rule {row.get('rule')}",
            "history": [],
        }
    }


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _input(item: Item) -> str:
    return "\n".join([item.question, *(item.options or [])])


def sample(
    item: Item, found: Transcript | None, row: dict[str, Any] | None, model: str, root: Path, images: Images
) -> dict[str, Any]:
    """Return one item's Inspect sample (module docstring); ``found`` None: the run stored nothing for it."""
    turns = found.turns if found is not None else []
    answer = redact(found.answer or "") if found is not None else ""
    usage = _usage(turns)
    out: dict[str, Any] = {
        "id": item.id,
        "epoch": 1,
        "input": _input(item),
        "target": str(item.ground_truth),
        "messages": messages(found, model, images) if found is not None else [],
        "output": {
            "model": model,
            "completion": answer,
            "usage": usage,
            "choices": [
                {
                    "message": {"role": "assistant", "content": answer, "source": "generate", "model": model},
                    "stop_reason": "stop",
                }
            ],
        },
        "metadata": {
            "task": item.task,
            "scene_id": item.scene_id,
            "dataset": item.dataset,
            "status": found.status if found is not None else "not answered",
            "strategy": found.strategy if found is not None else None,
            "frames": _frames(found, root) if found is not None else [],
            "analyses": _side(found),
            **_maps(found),
        },
        "model_usage": {model: usage} if turns else {},
        "total_time": sum(t.latency_s or 0.0 for t in turns),
        "attachments": {},
        "events": [],
    }
    if item.options:
        out["choices"] = list(item.options)
    scores = _score(row)
    if scores is not None:
        out["scores"] = scores
    if found is not None and found.status == "failed":
        error = redact(next((t.error for t in reversed(turns) if t.error), None) or "failed")
        out["error"] = {"message": error, "traceback": "", "traceback_ansi": ""}
    return out


def _maps(found: Transcript | None) -> dict[str, Any]:
    """Return a map strategy's predicted and ground-truth maps (category → grid cells), when it drew one."""
    if found is None or (found.predicted_map is None and found.truth_map is None):
        return {}
    return {
        "cognitive_map": {
            "grid": found.grid,
            "predicted": found.predicted_map,
            "ground_truth": found.truth_map,
        }
    }


def _side(found: Transcript | None) -> list[dict[str, Any]]:
    if found is None:
        return []
    return [
        {
            "kind": d.kind,
            "asker": d.asker,
            "status": d.status,
            "verdict": redact(d.verdict or ""),
            "error": redact(d.error) if d.error else None,
        }
        for d in found.side
    ]


def _metrics(result: ScoreResult) -> dict[str, dict[str, Any]]:
    """Return the run's table as Inspect metrics: ``Avg`` then each column (percent; empty ones left out)."""
    values = [("Avg", result.table.average), *((c.key, c.accuracy) for c in result.table.cells)]
    return {
        name: {"name": name, "value": round(value, 6), "params": {}}
        for name, value in values
        if value is not None
    }


def _created(run: RunFolder) -> str:
    stamp = (run.path / "config.json").stat().st_mtime
    return datetime.fromtimestamp(stamp, UTC).isoformat(timespec="seconds")


def _packages(run: RunFolder) -> dict[str, str]:
    """Return the package versions the run recorded (``config.json`` ``environment``; absent: left out)."""
    found = (run.record.get("environment") or {}).get("packages") or {}
    return {str(k): str(v) for k, v in found.items() if v is not None}


def eval_spec(run: RunFolder, items: list[Item], data: Path) -> dict[str, Any]:
    """Return the log's ``eval`` record: task, model, dataset, decoding settings, the run's settings."""
    config = run.config
    identity = hashlib.sha256(json.dumps(run.raw_config, sort_keys=True, default=str).encode()).hexdigest()
    generate = {
        "temperature": config.model.temperature,
        "top_p": config.model.top_p,
        "seed": config.model.seed,
        "max_tokens": config.model.max_new_tokens,
    }
    return {
        "eval_id": identity[:22],
        "run_id": identity[22:44],
        "created": _created(run),
        "task": run.benchmark,
        "task_id": run.name,
        "task_version": 0,
        "task_attribs": {},
        "task_args": {},
        "task_args_passed": {},
        "solver": imported_solver(run.record, config.strategy.name),
        "solver_args": {} if imported_source(run.record) else dict(config.strategy.params),
        "dataset": {
            "name": run.benchmark,
            "location": data.name,
            "samples": len(items),
            "sample_ids": [i.id for i in items],
        },
        "model": redact(run.model),
        "model_generate_config": {k: v for k, v in generate.items() if v is not None},
        "model_args": {},
        "config": {},
        "packages": _packages(run),
        "metadata": {
            "settings": settings_line(run),
            "frames": config.frame_strategy,
            "extraction": config.scoring.extract or run.spec.scoring.default_mode,
            "blind": run.blind,
        },
    }


def _thumbs(maker: SheetMaker, item: Item, media: list[dict[str, Any]]) -> Images:
    """Return the frames sent for ``item`` as JPEG data URLs (decoded through ``maker``)."""
    found: Images = {}
    for ref, sent in zip(item.media, media, strict=False):
        frames = [int(i) for i in sent.get("frames", [])]
        for frame, image in zip(frames, maker.thumbnails(ref, frames), strict=True):
            buffer = io.BytesIO()
            image.convert("RGB").save(buffer, format="JPEG", quality=80)
            found[(str(sent.get("source", "")), frame)] = (
                "data:image/jpeg;base64," + base64.b64encode(buffer.getvalue()).decode()
            )
    return found


def _samples(
    run: RunFolder, items: list[Item], result: ScoreResult, model: str, images: bool
) -> list[dict[str, Any]]:
    """Return the samples of the run's selected ``items`` (with ``images``: their frames embedded)."""
    rows = {str(r["id"]): r for r in result.rows.to_dict("records")}
    root = data_root(str(run.data_path)).resolve()
    maker = SheetMaker(data_root(str(run.data_path)))
    dialogues = transcripts(run)
    stored = run.answers() if run.has_store else {}
    samples = []
    for item in items:
        row = stored.get(item.id)
        media = list(row.prompt.get("media") or []) if row is not None else []
        shown = _thumbs(maker, item, media) if images and media else {}
        samples.append(sample(item, dialogues.get(item.id), rows.get(item.id), model, root, shown))
    return samples


def inspect_log(run: RunFolder, images: bool = False) -> dict[str, Any]:
    """Return ``run`` as an Inspect eval log (a JSON object; module docstring).

    ``images``: embed each frame sent as a 200-px-wide JPEG (about 5-15 KB each) instead of its label.

    Raises:
        RunFolderError: the folder, its store or its benchmark data cannot be read. MediaError: with
            ``images``, a frame that cannot be decoded.
    """
    loaded = list(run.load())
    items = run.items(loaded)
    ids, result = {i.id for i in items}, run.score(loaded)
    model = redact(run.model)
    samples = _samples(run, items, result, model, images)
    usage = {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0}
    for s in samples:
        for key, value in s["model_usage"].get(model, {}).items():
            usage[key] += value
    answered = sum(1 for s in samples if "scores" in s)
    return {
        "version": 2,
        "status": "started" if run.kind == "human" and not ids <= set(run.responses()) else "success",
        "eval": (spec := eval_spec(run, items, run.data_path)),
        "plan": {
            "name": "plan",
            "steps": [{"solver": spec["solver"], "params": spec["solver_args"]}],
            "config": {},
        },
        "results": {
            "total_samples": len(samples),
            "completed_samples": answered,
            "scores": [
                {
                    "name": SCORER,
                    "scorer": result.benchmark,
                    "params": {"extract": result.extract, "mra": result.mra},
                    "scored_samples": answered,
                    "unscored_samples": len(samples) - answered,
                    "metrics": _metrics(result),
                }
            ],
        },
        "stats": {"started_at": "", "completed_at": "", "model_usage": {model: usage}},
        "invalidated": False,
        "tags": [],
        "metadata": {},
        "samples": samples,
    }


def log_name(log: dict[str, Any]) -> str:
    """Return the file name Inspect gives a log (``<created>_<task>_<eval id>.json``).

    ``inspect view --log-dir`` lists a ``.json`` log only when its name starts with such a timestamp.
    """
    spec = log["eval"]
    created = str(spec["created"])[:19].replace(":", "-")
    return f"{created}_{str(spec['task']).replace('_', '-')}_{spec['eval_id']}.json"


def write_inspect_log(run_path: str | Path, out: str | Path, images: bool = False) -> Path:
    """Write run folder ``run_path`` as an Inspect JSON eval log; return the file written.

    ``out``: a folder (existing, or a path without suffix), where the log gets Inspect's own name
    (:func:`log_name`), or a file path ending in ``.json``.

    Raises:
        ExportError: ``out`` has another suffix (a ``.eval`` file is a zip archive Inspect writes itself).
        RunFolderError: the run cannot be read (see :func:`inspect_log`).
    """
    target = Path(out)
    if target.suffix not in ("", ".json") and not target.is_dir():
        raise ExportError(
            f"{target}: an Inspect log written here is a .json file, or give a folder (a .eval "
            "file is a zip archive Inspect writes itself)"
        )
    log = inspect_log(open_run(run_path), images=images)
    if target.is_dir() or not target.suffix:
        target = target / log_name(log)
    target.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(target, json.dumps(log, indent=1, ensure_ascii=False, allow_nan=False))
    return target
