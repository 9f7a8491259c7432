"""Every benchmark of issue 24, one fixture each: run on the loopback server, then every command on the run.

For each benchmark its own test's fixture (official release format) and scripted responses are reused;
the run's overall is the value that test computes with the official rule (the comment names it), and
``score`` (rescoring the stored answers), ``baseline`` (chance-random and chance-frequency),
``breakdown``, ``compare`` (the run and a copy of it), ``report`` and ``stress-test`` must all finish
(exit 0) on it. The fixtures are a few items: stress-test scores no type with k=5 folds and says so, one
line per type (streaming count: refused, exit 2, no single answer per question to learn).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from benchmarks import (
    test_blink,
    test_cvbench,
    test_embspatial,
    test_mindcube,
    test_mmsi_bench,
    test_revsi,
    test_site,
    test_threedsr,
    test_viewspatial,
    test_vsi_super,
    test_vsi_super_streaming,
)
from spatialbench.benchmarks import get_benchmark
from spatialbench.cli.main import app
from support.image_tables import write_tsv
from support.scripted_runs import scripted_run


@dataclass(frozen=True)
class Case:
    """A benchmark's fixture (``build(folder) -> data``), its scripted responses, run options and overall."""

    benchmark: str
    build: Callable[[Path], Path]
    responses: dict[str, str]
    overall: float
    options: tuple[str, ...] = ()
    stress_file: str = ""  # the fixture's file for stress-test, which has no --subset (MindCube-Tiny)


def _threedsr_responses() -> dict[str, str]:
    responses = {}
    for qid, _, options, _, response in test_threedsr.ROWS:
        lines = "".join(f"{letter}. {text}\n" for letter, text in zip("ABCD", options, strict=False))
        responses[f"Question: {test_threedsr._question(qid)}\nOptions:\n{lines}"] = response
    return responses


def _threedsr(folder: Path) -> Path:
    return write_tsv(test_threedsr._kit_rows(), folder / "3dsrbench_v1_vlmevalkit_circular.tsv")


def _mmsi_overall() -> float:
    official = [test_mmsi_bench._official_score(r, a) for _, a, _, r in test_mmsi_bench.CASES]
    return 100 * sum(official) / len(official)


def _vsi(cases: list, key: str = "question {k}:") -> dict[str, str]:
    return {key.format(k=k): c[2] for k, c in enumerate(cases)}


CASES = [
    Case(
        "mmsi-bench",
        lambda f: test_mmsi_bench._write_both(f)[0],
        {test_mmsi_bench._question(k): c[-1] for k, c in enumerate(test_mmsi_bench.CASES)},
        _mmsi_overall(),
    ),  # test_mmsi_bench: MMSI's official letter rule, 66.7
    Case(
        "mindcube",
        test_mindcube.write_release,
        {test_mindcube._question(k): c[3] for k, c in enumerate(test_mindcube.CASES)},
        400 / 6,
        ("--subset", "tiny"),
        "data/raw/MindCube_tinybench.jsonl",
    ),  # test_mindcube: extract_answer, 4 of 6 (translation out)
    Case(
        "viewspatial",
        test_viewspatial.write_release,
        {f"Where is thing {k}?": c[2] for k, c in enumerate(test_viewspatial.CASES)},
        100 * sum(test_viewspatial.OURS) / 6,
    ),  # test_viewspatial: the article "a" is no option
    Case(
        "site",
        test_site.write_release,
        {test_site._question(k): c[4] for k, c in enumerate(test_site.CASES)},
        100 * 79 / 139,
    ),  # test_site: CAA pooled over images and videos
    Case(
        "blink",
        test_blink.write_release,
        {test_blink._prompt(k, c[1]): c[4] for k, c in enumerate(test_blink.CASES)},
        100 * (2 / 3 + 1 + 1 / 2) / 3,
    ),  # test_blink: the official mean over subtasks
    Case("3dsrbench", _threedsr, _threedsr_responses(), 50.0),  # test_threedsr: flip-circular, 2 of 4
    Case(
        "embspatial",
        test_embspatial.write_release,
        {test_embspatial._question(k): c[3] for k, c in enumerate(test_embspatial.CASES)},
        500 / 7,
    ),  # test_embspatial: 5 of 7
    Case(
        "cvbench",
        test_cvbench.write_release,
        {test_cvbench._prompt(k): c[4] for k, c in enumerate(test_cvbench.CASES)},
        50.0,
    ),  # test_cvbench: ½((ADE20K + COCO)/2 + Omni3D)
    Case(
        "vsi-super-recall",
        test_vsi_super.recall_release,
        _vsi(test_vsi_super.RECALL),
        75.0,
        ("--frames", "uniform:4"),
    ),  # 3 of 4
    Case(
        "vsi-super-count",
        test_vsi_super.count_release,
        _vsi(test_vsi_super.COUNT),
        100 * float(np.mean(test_vsi_super.COUNT_MRA)),
        ("--frames", "uniform:4"),
    ),  # MRA by hand
    Case(
        "vsi-super-count-streaming",
        test_vsi_super_streaming._release,
        _vsi(test_vsi_super_streaming.STREAMING),
        100 * 0.8 / 3,
        ("--frames", "uniform:4"),
    ),  # every expected count: (0.25 + 0.55 + 0) / 3
    Case(
        "revsi",
        test_revsi.write_release,
        {test_revsi._question(k): c[5] for k, c in enumerate(test_revsi.CASES)},
        (70 + 40 + 0 + 0 + 100 + 100) / 6,
        ("--option", "budget=16"),
    ),  # test_revsi: ReVSI.evaluate
]


