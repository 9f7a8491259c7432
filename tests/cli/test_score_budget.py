"""``score`` and ``baseline`` pick ReVSI's frame budget as ``run`` does, and say which one (issue 24).

``score --annotations DATA --predictions p16.jsonl`` scored budget-16 answers against the all-frame ground
truth (48.3, not 51.7) without a word, and neither command took the budget. The release fixture of
``tests/benchmarks/test_revsi.py``: its ground truths differ at 16 and all frames on two questions; the
expected overall scores are that file's hand computations.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks import test_revsi
from spatialbench.cli.main import app


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return test_revsi.write_release(tmp_path_factory.mktemp("revsi") / "data")


def _invoke(*args: object) -> tuple[int, str, list[str]]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr.splitlines()


@pytest.mark.parametrize(("given", "config", "overall"), [
    ((), "all_frame", "| all | 48.3 |"),  # (100 + 40 + 0 + 0 + 50 + 100) / 6
    (("--option", "budget=16"), "16_frame", "| all | 51.7 |"),  # (70 + 40 + 0 + 0 + 100 + 100) / 6
])
def test_score_names_the_budget_it_scores_against(
    data: Path, tmp_path: Path, given: tuple[str, ...], config: str, overall: str,
) -> None:
    predictions = tmp_path / "p16.jsonl"
    predictions.write_text("".join(json.dumps({"id": str(k), "response": c[5]}) + "\n"
                                   for k, c in enumerate(test_revsi.CASES)))
    code, out, err = _invoke("score", "-b", "revsi", "-a", data, "-p", predictions, *given)
    assert code == 0 and overall in out
    assert err == [f"ground truth of frame budget {config} (--option budget=N selects another)"]


def test_baseline_takes_the_budget(data: Path) -> None:
    code, out, err = _invoke("baseline", "-m", "chance-random", "-b", "revsi", "-a", data, "--option",
                             "budget=16")
    assert code == 0 and "| all |" in out
    assert err == ["ground truth of frame budget 16_frame (--option budget=N selects another)"]


def test_a_bad_budget_is_one_line(data: Path) -> None:
    code, _, err = _invoke("baseline", "-m", "chance-random", "-b", "revsi", "-a", data, "--option",
                           "budget=many")
    assert code == 2 and len(err) == 1 and "frame budget 'many'" in err[0]


def test_compare_and_report_say_the_budgets_differ(data: Path, tmp_path: Path) -> None:
    """A budget-16 run beside a budget-all run was ranked in one table without a word."""
    from spatialbench.report.build import build_report

    for name, budget in (("b16", "16"), ("ball", "all")):
        code, out, _ = _invoke("run", "--benchmark", "revsi", "--data", data, "--model", "chance-frequency",
                               "--out", tmp_path / name, "--option", f"budget={budget}", "--no-progress")
        assert code == 0, out
    note = (f"items differ: b16 8 item(s) of {data.parent.name}/data (budget=16), ball 8 item(s) of "
            f"{data.parent.name}/data (budget=all); these scores are not over the same questions")
    code, out, _ = _invoke("compare", tmp_path / "b16", tmp_path / "ball", "--out", tmp_path / "compared")
    assert code == 0 and note in out
    assert note in build_report([tmp_path / "b16", tmp_path / "ball"], tmp_path / "report", sheets=0).warnings


def test_the_budget_as_a_breakdown_option_names_option(data: Path, tmp_path: Path) -> None:
    """``-B budget=16`` was refused with no word of ``--option``."""
    code, _, err = _invoke("score", "-b", "revsi", "-a", data, "-p", tmp_path / "p.jsonl", "-B", "budget=16")
    assert (code, err) == (2, ["error: breakdown option 'budget' does not apply to revsi (its options: "
                               "none); budget is a loader option: --option budget=VALUE"])
