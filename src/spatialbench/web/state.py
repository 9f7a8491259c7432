"""What ``spatialbench serve`` serves: one benchmark's items, the run folders, and its work folder.

Runs are re-read on each request that lists them (a human run or a finished model run appears without a
restart); items are loaded once. ``--runs`` names run folders or folders holding run folders; a run is
named by its folder name, or ``parent/name`` where two folders share a name. The UI
writes only the human runs and the flags file (in the work folder) and each run's error annotation file
(``RUN/analysis/errors.json``).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from spatialbench.benchmarks import get_benchmark
from spatialbench.benchmarks.spec import BenchmarkSpec
from spatialbench.records.flags import FILE_NAME as FLAGS
from spatialbench.records.item import Item
from spatialbench.runs.checks import RunFolderError
from spatialbench.web.other_questions import other_questions
from spatialbench.web.runs import ServedRun, load_served_run


@dataclass(frozen=True)
class ServeConfig:
    """Settings of the UI.

    Attributes:
        data: the benchmark folder (or annotation file). benchmark: its registered name.
        runs: run folders, or folders holding run folders. workdir: where human runs and ``flags.jsonl``
            are written (error annotations go to each run's ``analysis/errors.json``). token: the access
            token. audit: an ``audit.json`` (``spatialbench audit``) whose disagreements the review page
            lists first. options: loader options.
    """

    data: Path
    workdir: Path
    token: str
    benchmark: str = "vsibench"
    runs: tuple[Path, ...] = ()
    audit: Path | None = None
    options: dict[str, Any] = field(default_factory=dict)


class ServeState:
    """Loaded items and the folders; see the module docstring.

    Raises (constructor):
        ValueError / FileNotFoundError: the benchmark cannot be loaded (from its loader), or ``audit`` is
            not an audit summary.
    """

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self.spec: BenchmarkSpec = get_benchmark(config.benchmark)
        self.options = config.options or self._runs_options()
        loaded = self.spec.load_items(config.data, **self.options)
        self.items: list[Item] = list(loaded)
        self.load_errors = [str(e) for e in loaded.errors]
        self.by_id = {item.id: item for item in self.items}
        self.root = config.data if config.data.is_dir() else config.data.parent
        self.reasons = _disagreements(config.audit) if config.audit is not None else {}
        self._verdicts: dict[tuple[Path, float], str | None] = {}
        """(run folder, its config.json's mtime) → why it was made on other questions (None: it was not)."""
        self.shown: dict[tuple[str, str], float] = {}
        """(human run name, item id) → ``time.monotonic()`` when the server first showed the item."""
        self._own: dict[str, dict[str, Item]] = {}

    def _runs_options(self) -> dict[str, Any]:
        """Return the loader options all this benchmark's runs were loaded with, if they agree (else none)."""
        # before the items are loaded: every readable run of this benchmark (questions not checked yet)
        mine = [r for r in self._loaded() if r.benchmark == self.spec.name]
        chosen = {json.dumps(r.folder.options, sort_keys=True) for r in mine}
        return dict(json.loads(chosen.pop())) if len(chosen) == 1 else {}

    def item_of(self, run: ServedRun, item_id: str) -> Item | None:
        """Return item ``item_id`` as run ``run`` loaded it (its loader options: a ReVSI budget's truth).

        Items of other options are loaded once per option set; None when that load fails or lacks the id.
        """
        options = run.folder.options
        if options == self.options:
            return self.by_id.get(item_id)
        key = json.dumps(options, sort_keys=True)
        if key not in self._own:
            try:
                self._own[key] = {i.id: i for i in self.spec.load_items(self.config.data, **options)}
            except (ValueError, OSError):
                self._own[key] = {}
        return self._own[key].get(item_id)

    @property
    def flags_file(self) -> Path:
        """``WORKDIR/flags.jsonl``."""
        return self.config.workdir / FLAGS

    def run_folders(self) -> list[Path]:
        """Every run folder: each ``--runs`` folder that is a run or the runs inside it, then human runs."""
        found: list[Path] = []
        for folder in (*self.config.runs, self.config.workdir):
            if (folder / "config.json").is_file():
                found.append(folder)
            elif folder.is_dir():
                found += sorted(p for p in folder.iterdir() if (p / "config.json").is_file())
        return list(dict.fromkeys(p.resolve() for p in found))

    def _loaded(self) -> list[ServedRun]:
        runs = []
        for folder in self.run_folders():
            try:
                runs.append(load_served_run(folder))
            except RunFolderError:
                continue
        return runs

    def _other_questions(self, run: ServedRun) -> str | None:
        """Why ``run`` was made on other questions than the served items (cached per ``config.json``)."""
        try:
            key = (run.path, (run.path / "config.json").stat().st_mtime)
        except OSError:
            return None
        if key not in self._verdicts:
            self._verdicts[key] = other_questions(run, self.config.data, self.items)
        return self._verdicts[key]

    def runs(self) -> list[ServedRun]:
        """Return the runs of these items (other benchmarks', other questions', unreadable runs left out).

        A folder name held by two runs becomes ``parent/name`` for both, so each stays reachable.
        """
        runs = [r for r in self._loaded()
                if r.benchmark == self.spec.name and self._other_questions(r) is None]
        counts = Counter(r.name for r in runs)
        return [replace(r, name=f"{r.path.parent.name}/{r.name}") if counts[r.name] > 1 else r for r in runs]

    def mismatched_runs(self) -> list[tuple[ServedRun, str]]:
        """Return the runs of this benchmark made on other questions than ``--data``, each with why."""
        found = [(r, self._other_questions(r)) for r in self._loaded() if r.benchmark == self.spec.name]
        return [(r, why) for r, why in found if why is not None]

    def other_runs(self) -> list[ServedRun]:
        """Return the readable runs of other benchmarks (not shown; ``serve`` names them at start)."""
        return [r for r in self._loaded() if r.benchmark != self.spec.name]

    def run(self, name: str) -> ServedRun | None:
        """Return the run whose folder is named ``name``."""
        return next((r for r in self.runs() if r.name == name), None)


def _disagreements(path: Path) -> dict[str, str]:
    """Return item id → the audit's reason, for every disagreement in an ``audit.json``.

    Raises:
        ValueError: the file cannot be read or is not an audit summary (the message names it).
    """
    try:
        summary = json.loads(path.read_text(encoding="utf-8"))
        return {str(d["id"]): str(d.get("reason", "")) for entry in summary["tasks"].values()
                for d in entry.get("disagreements", [])}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        why = f"{type(exc).__name__}: {exc}"
        raise ValueError(f"{path}: not an audit.json of spatialbench audit ({why})") from None
