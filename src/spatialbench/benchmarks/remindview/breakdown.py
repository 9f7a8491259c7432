"""ReMindView-Bench score tables (Table 1; Figs. 5–6), each cell with its random-choice baseline.

Table 1: overall ``Avg.``; then per viewpoint spatial pattern ``Avg.``, V–V, V–O, O–O (relation), Dir., Dis.
(query type), SP, PC (perspective taking; view–view queries have none), CF, NCF (cross-frame). The
view-centric pattern has no V–V group (App. C). Accuracy by number of objects (Fig. 5) and by distance
level (Fig. 6) complete the report. The random-choice baseline of a cell is the mean of 1 / number of
choices over its queries (Sec. 4.1).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from spatialbench.records.item import Item
from spatialbench.scoring.breakdown import Group, Outcome, Table, breakdown, everything, field_equals

PATTERN_TITLES = (("object-centric", "Object-centric"), ("view-centric", "View-centric"))
RELATION_COLUMNS = (("V–V", "view-view"), ("V–O", "view-object"), ("O–O", "object-object"))
KIND_COLUMNS = (("Dir.", "relative_direction"), ("Dis.", "relative_distance"))
PERSPECTIVE_COLUMNS = (("SP", "SP"), ("PC", "PC"))
CROSS_FRAME_COLUMNS = (("CF", True), ("NCF", False))


def _both(first: Callable[[Item], bool], second: Callable[[Item], bool]) -> Callable[[Item], bool]:
    return lambda item: first(item) and second(item)


def pattern_columns(pattern: str) -> list[Group]:
    """Table 1 groups of one pattern, in the paper's order (no V–V for view-centric)."""
    in_pattern = field_equals("pattern", pattern)
    relations = RELATION_COLUMNS[1:] if pattern == "view-centric" else RELATION_COLUMNS
    columns = [
        *(("relation", label, value) for label, value in relations),
        *(("query_kind", label, value) for label, value in KIND_COLUMNS),
        *(("perspective", label, value) for label, value in PERSPECTIVE_COLUMNS),
        *(("cross_frame", label, value) for label, value in CROSS_FRAME_COLUMNS),
    ]
    groups = [Group("Avg.", in_pattern)]
    groups += [Group(label, _both(in_pattern, field_equals(key, value))) for key, label, value in columns]
    return groups


def table1(outcomes: Sequence[Outcome]) -> list[Table]:
    """Table 1 as three tables: overall (Avg. and per pattern), object-centric, view-centric."""
    overall = [Group("Avg.", everything)]
    overall += [Group(title, field_equals("pattern", pattern)) for pattern, title in PATTERN_TITLES]
    tables = [breakdown("ReMindView-Bench overall (Table 1)", outcomes, overall)]
    for pattern, title in PATTERN_TITLES:
        tables.append(breakdown(f"ReMindView-Bench {title} (Table 1)", outcomes, pattern_columns(pattern)))
    return tables


def by_value(title: str, outcomes: Sequence[Outcome], key: str) -> Table:
    """Accuracy per value of ``metadata[key]``, values ascending (items without a value are left out)."""
    values: list[Any] = sorted(
        {o.item.metadata[key] for o in outcomes if o.item.metadata.get(key) is not None}
    )
    return breakdown(title, outcomes, [Group(str(v), field_equals(key, v)) for v in values])


def remindview_tables(outcomes: Sequence[Outcome]) -> list[Table]:
    """Table 1, then accuracy by number of objects (Fig. 5) and by distance level (Fig. 6)."""
    return [
        *table1(outcomes),
        by_value("ReMindView-Bench accuracy by number of objects (Fig. 5)", outcomes, "object_num"),
        by_value("ReMindView-Bench accuracy by distance level (Fig. 6)", outcomes, "distance_level"),
    ]
