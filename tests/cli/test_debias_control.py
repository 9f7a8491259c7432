"""``debias``'s random-removal control: ``--control-seeds N``; none when nothing was removed (issue 23, 7).

Each control seed is one more stress-test of the whole benchmark (10 of the 14 stress-tests of a 100-item
budget on the 300 official sample questions), so it can be reduced or turned off, and it is skipped when
nothing was removed: random removal of nothing re-scores the same items.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from spatialbench.analysis.shortcuts.allocation import BudgetError
from spatialbench.analysis.shortcuts.pruning import NO_REMOVAL, NO_SEEDS, iterative_bias_pruning
from spatialbench.benchmarks import get_benchmark
from spatialbench.cli.main import app
from support.planted_shortcuts import planted_choices


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    items, _ = planted_choices(120, planted=True)
    folder = tmp_path_factory.mktemp("planted")
    get_benchmark("vsibench").write(items, folder)
    return folder


def _debias(data, out, *extra: str):  # type: ignore[no-untyped-def]
    args = ["debias", "--data", str(data), "--out", str(out), "--budget", "40", "--batch-size", "20", *extra]
    result = CliRunner().invoke(app, args)
    summary = json.loads((out / "summary.json").read_text()) if result.exit_code == 0 else None
    return result, summary


def test_control_seeds_zero_runs_no_control_and_says_so(data, tmp_path) -> None:  # type: ignore[no-untyped-def]
    result, summary = _debias(data, tmp_path / "db", "--control-seeds", "0")
    assert result.exit_code == 0, result.output
    assert summary["n_removed"] == 40 and summary["control_seeds"] == 0
    assert summary["tst_random_removal"] == [] and summary["tst_random_removal_mean"] is None
    assert summary["no_control"] == NO_SEEDS == "control_seeds is 0: no random-removal control ran"
    assert "did no better than random removal at B = 1000" in summary["note"]
    first = result.stdout.splitlines()[0]
    assert first.startswith("removed 40 of 120: TsT-RF ") and first.endswith(
        "(no random-removal control (--control-seeds 0); the published automated pruning did no better "
        "than random removal at B = 1000)"
    )


@pytest.mark.parametrize(("seeds", "words"), [(1, "1 seed)"), (2, "2 seeds)")])
def test_control_seeds_sets_how_many(data, tmp_path, seeds: int, words: str) -> None:  # type: ignore[no-untyped-def]
    result, summary = _debias(data, tmp_path / "db", "--control-seeds", str(seeds))
    assert result.exit_code == 0, result.output
    scores = summary["tst_random_removal"]
    assert len(scores) == seeds and summary["no_control"] is None
    assert summary["tst_random_removal_mean"] == pytest.approx(sum(scores) / seeds)
    assert result.stdout.splitlines()[0].endswith(
        f"(random removal of the same counts: {sum(scores) / seeds:.1f}, {words}"
    )


def test_negative_control_seeds_is_one_line_and_exit_2(data, tmp_path) -> None:  # type: ignore[no-untyped-def]
    result, _ = _debias(data, tmp_path / "db", "--control-seeds", "-1")
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines == ["Error: Invalid value for '--control-seeds': Input should be greater than or equal to 0"]
    assert not (tmp_path / "db").exists()
    with pytest.raises(BudgetError, match=r"^--control-seeds -3: must be 0 or more \(0: no control\)$"):
        iterative_bias_pruning(planted_choices(60, planted=True)[0], 10, control_seeds=-3)


def test_nothing_removed_runs_no_control(data, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # the bias never exceeds 1 - 1/4: --early-stop 1 stops every group before it removes anything
    result, summary = _debias(data, tmp_path / "db", "--early-stop", "1")
    assert result.exit_code == 0, result.output
    assert summary["n_removed"] == 0 and summary["control_seeds"] == 10
    assert summary["tst_random_removal"] == [] and summary["no_control"] == NO_REMOVAL
    assert summary["tst_before"] == summary["tst_after"]
    assert result.stdout.splitlines()[0].endswith("(no random-removal control: nothing was removed)")


def test_nothing_removed_costs_two_stress_tests_not_twelve() -> None:
    calls: list[tuple[int, int]] = []
    items, _ = planted_choices(60, planted=True)
    result = iterative_bias_pruning(
        items, 30, batch_size=10, stop_below=1.0, progress=lambda d, t: calls.append((d, t))
    )
    # planned: 3 iterations + before + after + 10 seeds; ran: 1 iteration (it stopped) + before
    assert calls == [(0, 15), (1, 15), (2, 2)]
    assert result.removed == [] and result.control == [] and result.no_control == NO_REMOVAL
