"""Load a local Hugging Face vision-language model and its processor for frames fed as images.

Why a "frames-only" processor: the processors of Qwen2-VL / Qwen2.5-VL / Qwen3-VL, LLaVA-OneVision and
InternVL declare a video processor, and in transformers 5.x every video processor (and every "fast" image
processor) needs torchvision, which does not install beside the CPU ``torch==2.13.0`` this project pins.
The back end therefore builds the model's own processor class with the tokenizer, the slow PIL image
processor (``backend="pil"``) and *no* video processor. Video frames arrive as separate images
(:class:`~spatialbench.models.base.ImagePart`), which every family's chat template supports; the
processor's own ``processor_config.json`` settings and the checkpoint's chat template are kept.

torch and transformers are imported inside the functions only (extra ``hf``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from spatialbench.models.errors import BackendError, ProviderUnavailableError


def import_hf() -> tuple[Any, Any]:
    """Return the ``torch`` and ``transformers`` modules.

    Raises:
        ProviderUnavailableError: the ``hf`` extra is not installed.
    """
    try:
        import torch
        import transformers
    except ImportError as exc:
        raise ProviderUnavailableError(
            f"the hf back end needs torch and transformers: pip install 'spatialbench[hf]' ({exc})"
        ) from exc
    return torch, transformers


@cache
def _frames_only_class(base: Any) -> Any:
    """Subclass of a processor class that accepts ``None`` for sub-processors (the video processor)."""

    def check_argument_for_proper_class(self: Any, argument_name: str, argument: Any) -> Any:
        # Without torchvision the video-processor base class is a placeholder; skip the check for None.
        if argument is None:
            return None
        return base.check_argument_for_proper_class(self, argument_name, argument)

    return type(
        f"FramesOnly{base.__name__}",
        (base,),
        {"check_argument_for_proper_class": check_argument_for_proper_class},
    )


def processor_class_name(model_type: str) -> str:
    """Name of the transformers processor class for a config ``model_type`` (e.g. ``"qwen2_5_vl"``).

    Raises:
        BackendError: transformers knows no processor for this model type.
    """
    _, transformers = import_hf()
    from transformers.models.auto.processing_auto import PROCESSOR_MAPPING_NAMES

    name = PROCESSOR_MAPPING_NAMES.get(model_type)
    if not name or not hasattr(transformers, name):
        raise BackendError(f"transformers has no processor for model type {model_type!r}")
    return str(name)


def load_processor(
    path: str, image_processor_kwargs: dict[str, Any], local_files_only: bool, video: bool = False
) -> Any:
    """Build the model's processor with tokenizer + PIL image processor and no video processor.

    With ``video`` the checkpoint's full processor is loaded instead (its video processor needs
    torchvision); ``image_processor_kwargs`` then apply to it as processor overrides.

    Args:
        path: a local folder written by ``save_pretrained`` or a hub name already in the local cache.
        image_processor_kwargs: overrides for the image processor (e.g. ``{"max_pixels": 200704}``).
        local_files_only: never reach the network.
        video: load the full processor, video processor included.

    Raises:
        BackendError: the folder lacks a config, tokenizer or image processor, or its model type is unknown;
            ``video`` without torchvision.
    """
    _, transformers = import_hf()
    if video:
        return _load_full_processor(path, image_processor_kwargs, local_files_only)
    try:
        config = transformers.AutoConfig.from_pretrained(path, local_files_only=local_files_only)
        base = getattr(transformers, processor_class_name(config.model_type))
        processor_dict, extra = base.get_processor_dict(path, local_files_only=local_files_only)
        parts = {
            "tokenizer": transformers.AutoTokenizer.from_pretrained(path, local_files_only=local_files_only),
            "image_processor": transformers.AutoImageProcessor.from_pretrained(
                path, backend="pil", local_files_only=local_files_only, **image_processor_kwargs
            ),
        }
    except (OSError, ValueError, KeyError) as exc:
        raise BackendError(f"cannot load the processor of {path}: {exc}") from exc
    args = [parts.get(name) for name in base.get_attributes()]
    return _frames_only_class(base).from_args_and_dict(args, processor_dict, **extra)


def _load_full_processor(path: str, overrides: dict[str, Any], local_files_only: bool) -> Any:
    _, transformers = import_hf()
    from transformers.utils import is_torchvision_available

    if not is_torchvision_available():
        raise BackendError("frames_as=video needs torchvision (transformers' video processors use it)")
    try:
        return transformers.AutoProcessor.from_pretrained(
            path, local_files_only=local_files_only, **overrides
        )
    except (OSError, ValueError, KeyError) as exc:
        raise BackendError(f"cannot load the processor of {path}: {exc}") from exc


def resolve_device(device: str) -> str:
    """``"auto"`` → ``"cuda"`` when available, else ``"cpu"``; other values unchanged."""
    torch, _ = import_hf()
    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    return device


def load_model(
    path: str, device: str, dtype: str, attn_implementation: str | None, local_files_only: bool
) -> Any:
    """Load an image-text-to-text model in eval mode on ``device``.

    Args:
        path: folder or hub name.
        device: torch device string (see :func:`resolve_device`).
        dtype: ``"auto"`` (bfloat16 on CUDA, float32 on CPU) or a torch dtype name such as ``"float16"``.
        attn_implementation: e.g. ``"sdpa"``; None keeps the model's default.
        local_files_only: never reach the network.

    Raises:
        BackendError: the folder holds no loadable model.
    """
    torch, transformers = import_hf()
    if dtype == "auto":
        dtype = "bfloat16" if device.startswith("cuda") else "float32"
    options: dict[str, Any] = {"dtype": getattr(torch, dtype), "local_files_only": local_files_only}
    if attn_implementation:
        options["attn_implementation"] = attn_implementation
    try:
        model = transformers.AutoModelForImageTextToText.from_pretrained(path, **options)
    except (OSError, ValueError, KeyError) as exc:
        raise BackendError(f"cannot load the model of {path}: {exc}") from exc
    return model.to(device).eval()
