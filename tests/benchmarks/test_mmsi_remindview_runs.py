"""End-to-end runs of both benchmarks against a real OpenAI-compatible server on 127.0.0.1."""

import json

import pytest
from mmsi_remindview_fixtures import build_mmsi, build_remindview, mmsi_samples

from spatialbench.api import run
from support.configs import run_config
from support.openai_server import OpenAIServer, ServerScript

pytestmark = pytest.mark.slow


def _config(benchmark, data, url, out, options=None):
    return run_config(data, out, benchmark=benchmark, url=url, frames="all", data={"options": options or {}},
                      model={"concurrency": 4, "timeout_s": 5.0})

def _mmsi_answer(text):
    for sample in mmsi_samples():
        question = sample["user_prompt"].split("\nOptions:")[0].rsplit("\n", 1)[-1]  # the question line
        if question in text:
            return f"\\boxed{{{sample['ground_truth']}}}"
    return "no answer"


def test_mmsi_run_uniform_budget_reaches_the_model(tmp_path):
    data = build_mmsi(tmp_path / "mmsi")
    script = ServerScript(answer=_mmsi_answer)
    with OpenAIServer(script) as server:
        summary = run(
            _config(
                "mmsi-video", data, server.url, tmp_path / "run", options={"setting": "uniform-4"}
            ),
            progress=False,
        )
    assert summary.counts == {"ok": 14, "empty": 0, "failed": 0}
    images = sorted(r.n_images for r in script.answered())
    # eight 2-frame videos send 2; 0000 (3 frames), 0001 and 0011 (2 frames + 1 reference image) send 3;
    # 0006 sends 4 of 4; 0009: 3 + 2 frames cut to 3 + 1; 0010: 2 + 1 + 2 frames cut to 2 + 1 + 1, + 2 images.
    assert images == [2] * 8 + [3, 3, 3] + [4, 4] + [6]
    scores = json.loads((tmp_path / "run" / "scores.json").read_text())
    assert summary.score.table.average == 100.0 and scores


def test_mmsi_consecutive_frames_are_one_segment_per_question(tmp_path):
    from spatialbench.runs import RunSetupError

    data = build_mmsi(tmp_path / "mmsi")
    script = ServerScript(answer=_mmsi_answer)
    config = _config("mmsi-video", data, "http://127.0.0.1:1/v1", tmp_path / "run")
    config = config.updated("media", frames="consecutive:2@1")
    with OpenAIServer(script) as server:
        config = config.updated("model", name=f"openai-compatible:{server.url}#test-vlm")
        summary = run(config, progress=False)
    assert summary.counts == {"ok": 14, "empty": 0, "failed": 0}
    # 2 frames per question from joined frame 1 (start moved back to fit): 2 for each one-video question;
    # 0001 and 0011 + 1 reference image; 0009 (3 + 2): 2 of video 0 + video 1's first; 0010 (2 + 1 + 2):
    # video 0 frame 1, video 1 frame 0, video 2's first frame + 2 images (per video it was 1 + 1 + 1 + 2)
    assert sorted(r.n_images for r in script.answered()) == [2] * 10 + [3, 3, 3] + [5]
    saved = json.loads((tmp_path / "run" / "config.json").read_text())["config"]
    assert saved["data"]["options"] == {"setting": "consecutive-2@1"} and saved["media"]["frames"] == "all"
    with pytest.raises(RunSetupError, match="conflicts with setting=uniform-50"):
        run(_config("mmsi-video", data, "http://127.0.0.1:1/v1", tmp_path / "bad", {"setting": "uniform-50"})
            .updated("media", frames="consecutive:2@1"), progress=False)  # fmt: skip


def test_remindview_run_sends_named_frames(tmp_path):
    data = build_remindview(tmp_path / "rmv")
    script = ServerScript(answer=lambda text: "(1) a\n(2) b\n(3) c\n(4) A.x")
    with OpenAIServer(script) as server:
        summary = run(_config("remindview", data, server.url, tmp_path / "run"), progress=False)
    assert summary.counts == {"ok": 11, "empty": 0, "failed": 0}
    assert all(r.n_images == 4 for r in script.answered())
    first = script.answered()[0].body["messages"]
    assert first[0]["role"] == "system" and "Reasoning Path Template" in str(first[0]["content"])
    assert "frame0:" in json.dumps(first[1]["content"])
    # every answer is A: right for oc:2, oc:5, oc:6, vc:1, vc:2, vc:3 (their truth is the first choice)
    assert summary.score.table.average == pytest.approx(100 * 6 / 11)
