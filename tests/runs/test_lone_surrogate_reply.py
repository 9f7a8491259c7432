"""A reply holding a lone UTF-16 surrogate is stored, scored and re-run without a crash (issue 26, item 3).

The failing input: the JSON reply ``"2 \\ud83d"`` (half an emoji). SQLite cannot encode the lone
surrogate, so ``run`` crashed in the store, and so did every re-run.
"""

import json
import sqlite3
from pathlib import Path

from spatialbench.api import run
from spatialbench.records.surrogates import escape_lone_surrogates
from spatialbench.runs import STORE_NAME
from support.configs import run_config
from support.openai_server import OpenAIServer, ServerScript
from support.vsi_data import make_vsibench


def test_a_lone_surrogate_reply_is_stored_escaped_scored_and_resumed(tmp_path: Path) -> None:
    root = tmp_path / "vsi"
    make_vsibench(root, n_videos=1, per_video=3)
    out = tmp_path / "run"
    script = ServerScript(answer=lambda text: "2 \ud83d")
    with OpenAIServer(script) as server:
        config = run_config(root, out, url=server.url, frames="uniform:4")
        assert run(config, progress=False).counts == {"ok": 3, "empty": 0, "failed": 0}
        run(config, progress=False)  # the re-run reads the stored rows back and sends nothing
    assert len(script.answered()) == 3  # the re-run sent nothing: every answer was stored
    with sqlite3.connect(out / STORE_NAME) as conn:
        rows = conn.execute("SELECT status, response FROM results").fetchall()
    assert set(rows) == {("ok", "2 \\ud83d")}
    assert json.loads((out / "scores.json").read_text())


def test_escape_writes_each_lone_surrogate_as_its_json_escape() -> None:
    assert escape_lone_surrogates("2 \ud83d") == "2 \\ud83d"
    assert escape_lone_surrogates("\udc80x\ud800") == "\\udc80x\\ud800"
    assert escape_lone_surrogates("ok \U0001f600") == "ok \U0001f600"  # a whole emoji is left alone
