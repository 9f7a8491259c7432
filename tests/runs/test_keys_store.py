import sqlite3
from pathlib import Path

from spatialbench.media.digests import MediaDigests
from spatialbench.records.item import AnswerKind, Item, MediaKind, MediaRef
from spatialbench.records.messages import GenerationSettings, Response
from spatialbench.records.redaction import redact, secret_values
from spatialbench.runs.keys import request_key
from spatialbench.runs.store import RunStore

ITEM = Item(
    id="7",
    benchmark="vsibench",
    task="object_counting",
    question="How many?",
    ground_truth="3",
    answer_kind=AnswerKind.NUMERICAL,
    media=(MediaRef(kind=MediaKind.VIDEO, path="a.mp4"),),
)


def _key(item: Item = ITEM, media=(("abc",),), **changes) -> str:
    base = dict(
        frames="uniform:32",
        max_pixels=None,
        prompt={"pre": "x"},
        settings=GenerationSettings(),
        model="openai-compatible:http://127.0.0.1:8000/v1#m",
    )
    return request_key(item, [list(m) for m in media], **{**base, **changes})


def test_key_changes_with_prompt_settings_media_frames_but_not_endpoint() -> None:
    key = _key()
    assert key == _key()
    assert key != _key(prompt={"pre": "y"})
    assert key != _key(settings=GenerationSettings(max_new_tokens=16))
    assert key != _key(media=(("abd",),))
    assert key != _key(frames="uniform:16")
    assert key != _key(sent={"parts": ["How many chairs?"]})
    assert _key(sent={"parts": ["How many?"]}) != _key(sent={"parts": ["How many chairs?"]})
    assert key != _key(item=ITEM.model_copy(update={"id": "8"}))
    # scoring-only fields are not keyed: ground truth, metadata such as the pruned flag
    assert key == _key(item=ITEM.model_copy(update={"ground_truth": "4", "metadata": {"pruned": True}}))
    assert key != _key(encoding={"image_format": "jpeg"})  # other pixels reach the model
    assert key == _key(model="openai-compatible:http://10.0.0.1:9000/v1#m")  # same served model
    assert key != _key(model="openai-compatible:http://127.0.0.1:8000/v1#other")


def test_media_digest_is_content_based(tmp_path: Path) -> None:
    (tmp_path / "a.mp4").write_bytes(b"one")
    first = MediaDigests(tmp_path).of(ITEM.media[0])
    (tmp_path / "a.mp4").write_bytes(b"two")
    assert MediaDigests(tmp_path).of(ITEM.media[0]) != first
    assert MediaDigests(tmp_path / "nowhere").of(ITEM.media[0]) == ["unreadable:FileNotFoundError"]


def test_store_status_rules_and_attempt_count(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "run.sqlite")
    assert store.put("k1", "1", {}, Response(text="3")) == "ok"
    assert store.put("k2", "2", {}, Response(text="  ")) == "empty"
    assert store.put("k3", "3", {}, error="BackendError: boom") == "failed"
    assert store.put("k4", "4", {}, Response(text="", raw={"no_answer_expected": True})) == "ok"
    assert store.done_keys() == {"k1", "k4"}
    assert store.put("k3", "3", {}, Response(text="B")) == "ok"
    store.close()
    with sqlite3.connect(tmp_path / "run.sqlite") as conn:
        row = conn.execute(
            "SELECT status, response, error, attempts FROM results WHERE request_key='k3'"
        ).fetchone()
    assert row == ("ok", "B", None, 2)


def test_redaction_removes_env_secrets_and_key_shapes(monkeypatch) -> None:
    monkeypatch.setenv("MY_SERVICE_API_KEY", "abcdefgh12345678")
    monkeypatch.setenv("HOME_DIR_PLAIN", "abcdefgh999")
    assert "abcdefgh12345678" in secret_values() and "abcdefgh999" not in secret_values()
    text = "auth failed for abcdefgh12345678; Incorrect API key provided: sk-proj-AbC***xyz"
    assert redact(text) == "auth failed for ***; Incorrect API key provided: ***"
    assert (
        redact("openai-compatible:https://bob:pw1@gw.example/v1#m")
        == "openai-compatible:https://***@gw.example/v1#m"
    )
