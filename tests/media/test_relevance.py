"""The AKS scorer: a tiny CLIP built from a config, loaded through transformers, on real h264 videos.

The frame features are computed once per video (counted image passes) and kept on disk, so a second
scorer over the same cache folder runs no image pass at all.
"""

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from spatialbench.media.cache import FrameCache
from spatialbench.media.errors import MediaError
from spatialbench.media.frames import sample_frame_folder
from spatialbench.media.relevance import ImageTextScorer
from spatialbench.media.sampling import parse_strategy
from spatialbench.media.scorer_models import BATCH
from spatialbench.records.item import MediaKind, MediaRef
from support.tiny_scorers import save_tiny_blip_itm, save_tiny_clip
from support.videos import encode_indexed_video, indexed_frame, read_index

AKS_6 = parse_strategy("aks:6")
QUESTIONS = [f"[q{k}] how far is the chair from the sofa?" for k in range(8)]
VIDEO = MediaRef(kind=MediaKind.VIDEO, path="walk.mp4")


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return save_tiny_clip(tmp_path_factory.mktemp("clip") / "tiny-clip")


@pytest.fixture()
def video(tmp_path: Path) -> Path:
    # 20 s at 10 fps: AKS's one-per-second candidates are frames 0, 10, ..., 190 (20 of them)
    encode_indexed_video(tmp_path / "walk.mp4", 200, 64, 64, fps=10)
    return tmp_path


def test_aks_returns_n_sorted_distinct_frames_among_the_one_per_second_candidates(clip, video) -> None:
    cache = FrameCache(video, scorer=ImageTextScorer(str(clip), video / "features"))
    frames = cache.get(VIDEO, AKS_6, None, QUESTIONS[0])
    chosen = frames.indices.tolist()
    assert len(chosen) == 6 == len(set(chosen)) and chosen == sorted(chosen)
    assert all(index % 10 == 0 for index in chosen)  # candidates only
    assert [read_index(p) for p in frames.pixels] == chosen  # the frames sent are the frames chosen


