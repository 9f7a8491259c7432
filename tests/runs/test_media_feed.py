"""MediaFeed: each media decoded once, the next one ahead, frames and encodings released after the last item.

Issue 16: a 5,000-item run kept every decoded video (up to the 2 GB frame-cache budget) and every encoded
image (512 MB) and peaked at 3.8 GB; frames are now released when no pending item needs them.
"""

import asyncio
from pathlib import Path

import pytest

import spatialbench.models.images as images
from spatialbench.api import run
from spatialbench.media.cache import FrameCache
from spatialbench.media.errors import MediaError
from spatialbench.media.sampling import parse_strategy
from spatialbench.records.item import AnswerKind, Item, MediaKind, MediaRef
from spatialbench.runs import RunConfig
from spatialbench.runs.media_feed import MediaFeed
from support.openai_server import OpenAIServer, ServerScript
from support.videos import encode_indexed_video
from support.vsi_data import answer_script, make_vsibench

UNIFORM_3 = parse_strategy("uniform:3")


def _item(name: str, video: str) -> Item:
    return Item(id=name, benchmark="vsibench", task="object_counting", question="How many?",
                answer_kind=AnswerKind.NUMERICAL, ground_truth="1",
                media=(MediaRef(kind=MediaKind.VIDEO, path=video),))


@pytest.fixture()
def videos(tmp_path: Path) -> Path:
    for name in ("a", "b", "c"):
        encode_indexed_video(tmp_path / f"{name}.mp4", 6, 64, 64)
    return tmp_path


def _decodes(cache: FrameCache) -> dict[str, int]:
    return {Path(path).name: n for path, n in cache.decodes.items()}


async def _landed(feed: MediaFeed) -> None:
    """Wait until every decode the feed has started (its own or ahead) is in the cache: no sleeping."""
    if feed._tasks:
        await asyncio.wait(list(feed._tasks.values()))


def _held(cache: FrameCache, *items: Item) -> set[str]:
    return {Path(item.media[0].path).stem for item in items if cache.peek(item.media[0], UNIFORM_3)}


def test_a_media_is_released_after_its_last_item_and_the_next_one_decodes_ahead(videos) -> None:
    cache = FrameCache(videos)
    a1, a2, b1 = _item("a1", "a.mp4"), _item("a2", "a.mp4"), _item("b1", "b.mp4")
    ref_a, ref_b = a1.media[0], b1.media[0]

    async def scenario() -> None:
        feed = MediaFeed(cache, UNIFORM_3, None, [a1, a2, b1])
        (frames,) = await feed.frames(a1)
        assert [await feed.frames(a2)] == [[frames]]  # the same decode
        images.encode_image(frames.pixels[0])
        await _landed(feed)  # the next media (b) was started ahead
        assert cache.peek(ref_b, UNIFORM_3) is not None
        feed.done(a1)
        assert cache.peek(ref_a, UNIFORM_3) is frames  # a2 still needs it
        feed.done(a2)
        assert cache.peek(ref_a, UNIFORM_3) is None  # released
        assert cache.peek(ref_b, UNIFORM_3) is not None
        feed.close()
        before = sum(images.encode_counts().values())
        images.encode_image(frames.pixels[0])  # its encoding was released with it: encoded again
        assert sum(images.encode_counts().values()) == before + 1

    asyncio.run(scenario())
    assert _decodes(cache) == {"a.mp4": 1, "b.mp4": 1}  # c is no pending item's media: never decoded


def test_concurrent_items_of_one_media_share_one_decode(videos) -> None:
    cache, items = FrameCache(videos), [_item(f"a{k}", "a.mp4") for k in range(12)]

    async def scenario() -> set[int]:
        feed = MediaFeed(cache, UNIFORM_3, None, items)
        got = await asyncio.gather(*(feed.frames(item) for item in items))
        feed.close()
        return {id(frames[0]) for frames in got}

    assert len(asyncio.run(scenario())) == 1
    assert _decodes(cache) == {"a.mp4": 1}


