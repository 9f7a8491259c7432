"""Phase splitting on hand-written responses (ReMindView-Bench Table 7 format, markdown, missing phases)."""

from spatialbench.analysis.phases import split

PLAIN = (
    "(1) In frame0: the chair is left of the table. (2) frame1 is taken from the right of frame0. "
    "(3) So the lamp is behind me. (4) B.back"
)


def test_plain_four_phases() -> None:
    s = split(PLAIN)
    assert s.phases == {
        1: "In frame0: the chair is left of the table.",
        2: "frame1 is taken from the right of frame0.",
        3: "So the lamp is behind me.",
        4: "B.back",
    }
    assert s.missing == ()
    start, end = s.spans[3]
    assert PLAIN[start:end] == "So the lamp is behind me."


def test_markdown_headings_and_bold_markers() -> None:
    text = (
        "### Phase (1): Frame descriptions\n- frame0: sofa front-left of tv\n\n"
        "**( 2 )** Cross-frame: frame1 is right of frame0\n\n"
        "## Step (3)\nThe tv is to my left.\n\n**(4)** A. left"
    )
    s = split(text)
    assert s.phases[1] == "Frame descriptions\n- frame0: sofa front-left of tv"
    assert s.phases[2] == "Cross-frame: frame1 is right of frame0"
    assert s.phases[3] == "The tv is to my left."
    assert s.phases[4] == "A. left"


def test_missing_phase_is_recorded_not_guessed() -> None:
    s = split("(1) a chair. (3) the chair is left. (4) C")
    assert s.missing == (2,)
    assert s.phases == {1: "a chair.", 3: "the chair is left.", 4: "C"}


def test_first_occurrence_in_order_and_offsets() -> None:
    text = "(2) early two. (1) one (2) two (1) again (3) three"
    s = split(text)
    # (1) is the first "(1)"; (2) the first after it; a later "(1)" is text of phase 2
    assert s.phases == {1: "one", 2: "two (1) again", 3: "three"}
    assert s.phase_of(text.index("one")) == 1
    assert s.phase_of(0) is None


def test_not_text_and_no_markers() -> None:
    assert split(None).missing == (1, 2, 3, 4)
    assert split("B").phases == {} and split("B").missing == (1, 2, 3, 4)


def test_step_markers_of_the_mmsi_three_step_strategy() -> None:
    text = "**Step 1:** the cup is on the table.\n**Step 2:** it moves left.\nStep 3: so B.\nFinal answer: B"
    s = split(text, "step")
    assert s.phases == {1: "the cup is on the table.", 2: "it moves left.", 3: "so B.\nFinal answer: B"}
    assert s.missing == (4,)
    assert split(text).missing == (1, 2, 3, 4)  # the default style looks for "(k)"


def test_unknown_marker_style_is_a_clear_error() -> None:
    import pytest

    with pytest.raises(ValueError, match="unknown phase marker style 'roman'; styles: paren, step"):
        split("(1) a", "roman")


def test_an_empty_phase_is_missing() -> None:
    parts = split("(1)\n(2)\n(3)\n(4) A")
    assert parts.phases == {4: "A"} and parts.missing == (1, 2, 3)
    assert split("**(1)**  **(2)** moved").missing == (1, 3, 4)


def test_phases_out_of_order_each_start_at_their_first_marker() -> None:
    parts = split("(1) a (2) b (4) A (3) c")
    assert parts.phases == {1: "a", 2: "b", 4: "A", 3: "c"} and parts.missing == ()
    assert parts.phase_of(parts.spans[4][0]) == 4 and parts.phase_of(parts.spans[3][0]) == 3