def test_eight_questions_on_one_video_embed_its_frames_once(clip, video) -> None:
    scorer = ImageTextScorer(str(clip), video / "features")
    cache = FrameCache(video, scorer=scorer)
    for question in QUESTIONS:
        cache.get(VIDEO, AKS_6, None, question)
    assert scorer.image_passes == -(-20 // BATCH)  # 20 candidates in batches of 16: 2 passes, in all
    assert len(list((video / "features").rglob("*.npz"))) == 1
    again = ImageTextScorer(str(clip), video / "features")  # another run over the same cache folder
    FrameCache(video, scorer=again).get(VIDEO, AKS_6, None, QUESTIONS[0])
    assert again.image_passes == 0


def test_the_selection_depends_on_the_question_and_repeats_for_the_same_one(clip, video) -> None:
    scorer = ImageTextScorer(str(clip))
    features = scorer.image_features(
        "walk.mp4", "digest", np.arange(0, 200, 10), lambda ids: [indexed_frame(int(i), 64, 64) for i in ids]
    )
    assert features.shape == (20, 8)
    np.testing.assert_allclose(np.linalg.norm(features, axis=1), 1.0, rtol=1e-5)  # cosine: unit vectors
    cache = FrameCache(video, scorer=ImageTextScorer(str(clip)))
    first = cache.get(VIDEO, AKS_6, None, QUESTIONS[0])
    assert cache.get(VIDEO, AKS_6, None, QUESTIONS[0]) is first  # one cache entry per question
    assert cache.key(VIDEO, AKS_6, None, "a") != cache.key(VIDEO, AKS_6, None, "b")
    uniform = parse_strategy("uniform:4")
    assert cache.key(VIDEO, uniform, None, "a") == cache.key(VIDEO, uniform, None, "b")


def test_a_frame_folder_is_scored_on_its_listed_frames(clip, tmp_path) -> None:
    names = tuple(f"{k:03d}.png" for k in range(12))
    for k, name in enumerate(names):
        Image.fromarray(indexed_frame(k, 64, 64)).save(tmp_path / name)
    scorer = ImageTextScorer(str(clip))
    cache = FrameCache(tmp_path, scorer=scorer)
    timed = MediaRef(
        kind=MediaKind.FRAMES, path=".", frames=names, timestamps=tuple(k * 0.5 for k in range(12))
    )
    frames = cache.get(timed, parse_strategy("aks:3"), None, QUESTIONS[0])
    # 0.5 s apart: one frame per second is every other one
    assert len(frames.indices) == 3 and all(i % 2 == 0 for i in frames.indices.tolist())
    assert [read_index(p) for p in frames.pixels] == frames.indices.tolist()


def test_aks_without_a_scorer_fails_the_media_with_a_clear_message(video) -> None:
    with pytest.raises(MediaError, match=r"walk.mp4: --frames aks:6 needs an image-text scorer model"):
        FrameCache(video).get(VIDEO, AKS_6, None, QUESTIONS[0])
    with pytest.raises(MediaError, match="needs an image-text scorer model"):
        sample_frame_folder(str(video), ("a.png",), (), AKS_6)


def test_a_scorer_model_that_does_not_load_names_the_model_once_for_every_question(video) -> None:
    scorer = ImageTextScorer(str(video / "no-such-model"))
    cache = FrameCache(video, scorer=scorer)
    errors = []
    for question in QUESTIONS[:2]:
        with pytest.raises(MediaError, match="cannot load the AKS scorer model .*no-such-model") as caught:
            cache.get(VIDEO, AKS_6, None, question)
        errors.append(caught.value)
    assert errors[0] is errors[1]  # loading was tried once


def test_a_scorer_failing_on_the_frames_is_a_media_error_naming_the_model(clip, video, monkeypatch) -> None:
    from transformers import CLIPModel

    def broken(self, **inputs):  # type: ignore[no-untyped-def]
        raise RuntimeError("CUDA out of memory")

    monkeypatch.setattr(CLIPModel, "get_image_features", broken)
    cache = FrameCache(video, scorer=ImageTextScorer(str(clip)))
    with pytest.raises(
        MediaError, match=r"walk.mp4: the AKS scorer .*tiny-clip failed \(CUDA out of memory\)"
    ):
        cache.get(VIDEO, AKS_6, None, QUESTIONS[0])


@pytest.fixture(scope="module")
def blip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return save_tiny_blip_itm(tmp_path_factory.mktemp("blip") / "tiny-blip-itm")


def test_blip_itm_scores_are_the_full_models_match_probability_with_vision_tokens_kept(blip, video) -> None:
    # AKS's default scorer: softmax(itm)[:, 1]; the vision tokens are kept, the text encoder runs per question
    import torch
    from transformers import AutoProcessor, BlipForImageTextRetrieval

    scorer = ImageTextScorer(str(blip), video / "features")
    frames = np.array([0, 50, 120], dtype=np.int64)
    pixels = [indexed_frame(int(i), 64, 64) for i in frames]
    got = scorer.scores("walk.mp4", "digest", QUESTIONS[0])(frames, lambda ids: pixels)
    model, processor = (
        BlipForImageTextRetrieval.from_pretrained(blip).eval(),
        AutoProcessor.from_pretrained(blip),
    )
    inputs = processor(images=pixels, text=[QUESTIONS[0]] * 3, return_tensors="pt", padding=True)
    with torch.no_grad():
        expected = model(**inputs, use_itm_head=True).itm_score.softmax(dim=-1)[:, 1].numpy()
    np.testing.assert_allclose(got, expected, atol=2e-3)  # the tokens are kept as float16
    kept = scorer.image_features("walk.mp4", "digest", frames, lambda ids: pixels)
    assert kept.dtype == np.float16 and kept.shape == (3, 17, 16)  # 4×4 patches + CLS, width 16


def test_aks_with_blip_itm_embeds_a_videos_frames_once_for_eight_questions(blip, video) -> None:
    scorer = ImageTextScorer(str(blip), video / "features")
    cache = FrameCache(video, scorer=scorer)
    chosen = [cache.get(VIDEO, AKS_6, None, question).indices.tolist() for question in QUESTIONS]
    assert all(len(c) == 6 == len(set(c)) and c == sorted(c) for c in chosen)
    assert scorer.image_passes == 2
