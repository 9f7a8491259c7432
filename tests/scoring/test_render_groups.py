"""Header groups of a Grid: runs of equal labels, and the LaTeX row they become."""

from spatialbench.scoring.render import Grid, spans, to_latex


def test_spans_are_runs_of_equal_adjacent_labels() -> None:
    assert spans(["A", "A", "", "B"]) == (("A", 2), ("", 1), ("B", 1))
    assert spans(["A", "B", "A"]) == (("A", 1), ("B", 1), ("A", 1))  # not adjacent: two headers
    assert spans(["", ""]) == ()  # no group: one header row


def test_latex_group_row_with_a_blank_span() -> None:
    grid = Grid(("Avg.", "x", "y"), (("a", (1.0, 2.0, 3.0)),), groups=(("", 1), ("G & H", 2)))
    tex = to_latex(grid).splitlines()
    assert tex[2] == r" &  & \multicolumn{2}{c}{G \& H} \\"
    assert tex[3] == r"\cmidrule(lr){3-4}"
    assert tex[4] == r" & Avg. & x & y \\"
