"""The report's item pages show each run's dialogue (issue 22): turns, frames sent, maps, judge requests.

A zero-shot-CoT and a map-then-answer run of the one-room benchmark (``support.transcript_runs``: a real
4-frame sample of an 8-frame, 30 fps video, answered by the scripted reasoning model over loopback HTTP);
a judge's request about item 0 asked through the real asker (:func:`spatialbench.analysis.asking.ask_all`):
an invalid first reply, then a valid one after the retry.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import html5lib
import pytest
from PIL import Image

from spatialbench.analysis.asking import Question, ask_all, open_store
from spatialbench.models.base import Backend
from spatialbench.records.messages import Request, Response, TextPart
from spatialbench.report import build_report
from spatialbench.runs.folder import open_run
from spatialbench.runs.transcript import transcript, transcripts
from support.transcript_runs import strategy_runs

TIMES = ["0.00 s", "0.07 s", "0.13 s", "0.23 s"]  # frames 0, 2, 4, 7 of 8 at 30 fps (uniform:4)


class TwoReplyJudge(Backend):
    """Answers the first request with prose, the retry with a JSON verdict."""

    provider = "scripted"

    def __init__(self) -> None:
        self.sent: list[Request] = []

    async def generate(self, request: Request) -> Response:
        self.sent.append(request)
        if len(self.sent) == 1:
            return Response("It looks right to me.", input_tokens=11, output_tokens=6)
        return Response('{"verdict": "correct"}', input_tokens=30, output_tokens=7)


def _judge(run: Path) -> None:
    judge = TwoReplyJudge()
    store = open_store(run, "judge", "scripted:judge", judge, "vsibench")
    question = Question("0", Request(parts=(TextPart("Is the answer D justified? Reply in JSON."),)))
    valid = lambda text: None if text.startswith("{") else "not JSON"  # noqa: E731
    asked = asyncio.run(ask_all(judge, store, "scripted:judge", [question], valid, "Problem: {error}"))
    assert asked.answers[0].text == '{"verdict": "correct"}' and asked.requests == len(judge.sent) == 2


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("report-transcripts")
    paths = strategy_runs(root)
    _judge(paths["cot"])
    (paths["cot"] / "analysis" / "unknown.json").write_text('{"analysis": "no-such-analysis", "version": 1}')
    build_report([paths["cot"], paths["map"]], root / "report")
    return {**paths, "root": root, "report": root / "report"}


def _card(built: dict[str, Path], run: str, item: str = "0"):  # type: ignore[no-untyped-def]
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    page = built["report"] / "items" / f"{item}.html"
    tree = parser.parse(page.read_text(encoding="utf-8"))
    return next(e for e in tree.iter("div") if e.get("id") == f"run-{run}"), page


def _text(element) -> str:  # type: ignore[no-untyped-def]
    return "".join(element.itertext())


def _turns(card) -> list:  # type: ignore[no-untyped-def]
    return [e for e in card.iter("div") if e.get("class") == "turn"]


def test_cot_item_page_shows_both_turns_and_the_frames_sent(built) -> None:
    card, page = _card(built, "cot")
    own = [t for t in _turns(card) if t.get("data-turn") in ("cot", "extract")]
    assert [t.get("data-turn") for t in own] == ["cot", "extract"]
    first, extract = (_text(t) for t in own)
    assert "Let's think step by step." in first and "Therefore, the answer is D." in first
    assert "Based on your reasoning above" in extract and "after 2 earlier message(s)" in extract
    figures = [f for f in own[0].iter("figure") if f.get("class") == "thumb"]
    assert [_text(f.find("figcaption")) for f in figures] == TIMES
    for figure in figures:
        image = figure.find("img")
        assert image.get("alt") in TIMES
        with Image.open(page.parent / image.get("src")) as thumb:
            assert thumb.size == (200, 200)  # the 64 x 64 frames, 200 px wide
    assert not list(own[1].iter("img"))  # the extraction turn sends no frame
    assert "in / " in first and " out tokens" in first  # token counts and latency per turn
    assert "raw request (secrets redacted)" in first
    assert "[image " not in page.read_text(encoding="utf-8")  # no placeholder where a frame was sent


def test_map_item_page_shows_the_predicted_map_beside_the_truth(built) -> None:
    card, _ = _card(built, "map")
    assert [t.get("data-turn") for t in _turns(card)] == ["map", "answer"]
    svg = "{http://www.w3.org/2000/svg}"  # html5lib puts inline SVG in its namespace
    maps = [e for e in card.iter(f"{svg}svg") if e.get("class") == "cogmap"]
    # the scripted map: chairs at (3, 4) and (5, 6), a table at (4, 4); the truth: the room's 5 objects
    # (centres (9.5, 0.5)... on a 10 m room, 10 x 10 grid)
    assert [_text(m) for m in maps] == [
        "predicted mapchair (3, 4)chair (5, 6)table (4, 4)",
        "ground truthchair (9, 0)table (0, 9)lamp (9, 9)bed (5, 5)sofa (0, 0)",
    ]
    assert [len(list(m.iter(f"{svg}circle"))) for m in maps] == [3, 5]
    legend = next(e for e in card.iter(f"{svg}svg") if e.get("class") == "cogmap-legend")
    assert _text(legend) == "● bed ● chair ● lamp ● sofa ● table "  # one legend for the pair, a–z
    assert len([f for f in _turns(card)[0].iter("figure")]) == 4


def test_judge_request_retry_and_verdict_follow_the_dialogue(built) -> None:
    card, _ = _card(built, "cot")
    side = next(e for e in card.iter("div") if e.get("class") == "side")
    assert side.get("data-kind") == "judge"
    turns = [t for t in side.iter("div") if t.get("class") == "turn"]
    assert [t.get("data-turn") for t in turns] == ["ask", "retry"]
    assert "It looks right to me." in _text(turns[0]) and "Problem: not JSON" in _text(turns[1])
    assert "11 in / 6 out tokens" in _text(turns[0])
    assert 'verdict: {"verdict": "correct"}' in _text(side)


def test_settings_line_per_run(built) -> None:
    index = (built["report"] / "index.html").read_text(encoding="utf-8")
    for name, strategy in (("cot", "zero-shot-cot"), ("map", "map-then-answer")):
        line = f"frames uniform:4 · strategy {strategy} · extraction robust (benchmark default)"
        assert line in index and line in (built["report"] / "runs" / f"{name}.html").read_text()
        assert line in _text(_card(built, name)[0])


def test_no_file_of_the_report_names_a_local_absolute_path(built) -> None:
    root = str(built["root"]).encode()
    files = [p for p in built["report"].rglob("*") if p.is_file()]
    assert len(files) > 10
    assert [p.name for p in files if root in p.read_bytes()] == []
    settings = (built["report"] / "runs" / "cot.html").read_text(encoding="utf-8")
    recorded = json.loads((built["cot"] / "config.json").read_text())["config"]["data"]["path"]
    assert recorded == str(built["data"]) and "&#34;../data&#34;" in settings  # relative to the report
    index = (built["report"] / "index.html").read_text(encoding="utf-8")
    assert "../runs/cot/analysis/unknown.json (" in index  # the analysis section's source, listed not drawn


def test_the_report_reads_every_transcript_at_once_as_the_item_page_reads_one(built) -> None:
    for name in ("cot", "map"):
        run = open_run(built[name])
        every = transcripts(run)
        assert sorted(every) == ["0", "1"]
        assert all(every[i] == transcript(run, i) for i in every)
    assert [d.kind for d in transcripts(open_run(built["cot"]))["0"].side] == ["judge"]
