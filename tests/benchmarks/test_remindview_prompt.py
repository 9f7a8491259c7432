"""ReMindView-Bench requests (Table 7 system prompts, named frames) and 4-phase answer parsing."""

import pytest
from mmsi_remindview_fixtures import build_remindview

from spatialbench.benchmarks import get_benchmark
from spatialbench.benchmarks.remindview import build_request, load_remindview, parse_response, system_prompt
from spatialbench.benchmarks.remindview.phases import official_choice, split_phases
from spatialbench.prompting.config import PromptConfig
from spatialbench.records.messages import ImagePart, TextPart

OPTIONS = ("A. lamp", "B. bed", "C. chair", "D. desk")
ROTATIONS = (
    "The provided images are taken at the same position, frame1 is taken by turning 90 degree "
    "counter-clockwise from frame0 view, frame2 is taken by turning 180 degree counter-clockwise from "
    "frame0 view, frame3 is taken by turning 90 degree clockwise from frame0 view."
)


@pytest.fixture(scope="module")
def items(tmp_path_factory):
    return load_remindview(build_remindview(tmp_path_factory.mktemp("rmv") / "data"))


def test_request_names_each_frame_then_asks(items):
    request = build_request(items[3])
    kinds = ["T" if isinstance(p, TextPart) else "I" for p in request.parts]
    assert kinds == ["T", "I", "T", "I", "T", "I", "T", "I", "T"]
    assert [p.text for p in request.parts[:-1] if isinstance(p, TextPart)] == [
        "frame0:",
        "frame1:",
        "frame2:",
        "frame10:",
    ]
    assert request.parts[-1].text == (
        "Question: If you are positioned where bed is and facing the same direction, what is the "
        "direction of lamp to you?\nChoices:\nA. front\nB. left\nC. back-right\nD. right\n\n"
        "Follow the Reasoning Path Template strictly. "
        "Your last line must match ^[ABCD]\\.[^\\n\\r]+$ and contain only one choice."
    )
    assert request.system == system_prompt("object-centric", "view-object")


def test_system_prompts_of_table7(items):
    object_centric = system_prompt("object-centric", "object-object")
    view_centric = system_prompt("view-centric", "view-object")
    assert (
        "frame2 is taken from the front-right of frame1" in object_centric and ROTATIONS not in object_centric
    )
    assert ROTATIONS in view_centric
    for prompt in (object_centric, view_centric):
        assert "(1) General visual description in each frame" in prompt and "(4) Final answer" in prompt
        assert "{" not in prompt  # every placeholder filled
    assert "to the left of the table." in object_centric  # Table 7's phase-(3) example
    assert build_request(items[7]).system == view_centric
    with pytest.raises(KeyError, match="view-centric"):
        system_prompt("view-centric", "view-view")  # excluded from the view-centric setting (App. C)


def test_blind_builder_sends_no_image(items):
    request = get_benchmark("remindview").prompt_builder(PromptConfig(blind=True)).build(items[0], [])
    assert request.n_images == 0 and not any(isinstance(p, ImagePart) for p in request.parts)


FULL = (
    "(1) In frame0: the lamp is in front of the bed. B. is not a label here\n(2) frame1 is front-right of "
    "frame0.\n(3) So the lamp is closest.\n(4) A.lamp"
)


def test_phases_split_and_answer_from_phase_four():
    parsed = parse_response(FULL, OPTIONS)
    assert parsed.complete
    assert parsed.phases[2] == "frame1 is front-right of frame0."
    assert parsed.extraction.value == "A" and parsed.extraction.rule == "phase4:label"


@pytest.mark.parametrize(
    ("response", "letter", "rule"),
    [
        ("(1) a\n(2) b\n(3) c\n(4) C", "C", "phase4:label"),
        ("(1) a\n(2) b\n(3) c\n(4) D. desk", "D", "phase4:label"),
        ("(1) a\n(2) b\n(3) c\n(4) desk", "D", "phase4:option_text"),
        ("(1) I see a lamp (A) and a bed.\n(2) b\n(3) c\n(4) B.bed", "B", "phase4:label"),
        ("The answer is C.", "C", "fallback:robust:marker:letter"),  # no phases
        ("(1) a\n(2) b\n(3) the chair, so final answer: B", "B", "fallback:robust:marker:letter"),  # no (4)
        ("(1) the lamp and the bed\n(2) b\n(3) unsure", None, "fallback:no_answer:not_found"),
        ("(1) a\n(2) b\n(3) c\n(4) E.sofa", None, "fallback:no_answer:not_found"),  # E is not an option
    ],
)
def test_phase_four_then_robust_fallback(response, letter, rule):
    extraction = parse_response(response, OPTIONS).extraction
    assert (extraction.value, extraction.rule) == (letter, rule)


def test_phases_found_in_order_only():
    assert split_phases("(2) late\n(1) first\n(2) second") == {1: "first", 2: "second"}
    assert parse_response(None, OPTIONS).extraction.value is None  # type: ignore[arg-type]


def test_official_reader_takes_the_last_label_anywhere():
    assert official_choice(FULL, OPTIONS).value == "A"
    assert official_choice("(4) desk", OPTIONS).value is None  # official needs a letter
    assert official_choice("I pick B over C", OPTIONS).value == "C"  # last standalone letter
