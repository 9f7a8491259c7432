"""What an MMSI-Video-Bench run says about its frames: the settings line names the frame setting that chose
them (not the media strategy ``all``), and the stored request names each frame file sent, so a transcript
shows those files (the fixture's frames are solid colours: each file's colour names its video and frame)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from benchmarks.mmsi_remindview_fixtures import build_mmsi, decode_colour
from spatialbench.api import run
from spatialbench.runs import RunConfig
from spatialbench.runs.folder import open_run
from spatialbench.runs.transcript import settings_line, transcript
from support.openai_server import OpenAIServer, ServerScript


@pytest.fixture(scope="module")
def mmsi_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("mmsi-frames")
    data = build_mmsi(root / "data")
    runs = {}
    with OpenAIServer(ServerScript(answer=lambda text: "B")) as server:
        coverage = {"data": {"options": {"setting": "sufficient-coverage"}}}
        own = {"media": {"frames": "uniform:1"}}
        for name, extra in (("uniform", {}), ("coverage", coverage), ("own", own)):
            runs[name] = root / name
            config = {"data": {"benchmark": "mmsi-video", "path": str(data), "ids": ["question_0010"]},
                      "model": {"name": f"openai-compatible:{server.url}#m"}, "out": str(runs[name])}
            for key, value in extra.items():
                config[key] = {**config[key], **value} if key in config else value
            run(RunConfig.model_validate(config), progress=False)
    return runs


def test_the_settings_line_names_the_frame_setting_used(mmsi_runs: dict[str, Path]) -> None:
    tail = " · strategy direct · extraction robust (benchmark default)"
    lines = {name: settings_line(open_run(path)).split(" · ", 1)[1] for name, path in mmsi_runs.items()}
    assert lines == {"uniform": "frames setting=uniform-50" + tail,
                     "coverage": "frames setting=sufficient-coverage" + tail,
                     "own": "frames uniform:1" + tail}  # the run's own strategy: no setting applied


def test_the_transcript_shows_the_frame_files_sent(mmsi_runs: dict[str, Path]) -> None:
    found = transcript(open_run(mmsi_runs["uniform"]), "question_0010")
    assert found is not None
    images = found.turns[0].images
    # three videos (2, 1 and 2 frames) and a reference image after the first two
    names = [Path(i.source).relative_to(mmsi_runs["uniform"].parent / "data").as_posix() for i in images]
    assert names == ["frames/question_0010/video_0/00:00.00_frame_2_0.jpg",
                     "frames/question_0010/video_0/00:02.00_frame_2_1.jpg",
                     "ref_images/question_0010_ref_0.png",
                     "frames/question_0010/video_1/00:00.00_frame_2_0.jpg",
                     "ref_images/question_0010_ref_1.png",
                     "frames/question_0010/video_2/00:00.00_frame_2_0.jpg",
                     "frames/question_0010/video_2/00:02.00_frame_2_1.jpg"]
    assert [i.label for i in images] == ["0.00 s", "2.00 s", "question_0010_ref_0", "0.00 s",
                                         "question_0010_ref_1", "0.00 s", "2.00 s"]
    assert all(i.is_file for i in images)
    frames = [i for i in images if "/frames/" in i.source]
    with Image.open(frames[-1].source) as last:  # video 2's second frame is the file named
        assert decode_colour(np.asarray(last.convert("RGB"))) == (2, 1)


def test_the_report_item_page_shows_each_video_s_own_frames(mmsi_runs: dict[str, Path],
                                                            tmp_path: Path) -> None:
    import html5lib

    from spatialbench.report import build_report

    build_report([mmsi_runs["uniform"]], tmp_path / "report")
    page = tmp_path / "report" / "items" / "question_0010.html"
    tree = html5lib.parse(page.read_text(encoding="utf-8"), namespaceHTMLElements=False)
    thumbs = [f.find("img") for f in tree.iter("figure") if f.get("class") == "thumb"]
    colours = []
    for image in thumbs:
        with Image.open(page.parent / image.get("src")) as thumb:
            colours.append(decode_colour(np.asarray(thumb.convert("RGB"))))
    frames = [c for c, i in zip(colours, thumbs, strict=True) if i.get("alt").endswith(" s")]
    assert frames == [(0, 0), (0, 1), (1, 0), (2, 0), (2, 1)]  # (video, frame) of each frame file sent
