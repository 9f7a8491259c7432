"""ReMindView ``query_type`` numbers templates as the official code does: 0-based within a Table 6 group.

``ground_truth_generation.py`` (github.com/pittisl/ReMindView-Bench) writes
``view-object|relative_distance|non_perspective_changing|0`` and ``...|1`` for the two templates of that
Table 6 row; the generator wrote the global 1-22 number there, so its template 1 read "template 2" in serve
and the report, and template 22 "template 23" (issue 22, newcomer defect 3).
"""

from __future__ import annotations

from spatialbench.benchmarks.remindview.query import parse_query_type, query_words
from spatialbench.generate.remindview.questions import templates

#: Table 6: templates per (relation, query type, perspective) row, in the order of the 22 templates
TABLE_6 = [("View–View · Relative Distance", 2), ("View–View · Relative Direction", 2),
           ("View–Object · Relative Distance (SP)", 2), ("View–Object · Relative Distance (PC)", 2),
           ("View–Object · Relative Direction (SP)", 2), ("View–Object · Relative Direction (PC)", 4),
           ("Object–Object · Relative Distance (SP)", 2), ("Object–Object · Relative Direction (SP)", 2),
           ("Object–Object · Relative Direction (PC)", 4)]


def test_the_22_templates_read_as_table_6_numbers_them() -> None:
    expected = [f"{row} · template {k}" for row, n in TABLE_6 for k in range(1, n + 1)]
    assert [query_words(t.query_type) for t in templates()] == expected
    assert templates()[0].query_type == "view-view|relative_distance|0"
    assert templates()[21].query_type == "object-object|relative_direction|perspective_changing|3"


def test_an_official_query_type_reads_as_its_table_6_template() -> None:
    official = "view-object|relative_distance|non_perspective_changing|1"
    assert query_words(official) == "View–Object · Relative Distance (SP) · template 2"
    assert parse_query_type(official, "From the perspective of frame1, which object is the furthest?"
                            ).template_index == 1
