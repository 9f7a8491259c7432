"""Run the official TsT-RF CV-Bench code, unmodified, on a CV-Bench-layout folder; print fold scores and s(x).

Usage: python scripts/official_tst_cvbench.py OFFICIAL_SRC DATA_DIR [--leak-free]
  OFFICIAL_SRC: the ``src`` folder of vision-x-nyu/test-set-training (branch meta_nov25, commit ef47fa7)
  DATA_DIR: a folder with test_2d.jsonl / test_3d.jsonl (rows as the Hugging Face release)

Only the package ``__init__`` files (which import vLLM / LLaMA-Factory) are bypassed and two small
logging/number-parsing dependencies (``ezcolorlog``, ``text2digits``) stubbed; ``benchmarks/cvb/models.py``,
``evaluators/rf.py``, ``core/cross_validation.py`` and ``core/protocols.py`` run as published. The data
frame is what ``CVBBenchmark.load_data`` makes of the release (its code, with the rows read from files
instead of ``datasets.load_dataset``). ``--leak-free``: each model instance's ``feature_cols`` without the
columns that read the row's own answer (``pair_answer_freq_score``, ``is_majority_answer``); the code
that computes the features is unchanged. s(x) is not an output of the official code: ``score_rf`` is wrapped
to read each fold forest's ``predict_proba`` for the gold class.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import sys
import types
from pathlib import Path

import pandas as pd


def _package(name: str, path: Path | None = None) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__path__ = [str(path)] if path else []  # type: ignore[attr-defined]
    sys.modules[name] = module
    return module


def _load(name: str, path: Path) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _stubs(src: Path) -> None:
    ez = _package("ezcolorlog")
    ez.root_logger = logging.getLogger("tst")  # type: ignore[attr-defined]
    t2d = _package("text2digits")
    t2d_mod = _package("text2digits.text2digits")
    t2d_mod.Text2Digits = lambda: None  # type: ignore[attr-defined]
    t2d.text2digits = t2d_mod  # type: ignore[attr-defined]
    root = src / "TsT"
    _package("TsT", root)
    _package("TsT.core", root / "core")
    evaluators = _package("TsT.evaluators", root / "evaluators")
    llm = _package("TsT.evaluators.llm", root / "evaluators" / "llm")
    config = _package("TsT.evaluators.llm.config")
    config.LLMRunConfig = object  # type: ignore[attr-defined]
    llm.LLMEvaluator = object  # type: ignore[attr-defined]
    _package("TsT.benchmarks", root / "benchmarks")
    _package("TsT.benchmarks.cvb", root / "benchmarks" / "cvb")
    _load("TsT.utils", root / "utils.py")
    _load("TsT.core.protocols", root / "core" / "protocols.py")
    rf = _load("TsT.evaluators.rf", root / "evaluators" / "rf.py")
    evaluators.RandomForestEvaluator = rf.RandomForestEvaluator  # type: ignore[attr-defined]
    evaluators.LLMEvaluator = object  # type: ignore[attr-defined]
    _load("TsT.core.cross_validation", root / "core" / "cross_validation.py")
    _load("TsT.benchmarks.cvb.models", root / "benchmarks" / "cvb" / "models.py")


def load_data(folder: Path) -> pd.DataFrame:
    """``CVBBenchmark.load_data`` on the files (2D then 3D, as the release's ``test`` split)."""
    rows = [
        json.loads(line)
        for name in ("test_2d.jsonl", "test_3d.jsonl")
        for line in (folder / name).read_text().splitlines()
        if line.strip()
    ]
    df = pd.DataFrame(rows)
    df["question_type"] = df["task"].str.lower() + "_" + df["type"].str.lower()
    df["gt_idx"] = df["answer"].apply(lambda x: ord(x[1]) - ord("A"))
    df["gt_option"] = df.apply(lambda row: row["choices"][row["gt_idx"]], axis=1)
    df["n_options"] = df["choices"].apply(len)
    df["question_format"] = "mc"
    return df


#: Official CV-Bench feature columns that read the row's own gold option (refused by our leak check).
LABEL_READING = ("pair_answer_freq_score", "is_majority_answer")


def main(src: Path, data: Path, leak_free: bool = False) -> dict[str, object]:
    """Run the four official models; return per type its fold scores, feature columns and s(x) by idx."""
    _stubs(src)
    rf = sys.modules["TsT.evaluators.rf"]
    cv = sys.modules["TsT.core.cross_validation"]
    models = sys.modules["TsT.benchmarks.cvb.models"]
    probs: list[list[float]] = []
    original = rf.score_rf

    def recording(est, X, y, metric="acc"):  # type: ignore[no-untyped-def]
        proba = est.predict_proba(X)
        column = {int(c): i for i, c in enumerate(est.classes_)}
        probs.append([float(proba[r, column[int(g)]]) if int(g) in column else 0.0 for r, g in enumerate(y)])
        return original(est, X, y, metric)

    rf.score_rf = recording
    df = load_data(data)
    config = cv.CrossValidationConfig(
        n_folds=5, random_state=42, repeats=1, verbose=False, show_progress=False
    )
    out: dict[str, object] = {}
    for model in (
        models.Count2DModel(),
        models.Relation2DModel(),
        models.Depth3DModel(),
        models.Distance3DModel(),
    ):
        probs.clear()
        if leak_free:
            model.feature_cols = [c for c in model.feature_cols if c not in LABEL_READING]
        result = cv.UnifiedCrossValidator(config).cross_validate(model, df, target_col="gt_idx", mode="rf")
        folds = result.repeat_results[0].fold_results
        s = {}
        for fold, p in zip(folds, probs, strict=True):
            s.update({int(df.loc[i, "idx"]): v for i, v in zip(fold.test_idx, p, strict=True)})
        out[model.name] = {
            "folds": [round(100 * f.score, 4) for f in folds],
            "features": model.feature_cols,
            "s": {k: s[k] for k in sorted(s)},
        }
    return out


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]), Path(sys.argv[2]), "--leak-free" in sys.argv[3:])))
