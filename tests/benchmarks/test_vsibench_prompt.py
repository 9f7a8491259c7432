import numpy as np
import pytest

from spatialbench.benchmarks import get_benchmark
from spatialbench.media.video import SampledFrames
from spatialbench.prompting import InputOrder, ModelFamily, PromptConfig
from spatialbench.prompting.templates import TemplateError, fill, placeholders, read_json
from spatialbench.records.item import AnswerKind, Item, MediaKind, MediaRef
from spatialbench.records.messages import ImagePart, TextPart


def _builder(config: PromptConfig):  # type: ignore[no-untyped-def]
    return get_benchmark("vsibench").prompt_builder(config)


VIDEO = (MediaRef(kind=MediaKind.VIDEO, path="arkitscenes/41069025.mp4"),)
MCA = Item(
    id="1",
    benchmark="vsibench",
    task="object_rel_distance",
    answer_kind=AnswerKind.MULTIPLE_CHOICE,
    question="Which object is closest to the sofa?",
    options=("A. chair", "B. table"),
    ground_truth="A",
    media=VIDEO,
)
NA = Item(
    id="2",
    benchmark="vsibench",
    task="object_counting",
    answer_kind=AnswerKind.NUMERICAL,
    question="How many chair(s) are in this room?",
    ground_truth="4",
    media=VIDEO,
)


def _frames(n: int) -> SampledFrames:
    pixels = tuple(np.full((2, 2, 3), k, np.uint8) for k in range(n))
    return SampledFrames(pixels, np.arange(n), np.arange(n, dtype=float), "v.mp4")


def _build(item: Item, **config):
    return _builder(PromptConfig(**config)).build(item, [_frames(3)])


def test_open_source_prompts_match_official_text_exactly() -> None:
    request = _build(MCA)
    assert [type(p) for p in request.parts] == [ImagePart] * 3 + [TextPart]
    assert request.parts[-1].text == (
        "These are frames of a video.\nWhich object is closest to the sofa?\nOptions:\nA. chair\nB. table\n"
        "Answer with the option's letter from the given choices directly."
    )
    assert _build(NA).parts[-1].text == (
        "These are frames of a video.\nHow many chair(s) are in this room?\n"
        "Please answer the question using a single word or phrase."
    )
    assert request.system is None


def test_proprietary_numerical_post_prompt_from_table_9() -> None:
    text = _build(NA, model_family=ModelFamily.PROPRIETARY).parts[-1].text
    assert text.endswith("\nDo not respond with anything other than a single number!")
    mca = _build(MCA, model_family=ModelFamily.PROPRIETARY).parts[-1].text
    assert mca.endswith("Answer with the option's letter from the given choices directly.")


def test_overrides_replace_fields_and_unknown_fields_raise() -> None:
    text = _build(NA, overrides={"pre_prompt": "PRE", "post_prompt.numerical": "POST"}).parts[-1].text
    assert text == "PRE\nHow many chair(s) are in this room?\nPOST"
    with pytest.raises(ValueError, match="no prompt field"):
        _build(NA, overrides={"prefix": "x"})


def test_question_first_and_repetition_and_blind() -> None:
    first = _build(NA, order=InputOrder.QUESTION_FIRST).parts
    assert isinstance(first[0], TextPart) and all(isinstance(p, ImagePart) for p in first[1:])
    repeated = _build(NA, video_repeats=2)
    kinds = ["I" if isinstance(p, ImagePart) else "T" for p in repeated.parts]
    assert kinds == ["I", "I", "I", "T", "I", "I", "I"]
    assert "shown 2 times" in repeated.system
    blind = _builder(PromptConfig(blind=True, video_repeats=2)).build(NA, [])
    assert blind.n_images == 0 and blind.system is None and len(blind.parts) == 1


def test_every_placeholder_of_the_data_file_is_filled() -> None:
    data = read_json("spatialbench.benchmarks.vsibench", "prompt.json")
    for kind, layout in data["layout"].items():
        assert placeholders(layout) <= {"pre_prompt", "question", "options", "post_prompt"}, kind
    for item in (MCA, NA):
        for family in ModelFamily:
            text = _build(item, model_family=family).parts[-1].text
            assert "{" not in text and "}" not in text
    assert placeholders(data["repetition_system"]) == {"repeats"}
    with pytest.raises(TemplateError, match="needs \\['question'\\]"):
        fill("{question}", {})


def test_builder_answer_budget_and_fingerprint_tracks_text() -> None:
    builder = _builder(PromptConfig())
    assert builder.build(NA, [_frames(1)]).parts[-1].text == _build(NA).parts[-1].text
    assert builder.max_new_tokens(NA) == 16
    a = _builder(PromptConfig()).fingerprint()
    b = _builder(PromptConfig(overrides={"pre_prompt": "x"})).fingerprint()
    assert a != b


def test_empty_override_drops_its_line() -> None:
    builder = _builder(PromptConfig(overrides={"pre_prompt": ""}))
    text = builder.text(NA)
    assert text.startswith(NA.question + "\n") and "\n\n" not in text
