"""The one model interface: ``generate(request) -> response``.

Back ends receive messages of text and images and know nothing of benchmarks. Each back end is one module
of this package, listed in ``BACKENDS`` below under its provider name (the part before ``:`` of a model
name such as ``openai:gpt-4o`` or ``hf:/path/to/model``) as a lazy entry: every name is known at import,
and a provider's module (and, when a back end is built, its SDK) is imported only on first use.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from spatialbench.records.messages import Request, Response
from spatialbench.registry import Registry


class Backend(ABC):
    """A model back end. Implementations must be safe to call from several asyncio tasks at once."""

    #: provider name, e.g. "openai-compatible"
    provider: str = ""
    #: how :func:`~spatialbench.models.resolve.load_backend` built it (``Registry.create``'s record: name,
    #: model part, options; no secrets), None when built directly
    registered_as: dict[str, Any] | None = None

    @abstractmethod
    async def generate(self, request: Request) -> Response:
        """Answer one request.

        Raises:
            spatialbench.models.errors.BackendError (or a subclass) on a failure after retries.
        """

    def prepare_images(self, images: list[NDArray[np.uint8]]) -> None:  # noqa: B027 - optional hook
        """Prepare images that requests will carry, in a worker thread ahead of them; default does nothing.

        API back ends encode them for the wire (:class:`~spatialbench.models.api.ApiBackend`), so the
        first requests about a new video find their encodings made.
        """

    def requests_sent(self) -> int | None:
        """Return the requests this back end has sent so far, every retry counted; None: not counted.

        API back ends count each attempt as it goes out (:class:`~spatialbench.models.api.ApiBackend`), so
        a caller reports what the server saw, not only the requests that came back.
        """
        return None

    def describe(self) -> dict[str, Any]:
        """Return settings worth recording with a run (model id, endpoint without credentials); no secrets."""
        return {"provider": self.provider}

    async def aclose(self) -> None:  # noqa: B027 - optional hook
        """Release connections; default does nothing."""


#: provider name → factory(part of the model name after ``provider:`` (may be ""), **options); see
#: :mod:`spatialbench.models.resolve` for the model names and the factories' common arguments.
BACKENDS: Registry[Callable[..., Backend]] = Registry("model back end", entry_points="spatialbench.backends")
BACKENDS.lazy("openai", "spatialbench.models.openai_compat:make_openai", "openai:MODEL, OpenAI's API")
BACKENDS.lazy("openai-compatible", "spatialbench.models.openai_compat:make_openai_compatible",
              "openai-compatible:BASE_URL#MODEL, any OpenAI-compatible server (vLLM, SGLang, ...)")
BACKENDS.lazy("gemini", "spatialbench.models.gemini:make_gemini", "gemini:MODEL, Google's Gemini API")
BACKENDS.lazy("anthropic", "spatialbench.models.anthropic:make_anthropic", "anthropic:MODEL, Anthropic's API")
BACKENDS.lazy("hf", "spatialbench.models.hf:make_hf", "hf:PATH_OR_NAME, a local Hugging Face model")
