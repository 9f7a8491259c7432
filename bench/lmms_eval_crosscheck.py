"""Cross-check spatialbench's `official` scoring against lmms-eval's own vsibench code, side by side.

Inputs: ../shared/data/vsibench/official_samples/gemini3flash_5scenes (291 official questions with
ground truth + Gemini 3 Flash responses, joined on scene + question).

lmms-eval runs in a SEPARATE virtual environment (never the project's), set up once with:

    python3 -m venv .venv-lmms
    .venv-lmms/bin/pip install --no-deps lmms-eval==0.7.3
    .venv-lmms/bin/pip install numpy pandas pyyaml loguru datasets
    .venv-lmms/bin/pip install --no-deps --target .venv-lmms/lmms-eval-0.6.1 lmms-eval==0.6.1

Two lmms-eval releases are run, each through its own ``vsibench_process_results`` and aggregation:
0.6.1 scores numbers as ``float()`` of the first token (the official VSI-Bench rule, as in the
thinking-in-space repository); 0.7.3 replaced that with a regex ``extract_number``. The utils files are
loaded straight from the installed packages (the 0.6.1 wheel lacks ``vsibench.yaml``, which the module
reads at import for a cache folder name; a stand-in with that one key is supplied).

Usage (from the repository root):  .venv/bin/python bench/lmms_eval_crosscheck.py
"""

from __future__ import annotations

import argparse
import glob
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "vsibench" / "official_samples" / "gemini3flash_5scenes"
LMMS_PYTHON = ROOT / ".venv-lmms" / "bin" / "python"
KEYS = [
    "object_counting", "object_abs_distance", "object_size_estimation", "room_size_estimation",
    "object_rel_distance", "object_rel_direction", "route_planning", "obj_appearance_order", "overall",
]


def joined_docs(data: Path) -> list[dict]:
    """Question records (with ground truth) joined to their responses on (scene_name, question)."""
    answers = {}
    for path in sorted(glob.glob(str(data / "responses" / "*.json"))):
        for q in json.load(open(path))["questions"]:
            answers[(q["scene_name"], q["question"])] = q["gemini_answer"]
    docs = []
    for path in sorted(glob.glob(str(data / "questions" / "*.json"))):
        for q in json.load(open(path))["questions"]:
            docs.append({**q, "response": answers[(q["scene_name"], q["question"])]})
    return docs


def _load_utils(package_root: Path):
    source = package_root / "lmms_eval" / "tasks" / "vsibench" / "utils.py"
    folder = source.parent
    if not (folder / "vsibench.yaml").exists():  # 0.6.1 wheel: supply the one key the module reads
        folder = Path(tempfile.mkdtemp())
        shutil.copy(source, folder / "utils.py")
        (folder / "vsibench.yaml").write_text("dataset_kwargs:\n  cache_dir: vsibench\n")
    name = f"vsibench_utils_{abs(hash(str(folder)))}"
    spec = importlib.util.spec_from_file_location(name, folder / "utils.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MCA_PROBES = ["{gt}", " {gt}", "{lower}", "{gt}.", "{gt})", "({gt})", "{gt}. x", "{gt}\n", "{lower}. x",
              "**{gt}**", "Answer: {gt}", "The answer is {gt}", "E", "", "{gt}..", "{gt} .", "\t{gt}",
              "{gt},", "{gt}:"]
NA_PROBES = ["{gt}", "{gt}.0", " {gt}", "{gt}.", "{gt} m", "{gt}m", "1_000", "1e3", "inf", "nan", "-{gt}",
             "{gt},5", "three", "about {gt}", "{gt}-4", "", "0", "{gt}\n", "{gt}..", "+{gt}", "0x10", "½"]


def probe_docs(docs: list[dict]) -> list[dict]:
    """Every question with tricky response variants (format edge cases of the official rule)."""
    out = []
    for doc in docs:
        gt = str(doc["ground_truth"])
        for template in MCA_PROBES if doc.get("options") else NA_PROBES:
            out.append({**doc, "response": template.format(gt=gt, lower=gt.lower())})
    return out


