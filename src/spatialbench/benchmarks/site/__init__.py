"""SITE: Spatial Intelligence Thorough Evaluation (Wang et al. 2025), its image and video parts.

Modules: ``loader`` (the release's ``image_test`` / ``video_test`` tables or the EASI TSVs → items),
``extraction`` (the official ``parse_multi_choice_response``). ``SPEC`` is benchmark ``site``: the images
(or the sampled video frames), then the official text (``prompt.json``: for video a pre-prompt, then
``Question:``, ``Options:`` lettered ``A: ...``, the post-prompt); ``<image>`` markers in a question place
the images (EASI's interleaving). The table is the chance-adjusted accuracy (CAA) of the official
``spatial_process_results``: per category ``Σ(hit − 1/n) / Σ(1 − 1/n)`` over its questions (``n`` options),
Avg. the same sum pooled over all questions of both parts; each part's own table comes with it (the rows'
``dataset`` is the part). ``breakdown``: plain accuracy per category and per part.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pandas as pd

from spatialbench.benchmarks.shared.choice import column_table, images_then_text
from spatialbench.benchmarks.site.extraction import site_choice
from spatialbench.benchmarks.site.loader import BENCHMARK_NAME, CATEGORIES, PARTS, load_site
from spatialbench.benchmarks.spec import BenchmarkSpec, MediaLayout, RunDefaults
from spatialbench.prompting.templates import fill, read_json
from spatialbench.records.item import Item
from spatialbench.scoring.grouped import Group, Table, grouped
from spatialbench.scoring.rules import STANDARD_MODES, Extractors, ScoringRules

_WEIGHT = "CAA, pooled"  # the weight column's name is the average's header (Table.average_label)


def prompt_text(item: Item) -> str:
    """Return the official text of ``item``'s part (``spatial_doc_to_text_image`` / ``_video``)."""
    options = "\n".join(f"{o[0]}: {o[3:]}" for o in item.options)  # "A. sofa" → "A: sofa"
    template = read_json(__name__, "prompt.json")[item.dataset or "image"]
    return fill(template, {"question": item.question, "options": options})


def chance_adjusted(rows: pd.DataFrame) -> pd.DataFrame:
    """Rows whose ``score`` is ``(hit − 1/n) / (1 − 1/n)`` with weight ``1 − 1/n`` (column ``caa_weight``).

    Their weighted mean is ``Σ(hit − 1/n) / Σ(1 − 1/n)``, the official CAA. ``n_options`` is dropped so the
    table carries no random-guess row (CAA's chance level is 0 by construction).

    Raises:
        KeyError: ``rows`` lack ``n_options`` (rows read back from ``items.csv``).
    """
    chance = 1.0 / rows["n_options"].astype(float)
    adjusted = (rows["score"] - chance) / (1.0 - chance)
    return rows.assign(score=adjusted, **{_WEIGHT: 1.0 - chance}).drop(columns="n_options")


def site_table(rows: pd.DataFrame) -> Table:
    """CAA per category (percent; the release's six, then any other), Avg. = CAA pooled over all rows."""
    present = {str(t) for t in rows["task"]}
    order = [c for c in CATEGORIES if c in present] + sorted(present - set(CATEGORIES))
    groups = [Group.of(c, task=c) for c in order]
    if "n_options" not in rows:  # no option counts: plain accuracy, said in the title
        return grouped(rows, groups, title="SITE: accuracy (option counts unknown, no CAA)")
    return grouped(chance_adjusted(rows), groups, weighting="questions", weight=_WEIGHT)


def site_breakdowns(
    items: Sequence[Item], rows: pd.DataFrame, *, data_dir: Path | str | None = None
) -> list[Table]:
    """Plain accuracy per category and per part (the official ``accuracy`` beside CAA)."""
    by_category = replace(column_table(rows, "task", CATEGORIES), title="SITE: accuracy per category")
    by_part = replace(column_table(rows, "dataset", PARTS), title="SITE: accuracy per part")
    return [by_category, by_part]


SiteBuilder = images_then_text(prompt_text, "SiteBuilder", markers=True)

SPEC = BenchmarkSpec(
    name=BENCHMARK_NAME,
    description="SITE: spatial intelligence over images and videos, chance-adjusted accuracy pooled",
    load=load_site,
    prompt_builder=SiteBuilder,
    scoring=ScoringRules(
        name=BENCHMARK_NAME,
        table=site_table,
        modes={
            "official": Extractors(site_choice, STANDARD_MODES["official"].number),
            "robust": STANDARD_MODES["robust"],
        },
        default_mode="official",
    ),
    breakdowns=site_breakdowns,
    defaults=RunDefaults(frames="uniform:32"),
    title="SITE",
    media=MediaLayout("<data>/<visual> (the release's media paths, data_chunked_*.zip unzipped into <data>)"),
)

__all__ = ["SPEC", "SiteBuilder", "chance_adjusted", "load_site", "prompt_text", "site_choice", "site_table"]
