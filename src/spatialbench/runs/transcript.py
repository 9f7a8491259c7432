"""One item's whole dialogue as a run sent and received it, read back from the store (the transcript view).

A direct run sent one request (the ``results`` row's prompt); a multi-turn strategy (zero-shot CoT,
map-then-answer, self-consistency...) sent named turns (the ``turns`` rows of the item's request key,
:meth:`~spatialbench.runs.folder.RunFolder.stored_turns`). Each :class:`TranscriptTurn` holds the text it
added to the dialogue (earlier turns are the turns before it), the images it sent as :class:`SentImage`
(the frames actually sent, labelled by frame file name — ReMindView's ``frame0`` — or by time in seconds),
the reply, status, error, token counts, latency and a redacted raw request (:func:`raw_view`). A map
strategy's trace gives the predicted map beside the ground-truth map (VSI-Bench Sec. 6.1–6.2). Requests an
analysis sent about the item (the LLM judge, ReMindView-Bench App. D.1; the self-consistency check,
Table 9) are read from their own stores, ``RUN/analysis/<kind>/<asker>/run.sqlite``, as :class:`SideDialogue`.
Nothing here writes; model text is shown as stored (it is never parsed here, so nothing raises on it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from spatialbench.records.redaction import redact, secret_values
from spatialbench.runs.folder import RunFolder
from spatialbench.runs.imported import imported_settings, imported_source, imported_strategy
from spatialbench.runs.store.reader import StoredRow, StoredTurn, StoreReader

_IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".webp", ".bmp"}


def data_relative(root: Path, source: str) -> PurePosixPath | None:
    """Return a stored media path relative to the benchmark folder ``root`` (None when it is not under it).

    Serve's ``/media`` URLs and the Inspect export's ``metadata.frames[].source`` are this path, so no
    local path leaves the machine.

    A run given a relative ``--data`` stores its sources as given (``demo-out/benchmark/synthetic/x.mp4``,
    relative to where it ran): the path is the longest tail of the source that is a file or folder of
    ``root`` (``synthetic/x.mp4``). An absolute source is taken relative to ``root``.
    """
    path = Path(source)
    if path.is_absolute():
        try:
            return PurePosixPath(path.resolve().relative_to(root.resolve()).as_posix())
        except ValueError:
            return None
    parts = PurePosixPath(path.as_posix()).parts
    tails = [PurePosixPath(*parts[k:]) for k in range(len(parts))]
    return next((tail for tail in tails if (root / tail).exists()), None)


@dataclass(frozen=True)
class SentImage:
    """One image a request sent.

    ``source`` (the media path as stored), ``frame`` (index in the video, or of the frame list),
    ``time_s`` (seconds into the video), ``label`` (what a reader calls it: ``frame0`` for a frame file,
    the prompt's own label such as ``00:01.50``, else ``1.50 s``).
    """

    source: str
    frame: int | None
    time_s: float | None
    label: str

    @property
    def is_file(self) -> bool:
        """Whether ``source`` is itself an image file (a frame of a frame folder), not a video."""
        return PurePosixPath(self.source).suffix.lower() in _IMAGE_SUFFIXES


@dataclass(frozen=True)
class TranscriptTurn:
    """One request of the dialogue and its reply.

    Attributes:
        name: the strategy's turn name (``cot``, ``extract``, ``map``, ``answer``; ``request`` for a direct
            run). system: the system prompt (first turn only). text: the user text this turn added, images
            standing as ``[frame0]`` / ``[1.5 s]``. images: the images it added. earlier: how many messages
            of history it carried. reply, status, error, latency_s (seconds), input_tokens, output_tokens:
            as stored. raw: the stored request, JSON, secrets redacted. unsent: why no request was sent (a
            chance baseline, a person, another tool's answers), shown in place of the user's message.
    """

    name: str
    text: str
    images: list[SentImage]
    reply: str | None
    status: str
    system: str | None = None
    earlier: int = 0
    error: str | None = None
    latency_s: float | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    raw: str = ""
    unsent: str | None = None


@dataclass(frozen=True)
class Transcript:
    """An item's dialogue in one run: its turns, final answer, strategy and (map strategies) the maps.

    ``predicted_map`` / ``truth_map``: category → list of ``[x, y]`` grid cells (None when the strategy
    drew no map or the scenes were not known). ``grid``: the map's grid size (cells per side).
    """

    item_id: str
    turns: list[TranscriptTurn]
    answer: str | None
    status: str
    strategy: str = "direct"
    predicted_map: dict[str, list[list[float]]] | None = None
    truth_map: dict[str, list[list[float]]] | None = None
    grid: int = 10
    meta: str = ""
    images: list[SentImage] = field(default_factory=list)
    side: list[SideDialogue] = field(default_factory=list)


@dataclass(frozen=True)
class SideDialogue:
    """What an analysis asked a model about the item, and the verdict.

    ``kind``: the analysis (``judge``, ``consistency``: the folder under ``RUN/analysis``); ``asker``: the
    asking model's store folder; ``turns``: ``ask`` (and ``retry`` after an invalid reply); ``verdict``:
    the valid reply stored (None when the item failed, ``error`` says why).
    """

    kind: str
    asker: str
    turns: list[TranscriptTurn]
    verdict: str | None
    status: str
    error: str | None = None


def sent_images(prompt: dict[str, Any]) -> list[SentImage]:
    """Every image of a stored request's ``media`` record, in the order sent (sources, then frames).

    A frame of a frame folder whose record names its files is that file (``source``), labelled by its time.
    """
    images = []
    for media in prompt.get("media") or []:
        if not isinstance(media, dict):
            continue
        source = str(media.get("source", ""))
        frames = list(media.get("frames") or [])
        times = list(media.get("timestamps") or [])
        files = [str(f) for f in media.get("files") or []]
        for k in range(max(len(frames), len(times))):
            frame = frames[k] if k < len(frames) else None
            time_s = float(times[k]) if k < len(times) and times[k] is not None else None
            if k < len(files):
                label = f"{time_s:.2f} s" if time_s is not None else PurePosixPath(files[k]).stem
                images.append(SentImage(str(PurePosixPath(source, files[k])), frame, time_s, label))
            else:
                images.append(SentImage(source, frame, time_s, _label(source, time_s)))
    return images


def sent_summary(media: list[Any]) -> str:
    """Return the images a request sent in one line (``-`` for none).

    Image files by name (``frame0, frame1``: no time, a still image has none), each video's frames with
    their times (``4 frame(s) of scene.mp4 at 0.00, 1.50, 3.00, 4.50 s``).
    """
    images = sent_images({"media": media})
    parts = [", ".join(i.label for i in images if i.is_file)]
    for source in dict.fromkeys(i.source for i in images if not i.is_file):
        times = [f"{i.time_s:.2f}" for i in images if i.source == source and i.time_s is not None]
        count = sum(i.source == source for i in images)
        at = f" at {', '.join(times)} s" if times else ""
        parts.append(f"{count} frame(s) of {PurePosixPath(source).name}{at}")
    return "; ".join(p for p in parts if p) or "-"


def _label(source: str, time_s: float | None) -> str:
    path = PurePosixPath(source)
    if path.suffix.lower() in _IMAGE_SUFFIXES:
        return path.stem
    return f"{time_s:.2f} s" if time_s is not None else path.name


def raw_view(record: dict[str, Any], secrets: list[str] | None = None) -> str:
    """Return a stored request (or metadata) as indented JSON with every secret masked (``***``).

    ``secrets``: the secret values to mask (default: read from the environment now).
    """
    return redact(json.dumps(record, indent=2, sort_keys=True, default=str), secrets)


def _parts(parts: list[Any], images: list[SentImage], start: int) -> tuple[str, list[SentImage]]:
    """Return the text of ``parts`` (image slots as ``[label]``) and the images they stand for.

    Images are taken in order from ``images[start]`` on (the history's images come first).
    """
    texts: list[str] = []
    used: list[SentImage] = []
    for part in parts:
        if isinstance(part, dict) and "image" in part:
            k = start + len(used)
            image = images[k] if k < len(images) else SentImage("", None, None, f"image {k}")
            if part.get("label"):
                image = SentImage(image.source, image.frame, image.time_s, str(part["label"]))
            used.append(image)
            texts.append(f"[{image.label}]")
        elif isinstance(part, str):
            texts.append(part)
    return "\n".join(texts), used


def _history_images(history: list[Any]) -> int:
    return sum(1 for message in history if isinstance(message, list) and len(message) == 2
               for part in message[1] if isinstance(part, dict) and "image" in part)


def _turn(name: str, row: StoredRow, images: list[SentImage], first: bool,
          secrets: list[str]) -> TranscriptTurn:
    prompt = row.prompt
    found = prompt.get("history")
    history: list[Any] = found if isinstance(found, list) else []
    text, used = _parts(list(prompt.get("parts") or []), images, _history_images(history))
    return TranscriptTurn(
        name=name, text=text, images=used, reply=row.response, status=row.status,
        system=prompt.get("system") if first or not history else None, earlier=len(history),
        error=row.error, latency_s=row.latency_s, input_tokens=row.input_tokens,
        output_tokens=row.output_tokens, raw=raw_view(prompt, secrets), unsent=_unsent(prompt))


def _unsent(prompt: dict[str, Any]) -> str | None:
    """One line saying why a stored answer came with no request (None when a request was sent)."""
    if prompt.get("parts") or prompt.get("media"):
        return None
    if prompt.get("baseline"):
        return f"no request: the {prompt['baseline']} baseline answers without a model (nothing was sent)"
    if prompt.get("human"):
        return f"no request: a person answered (shown: {prompt.get('shown') or 'the item'})"
    if prompt.get("imported"):
        return f"no request: answer imported from {prompt['imported']} (that tool's request was not recorded)"
    return None


def _map(value: Any) -> dict[str, list[list[float]]] | None:
    if not isinstance(value, dict):
        return None
    return {str(k): [list(p) for p in v if isinstance(p, (list, tuple))] for k, v in value.items()
            if isinstance(v, list)}


def _dialogue(run: RunFolder, row: StoredRow, stored: list[StoredTurn], side: list[SideDialogue],
              secrets: list[str]) -> Transcript:
    images = sent_images(row.prompt)
    turns = [_turn(t.turn, t, images, k == 0, secrets) for k, t in enumerate(stored)]
    if not turns:
        turns = [_turn("request", row, images, True, secrets)]
    found = row.raw.get("trace")
    trace: dict[str, Any] = found if isinstance(found, dict) else {}
    grid = run.config.strategy.params.get("grid_size", 10) if run.config.strategy else 10
    return Transcript(
        item_id=row.item_id, turns=turns, answer=row.response, status=row.status,
        strategy=imported_strategy(run.record, str(row.raw.get("strategy") or "direct")),
        predicted_map=_map(trace.get("map")), truth_map=_map(trace.get("ground_truth")),
        grid=int(grid) if isinstance(grid, int) else 10,
        meta=raw_view(row.raw, secrets) if row.raw else "", images=images, side=side)


def transcript(run: RunFolder, item_id: str) -> Transcript | None:
    """Return the item's dialogue in ``run``; None when the run stored nothing for it.

    Raises:
        RunFolderError: ``run.sqlite`` (or an analysis store) is not a readable run store.
    """
    row = run.stored(item_id)
    if row is None:
        return None
    secrets = secret_values()
    side = [d for store in _side_stores(run)
            if (d := _side(store, store.item_row(item_id), None, secrets)) is not None]
    return _dialogue(run, row, run.stored_turns(item_id), side, secrets)


def transcripts(run: RunFolder) -> dict[str, Transcript]:
    """Return :func:`transcript` of every item the run stored, read in a few queries per store.

    Raises:
        RunFolderError: ``run.sqlite`` (or an analysis store) is not a readable run store.
    """
    if not run.has_store:
        return {}
    secrets = secret_values()
    side: dict[str, list[SideDialogue]] = {}
    for store in _side_stores(run):
        turns = store.shown_turns()
        for item_id, row in store.shown_rows().items():
            found = _side(store, row, turns.get(item_id, []), secrets)
            if found is not None:
                side.setdefault(item_id, []).append(found)
    stored = run.shown_turns()
    return {item_id: _dialogue(run, row, stored.get(item_id, []), side.get(item_id, []), secrets)
            for item_id, row in run.answers().items()}


def _side_stores(run: RunFolder) -> list[StoreReader]:
    """Return the stores of the analyses that asked a model about the run's items, by path."""
    return [StoreReader(p) for p in sorted((run.path / "analysis").glob("*/*/run.sqlite"))]


def _side(store: StoreReader, row: StoredRow | None, turns: list[StoredTurn] | None,
          secrets: list[str]) -> SideDialogue | None:
    """One analysis request about an item (``turns`` None: read them); None when it asked nothing."""
    if row is None:
        return None
    stored = store.item_turns(row.item_id) if turns is None else turns
    shown = [_turn(t.turn, t, [], k == 0, secrets) for k, t in enumerate(stored)]
    return SideDialogue(
        kind=store.path.parent.parent.name, asker=store.path.parent.name,
        turns=shown or [_turn("ask", row, [], True, secrets)],
        verdict=row.response if row.status == "ok" else None, status=row.status, error=row.error)


def settings_line(run: RunFolder) -> str:
    """Return a run's settings in one line: model, frames, strategy, extraction (blind when it sent none).

    The frames are the loader option that chose them when one did (MMSI-Video-Bench
    ``setting=uniform-50``: its media strategy is ``all``, of the frames the setting kept), else the frame
    strategy.

    The extraction is the run's mode, or the benchmark's default mode marked ``(benchmark default)``; an
    imported run's line holds what its source recorded
    (:func:`~spatialbench.runs.imported.imported_settings`).

    Raises:
        RunFolderError: ``config.json``'s ``config`` does not validate, or names no registered benchmark.
    """
    if run.baseline is not None:
        return f"{run.model} (chance baseline)"
    if run.kind == "human":
        return f"{run.model} (human evaluation)"
    config = run.config
    source = imported_source(run.record)
    if source is not None:  # the other tool chose frames and prompts: only what its file recorded
        return imported_settings(run.model, source, config.scoring.extract or run.spec.scoring.default_mode)
    frames = "no frames (blind)" if run.blind else f"frames {_frames(run)}"
    extract = config.scoring.extract or f"{run.spec.scoring.default_mode} (benchmark default)"
    frame_options = run.spec.defaults.frame_options  # shown once, as the frames
    loaded = "".join(f" · {name} {value}" for name, value in sorted(run.options.items())
                     if name not in frame_options)  # ReVSI's budget
    return f"{run.model}{loaded} · {frames} · strategy {config.strategy.name} · extraction {extract}"


def _frames(run: RunFolder) -> str:
    """Return the frames a run sent: its frame-choosing option (``setting=uniform-50``), else its strategy."""
    options = run.config.data.options
    chosen = [f"{name}={options[name]}" for name in run.spec.defaults.frame_options if name in options]
    return chosen[0] if chosen else run.config.frame_strategy
