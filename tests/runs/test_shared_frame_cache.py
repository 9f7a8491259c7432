"""One frame cache shared by several runs: ``run(config, cache=...)`` and the runs of ``spatialbench sweep``.

:class:`~spatialbench.media.cache.FrameCache` keys on the media, its segment, the frame strategy's name and
``max_pixels``: runs that differ only in the prompt (order, repeats, strategy) decode each video once in
all; runs with two frame strategies decode each video once per strategy.
"""

from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spatialbench.media.cache as cache_module
from spatialbench.api import run
from spatialbench.cli.main import app
from spatialbench.media.cache import FrameCache
from spatialbench.prompting.config import PromptConfig
from spatialbench.runs.config import DataConfig, MediaConfig, ModelConfig, RunConfig
from support.openai_server import OpenAIServer, ServerScript
from support.vsi_data import answer_script, make_vsibench


def _spy_decodes(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Count real video decodes per file name (the real decoder still runs)."""
    decodes: Counter[str] = Counter()
    real = cache_module.sample_video

    def counted(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        decodes[Path(path).name] += 1
        return real(path, *args, **kwargs)

    monkeypatch.setattr(cache_module, "sample_video", counted)
    return decodes


def test_two_runs_given_one_cache_decode_each_video_once(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    answers = make_vsibench(data, n_videos=2, per_video=3)
    decodes = _spy_decodes(monkeypatch)
    with OpenAIServer(ServerScript(answer=answer_script(answers))) as server:
        first = RunConfig(out=str(tmp_path / "a"), data=DataConfig(benchmark="vsibench", path=str(data)),
                          model=ModelConfig(name=f"openai-compatible:{server.url}#m"),
                          media=MediaConfig(frames="uniform:2"))
        second = first.model_copy(update={"out": str(tmp_path / "b"),
                                          "prompt": PromptConfig(video_repeats=2)})
        cache = FrameCache(data)
        summaries = [run(first, progress=False, cache=cache), run(second, progress=False, cache=cache)]
    assert decodes == {"scene0.mp4": 1, "scene1.mp4": 1}
    assert [sum(s.decodes.values()) for s in summaries] == [2, 0]  # each run's own decodes
    assert all(s.score is not None and s.score.table.average == 100.0 for s in summaries)


@pytest.mark.parametrize(("sweep", "per_video"),
                         [("video_repeats=1,2", 1), ("frames=uniform:2,uniform:3", 2)])
def test_sweep_runs_share_one_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sweep: str,
                                    per_video: int) -> None:
    data = tmp_path / "data"
    answers = make_vsibench(data, n_videos=2, per_video=3)
    decodes = _spy_decodes(monkeypatch)
    with OpenAIServer(ServerScript(answer=answer_script(answers))) as server:
        args = ["sweep", sweep, "--benchmark", "vsibench", "--data", str(data), "--model",
                f"openai-compatible:{server.url}#m", "--out", str(tmp_path / "sweep"), "--no-progress"]
        if sweep.startswith("video"):
            args += ["--frames", "uniform:2"]
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    # one decode per distinct frame strategy and video, however many runs use it
    assert decodes == {"scene0.mp4": per_video, "scene1.mp4": per_video}
