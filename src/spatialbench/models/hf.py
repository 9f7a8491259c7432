"""Local Hugging Face vision-language models through ``transformers`` (provider ``hf``).

Model names: ``hf:/path/to/folder`` (a ``save_pretrained`` folder) or ``hf:Qwen/Qwen2.5-VL-7B-Instruct``
(a hub name, loaded from the local cache; downloads only if the user's environment allows it). Families
tested end to end with tiny random checkpoints: Qwen2.5-VL, LLaVA-OneVision, InternVL (``-hf`` layout).
Anything ``AutoModelForImageTextToText`` loads and whose chat template takes ``{"type": "image"}``
content should work the same way (Qwen2-VL, Qwen3-VL, LLaVA-Video ``-hf``), untested here.

Install: ``pip install 'spatialbench[hf]'`` (torch 2.13.0 CPU build, transformers, tokenizers). No
torchvision by default (``frames_as="images"``): video frames are fed as separate images through the slow
PIL image processor, see :mod:`spatialbench.models.hf_loading` for why. For Qwen models this spends each
frame its own image tokens instead of the video processor's pairwise temporal merge, and LLaVA-OneVision
tiles each frame instead of pooling it. ``frames_as="video"`` hands each run of frames to the model's
video processor like the official VSI-Bench evaluation; it needs torchvision, which installs beside
``torch==2.14.1`` (``torchvision==0.29.1``), not beside the pinned 2.13.0.

Decoding is greedy by default (temperature 0, top-p 1, no repetition penalty; VSI-Bench Sec. 4.1);
``temperature > 0`` samples with ``top_p``, ``top_k`` (None: no top-k cut) and the settings' ``seed``.
Further ``transformers`` generation options go in ``GenerationSettings.extra``. For analyses
(ReMindView-Bench Sec. 6: linear probing on token logits, entropy dynamics)
:meth:`HFBackend.generate_with_trace` also returns the raw logits of every generated token and, on
request, the last-position hidden state of every layer.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from spatialbench.models.base import Backend
from spatialbench.models.errors import BackendError
from spatialbench.models.hf_loading import import_hf, load_model, load_processor, resolve_device
from spatialbench.models.hf_messages import FramesAs, chat_inputs
from spatialbench.models.hf_trace import TraceSettings, compact, write_trace
from spatialbench.records.messages import GenerationSettings, Request, Response, TokenLogprob


@dataclass(frozen=True)
class GenerationTrace:
    """Per-step model outputs of one generation (a side channel for analyses; never stored as JSON).

    Attributes:
        token_ids: (T,) int64, the generated token ids (T <= max_new_tokens).
        logits: (T, V) float32, raw next-token logits at each step (before any sampling transform).
        hidden_states: (T, L + 1, H) float32, the last position's hidden state per layer (embeddings
            first) at each step, or None unless asked for.
    """

    token_ids: NDArray[np.int64]
    logits: NDArray[np.float32]
    hidden_states: NDArray[np.float32] | None = None


def generation_options(
    settings: GenerationSettings, logits: bool = False, hidden: bool = False
) -> dict[str, Any]:
    """``transformers.GenerationConfig`` fields; ``logits`` / ``hidden`` ask for per-step outputs.

    Everything that changes a greedy result is set explicitly, so a checkpoint's own
    ``generation_config.json`` (Qwen ships ``repetition_penalty=1.05``) cannot alter it; temperature,
    top-p and top-k are set only when sampling (greedy decoding ignores them).
    """
    options: dict[str, Any] = {
        "max_new_tokens": settings.max_new_tokens,
        "do_sample": settings.temperature > 0,
        "num_beams": 1,
        "repetition_penalty": 1.0,
        "output_logits": logits,
        "output_hidden_states": hidden,
        "return_dict_in_generate": True,
    }
    if settings.temperature > 0:
        options.update(temperature=settings.temperature, top_p=settings.top_p, top_k=settings.top_k or 0)
    options.update(dict(settings.extra))
    return options


class HFBackend(Backend):
    """A local transformers model; loads on first use; one generation at a time (the model is shared).

    Args:
        path: folder or hub name.
        device: ``"auto"`` (CUDA if present), ``"cpu"``, ``"cuda:1"``...
        dtype: ``"auto"`` or a torch dtype name.
        image_processor_kwargs: overrides for the image processor (e.g. ``max_pixels`` for Qwen).
        attn_implementation: e.g. ``"sdpa"`` or ``"flash_attention_2"``; None keeps the default.
        local_files_only: never reach the network when loading.
        frames_as: ``"images"`` (default; no torchvision) or ``"video"`` (runs of consecutive frames go to
            the model's video processor; needs torchvision) — see :mod:`spatialbench.models.hf_messages`.
        trace_dir: when set, every answer's compact trace is written there and named in ``raw.trace``
            (:mod:`spatialbench.models.hf_trace`; ``trace_top_k`` logits per step, hidden states of
            ``trace_layers`` at the phase-end anchors).
    """

    provider = "hf"

    def __init__(
        self,
        path: str,
        *,
        device: str = "auto",
        dtype: str = "auto",
        image_processor_kwargs: dict[str, Any] | None = None,
        attn_implementation: str | None = None,
        local_files_only: bool = False,
        frames_as: Literal["images", "video"] = "images",
        trace_dir: str | None = None,
        trace_top_k: int = 20,
        trace_layers: tuple[int, ...] = (),
    ) -> None:
        self.path = path
        self.device = device
        self.dtype = dtype
        self.image_processor_kwargs = dict(image_processor_kwargs or {})
        self.attn_implementation = attn_implementation
        self.local_files_only = local_files_only
        self.frames_as = FramesAs(frames_as)
        self.traces = None if trace_dir is None else TraceSettings(
            Path(trace_dir), trace_top_k, layers=tuple(trace_layers)
        )
        self._lock = asyncio.Lock()
        self._model: Any = None
        self._processor: Any = None

    def describe(self) -> dict[str, Any]:
        """Model path and loading settings."""
        return {
            "provider": self.provider,
            "model": self.path,
            "device": self.device,
            "dtype": self.dtype,
            "image_processor_kwargs": self.image_processor_kwargs,
            "attn_implementation": self.attn_implementation,
            "frames_as": self.frames_as.value,
            **({} if self.traces is None else {"trace_dir": str(self.traces.folder),
                                               "trace_top_k": self.traces.top_k,
                                               "trace_layers": list(self.traces.layers)}),
        }

    async def generate(self, request: Request) -> Response:
        """Answer one request; per-step logits are computed only when log-probabilities are asked for."""
        if self.traces is not None:
            response, trace = await self.generate_with_trace(request, bool(self.traces.layers))
            return await asyncio.to_thread(self._store_trace, response, trace, self.traces)
        async with self._lock:
            response, _ = await asyncio.to_thread(self._generate_sync, request, False, False)
        return response

    def _store_trace(self, response: Response, trace: GenerationTrace, settings: TraceSettings) -> Response:
        """Write the answer's compact trace (:mod:`~spatialbench.models.hf_trace`); name it in ``raw``."""
        tokenizer = self._processor.tokenizer
        pieces = [tokenizer.decode([int(t)], skip_special_tokens=True) for t in trace.token_ids]
        arrays = compact(trace.token_ids, trace.logits, pieces, settings, trace.hidden_states)
        name = write_trace(settings.folder, arrays)
        return replace(response, raw={**(response.raw or {}), "trace": name})

    async def generate_with_trace(
        self, request: Request, hidden_states: bool = False
    ) -> tuple[Response, GenerationTrace]:
        """Answer one request and return the per-step logits (and hidden states if asked).

        Raises:
            spatialbench.models.errors.ProviderUnavailableError: torch/transformers missing.
            spatialbench.models.errors.BackendError: the model or processor cannot be loaded.
        """
        async with self._lock:
            response, trace = await asyncio.to_thread(self._generate_sync, request, True, hidden_states)
        assert trace is not None
        return response, trace

    async def aclose(self) -> None:
        """Drop the model so its memory can be freed."""
        self._model = self._processor = None

    def _ensure_loaded(self) -> None:
        if self._model is None:
            device = resolve_device(self.device)
            self._processor = load_processor(
                self.path,
                self.image_processor_kwargs,
                self.local_files_only,
                video=self.frames_as is FramesAs.VIDEO,
            )
            self._model = load_model(
                self.path, device, self.dtype, self.attn_implementation, self.local_files_only
            )

    def _generate_sync(
        self, request: Request, want_trace: bool, want_hidden: bool
    ) -> tuple[Response, GenerationTrace | None]:
        torch, transformers = import_hf()
        self._ensure_loaded()
        model, processor = self._model, self._processor
        chat = chat_inputs(request, self.frames_as)
        prompt = processor.apply_chat_template(chat.messages, add_generation_prompt=True, tokenize=False)
        inputs = processor(text=[prompt], return_tensors="pt", **_pixel_inputs(chat))
        inputs = inputs.to(model.device, dtype=model.dtype)
        options = generation_options(
            request.settings, logits=want_trace or request.settings.logprobs, hidden=want_hidden
        )
        if request.settings.seed is not None:
            torch.manual_seed(request.settings.seed)  # sampling only; greedy ignores it
        with torch.inference_mode():
            out = model.generate(**inputs, generation_config=transformers.GenerationConfig(**options))
        n_prompt = int(inputs["input_ids"].shape[1])
        token_ids = out.sequences[0, n_prompt:].cpu().numpy().astype(np.int64)
        logits = _step_logits(out) if want_trace or request.settings.logprobs else None
        response = self._response(token_ids, logits, request.settings, inputs["input_ids"])
        if not want_trace or logits is None:
            return response, None
        hidden = _step_hidden_states(out) if want_hidden else None
        return response, GenerationTrace(token_ids=token_ids, logits=logits, hidden_states=hidden)

    def _count_tokens(self, input_ids: Any, attribute: str) -> int | None:
        """Count the placeholder tokens of ``image_token_id`` / ``video_token_id`` in the prompt."""
        token_id = getattr(self._processor, attribute, None)
        return None if token_id is None else int((input_ids == token_id).sum())

    def _response(
        self,
        token_ids: NDArray[np.int64],
        logits: NDArray[np.float32] | None,
        settings: GenerationSettings,
        input_ids: Any,
    ) -> Response:
        tokenizer = self._processor.tokenizer
        ids = token_ids.tolist()
        eos = self._model.generation_config.eos_token_id
        eos_ids = set(eos if isinstance(eos, list) else [eos])
        logprobs = None
        if settings.logprobs and logits is not None:
            logprobs = tuple(
                TokenLogprob(token=tokenizer.decode([token]), logprob=float(lp))
                for token, lp in zip(ids, token_logprobs(logits, token_ids), strict=True)
            )
        return Response(
            text=tokenizer.decode(ids, skip_special_tokens=True),
            input_tokens=int(input_ids.shape[1]),
            output_tokens=len(ids),
            logprobs=logprobs,
            raw={
                "model": self.path,
                "finish_reason": "stop" if ids and ids[-1] in eos_ids else "length",
                "image_tokens": self._count_tokens(input_ids, "image_token_id"),
                "video_tokens": self._count_tokens(input_ids, "video_token_id"),
            },
        )


def _pixel_inputs(chat: Any) -> dict[str, Any]:
    """Processor keyword arguments for the chat's images (PIL) and videos (frame arrays, not resampled)."""
    from PIL import Image

    inputs: dict[str, Any] = {}
    if chat.images:
        inputs["images"] = [Image.fromarray(np.ascontiguousarray(pixels)) for pixels in chat.images]
    if chat.videos:
        inputs["videos"] = chat.videos
        inputs["do_sample_frames"] = False  # the frames were sampled already (media strategies)
    return inputs


def token_logprobs(logits: NDArray[np.float32], token_ids: NDArray[np.int64]) -> NDArray[np.float64]:
    """Natural-log probability of each chosen token under the raw logits; shapes (T, V), (T,) → (T,)."""
    z = logits.astype(np.float64)
    z = z - z.max(axis=1, keepdims=True)
    log_norm = np.log(np.exp(z).sum(axis=1))
    return z[np.arange(len(token_ids)), token_ids] - log_norm


def _step_logits(out: Any) -> NDArray[np.float32]:
    """(T, V) raw logits from ``generate``'s per-step ``out.logits`` (each (1, V))."""
    return np.stack([step[0].float().cpu().numpy() for step in out.logits]).astype(np.float32)


def _step_hidden_states(out: Any) -> NDArray[np.float32]:
    """(T, L + 1, H) from ``out.hidden_states`` (per step, per layer (1, positions, H)): last position."""
    return np.stack(
        [np.stack([layer[0, -1].float().cpu().numpy() for layer in step]) for step in out.hidden_states]
    ).astype(np.float32)


def make_hf(model_part: str, api: Any = None, seed: int | None = None, **options: Any) -> HFBackend:
    """Build the back end for ``hf:PATH_OR_NAME``; ``api`` (transport) and ``seed`` do not apply here.

    Raises:
        ValueError: empty model part.
        BackendError: a local-looking path (absolute, ``./``, ``../``, ``~``) that does not exist — caught
            here, once, instead of as a hub-name error on every item.
    """
    if not model_part:
        raise ValueError("hf back end needs a model path or hub name: hf:/path/to/model")
    if model_part.startswith(("/", "./", "../", "~")):
        folder = Path(model_part).expanduser()
        if not folder.exists():
            raise BackendError(f"hf model folder {folder} does not exist")
    return HFBackend(model_part, **options)
