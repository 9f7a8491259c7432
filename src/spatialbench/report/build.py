"""``spatialbench report``: one static, self-contained report folder from one or more run folders.

Layout of ``OUT``::

    index.html                 leaderboard, run settings, figures, breakdowns, analyses, worst items
    items/index.html           every item, by task, worst first; items/<id>.html one item across runs
    runs/<row>.html            one run's recorded settings (config.json), linked from its leaderboard row
    figures/*.png, *.svg       the figures (report.plots); sheets/<run>/<id>.jpg frames sent
    thumbs/<digest>.jpg        each frame sent, once: the thumbnails of the item pages' transcripts
    tables/leaderboard.{md,csv,tex}, tables/breakdowns.{md,csv,tex}

Nothing in it refers to the network; every link is relative. Contact sheets are decoded only for the
``sheets`` worst items per task of each run that sent frames (decoding is the slow part); every item
page still lists the frame times sent, and shows each run's whole dialogue (:mod:`spatialbench.views`) with
every frame sent as a thumbnail. Local absolute paths are printed relative to ``OUT``
(:mod:`spatialbench.report.paths`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

from spatialbench.analysis.item_sets import RunItems, item_notes, truth_text
from spatialbench.media.errors import MediaError
from spatialbench.records.progress import Progress, Tally
from spatialbench.report import analyses, pages, plots, protocols
from spatialbench.report.items import ItemView, item_views, worst_first
from spatialbench.report.paths import relativize
from spatialbench.report.runs import RunData, check_benchmarks, load_run
from spatialbench.report.sheets import SheetMaker
from spatialbench.report.tables import Leaderboard, breakdown_grids, leaderboard
from spatialbench.report.thumbs import Placed, ThumbWriter, thumb_of
from spatialbench.runs.plan import data_root
from spatialbench.runs.transcript import transcripts
from spatialbench.scoring.render import Grid, to_csv, to_latex, to_markdown
from spatialbench.views.transcript import transcript_html


@dataclass
class ReportResult:
    """What :func:`build_report` wrote: the index page, figure stems, warnings and stage seconds."""

    index: Path
    figures: list[plots.Figure] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    timings_s: dict[str, float] = field(default_factory=dict)


def write_tables(out: Path, name: str, grids: Sequence[Grid], markdown: Sequence[Grid] | None = None,
                 latex: str | None = None) -> list[str]:
    """Write ``tables/<name>.md``, ``.csv`` and ``.tex`` (grids one after another); return relative paths.

    ``markdown``: the grids as the Markdown file shows them (the leaderboard with best values in bold and
    second best underlined); default ``grids``. ``latex``: the ``.tex`` text, default the grids rendered
    plain. CSV keeps plain numbers.
    """
    folder = out / "tables"
    folder.mkdir(parents=True, exist_ok=True)
    md = "\n\n".join("\n".join(to_markdown(g)) for g in (grids if markdown is None else markdown)) + "\n"
    csv = "\n".join((f"# {g.title}\n" if g.title else "") + to_csv(g) for g in grids)
    tex = latex or "\n".join((f"% {g.title}\n" if g.title else "") + to_latex(g, corner="Method")
                              for g in grids)
    for suffix, text in (("md", md), ("csv", csv), ("tex", tex)):
        (folder / f"{name}.{suffix}").write_text(text, encoding="utf-8")
    return [f"tables/{name}.{suffix}" for suffix in ("md", "csv", "tex")]


def _sheets(out: Path, runs: Sequence[RunData], tasks: dict[str, list[ItemView]], per_task: int,
            makers: dict[str, SheetMaker], warnings: list[str]) -> None:
    """Contact sheets of the ``per_task`` worst items per task of each run that sent frames."""
    by_label = {r.label: r for r in runs}
    for views in tasks.values():
        for view in views[:per_task]:
            for k, answer in enumerate(view.answers):
                run = by_label[answer.run]
                if answer.blind or not answer.frames or run.kind == "baseline":
                    continue
                target = out / "sheets" / plots.slug(run.label) / view.page.replace(".html", ".jpg")
                try:
                    written = makers[run.label].write(run.item(view.item), answer.frames, target)
                except (MediaError, OSError) as exc:
                    warnings.append(f"{run.label}: item {view.item.id}: no contact sheet ({exc})")
                    continue
                if written is not None:
                    view.answers[k] = replace(answer, sheet=f"../{target.relative_to(out).as_posix()}")


def _transcripts(out: Path, runs: Sequence[RunData], views: Sequence[ItemView],
                 makers: dict[str, SheetMaker], warnings: list[str]) -> None:
    """Each run's dialogue for each item, its frames sent written as thumbnails (``thumbs/``)."""
    writers = {label: ThumbWriter(out, maker) for label, maker in makers.items()}
    by_label = {r.label: r for r in runs}
    # a chance baseline asked nothing: its transcript says so in one line, above its pick
    every = {r.label: transcripts(r.folder) for r in runs}
    for view in views:
        for k, answer in enumerate(view.answers):
            found = every.get(answer.run, {}).get(view.item.id)
            if found is None:
                continue
            placed: Placed = {}
            try:
                placed = writers[answer.run].place(by_label[answer.run].item(view.item), answer.frames)
            except (MediaError, OSError) as exc:
                warnings.append(f"{answer.run}: item {view.item.id}: no thumbnails ({exc})")
            html = transcript_html(found, partial(thumb_of, placed))
            view.answers[k] = replace(answer, transcript=html)


