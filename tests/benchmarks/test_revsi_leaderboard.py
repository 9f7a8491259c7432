"""ReVSI's leaderboard header: Numerical Answer over its four numerical columns, Multiple-Choice Answer over
the other three, also when a column has no item (the fixture has no object-size question: "Obj. Size" is
"-"). Before, ReVSI had no groups, so its report drew one header row unlike VSI-Bench's Fig. 6 it follows.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks.test_revsi import CASES, _question, write_release
from support.scripted_runs import breakdown_and_report, scripted_run


@pytest.mark.slow
def test_group_headers_span_their_columns_around_an_empty_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data = write_release(tmp_path / "data")
    responses = {_question(k): c[5] for k, c in enumerate(CASES)}
    scripted_run("revsi", data, tmp_path / "run", responses, "--option", "budget=16")
    _, html = breakdown_and_report(tmp_path / "run", tmp_path / "report")
    head = re.search(r"<thead>(.*?)</thead>", html, re.S)
    assert head is not None
    rows = re.findall(r"<tr>(.*?)</tr>", head.group(1), re.S)
    groups = re.findall(r'<th class="group" colspan="(\d+)">([^<]*)</th>', rows[0])
    assert groups == [("4", "Numerical Answer"), ("3", "Multiple-Choice Answer")]
    assert re.findall(r'rowspan="(\d+)"', rows[0]) == ["2", "2", "2"]  # Methods, Rank, Avg.
    columns = re.findall(r"<th>([^<]*)</th>", rows[1])
    numerical = ["Obj. Count", "Abs. Dist.", "Obj. Size", "Room Size"]
    choice = ["Rel. Dist.", "Rel. Dir.", "Route Plan"]
    assert columns == numerical + choice
    assert sum(int(span) for span, _ in groups) == len(columns)
    body = html.split("</thead>", 1)[1]
    cells = re.search(r'<tr><td><a href="runs/[^"]+"[^>]*>[^<]+</a></td>(.*?)</tr>', body, re.S)
    assert cells is not None
    values = re.findall(r"<td[^>]*>(.*?)(?:<br>|</td>)", cells.group(1), re.S)
    assert values[:5] == ["1", "51.7", "70.0", "40.0", "-"]  # Rank, Avg., Obj. Count, Abs. Dist., Obj. Size
