"""Issue 22: the item page walks the list browse showed (search, sort, filters) and its browse link returns.

A real server over 220 VSI-Bench items (support.vsi_data: ids 0..219 of 2 scenes, the even ids count chairs
— "[qK] How many chair(s) are there?" — the odd ones ask which object is closest to the sofa) and one
chance-frequency run ``freq``, whose score sorts the list. ``?q=how+many`` keeps the 110 counting items
(``chair`` would keep all: the multiple-choice options name one).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html import unescape

import httpx
import pytest

from spatialbench.api import run
from spatialbench.runs import RunConfig
from support.vsi_data import make_vsibench
from web.conftest import Served, serving

BROWSE = "/?q=how+many&sort=run%3Afreq&order=desc"


@pytest.fixture(scope="module")
def listed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    root = tmp_path_factory.mktemp("web-walk")
    make_vsibench(root / "data", n_videos=2, per_video=110, n_frames=12)
    config = RunConfig.model_validate({"data": {"benchmark": "vsibench", "path": str(root / "data")},
                                       "model": {"name": "chance-frequency"},
                                       "out": str(root / "runs" / "freq")})
    run(config, progress=False)
    with serving(root / "data", root / "runs", tmp_path_factory.mktemp("work")) as served:
        yield served


@pytest.fixture
def client(listed: Served) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=listed.url, headers={"X-Spatialbench-Token": listed.token}) as client:
        yield client


def _listed(client: httpx.Client, address: str) -> list[tuple[str, str]]:
    """Every (id, item link) of a browse list, all pages, in the order shown."""
    rows, page = [], 0
    while True:
        text = client.get(address + f"&page_number={page}").text
        links = re.findall(r'<tr><td><a href="(/item/[^"]+)">([^<]+)</a>', text)
        rows += [(i, unescape(h)) for h, i in links]
        if 'id="next-page"' not in text:
            return rows
        page += 1


def _walk(text: str) -> dict[str, str]:
    """The item page's previous / next / browse links and its position text."""
    found = {key: unescape(m.group(1)) for key in ("prev", "next", "browse")
             if (m := re.search(rf'<a id="{key}" href="([^"]+)"', text))}
    found["position"] = re.search(r'<span class="muted">(item \d+ of \d+)</span>', text).group(1)
    return found


def test_next_and_browse_keep_the_search_and_the_sort(client: httpx.Client, listed: Served) -> None:
    rows = _listed(client, BROWSE)
    ids = [i for i, _ in rows]
    assert len(ids) == 110 and all(int(i) % 2 == 0 for i in ids)  # the counting items only
    in_file = [str(json.loads(line)["id"]) for line in (listed.data / "test.jsonl").read_text().splitlines()]
    assert ids != [i for i in in_file if int(i) % 2 == 0]  # sorted by the run's score, not the file's order
    # the benchmark's next item after the 12th is another one: a walk of the unfiltered list would fail
    assert in_file[in_file.index(ids[11]) + 1] != ids[12]
    walk = _walk(client.get(rows[11][1]).text)
    assert rows[11][1] == f"/item/{ids[11]}?q=how+many&sort=run%3Afreq&order=desc"
    assert walk == {"prev": f"/item/{ids[10]}?q=how+many&sort=run%3Afreq&order=desc",
                    "next": f"/item/{ids[12]}?q=how+many&sort=run%3Afreq&order=desc",
                    "browse": BROWSE, "position": "item 12 of 110"}
    on_page_two = _walk(client.get(rows[104][1]).text)  # the 105th is on browse's second page of 100
    assert on_page_two["browse"] == BROWSE + "&page_number=1"
    assert on_page_two["next"] == f"/item/{ids[105]}?q=how+many&sort=run%3Afreq&order=desc"
    last = _walk(client.get(rows[-1][1]).text)
    assert "next" not in last and last["position"] == "item 110 of 110"


def test_an_item_outside_the_list_walks_the_benchmark(client: httpx.Client, listed: Served) -> None:
    in_file = [str(json.loads(line)["id"]) for line in (listed.data / "test.jsonl").read_text().splitlines()]
    odd = next(i for i in in_file if int(i) % 2 == 1)  # not a counting item: ?q=how+many does not list it
    walk = _walk(client.get(f"/item/{odd}?q=how+many").text)
    k = in_file.index(odd)
    assert walk["position"] == f"item {k + 1} of 220" and walk["browse"] == "/"


def test_a_flag_saved_returns_to_the_item_in_its_list(client: httpx.Client) -> None:
    reply = client.post("/flag?q=how+many&sort=run%3Afreq&order=desc&runs=freq",
                        data={"item_id": "0", "flag": "fine"})
    assert reply.status_code == 303
    assert reply.headers["location"] == "/item/0?q=how+many&sort=run%3Afreq&order=desc&runs=freq"


def test_a_task_repeated_lists_both_tasks(client: httpx.Client) -> None:
    one = _listed(client, "/?task=object_counting")
    both = _listed(client, "/?task=object_counting&task=object_rel_distance")
    assert len(one) == 110 and len(both) == 220  # 110 counting + 110 relative-distance items
    text = client.get("/?task=object_counting&task=object_rel_distance").text
    chosen = re.search(r'<select name="task"( multiple)?>(.*?)</select>', text, re.S)
    assert chosen is not None and chosen.group(1) == " multiple"
    assert re.findall(r'<option value="(\w+)" selected>', chosen.group(2)) == ["object_counting",
                                                                                 "object_rel_distance"]
    walk = _walk(client.get(both[0][1]).text)
    assert walk["browse"] == "/?task=object_counting&task=object_rel_distance"
    assert walk["position"] == "item 1 of 220"