def _item_pages(out: Path, runs: Sequence[RunData], views: list[ItemView], tasks: dict[str, list[ItemView]],
                sheets: int, stages: _Stages, warnings: list[str]) -> None:
    """Contact sheets, then every run's transcripts (frames decoded once for both), then the item pages."""
    makers = {r.label: SheetMaker(data_root(str(r.data))) for r in runs}
    _sheets(out, runs, tasks, sheets, makers, warnings)
    stages.done("sheets")
    _transcripts(out, runs, views, makers, warnings)
    stages.done("transcripts")
    pages.write_item_pages(out, views, list(tasks.items()), [r.label for r in runs], runs[0].spec.task_title)


def _index(out: Path, runs: Sequence[RunData], board: Leaderboard, sections: list, grids: list[Grid],
           found: list, tasks: dict[str, list[ItemView]], per_task: int, downloads: list[str],
           notes: Sequence[str] = ()) -> Path:
    """Write ``index.html``; its answerability section is drawn from the runs (issue 23 item 5)."""
    first = runs[0]
    page = pages.render(
        "index.html.j2", title=f"{first.spec.name} report", benchmark=first.spec.name, runs=[
            pages.run_entry(r) for r in runs], n_items=len({i.id for r in runs for i in r.items}),
        board=board, group_spans=board.group_spans(), marks=board.marks(),
        modes=first.result.modes_line, figure_sections=sections, breakdowns=grids, analyses=found,
        answerability=analyses.answerability_sections(runs),
        tasks=[(t, v[:per_task]) for t, v in tasks.items()], per_task=per_task,
        run_labels=[r.label for r in runs], downloads=downloads, notes=notes, prefix="items/",
        task_title=first.spec.task_title, protocols=protocols.footnote(first.spec))
    index = out / "index.html"
    index.write_text(page, encoding="utf-8")
    return index


