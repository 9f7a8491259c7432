"""The frozen, typed configuration of a run (scalars, lists and registered names only; no secrets)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from spatialbench.media.sampling import parse_strategy
from spatialbench.models.api import ApiSettings, ImageFormat, ImageOverflow, RetryPolicy
from spatialbench.prompting.config import PromptConfig
from spatialbench.records.messages import GenerationSettings

Scalar = str | int | float | bool
#: frame strategy of a run whose benchmark declares none (VSI-Bench's 32 uniform frames)
DEFAULT_FRAMES = "uniform:32"
#: answer budget when neither the run, the benchmark nor its prompt builder gives one
FALLBACK_MAX_NEW_TOKENS = 128


class RunConfig(BaseModel):
    """Everything that defines a run; written to ``config.json`` and the store.

    Attributes:
        benchmark: registered benchmark name (``vsibench``).
        data: benchmark data folder or annotation file; media paths resolve against it (against its
            folder for a file).
        model: ``provider:model`` name (see :mod:`spatialbench.models.resolve`).
        out: run folder (``run.sqlite``, ``config.json``, scores).
        frames: frame sampling strategy name (``uniform:32``...); None = the benchmark's default
            (``BenchmarkSpec.default_frames``), else ``uniform:32`` (:data:`DEFAULT_FRAMES`).
        max_pixels: per-frame resize limit (None = original size).
        limit: keep the first N selected items. ids: keep only these item ids (file order kept).
        concurrency: requests in flight (also the back end's bound).
        prompt: prompt layout; ``prompt.model_family`` None = from the model name.
        temperature, top_p, seed: decoding (greedy by default, VSI-Bench Sec. 4.1).
        max_new_tokens: None = the benchmark's official value (``BenchmarkSpec.max_new_tokens``, else the
            prompt builder's, else 128), else this. A resolved run records the benchmark's value here.
        timeout_s, max_attempts, max_images, image_overflow, image_format: API transport.
        benchmark_options: extra per-benchmark options passed to the loader (e.g. MMSI-Video ``setting``).
        extract, mra: scoring modes (None = the benchmark's default).
        frame_cache_mb: memory for the per-run frame cache.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    benchmark: str
    data: str
    model: str
    out: str
    frames: str | None = None
    max_pixels: int | None = Field(default=None, gt=0)
    limit: int | None = Field(default=None, ge=0)
    ids: tuple[str, ...] | None = None
    concurrency: int = Field(default=8, ge=1)
    prompt: PromptConfig = Field(default_factory=PromptConfig)
    temperature: float = 0.0
    top_p: float = 1.0
    seed: int = 0
    max_new_tokens: int | None = Field(default=None, gt=0)
    timeout_s: float = Field(default=120.0, gt=0)
    max_attempts: int = Field(default=6, ge=1)
    retry_base_delay_s: float = Field(default=1.0, ge=0)
    max_images: int | None = Field(default=None, gt=0)
    image_overflow: ImageOverflow = ImageOverflow.ERROR
    image_format: ImageFormat = ImageFormat.PNG
    benchmark_options: dict[str, Scalar] = Field(default_factory=dict)
    extract: str | None = None
    mra: str = "official"
    frame_cache_mb: int = Field(default=2048, gt=0)

    @field_validator("frames")
    @classmethod
    def _strategy_parses(cls, value: str | None) -> str | None:
        return None if value is None else parse_strategy(value).name

    @property
    def frame_strategy(self) -> str:
        """The frame strategy name in effect (``frames``, or :data:`DEFAULT_FRAMES` when unresolved)."""
        return self.frames or DEFAULT_FRAMES

    def api_settings(self) -> ApiSettings:
        """Transport settings for API back ends."""
        return ApiSettings(
            concurrency=self.concurrency,
            timeout_s=self.timeout_s,
            retry=RetryPolicy(max_attempts=self.max_attempts, base_delay_s=self.retry_base_delay_s),
            max_images=self.max_images,
            image_overflow=self.image_overflow,
            image_format=self.image_format,
        )

    def generation(self, max_new_tokens: int | None) -> GenerationSettings:
        """Return decoding settings; ``max_new_tokens`` is the benchmark's default when the run sets none."""
        return GenerationSettings(
            temperature=self.temperature,
            top_p=self.top_p,
            max_new_tokens=self.max_new_tokens or max_new_tokens or FALLBACK_MAX_NEW_TOKENS,
            seed=self.seed,
        )