def test_a_shared_cache_keeps_the_frames_for_later_runs(videos) -> None:
    cache, item = FrameCache(videos), _item("a1", "a.mp4")

    async def scenario() -> None:
        feed = MediaFeed(cache, UNIFORM_3, None, [item], release=False)
        await feed.frames(item)
        feed.done(item)
        feed.close()

    asyncio.run(scenario())
    assert cache.peek(item.media[0], UNIFORM_3) is not None


def test_a_broken_media_fails_each_of_its_items_with_one_error(videos) -> None:
    (videos / "bad.mp4").write_bytes(b"not a video")
    items = [_item("x1", "bad.mp4"), _item("x2", "bad.mp4")]

    async def scenario() -> list[str]:
        feed = MediaFeed(FrameCache(videos), UNIFORM_3, None, items)
        errors = []
        for item in items:
            with pytest.raises(MediaError) as caught:
                await feed.frames(item)
            errors.append(str(caught.value))
        feed.close()
        return errors

    first, second = asyncio.run(scenario())
    assert first == second and "bad.mp4" in first


def test_frames_of_at_most_three_videos_are_held_the_one_in_flight_the_next_and_the_last_answering(
    videos,
) -> None:
    # two items in flight at a time, in media order, each decode awaited before looking: no timing
    cache = FrameCache(videos)
    a1, a2, b1, b2, c1, c2 = (_item(f"{v}{k}", f"{v}.mp4") for v in "abc" for k in (1, 2))
    everything = (a1, a2, b1, b2, c1, c2)
    seen: list[set[str]] = []

    async def step(feed: MediaFeed, start: Item | None = None, finish: Item | None = None) -> None:
        if finish is not None:
            feed.done(finish)
        if start is not None:
            await feed.frames(start)
        await _landed(feed)
        seen.append(_held(cache, *everything))

    async def scenario() -> None:
        feed = MediaFeed(cache, UNIFORM_3, None, list(everything))
        await step(feed, a1)  # a, and b ahead
        await step(feed, a2)
        await step(feed, b1, finish=a1)  # a's last answer (a2) still arriving, b in flight, c ahead
        await step(feed, b2, finish=a2)
        await step(feed, c1, finish=b1)
        await step(feed, c2, finish=b2)
        await step(feed, finish=c1)
        await step(feed, finish=c2)
        feed.close()

    asyncio.run(scenario())
    assert seen == [{"a", "b"}, {"a", "b"}, {"a", "b", "c"}, {"b", "c"}, {"b", "c"}, {"c"}, {"c"}, set()]
    assert _decodes(cache) == {"a.mp4": 1, "b.mp4": 1, "c.mp4": 1}


def test_a_run_releases_every_video_after_its_last_answer(tmp_path, monkeypatch) -> None:
    # 8 videos × 3 questions, 2 requests in flight (4 items started); all 8 were kept before (the 2 GB
    # budget). How many are held at once is pinned without timing by the MediaFeed test above.
    data = tmp_path / "data"
    answers = make_vsibench(data, n_videos=8, per_video=3)
    stored: list[object] = []
    released: list[object] = []
    real_store, real_evict = FrameCache._store, FrameCache.evict

    def store(self, key, entry):  # type: ignore[no-untyped-def]
        real_store(self, key, entry)
        stored.append(key)

    def evict(self, *args):  # type: ignore[no-untyped-def]
        frames = real_evict(self, *args)
        released.append(frames.source if frames is not None else None)
        return frames

    monkeypatch.setattr(FrameCache, "_store", store)
    monkeypatch.setattr(FrameCache, "evict", evict)
    with OpenAIServer(ServerScript(answer=answer_script(answers))) as server:
        config = RunConfig.model_validate({
            "data": {"benchmark": "vsibench", "path": str(data)},
            "model": {"name": f"openai-compatible:{server.url}#m", "concurrency": 2},
            "media": {"frames": "uniform:3"},
            "out": str(tmp_path / "run"),
        })
        summary = run(config, progress=False)
    assert summary.counts["ok"] == 24 and summary.score.table.average == 100.0  # same answers as before
    assert sum(summary.decodes.values()) == 8 and len(stored) == 8  # one decode per video
    assert len(released) == 8 and len(set(released)) == 8 and None not in released  # each one released
