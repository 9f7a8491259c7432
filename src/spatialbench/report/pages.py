"""HTML of the report from the Jinja2 templates in ``spatialbench/report/data`` (autoescaped).

Pages: ``index.html`` (leaderboard, settings, figures, breakdowns, analyses, worst items per task),
``runs/<row>.html`` (one run's recorded settings),
``items/index.html`` (every item by task, worst first) and ``items/<id>.html`` (one item, every run's
answer and the frames it sent). Links are relative, so the folder opens from disk and can be moved.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from spatialbench.report.items import ItemView
from spatialbench.report.plots import slug
from spatialbench.report.runs import RunData
from spatialbench.report.tables import row_label
from spatialbench.runs.transcript import sent_summary, settings_line
from spatialbench.views.tables import score_class, table_css, table_script
from spatialbench.views.transcript import stylesheet


@cache
def environment() -> jinja2.Environment:
    """Return the template environment (templates read once per process; undefined names raise)."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("spatialbench.report", "data"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["slug"] = slug
    env.globals["transcript_css"] = stylesheet()
    env.globals["table_css"] = table_css()
    env.globals["table_script"] = Markup(table_script())  # our own file, inlined as is
    env.filters["score_class"] = score_class
    env.filters["sent_summary"] = sent_summary
    env.globals["task_title"] = lambda task: task.replace("_", " ")  # a page's benchmark words replace it
    return env


def render(template: str, **context: Any) -> str:
    """Render one template with ``context``.

    Raises:
        jinja2.UndefinedError: the template names a value the context lacks.
    """
    return environment().get_template(template).render(**context)


def run_entry(run: RunData) -> dict[str, str]:
    """Return what the settings list shows: row name, anchor, model, settings line, counts, settings JSON."""
    result = run.result
    summary = (f"{len(result.rows)} item(s) · no answer: {result.no_answer} · "
               f"missing predictions: {len(result.missing_predictions)} · {result.modes_line}")
    settings = {key: run.record.get(key) for key in ("config", "backend", "prompt", "environment")}
    return {"row": row_label(run), "anchor": slug(row_label(run)), "model": run.config.model.name,
            "line": settings_line(run.folder), "summary": summary,
            "settings": json.dumps(settings, indent=2, default=str)}


def write_run_pages(out: Path, runs: Sequence[RunData]) -> None:
    """Write ``runs/<row name>.html``: one run's recorded settings (linked from the leaderboard)."""
    folder = out / "runs"
    folder.mkdir(parents=True, exist_ok=True)
    for run in runs:
        entry = run_entry(run)
        page = render("run.html.j2", title=entry["row"], r=entry)
        (folder / f"{entry['anchor']}.html").write_text(page, encoding="utf-8")


def write_item_pages(out: Path, views: Sequence[ItemView], tasks: list[tuple[str, list[ItemView]]],
                     run_labels: list[str], task_title: Callable[[str], str]) -> None:
    """Write ``items/index.html`` and one page per item (``task_title``: a task key in words)."""
    folder = out / "items"
    folder.mkdir(parents=True, exist_ok=True)
    template = environment().get_template("item.html.j2")
    for view in views:
        page = template.render(title=f"Item {view.item.id}", v=view, task_title=task_title)
        (folder / view.page).write_text(page, encoding="utf-8")
    index = render("items.html.j2", title="All items, worst first", tasks=tasks, run_labels=run_labels,
                  prefix="", count=len(views),
                   task_title=task_title)
    (folder / "index.html").write_text(index, encoding="utf-8")
