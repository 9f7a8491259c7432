"""Running a prompting strategy on one item: its turns sent through the back end, stored, resumed.

A strategy (:mod:`spatialbench.prompting.strategies`) asks for named turns; :class:`Turns` is the ``ask``
it gets. Each turn is keyed by the item's request key, the turn's name and the text it sends (every
earlier turn of its dialogue included, images as slots, settings) — :func:`turn_key`; a turn with an
``ok`` row in the store's ``turns`` table is answered from the store, any other is sent and written at
once, in its own transaction. A run killed mid-item (even SIGKILL) therefore re-sends, on the next run,
only the turns it had no answer for. A failed turn fails the item (the error is its result row); the
turns answered before it are kept.

Under a strategy other than ``direct`` an item's request key is :func:`strategy_key` of the direct key
(the strategy's name and parameters hashed in), so answers of different strategies never mix; ``direct``
runs keep the keys and the single request of earlier versions.

The item's result row holds the strategy's final answer (scored as any answer), the token counts summed
over its turns and ``raw = {"strategy", "requests", "reused", "trace"}``: the number of turns the answer
took, how many of them came from the store, and what the strategy decided (votes, chosen plan,
explanation...). Votes read answers with the benchmark's extractors in the run's extraction mode
(:func:`answer_reader`); the item's key does not depend on that mode (it changes no request), so a later
``--extract`` re-scores the stored final answers without re-voting.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from spatialbench.models.base import Backend
from spatialbench.models.errors import BackendError, EndpointUnreachableError
from spatialbench.prompting.strategies import Reader, Strategy, build_strategy
from spatialbench.records.item import AnswerKind, Item
from spatialbench.records.messages import Request, Response
from spatialbench.runs.checks import RunSetupError
from spatialbench.runs.config import RunConfig
from spatialbench.runs.keys import request_text
from spatialbench.runs.plan import data_root
from spatialbench.runs.store import RunStore
from spatialbench.scene.categories import question_name
from spatialbench.scene.cogmap import GridSpec, ground_truth_map
from spatialbench.scene.metainfo import load_meta_info
from spatialbench.scene.model import Scene
from spatialbench.scoring.rules import ScoringRules


def _digest(record: dict[str, Any]) -> str:
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def strategy_key(direct_key: str, strategy: Strategy) -> str:
    """Return the request key of an item under ``strategy`` (its direct key, the name and parameters)."""
    return _digest({"direct": direct_key, "strategy": strategy.name, "params": strategy.parameters()})


def turn_record(request: Request) -> dict[str, Any]:
    """Return a turn as stored and keyed: its text (all turns, images as slots) and decoding settings."""
    return {**request_text(request), "settings": asdict(request.settings)}


def turn_key(item_key: str, turn: str, request: Request) -> str:
    """Return the key of turn ``turn`` of the item keyed ``item_key`` sending ``request``."""
    return _digest({"item": item_key, "turn": turn, "request": turn_record(request)})


def answer_reader(rules: ScoringRules, mode: str | None, item: Item) -> Reader:
    """Return the item's answer extractor in scoring mode ``mode`` (the votes read what scoring reads).

    Raises:
        ValueError: ``mode`` is not one of the benchmark's modes.
    """
    extractors = rules.extractors(mode)
    if item.answer_kind is AnswerKind.MULTIPLE_CHOICE:
        return lambda text: extractors.choice(text, item.options).value
    return lambda text: extractors.number(text, item.question).value


class MetaInfoMaps:
    """The scenes of a run's items from meta-info (``SceneMaps`` of the cognitive-map strategies).

    Ground-truth maps use :func:`spatialbench.scene.cogmap.ground_truth_map` with its default
    normalisation (object extent, isotropic, cells 0..G-1; :class:`~spatialbench.scene.cogmap.GridSpec`).
    """

    def __init__(self, scenes: dict[str, Scene], source: str) -> None:
        self.scenes, self.source = scenes, source

    def _scene(self, item: Item) -> Scene:
        scene = self.scenes.get(item.scene_id or "")
        if scene is None:
            raise ValueError(f"item {item.id}: scene {item.scene_id!r} is not in the meta-info {self.source}")
        return scene

    def categories(self, item: Item) -> tuple[str, ...]:
        """Return every category of the item's scene, as questions name them (meta-info order)."""
        return tuple(dict.fromkeys(question_name(c) for c in self._scene(item).objects))

    def ground_truth(
        self, item: Item, categories: Any, grid_size: int
    ) -> dict[str, list[tuple[float, float]]]:
        """Return the ground-truth map of ``categories`` (grid cells, :func:`ground_truth_map`).

        Raises:
            ValueError: the scene is unknown or lacks a category (the message names it).
        """
        try:
            points = ground_truth_map(self._scene(item), GridSpec(grid_size=grid_size), categories)
        except KeyError as exc:
            raise ValueError(f"item {item.id}: {exc.args[0]}") from None
        return {name: [(float(x), float(y)) for x, y in cells] for name, cells in points.items()}