def _lmms_scores(utils, docs: list[dict]) -> dict:
    """lmms-eval's own per-doc processing and aggregation in percent; per-doc scores under ``items``."""
    results = []
    for doc in docs:
        record = {k: v for k, v in doc.items() if k != "response"}  # the doc as lmms-eval holds it
        out = utils.vsibench_process_results(record, [doc["response"]])
        results.append(next(iter(out.values())))
    per_doc = [float(r.get("accuracy", r.get("MRA:.5:.95:.05"))) for r in results]
    raw = getattr(utils, "_compute_all_subscores", utils.vsibench_aggregate_results)(results)
    if not isinstance(raw, dict):
        return {"items": per_doc}
    scores = {k.replace("_MRA:.5:.95:.05", "").replace("_accuracy", ""): 100.0 * float(v)
              for k, v in raw.items()}
    return {**scores, "items": per_doc}


def lmms_side() -> None:
    """Run inside .venv-lmms: print {version: {scores, items, probe items}} as JSON."""
    import importlib.metadata as metadata

    import lmms_eval

    docs = joined_docs(DATA)
    roots = {f"lmms-eval {metadata.version('lmms-eval')}": Path(lmms_eval.__file__).parent.parent}
    if (ROOT / ".venv-lmms" / "lmms-eval-0.6.1").is_dir():
        roots["lmms-eval 0.6.1"] = ROOT / ".venv-lmms" / "lmms-eval-0.6.1"
    out = {}
    for name, root in roots.items():
        utils = _load_utils(root)
        out[name] = {**_lmms_scores(utils, docs), "probe": _lmms_scores(utils, probe_docs(docs))["items"]}
    print(json.dumps(out))


def _our_items(docs: list[dict], mode: str) -> tuple[dict, list[float]]:
    from spatialbench.benchmarks.vsibench import SPEC, record_to_item
    from spatialbench.scoring.render import summary_json
    from spatialbench.scoring.scorer import score_items

    items = [record_to_item({**doc, "id": str(k)}) for k, doc in enumerate(docs)]
    responses = {str(k): doc["response"] for k, doc in enumerate(docs)}
    result = score_items(items, responses, SPEC.scoring, extract=mode, mra="official")
    return summary_json(result.table), [float(x) for x in result.rows["score"]]


def ours() -> dict[str, dict]:
    """spatialbench's scores; the official run also loads the files through the package's own readers."""
    from spatialbench.benchmarks.vsibench import SPEC
    from spatialbench.scoring.predictions import read_predictions
    from spatialbench.scoring.scorer import score_items

    items = SPEC.load_items(DATA / "questions")
    responses = read_predictions(DATA / "responses", items).responses
    loaded = score_items(items, responses, SPEC.scoring, extract="official").table
    docs = joined_docs(DATA)
    out = {}
    for mode in ("official", "robust"):
        scores, per_doc = _our_items(docs, mode)
        probe = _our_items(probe_docs(docs), mode)[1]
        out[f"spatialbench {mode}"] = {**scores, "items": per_doc, "probe": probe}
    assert loaded.average == out["spatialbench official"]["overall"], "file readers and records disagree"
    return out


def _agreement(columns: dict[str, dict], field: str) -> None:
    base = columns["spatialbench official"][field]
    for name, column in columns.items():
        if name != "spatialbench official":
            same = sum(a == b for a, b in zip(base, column[field], strict=True))
            print(f"  {name:<24} {same}/{len(base)} identical")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lmms-side", action="store_true", help=argparse.SUPPRESS)
    if parser.parse_args().lmms_side:
        lmms_side()
        return
    if not LMMS_PYTHON.exists():
        sys.exit(f"{LMMS_PYTHON} not found; create the separate environment (see this script's docstring)")
    env = {**os.environ, "LOGURU_LEVEL": "WARNING"}
    run = subprocess.run([str(LMMS_PYTHON), __file__, "--lmms-side"], check=True, env=env,
                         capture_output=True, text=True)
    columns = {**ours(), **json.loads(run.stdout)}
    names = list(columns)
    print(f"{len(joined_docs(DATA))} questions with Gemini 3 Flash responses: {DATA}")
    print(f"{'score (%)':<24}" + "".join(f"{n:>26}" for n in names))
    for key in KEYS:
        print(f"{key:<24}" + "".join(f"{columns[n].get(key, float('nan')):>26.10f}" for n in names))
    for name in names[1:]:
        diff = max(abs(columns["spatialbench official"][k] - columns[name][k]) for k in KEYS)
        print(f"max |spatialbench official - {name}| = {diff:.3g} points")
    print("per-question scores vs spatialbench official (291 real responses):")
    _agreement(columns, "items")
    probes = len(columns[names[0]]["probe"])
    print(f"per-question scores vs spatialbench official ({probes} edge-case responses):")
    _agreement(columns, "probe")


if __name__ == "__main__":
    main()