def build_report(run_paths: Sequence[str | Path], out: str | Path, data: str | Path | None = None,
                 per_task: int = 10, sheets: int = 3, exclude: frozenset[str] = frozenset(),
                 progress: Progress | None = None) -> ReportResult:
    """Build the report of ``run_paths`` into ``out`` (layout: module docstring).

    ``data`` replaces every run's benchmark path; ``per_task`` items per task are listed on the index;
    ``sheets`` worst items per task get a contact sheet per run; ``exclude`` item ids are left out of
    every run (items flagged wrong or ambiguous). ``progress``: called with (steps done, steps), one step
    per run loaded and scored, then one per stage (tables, figures, contact sheets, transcripts, pages).

    Raises:
        RunFolderError: a run folder cannot be read, names an unregistered benchmark, or runs of different
            benchmarks (checked from the configurations before any is loaded). ValueError: two runs with
            the same folder name, or a run with no question loaded (``data`` of another benchmark).
    """
    folders = check_benchmarks(run_paths)
    stages = _Stages(Tally(len(folders) + len(_STAGES), progress))
    runs = [load_run(f, data, exclude) for f in stages.tally.each(folders)]
    _check_runs(runs)
    stages.done("load_and_score", step=False)
    target = Path(out)
    target.mkdir(parents=True, exist_ok=True)
    board = leaderboard(runs)
    grids = breakdown_grids(runs)
    downloads = write_tables(target, "leaderboard", [board.grid()], markdown=[board.marked_grid()],
                             latex=board.latex())
    downloads += write_tables(target, "leaderboard_intervals", [board.interval_grid()])
    downloads += write_tables(target, "breakdowns", grids) if grids else []
    stages.done("tables")
    sections = [("Scores per task", plots.task_figures(target, board, runs)),
                ("Vision enabled vs disabled", plots.gap_figures(target, board, runs)),
                ("Breakdowns", plots.breakdown_figures(target, grids, runs))]
    sections = [(title, figs) for title, figs in sections if figs]
    found = analyses.draw_all(target, runs)
    stages.done("figures")
    views = item_views(runs)
    tasks = worst_first(views)
    warnings: list[str] = []
    _item_pages(target, runs, views, tasks, sheets, stages, warnings)
    pages.write_run_pages(target, runs)
    notes = item_notes([_items(r) for r in runs], progress=False)
    index = _index(target, runs, board, sections, grids, found, tasks, per_task, downloads, notes)
    relativize(target, [p for r in runs for p in (r.path, r.path.parent, r.data, data_root(str(r.data)))])
    stages.done("html")
    figs = [f for _, fs in sections for f in fs] + [f for a in found for f in a.figures]
    if exclude:
        warnings.insert(0, f"{len(exclude)} flagged item id(s) left out of every run")
    warnings[:0] = notes
    return ReportResult(index, figs, warnings, stages.laps)


#: the stages after loading, each one progress step (:class:`_Stages`)
_STAGES = ("tables", "figures", "sheets", "transcripts", "html")


class _Stages:
    """Seconds per stage of the build (the report's ``timings_s``), one progress step per stage done."""

    def __init__(self, tally: Tally) -> None:
        self.tally, self.started = tally, time.perf_counter()
        self.laps: dict[str, float] = {}

    def done(self, name: str, step: bool = True) -> None:
        """Record stage ``name``'s seconds (since the previous stage) and count its step."""
        self.laps[name] = time.perf_counter() - self.started - sum(self.laps.values())
        if step:
            self.tally.step()


def _items(run: RunData) -> RunItems:
    """Return the items a leaderboard row is scored on (a human run: its answered ones, of its sample)."""
    truths = {i.id: (i.task, truth_text(i.ground_truth)) for i in run.items}
    if run.kind == "human":
        answered = set(run.result.rows["id"].astype(str))
        return RunItems(run.label, answered, run.data, len(run.items), {k: truths[k] for k in answered},
                        run.folder.options)
    return RunItems(run.label, set(truths), run.data, truths=truths, options=run.folder.options)


def _check_runs(runs: Sequence[RunData]) -> None:
    """Refuse, before anything is written, a run with no question loaded and two runs of one folder name."""
    seen: dict[str, Path] = {}
    for run in runs:
        if not run.by_id:  # --data of another benchmark: an IndexError in the radar and half a report before
            raise ValueError(f"{run.path}: no {run.spec.name} question loaded from {run.data} (is --data "
                             "another benchmark's data?)")
        if run.label in seen:
            raise ValueError(f"two runs share the folder name {run.label!r} ({seen[run.label]}, {run.path}); "
                             "rename one (row names are folder names)")
        seen[run.label] = run.path
