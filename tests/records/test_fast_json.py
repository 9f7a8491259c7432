"""JSONL lines read by orjson (issue 25, item 3): the same records and row errors as the standard library's.

orjson reads integers beyond 64 bits (and below -2**63) as floats; such lines, and every line orjson
refuses, are read by :mod:`json`, so ids stay exact and error messages stay the standard library's.
"""

import json
import random

from spatialbench.benchmarks.vsibench import load_vsibench
from spatialbench.records.files import read_records
from spatialbench.records.rows import RowError
from spatialbench.scoring.predictions import read_predictions

BIG_IDS = [2**63 - 1, 2**63, 2**64 - 1, 2**64, 2**70, -(2**63), -(2**63) - 1, -(2**70)]


def _write(path, lines):
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    return path


def _record(k, item_id):
    return {"id": item_id, "dataset": "scannet", "scene_name": f"s{k}", "question_type": "object_counting",
            "question": f"How many chairs? ({k})", "options": None, "ground_truth": "3"}


def test_big_integer_ids_stay_exact(tmp_path):
    path = _write(tmp_path / "a.jsonl", [json.dumps(_record(k, i)).encode() for k, i in enumerate(BIG_IDS)])
    records = [entry[2] for entry in read_records(path)]
    assert [r["id"] for r in records] == BIG_IDS
    assert all(type(r["id"]) is int for r in records)
    items = load_vsibench(path)
    assert [item.id for item in items] == ["9223372036854775807", "9223372036854775808",
                                           "18446744073709551615", "18446744073709551616",
                                           "1180591620717411303424", "-9223372036854775808",
                                           "-9223372036854775809", "-1180591620717411303424"]
    lines = [json.dumps({"id": i, "response": "3"}).encode() for i in BIG_IDS]
    read = read_predictions(_write(tmp_path / "p.jsonl", lines), items)
    assert list(read.responses) == [item.id for item in items] and not read.errors


def test_lines_orjson_refuses_read_as_json_reads_them(tmp_path):
    lines = [b'{"id": 1, "x": NaN}', b'{"id": 2, "x": "\\ud800"}', b'{"id": 3, "x": 1e400}',
             b'{"id": 4, "x": -Infinity}', b"   ", b'\x1c', b'{"id": 5, "a": 1, "b": 2, "a": 3}']
    got = [entry[2] for entry in read_records(_write(tmp_path / "a.jsonl", lines))]
    assert [repr(r) for r in got] == ["{'id': 1, 'x': nan}", "{'id': 2, 'x': '\\ud800'}",
                                      "{'id': 3, 'x': inf}", "{'id': 4, 'x': -inf}",
                                      "{'id': 5, 'a': 3, 'b': 2}"]


def test_bad_lines_keep_the_standard_library_messages(tmp_path):
    lines = [b"{not json", b"[1, 2]", b'{"id": 5,', b'{"q": "caf\xe9"}', b'"text"', b'{"id": 1}']
    entries = list(read_records(_write(tmp_path / "a.jsonl", lines)))
    messages = [(e.line, e.message) for e in entries if isinstance(e, RowError)]
    assert messages == [
        (1, "not valid JSON (Expecting property name enclosed in double quotes at column 2)"),
        (2, "expected a JSON object, got list"),
        (3, "not valid JSON (Expecting property name enclosed in double quotes at column 10)"),
        (4, "not UTF-8 text (byte 0xe9 at column 11); save the file as UTF-8"),
        (5, "expected a JSON object, got str"),
    ]
    assert entries[-1][1:] == (6, {"id": 1})


def test_random_records_equal_json_loads(tmp_path):
    rng = random.Random(25)
    values = [lambda: rng.uniform(-1e6, 1e6), lambda: rng.lognormvariate(0, 60),
              lambda: rng.randint(-10**25, 10**25), lambda: rng.randint(-1000, 1000),
              lambda: "".join(chr(rng.randint(1, 0x2FFF)) for _ in range(8)),
              lambda: [rng.random(), None, True], lambda: {"x": rng.random() * 1e-300, "y": False}]
    records = [{f"k{j}": rng.choice(values)() for j in range(6)} for _ in range(5000)]
    lines = [json.dumps(r, ensure_ascii=bool(k % 2)).encode() for k, r in enumerate(records)]
    got = [entry[2] for entry in read_records(_write(tmp_path / "a.jsonl", lines))]
    assert [repr(r) for r in got] == [repr(json.loads(line)) for line in lines]


def test_a_reason_ending_in_at_is_not_followed_by_at_at(tmp_path):
    """``json``'s "Unterminated string starting at" read "... starting at at column 27" (issue 24)."""
    lines = [b'{"id": "1", "prediction": "xxxxxxxxxx', b'{"id": "2", "prediction": "a\tb"}']
    entries = list(read_records(_write(tmp_path / "p.jsonl", lines)))
    assert [(e.line, e.message) for e in entries] == [
        (1, "not valid JSON (Unterminated string starting at column 27)"),
        (2, "not valid JSON (Invalid control character at column 29)"),
    ]
    listed = tmp_path / "p.json"
    listed.write_text('[{"id": "1", "prediction": "x')
    assert [e.message for e in read_records(listed)] == [
        "not valid JSON (Unterminated string starting at line 1)"
    ]