def _ok(args: list[str]) -> str:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, f"{args[0]}: {result.output}"
    return result.output


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c.benchmark for c in CASES])
def test_run_and_every_command(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data = case.build(tmp_path / "data")
    out = tmp_path / "run"
    scripted_run(case.benchmark, data, out, case.responses, *case.options)
    assert json.loads((out / "scores.json").read_text())["overall"] == pytest.approx(case.overall)
    _ok(["score", "--run", str(out)])
    assert json.loads((out / "scores.json").read_text())["overall"] == pytest.approx(case.overall)
    subset = ["--subset", "tiny"] if "--subset" in case.options else []
    for model in ("chance-random", "chance-frequency"):
        _ok(
            [
                "baseline",
                "-a",
                str(data),
                "-m",
                model,
                "-b",
                case.benchmark,
                *subset,
                "--out",
                str(tmp_path / model),
            ]
        )
        assert (tmp_path / model / "scores.json").is_file()
    assert case.benchmark in _ok(["breakdown", "--run", str(out)])
    shutil.copytree(out, tmp_path / "again")
    _ok(["compare", str(out), str(tmp_path / "again")])
    _ok(["report", str(out), "--out", str(tmp_path / "report")])
    assert "<table" in (tmp_path / "report" / "index.html").read_text()
    stress = ["stress-test", "-b", case.benchmark, "-d", str(data / case.stress_file), "-o",
              str(tmp_path / "stress")]
    if case.benchmark == "vsi-super-count-streaming":  # a list of counts per question: nothing to learn
        refused = CliRunner().invoke(app, stress)
        assert refused.exit_code == 2 and "stress-test does not apply" in refused.output
        return
    stressed = _ok(stress)
    skipped = {
        line.split(" not scored with k=5 ")[0] for line in stressed.splitlines() if " not scored " in line
    }
    scored = set(pd.read_csv(tmp_path / "stress" / "stress_test.csv").iloc[:, 0]) - {"overall"}
    tasks = {
        i.task
        for i in get_benchmark(case.benchmark).load_items(data, **({"subset": "tiny"} if subset else {}))
    }
    if case.benchmark == "cvbench":  # the official TsT code's CV-Bench sets: Count, Relation, Depth, Distance
        tasks = {"count_2d", "relation_2d", "depth_3d", "distance_3d"}
    assert scored | skipped == tasks  # every question type: a row, or a line saying why not
