from spatialbench.models.chance import FrequencyChance, ItemBackend
from spatialbench.models.resolve import load_backend
from spatialbench.records.item import AnswerKind, Item


def _mca(i: int, options: tuple[str, ...], truth: str, task: str = "object_rel_distance") -> Item:
    return Item(
        id=f"m{i}",
        benchmark="vsibench",
        task=task,
        question="q",
        options=options,
        ground_truth=truth,
        answer_kind=AnswerKind.MULTIPLE_CHOICE,
    )


def _na(i: int, truth: str) -> Item:
    return Item(
        id=f"n{i}",
        benchmark="vsibench",
        task="object_counting",
        question="q",
        ground_truth=truth,
        answer_kind=AnswerKind.NUMERICAL,
    )


def test_frequency_picks_most_frequent_ground_truth_per_task() -> None:
    items = [
        _mca(0, ("A. chair", "B. table", "C. lamp"), "B"),
        _mca(1, ("A. table", "B. chair", "C. bed"), "B"),
        _mca(2, ("A. lamp", "B. table", "C. sofa"), "C"),
        _mca(3, ("A. x", "B. y"), "A", task="object_rel_direction_easy"),
        _na(0, "2"),
        _na(1, "3"),
        _na(2, "2"),
    ]
    backend = load_backend("chance-frequency")
    assert isinstance(backend, FrequencyChance)
    backend.prepare(items)
    assert backend.answer(_mca(9, ("A. a", "B. b", "C. c", "D. d"), "A")).text == "B"
    assert backend.answer(_mca(9, ("A. a", "B. b"), "B", task="object_rel_direction_easy")).text == "A"
    assert backend.answer(_na(9, "7")).text == "2"


def test_frequency_does_not_leak_answers_through_unique_option_texts() -> None:
    # appearance-order options are unique sequences: the baseline must not recover each item's own answer
    letters = "ABCD"
    items = [
        _mca(i, tuple(f"{x}. seq{i}-{x}" for x in letters), letters[i % 4], task="obj_appearance_order")
        for i in range(40)
    ]
    backend = load_backend("chance-frequency")
    backend.prepare(items)
    hits = sum(backend.answer(it).text == it.ground_truth for it in items)
    assert hits == 10  # one letter in four, as a fixed-letter guess scores on balanced answers


def test_random_is_seeded_per_item_and_uniform() -> None:
    backend = load_backend("chance-random", seed=7)
    assert isinstance(backend, ItemBackend)
    items = [_mca(i, ("A. a", "B. b", "C. c", "D. d"), "A") for i in range(4000)]
    letters = [backend.answer(it).text for it in items]
    assert letters == [load_backend("chance-random", seed=7).answer(it).text for it in items]
    assert abs(letters.count("A") / 4000 - 0.25) < 0.03  # chance level 25 % on 4 options
    na = backend.answer(_na(0, "3"))
    assert na.text == "" and na.raw == {"no_answer_expected": True}
