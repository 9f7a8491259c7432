"""Issue 24: the English article "A" at the start of a response is not option A, in the one ``robust``
reader every benchmark uses, while every spelling of the letter A still reads A; official modes unchanged.

The failing inputs of the newcomer check: BLINK "A person stands nearer, so B" read A (rule
``robust:lead:letter``) and scored 0; VSI-SUPER-Recall "A bathtub appears first, so the order is C" read A.
"""

from __future__ import annotations

import pytest

from benchmarks import test_blink, test_cvbench, test_mmsi_bench, test_viewspatial, test_vsi_super
from spatialbench.benchmarks import get_benchmark
from spatialbench.scoring.article import is_article
from spatialbench.scoring.scorer import score_items

BUILDERS = {
    "blink": test_blink.write_release,
    "cvbench": test_cvbench.write_release,
    "vsi-super-recall": test_vsi_super.recall_release,
    "viewspatial": test_viewspatial.write_release,
    "mmsi-bench": lambda folder: test_mmsi_bench._write_both(folder)[0],
}
# (response, the letter robust reads); every benchmark's first item has at least options A and B
TABLE = [
    ("A person stands nearer, so B", "B"),  # the BLINK failing case
    ("a person stands nearer, so B", "B"),
    ("A", "A"), ("a", "A"), ("A.", "A"), ("A)", "A"), ("(A)", "A"), ("A: the first one", "A"),
    ("A is correct", "A"), ("Answer: A", "A"), ("A because the other point is farther", "A"),
    ("A, since it is nearer", "A"), ("B", "B"),
    ("A person stands there", None),  # the article and no letter: no answer, never A
    ("A person stands there, so B or A", None),  # a hedge before the closing letter
    ("Not A. It is B", "B"), ("A or B? I think B", None),
    # a negated letter is no answer (the newcomer check: robust read B, B, A)
    ("It is not B.", None), ("Neither A nor B", None), ("Answer: none of A", None),
    ("It isn't B", None), ("It is never (B).", None), ("No B", None), ("B, not A", "B"),
]


@pytest.fixture(scope="module")
def first_items(tmp_path_factory: pytest.TempPathFactory) -> dict:
    folder = tmp_path_factory.mktemp("article")
    return {name: get_benchmark(name).load_items(build(folder / name)) for name, build in BUILDERS.items()}


@pytest.mark.parametrize("benchmark", list(BUILDERS))
@pytest.mark.parametrize(("response", "letter"), TABLE)
def test_robust_reads_the_article_as_no_letter(first_items, benchmark, response, letter) -> None:
    item = first_items[benchmark][0]
    read = get_benchmark(benchmark).scoring.modes["robust"].choice(response, item.options)
    assert read.value == letter, read


def test_the_failing_inputs_now_score_one(first_items) -> None:
    blink = next(i for i in first_items["blink"] if i.ground_truth == "B")
    text = "A person stands nearer, so B"
    rows = score_items([blink], {blink.id: text}, get_benchmark("blink").scoring).rows
    assert rows["extracted"].tolist() == ["B"] and rows["score"].tolist() == [1.0]
    assert rows["rule"].tolist() == ["robust:closing:letter"]
    recall = next(i for i in first_items["vsi-super-recall"] if i.ground_truth == "C")
    text = "A bathtub appears first, so the order is C"
    rows = score_items([recall], {recall.id: text}, get_benchmark("vsi-super-recall").scoring).rows
    assert rows["extracted"].tolist() == ["C"] and rows["score"].tolist() == [1.0]


@pytest.mark.parametrize(("benchmark", "mode", "letter"), [
    ("blink", "official", "A"),  # VSI-Bench's first-token rule: "A"
    ("cvbench", "official", "A"),
    ("viewspatial", "official", "A"),  # the official last-line \b[A-D]\b, case-insensitive: "A"
    ("mmsi-bench", "official", "B"),  # the official reader already skips "A" before a space and a letter
])
def test_official_modes_keep_the_official_reading(first_items, benchmark, mode, letter) -> None:
    item = first_items[benchmark][0]
    read = get_benchmark(benchmark).scoring.modes[mode].choice("A person stands nearer, so B", item.options)
    assert read.value == letter, read


def test_viewspatial_default_shares_the_rule() -> None:
    choice = get_benchmark("viewspatial").scoring.modes["viewspatial"].choice
    assert choice("a chair is on the left, so C").value == "C"
    assert choice("A is correct").value == "A"  # the letter before a verb (before: no answer)


@pytest.mark.parametrize(("text", "article"), [
    ("A person", True), ("a bathtub appears", True), ("a unit", True), ("a one-way door", True),
    ("A is correct", False), ("A appears first", False), ("A or B", False), ("A because", False),
    ("A.", False), ("A", False), ("A: sofa", False), ("A Person", False), ("B person", False),
])
def test_is_article(text: str, article: bool) -> None:
    assert is_article(text) is article


def test_a_text_without_options_gets_no_closing_letter() -> None:
    choice = get_benchmark("blink").scoring.modes["robust"].choice
    assert choice("A person stands nearer, so B").value is None  # options unknown: strict C1 only
