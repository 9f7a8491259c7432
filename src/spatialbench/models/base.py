"""The one model interface: ``generate(request) -> response``.

Back ends receive messages of text and images and know nothing of benchmarks. Each back end is one module
of this package registered in ``BACKENDS`` under its provider name (the part before ``:`` of a model name
such as ``openai:gpt-4o`` or ``hf:/path/to/model``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from spatialbench.records.messages import Request, Response
from spatialbench.registry import Registry


class Backend(ABC):
    """A model back end. Implementations must be safe to call from several asyncio tasks at once."""

    #: provider name, e.g. "openai-compatible"
    provider: str = ""

    @abstractmethod
    async def generate(self, request: Request) -> Response:
        """Answer one request.

        Raises:
            spatialbench.models.errors.BackendError (or a subclass) on a failure after retries.
        """

    def describe(self) -> dict[str, Any]:
        """Return settings worth recording with a run (model id, endpoint without credentials); no secrets."""
        return {"provider": self.provider}

    async def aclose(self) -> None:  # noqa: B027 - optional hook
        """Release connections; default does nothing."""


#: provider name → factory(part of the model name after ``provider:`` (may be ""), **options).
BACKENDS: Registry[Callable[..., Backend]] = Registry("model back end")
