"""The frozen, typed configuration of a run (scalars, lists and registered names only; no secrets).

Grouped into the sections of a run file (``spatialbench run --config FILE``): ``data`` (which items),
``media`` (which frames), ``prompt`` (layout, :class:`~spatialbench.prompting.config.PromptConfig`),
``model`` (back end, decoding and transport), ``scoring`` (extraction and MRA modes) and ``strategy``
(prompting strategy and its parameters), plus ``out``.
Transport defaults (concurrency, timeout, attempts) come from
:class:`~spatialbench.models.api.ApiSettings` and :class:`~spatialbench.models.retry.RetryPolicy`, their
one source.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from spatialbench.media.sampling import parse_strategy
from spatialbench.models.api import ApiSettings
from spatialbench.models.images import ImageFormat, ImageOverflow
from spatialbench.models.retry import RetryPolicy
from spatialbench.prompting.config import PromptConfig
from spatialbench.prompting.strategies import StrategyConfig
from spatialbench.records.messages import GenerationSettings
from spatialbench.runs.shard import parse_shard

Scalar = str | int | float | bool
#: a back-end option's value (``model.options``): a scalar, a list (``trace_layers``) or a table of scalars
OptionValue = Scalar | list[Scalar] | dict[str, Scalar]
#: the ``model.options`` switch that stores traces in the run folder (``RUN/traces``)
TRACE_SWITCH = "trace"
#: frame strategy of a run whose benchmark declares none (VSI-Bench's 32 uniform frames)
DEFAULT_FRAMES = "uniform:32"
#: answer budget when neither the run, the benchmark nor its prompt builder gives one
FALLBACK_MAX_NEW_TOKENS = 128
_API = ApiSettings()
_RETRY = RetryPolicy()
_FROZEN = ConfigDict(frozen=True, extra="forbid")


class DataConfig(BaseModel):
    """Which items.

    ``benchmark`` (registered name), ``path`` (data folder or annotation file; media paths resolve against
    it, against its folder for a file), ``limit`` (first N selected items), ``ids`` (only these, file order
    kept; a list, whose whole numbers are read as text ids), ``options`` (loader options, e.g.
    MMSI-Video-Bench ``setting``), ``shard`` (``K/N``: only the items of that slice,
    :mod:`spatialbench.runs.shard`).
    """

    model_config = _FROZEN

    benchmark: str
    path: str
    limit: int | None = Field(default=None, ge=0)
    ids: tuple[str, ...] | None = None
    options: dict[str, Scalar] = Field(default_factory=dict)
    shard: str | None = None

    @field_validator("shard")
    @classmethod
    def _shard_parses(cls, value: str | None) -> str | None:
        return None if value is None else str(parse_shard(value))

    @field_validator("ids", mode="before")
    @classmethod
    def _ids_listed(cls, value: object) -> object:
        """Refuse one text (a run file lists the ids); whole numbers become text ids (``[1, 2]``)."""
        if isinstance(value, str):
            raise ValueError("a list of item ids (the --ids option reads a file; a run file lists the ids: "
                             "ids: [1, 2])")
        if isinstance(value, list | tuple):
            return tuple(str(v) if isinstance(v, int) and not isinstance(v, bool) else v for v in value)
        return value


class MediaConfig(BaseModel):
    """Which frames.

    ``frames`` (strategy name; None = the benchmark's default, else ``uniform:32``), ``max_pixels``
    (per-frame resize limit; None = original size), ``frame_cache_mb`` (frame cache memory),
    ``aks_model`` (the image–text scorer of ``aks:N``: a CLIP or BLIP-ITM checkpoint folder, made
    absolute, or Hugging Face name; required by ``aks:N``, MMSI-Video Table 5; under ``aks:N`` a name that
    looks like a path — absolute, ``./``, ``../`` or existing — must be a folder holding ``config.json``)
    and ``aks_cache`` (folder of its frame features; None = ``OUT/aks_features``).
    """

    model_config = _FROZEN

    frames: str | None = None
    max_pixels: int | None = Field(default=None, gt=0)
    frame_cache_mb: int = Field(default=2048, gt=0)
    aks_model: str | None = Field(default=None, validate_default=True)
    aks_cache: str | None = None

    @field_validator("frames")
    @classmethod
    def _strategy_parses(cls, value: str | None) -> str | None:
        return None if value is None else parse_strategy(value).name

    @field_validator("aks_model")
    @classmethod
    def _scorer_for_aks(cls, value: str | None, info: ValidationInfo) -> str | None:
        frames = info.data.get("frames") or ""
        if value is None and frames.startswith("aks:"):
            raise ValueError(
                f"none given; --frames {frames} needs an image-text scorer (a CLIP or BLIP-ITM checkpoint "
                "folder or Hugging Face name, e.g. openai/clip-vit-base-patch32)"
            )
        if value is not None and frames.startswith("aks:") and _looks_local(value):
            _check_model_folder(Path(value))
        # a local checkpoint is recorded absolute (a resumed run, its request keys); a hub name as given
        return str(Path(value).absolute()) if value is not None and Path(value).is_dir() else value


def _looks_local(name: str) -> bool:
    """Whether a scorer name is a path (absolute, ``./``, ``../`` or existing), not a Hugging Face name."""
    return Path(name).is_absolute() or name.startswith(("./", "../", "~")) or Path(name).exists()


def _check_model_folder(path: Path) -> None:
    """Refuse a path that is no checkpoint folder before the run (transformers would take it for a repo id).

    Raises:
        ValueError: no such path, or not a folder holding ``config.json``.
    """
    if not path.exists():
        raise ValueError(f"no model folder at {path}")
    if not path.is_dir():
        raise ValueError(f"{path} is a file, not a model folder (a checkpoint folder holding config.json)")
    if not (path / "config.json").is_file():
        raise ValueError(f"{path} holds no config.json: not a model folder")


class ModelConfig(BaseModel):
    """The model.

    ``name`` (``provider:model``, see :mod:`spatialbench.models.resolve`, or a baseline ``chance-random``
    / ``chance-frequency``), decoding (greedy by default, VSI-Bench Sec. 4.1; ``seed`` recorded and sent to
    APIs that take one; ``max_new_tokens`` None = the benchmark's value, else its prompt builder's, else
    128) and API transport (``concurrency`` requests in flight, ``timeout_s`` per attempt,
    ``max_attempts``, image limit and format). ``options``: keyword arguments of the back end's
    constructor (``hf``: ``dtype``, ``trace_top_k``, ...; checked by
    :func:`~spatialbench.models.resolve.check_backend_options`), plus ``trace: true`` for traces in
    ``RUN/traces`` (:meth:`RunConfig.backend_options`).
    """

    model_config = _FROZEN

    name: str
    temperature: float = 0.0
    top_p: float = 1.0
    seed: int = 0
    max_new_tokens: int | None = Field(default=None, gt=0)
    concurrency: int = Field(default=_API.concurrency, ge=1)
    timeout_s: float = Field(default=_API.timeout_s, gt=0)
    max_attempts: int = Field(default=_RETRY.max_attempts, ge=1)
    retry_base_delay_s: float = Field(default=_RETRY.base_delay_s, ge=0)
    max_images: int | None = Field(default=_API.max_images, gt=0)
    image_overflow: ImageOverflow = _API.image_overflow
    image_format: ImageFormat = _API.image_format
    jpeg_quality: int = Field(default=_API.jpeg_quality, ge=1, le=100)
    options: dict[str, OptionValue] = Field(default_factory=dict)

    def api_settings(self) -> ApiSettings:
        """Transport settings for API back ends."""
        return ApiSettings(
            concurrency=self.concurrency,
            timeout_s=self.timeout_s,
            retry=RetryPolicy(max_attempts=self.max_attempts, base_delay_s=self.retry_base_delay_s),
            max_images=self.max_images,
            image_overflow=self.image_overflow,
            image_format=self.image_format,
            jpeg_quality=self.jpeg_quality,
        )

    def generation(self, max_new_tokens: int | None) -> GenerationSettings:
        """Return decoding settings; ``max_new_tokens`` is the benchmark's default when the run sets none."""
        return GenerationSettings(
            temperature=self.temperature,
            top_p=self.top_p,
            max_new_tokens=self.max_new_tokens or max_new_tokens or FALLBACK_MAX_NEW_TOKENS,
            seed=self.seed,
        )


class ScoringConfig(BaseModel):
    """How answers are scored.

    ``extract`` (None = the benchmark's default mode), ``mra`` (official ``<=`` or paper ``<``).
    """

    model_config = _FROZEN

    extract: str | None = None
    mra: str = "official"


class RunConfig(BaseModel):
    """Everything that defines a run; written to ``config.json`` and the store.

    Attributes:
        out: run folder (``run.sqlite``, ``config.json``, scores).
        data, media, prompt, model, scoring: the sections (see each model); ``prompt.model_family`` None
            = from the model name. A resolved run records the benchmark's frames, answer budget and
            loader options it used.
        strategy: the prompting strategy and its parameters (:mod:`spatialbench.prompting.strategies`;
            ``direct`` by default); a resolved run records every parameter, defaults filled in.
    """

    model_config = _FROZEN

    out: str
    data: DataConfig
    model: ModelConfig
    media: MediaConfig = Field(default_factory=MediaConfig)
    prompt: PromptConfig = Field(default_factory=PromptConfig)
    scoring: ScoringConfig = Field(default_factory=ScoringConfig)
    strategy: StrategyConfig = Field(default_factory=StrategyConfig)

    @property
    def frame_strategy(self) -> str:
        """The frame strategy name in effect (``media.frames``, or :data:`DEFAULT_FRAMES` when unresolved)."""
        return self.media.frames or DEFAULT_FRAMES

    @property
    def aks_features(self) -> Path:
        """Folder of the ``aks:N`` scorer's frame features: ``media.aks_cache``, else ``OUT/aks_features``."""
        return Path(self.media.aks_cache) if self.media.aks_cache else Path(self.out) / "aks_features"

    def backend_options(self) -> dict[str, OptionValue]:
        """Return the back end's keyword arguments: ``model.options``, ``trace`` turned into ``trace_dir``.

        ``trace: true`` is ``trace_dir = OUT/traces`` (``false``: no traces); a relative ``trace_dir`` is
        inside the run folder; ``OUT`` is made absolute, so the recorded folder works from anywhere.

        Raises:
            ValueError: ``trace`` is not true/false, or is given together with ``trace_dir``.
        """
        options = dict(self.model.options)
        if TRACE_SWITCH not in options:
            folder = options.get("trace_dir")
            if isinstance(folder, str):
                options["trace_dir"] = str(Path(self.out).absolute() / folder)
            return options
        switch = options.pop(TRACE_SWITCH)
        if not isinstance(switch, bool) or "trace_dir" in options:
            raise ValueError(f"model option {TRACE_SWITCH!r}: expected true or false, without trace_dir "
                             f"(got {switch!r})")
        if switch:
            options["trace_dir"] = str(Path(self.out).absolute() / "traces")
        return options

    def updated(self, section: str, **values: object) -> RunConfig:
        """Return a copy with ``values`` replaced in ``section`` (``config.updated("model", name=...)``)."""
        part = getattr(self, section).model_copy(update=values)
        return self.model_copy(update={section: part})
