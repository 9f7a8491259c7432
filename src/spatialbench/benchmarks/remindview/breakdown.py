"""ReMindView-Bench score tables (Table 1; Figs. 5–6), each cell with its random-choice baseline.

Table 1: overall ``Avg.``; then per viewpoint spatial pattern ``Avg.``, V–V, V–O, O–O (relation), Dir., Dis.
(query type), SP, PC (perspective taking; view–view queries have none), CF, NCF (cross-frame). The
view-centric pattern has no V–V group (App. C). Accuracy by number of objects (Fig. 5) and by distance
level (Fig. 6) complete the report. The random-choice baseline of a cell is the mean of 1 / number of
choices over its queries (Sec. 4.1).
"""

from __future__ import annotations

import pandas as pd

from spatialbench.scoring.grouped import Group, Table, grouped, per_value

PATTERN_TITLES = (("object-centric", "Object-centric"), ("view-centric", "View-centric"))
RELATION_COLUMNS = (("V–V", "view-view"), ("V–O", "view-object"), ("O–O", "object-object"))
KIND_COLUMNS = (("Dir.", "relative_direction"), ("Dis.", "relative_distance"))
PERSPECTIVE_COLUMNS = (("SP", "SP"), ("PC", "PC"))
CROSS_FRAME_COLUMNS = (("CF", True), ("NCF", False))


def pattern_columns(pattern: str) -> list[Group]:
    """Table 1 groups of one pattern, in the paper's order (no V–V for view-centric)."""
    relations = RELATION_COLUMNS[1:] if pattern == "view-centric" else RELATION_COLUMNS
    columns = [
        *(("relation", label, value) for label, value in relations),
        *(("query_kind", label, value) for label, value in KIND_COLUMNS),
        *(("perspective", label, value) for label, value in PERSPECTIVE_COLUMNS),
        *(("cross_frame", label, value) for label, value in CROSS_FRAME_COLUMNS),
    ]
    groups = [Group.of("Avg.", pattern=pattern)]
    groups += [Group.of(label, pattern=pattern, **{key: value}) for key, label, value in columns]
    return groups


def table1(frame: pd.DataFrame) -> list[Table]:
    """Table 1 as three tables: overall (Avg. and per pattern), object-centric, view-centric."""
    overall = [Group.of("Avg.")] + [Group.of(title, pattern=pattern) for pattern, title in PATTERN_TITLES]
    tables = [grouped(frame, overall, title="ReMindView-Bench overall (Table 1)")]
    for pattern, title in PATTERN_TITLES:
        tables.append(grouped(frame, pattern_columns(pattern), title=f"ReMindView-Bench {title} (Table 1)"))
    return tables


def remindview_tables(frame: pd.DataFrame) -> list[Table]:
    """Table 1, then accuracy by number of objects (Fig. 5) and by distance level (Fig. 6).

    ``frame``: score rows joined with the items (``scoring.grouped.with_items``).
    """
    return [
        *table1(frame),
        per_value("ReMindView-Bench accuracy by number of objects (Fig. 5)", frame, "object_num"),
        per_value("ReMindView-Bench accuracy by distance level (Fig. 6)", frame, "distance_level"),
    ]
