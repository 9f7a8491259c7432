"""Request keys hash what is sent: scoring-only changes re-send nothing (counted on a real server)."""

import json
from pathlib import Path

from spatialbench.api import run
from spatialbench.runs import RunConfig
from support.configs import run_config
from support.openai_server import OpenAIServer, ServerScript
from support.vsi_data import answer_script, make_vsibench, question_tag


def _config(root: Path, url: str, out: Path, **extra) -> RunConfig:
    model = {"concurrency": 4, "retry_base_delay_s": 0.01}
    return run_config(root, out, url=url, frames="uniform:4", **{"model": model, **extra})

def _rewrite(path: Path, change) -> None:  # type: ignore[no-untyped-def]
    records = [json.loads(line) for line in path.read_text().splitlines()]
    path.write_text("".join(json.dumps(change(r)) + "\n" for r in records))


def test_scoring_only_changes_resend_nothing_and_a_question_change_resends_one(tmp_path) -> None:
    root = tmp_path / "data"
    answers = make_vsibench(root, n_videos=2, per_video=3)
    out = tmp_path / "run"
    script = ServerScript(answer=answer_script(answers))
    with OpenAIServer(script) as server:
        first = run(_config(root, server.url, out), progress=False)
        assert first.counts["ok"] == 6 and len(script.log) == 6
        # every ground truth changed: numbers +1, letters shifted
        shift = {"A": "B", "B": "C", "C": "D", "D": "A"}
        _rewrite(root / "test.jsonl", lambda r: {
            **r, "ground_truth": shift.get(r["ground_truth"]) or str(int(r["ground_truth"]) + 1)})
        (tmp_path / "pruned.txt").write_text("0\n3\n")
        rescored = run(
            _config(root, server.url, out, data={"benchmark": "vsibench", "path": str(root),
                                                 "options": {"pruned_ids": str(tmp_path / "pruned.txt")}},
                    scoring={"extract": "official", "mra": "paper"}),
            progress=False,
        )
        assert len(script.log) == 6, "a scoring-only change re-sent requests"
        assert rescored.already_done == 6 and rescored.counts["ok"] == 0
        # the stored answers are the old truths: re-scored against the new ones, not re-asked
        assert sorted(rescored.score.rows["score"]) == sorted([0.0] * 3 + [0.5, 0.7, 0.8])
        assert rescored.score.extract == "official" and rescored.score.debiased is not None
        # a changed question text is what the model sees: exactly that item goes out again
        _rewrite(root / "test.jsonl", lambda r: {
            **r, "question": r["question"] + (" Count carefully." if r["id"] == 2 else "")})
        changed = run(_config(root, server.url, out), progress=False)
    assert len(script.log) == 7 and question_tag(script.log[-1].text) == "q2"
    assert "Count carefully." in script.log[-1].text
    assert changed.already_done == 5 and changed.counts["ok"] == 1
