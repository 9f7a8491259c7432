"""``spatialbench score`` writes the same bytes as before the fast path (issue 25, item 3), on 100,000 items.

The digests were made with the code before the change (main at caf6f3c, standard-library JSON, items
built row by row) on exactly these inputs: ``PYTHONPATH=<that checkout>/src python -c "import sys;
sys.path.insert(0, 'tests'); from scoring.test_score_bytes import digests; print(digests('/tmp/x'))"``.

``EXPECTED_BLOCKS``: inputs whose odd lines (ids beyond 64 bits, a line that is not JSON, a second
prediction, ``pruned`` on some rows) sit together near the end, so that most lines are read in blocks
(:mod:`spatialbench.records.blocks`, issue 25 round 2) and a few blocks line by line; made with main at
02a52b7 (blocks read line by line, items one at a time): ``digests('/tmp/y', odd_lines_at_end=True)``.
"""

import hashlib
import json
from pathlib import Path

import numpy as np
from typer.testing import CliRunner

from spatialbench.cli.main import app

N = 100_000
MCA = ("object_rel_direction_easy", "object_rel_direction_medium", "object_rel_direction_hard",
       "object_rel_distance", "route_planning", "obj_appearance_order")
NA = ("object_abs_distance", "object_counting", "object_size_estimation", "room_size_estimation")
OPTIONS = ["A. left", "B. right", "C. back", "D. front-left"]
LETTERS = ["{l}", "({l})", "The answer is {l}.", "**{l}**", "{l}. {t}", "{t}", "=cmd|{l}", "none"]
NUMBERS = ["{v:.1f}", "about {v:.1f} meters", "{c:.0f} cm", "{v:.2f}", "I think {v:.1f}.", "-{v:.1f}", "n/a"]
EXPECTED = {
    "scores.json": "ced6172df9e95a29872f07816b6a6d3d0435d4e2bee75c80e43b436d0ae71118",
    "items.csv": "1a7d2a9c368eedff639221fbb36e4e8f0e1a0aa4c5b0495b64272803c66339aa",
    "scores.md": "78d09ec49035f2db5ed0e631ff49c3fc93d0d72a8667af3860a7e67eb3355e43",
}
EXPECTED_BLOCKS = {
    "scores.json": "611fb521f529ab3afbadff228eb93292cdf6155ce8b2270144d99b8fd28b5934",
    "items.csv": "ebb8e63ce4ed05db1433af0aa02e1b03257cbbc4346b15614559047ef4c49324",
    "scores.md": "254e144d292f814d453cc151060e53c30ca3e00823cdf8e999b377d33eeb0958",
}


def write_inputs(folder: Path, odd_lines_at_end: bool = False) -> tuple[Path, Path]:
    """Write 100,000 seeded annotations (ids up to 2**70) and predictions, with a few bad or missing lines.

    ``odd_lines_at_end``: the ids beyond 64 bits only among the last 2,000 items (with ``pruned`` on some
    rows there), the bad lines and a second prediction at the end (module docstring).
    """
    rng = np.random.default_rng(25)
    records, predictions = [], []
    for k in range(N):
        task = (*MCA, *NA)[k % 10]
        odd = k % 1000 == 0 and (not odd_lines_at_end or k >= N - 2000)
        item_id = 2**63 + k * 2**50 if odd else k  # some ids beyond 64 bits
        record = {"id": item_id, "dataset": ("arkitscenes", "scannet", "scannetpp")[k % 3],
                  "scene_name": f"s{k % 288}", "question_type": task, "question": f"Q{k} (in meters)?"}
        if task in MCA:
            letter = "ABCD"[int(rng.integers(4))]
            record.update(options=OPTIONS, ground_truth="ABCD"[int(rng.integers(4))])
            text = str(rng.choice(LETTERS)).format(l=letter, t=OPTIONS["ABCD".index(letter)][3:])
        else:
            truth = round(float(rng.uniform(0.3, 9.0)), 1)
            record.update(options=None, ground_truth=str(truth))
            value = truth * float(rng.uniform(0.5, 1.5))
            text = str(rng.choice(NUMBERS)).format(v=value, c=value * 100)
        if odd_lines_at_end and N - 1500 <= k < N - 1200:
            record["pruned"] = bool(k % 3)
        records.append(json.dumps(record, ensure_ascii=False))
        if k % 997:  # some items without a prediction
            predictions.append(json.dumps({"id": item_id, "response": text}, ensure_ascii=bool(k % 2)))
    records[N - 900 if odd_lines_at_end else 17] = "{not json"
    predictions += [json.dumps({"id": 10**30, "response": "A"}), '{"id": 3, "response": 4}']
    if odd_lines_at_end:
        predictions += [json.dumps({"id": 5, "response": "B"}), "", json.dumps({"id": "x7", "response": "é"})]
    annotations, answers = folder / "test.jsonl", folder / "predictions.jsonl"
    annotations.write_text("\n".join(records) + "\n", encoding="utf-8")
    answers.write_text("\n".join(predictions) + "\n", encoding="utf-8")
    return annotations, answers


def digests(folder: str | Path, odd_lines_at_end: bool = False) -> dict[str, str]:
    """Score the inputs with the CLI into ``folder/out``; return each output file's SHA-256.

    ``scores.json`` names the input files of its skipped rows: ``folder`` is replaced by ``<folder>`` first.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    annotations, answers = write_inputs(folder, odd_lines_at_end)
    out = folder / "out"
    result = CliRunner().invoke(app, ["score", "-a", str(annotations), "-p", str(answers), "-o", str(out)])
    assert result.exit_code == 0, result.output
    texts = {name: (out / name).read_bytes() for name in EXPECTED}
    texts["scores.json"] = texts["scores.json"].replace(str(folder).encode(), b"<folder>")
    # items.csv has since gained a last column, n_options (issue 24, SITE's chance-adjusted accuracy): the
    # digest is of the columns before it, which must not have changed by a byte
    lines = texts["items.csv"].decode().split("\n")
    assert lines[0].endswith(',"n_options"')
    texts["items.csv"] = "\n".join(line.rsplit(",", 1)[0] if line else line for line in lines).encode()
    return {name: hashlib.sha256(text).hexdigest() for name, text in texts.items()}


def test_outputs_are_byte_identical_to_before(tmp_path):
    assert digests(tmp_path) == EXPECTED


def test_outputs_read_in_blocks_are_byte_identical_to_before(tmp_path):
    assert digests(tmp_path, odd_lines_at_end=True) == EXPECTED_BLOCKS