def prepare_strategy(config: RunConfig) -> Strategy:
    """Build the run's strategy; a cognitive-map strategy gets the scenes of its ``meta_info``.

    ``meta_info`` "" reads ``<data>/meta_info`` when that folder exists (synthetic and demo benchmarks);
    otherwise the strategy runs without scenes, unless it ``needs_scenes`` (with-3d-cues): a set-up error.

    Raises:
        RunSetupError: the meta-info cannot be read (the message names the path).
        UnknownNameError / ValueError: as :func:`~spatialbench.prompting.strategies.build_strategy`.
    """
    strategy = build_strategy(config.strategy)
    if not hasattr(strategy, "scenes"):
        return strategy
    given = str(getattr(strategy, "meta_info", ""))
    path = Path(given) if given else data_root(config.data.path) / "meta_info"
    if not given and not path.is_dir():
        if getattr(strategy, "needs_scenes", False):
            raise RunSetupError(
                f"strategy {strategy.name} needs scene boxes: give -S meta_info=PATH ({path} does not exist)"
            )
        return strategy
    try:
        scenes = load_meta_info(path)
    except (OSError, ValueError) as exc:  # MetaInfoError is a ValueError
        raise RunSetupError(f"strategy {strategy.name}: meta_info {path}: {exc}") from None
    return replace(strategy, scenes=MetaInfoMaps(scenes, str(path)))  # type: ignore[call-arg]


def _total(values: list[int | None]) -> int | None:
    known = [v for v in values if v is not None]
    return sum(known) if known else None


class Turns:
    """The ``ask`` of one item: sends a turn or answers it from the store; counts requests and tokens."""

    def __init__(self, backend: Backend, store: RunStore, item_key: str, item_id: str) -> None:
        self.backend, self.store = backend, store
        self.item_key, self.item_id = item_key, item_id
        self.replies: list[Response] = []
        self.reused = 0

    async def __call__(self, turn: str, request: Request) -> Response:
        """Answer ``request`` as turn ``turn``: the stored ``ok`` answer, else the back end's (stored).

        Raises:
            BackendError: the back end failed (the failed turn is stored; the item fails).
        """
        key = turn_key(self.item_key, turn, request)
        stored = self.store.turn(key)
        if stored is not None:
            self.reused += 1
            self.replies.append(stored)
            return stored
        record = turn_record(request)
        started = time.perf_counter()
        try:
            response = await self.backend.generate(request)
        except EndpointUnreachableError:
            raise
        except BackendError as exc:
            error = f"{type(exc).__name__}: {exc}"
            self.store.put_turn(key, self.item_key, self.item_id, turn, record, None, error)
            raise
        latency = time.perf_counter() - started
        self.store.put_turn(key, self.item_key, self.item_id, turn, record, response, None, latency)
        self.replies.append(response)
        return response


async def run_strategy(
    strategy: Strategy, request: Request, item: Item, turns: Turns, read: Reader
) -> Response:
    """Answer ``item`` with ``strategy`` through ``turns``; returns the item's result as a Response.

    The Response's text is the final answer; tokens are summed over the turns; ``raw`` holds the
    strategy's name, the number of requests (turns) and reused turns, and its trace.

    Raises:
        BackendError: a turn failed after retries (earlier turns stay stored).
    """
    outcome = await strategy.answer(request, item, turns, read)
    replies = turns.replies
    raw = {
        "strategy": strategy.name,
        "requests": len(replies),
        "reused": turns.reused,
        "trace": outcome.trace,
    }
    return Response(
        text=outcome.answer,
        input_tokens=_total([r.input_tokens for r in replies]),
        output_tokens=_total([r.output_tokens for r in replies]),
        raw=raw,
    )
