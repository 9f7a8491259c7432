"""Human evaluation refuses a negative count (issue 22, newcomer defect 6: "-3" was stored for "How many").

A count is a whole number of at least 0; a distance, size or area is at least 0 (MRA's ground truths are
positive). The server refuses, and the form's input pattern refuses before it posts.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from spatialbench.benchmarks import get_benchmark
from spatialbench.web import ServeConfig, create_app, human
from support.vsi_data import make_vsibench

TOKEN = "t0k3n-for-human-numbers"


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("human-numbers")
    make_vsibench(root, n_videos=1, per_video=2, n_frames=12)
    return root


@pytest.fixture(scope="module")
def items(data: Path) -> list:
    return list(get_benchmark("vsibench").load_items(data))


def _count(items: list):  # type: ignore[no-untyped-def]
    return next(i for i in items if i.task == "object_counting")


@pytest.mark.parametrize(("answer", "why"), [
    ("-3", "'-3' is not a count: type a whole number of 0 or more, e.g. 3"),
    ("2.5", "'2.5' is not a count: type a whole number of 0 or more, e.g. 3"),
    ("1e3", "'1e3' is not a count: type a whole number of 0 or more, e.g. 3"),
])
def test_a_count_takes_a_whole_number_of_zero_or_more(items: list, answer: str, why: str) -> None:
    assert human.refusal(_count(items), answer) == why


def test_a_count_accepts_zero_and_whole_numbers(items: list) -> None:
    assert [human.refusal(_count(items), a) for a in ("0", "3", " 12 ", "+4")] == [None] * 4


def test_a_measure_is_not_negative() -> None:
    from spatialbench.records.item import AnswerKind, Item

    distance = Item(id="9", benchmark="vsibench", task="object_abs_distance", question="How far (in m)?",
                    answer_kind=AnswerKind.NUMERICAL, ground_truth="1.5")
    why = "'-1.2' is not a distance or size: type 0 or more, e.g. 2 or 3.5"
    assert human.refusal(distance, "-1.2") == why
    assert human.refusal(distance, "1.2") is None and human.refusal(distance, "0.5e1") is None


def test_the_form_pattern_refuses_a_negative_count(data: Path, items: list, tmp_path: Path) -> None:
    app = create_app(ServeConfig(data=data, workdir=tmp_path / "w", token=TOKEN))
    client = TestClient(app, headers={"X-Spatialbench-Token": TOKEN})
    human.start(tmp_path / "w", "zed", get_benchmark("vsibench"), data, [_count(items).id])
    reply = client.get("/human/zed")
    assert reply.status_code == 200, reply.text
    page = reply.text
    pattern = re.search(r'name="answer"[^>]*pattern="([^"]+)"', page).group(1)
    assert [bool(re.fullmatch(pattern, a)) for a in ("3", " 0 ", "+4", "-3", "2.5", "about two")] == [
        True, True, True, False, False, False]
