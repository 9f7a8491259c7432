"""One base for the hosted providers (OpenAI and compatible servers, Gemini, Anthropic).

:class:`ProviderBackend` holds what every provider shares: its identity (provider name, model, endpoint),
loading its SDK, looking its API key up in the environment, ``describe()`` and ``aclose()``. A provider
module states its SDK and key variables as class attributes and overrides only its wire format:

- ``_connect(key) -> client``: the SDK's async client for ``self.base_url`` (SDK retries off, timeout from
  the settings);
- ``_send(request) -> Response``: request → provider payload, provider reply → Response;
- ``_classify(exc)``: which SDK exceptions are transient (see :class:`~spatialbench.models.api.ApiBackend`).

The SDK is imported when a back end is built, never when its module is imported, so listing the back
ends imports no SDK. Keys come from environment variables only — never from arguments, so a run's
recorded configuration cannot hold one; a variable that is unset or empty counts as missing.
"""

from __future__ import annotations

import importlib
import os
from abc import abstractmethod
from collections.abc import Mapping
from types import ModuleType
from typing import Any, ClassVar

from spatialbench.models.api import ApiBackend, ApiSettings, public_url
from spatialbench.models.errors import BackendError, ProviderUnavailableError


def load_sdk(provider: str, module: str, package: str) -> ModuleType:
    """Import a provider's SDK ``module`` (e.g. ``"google.genai"``).

    Raises:
        ProviderUnavailableError: it cannot be imported; the message names ``package``, the distribution
            to install.
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ProviderUnavailableError(
            f"the {provider} back end needs the {package} package (pip install {package}): {exc}"
        ) from exc


def environment_key(variables: tuple[str, ...]) -> str | None:
    """Return the value of the first of ``variables`` that is set and non-empty, or None."""
    return next((os.environ[name] for name in variables if os.environ.get(name)), None)


def missing_key(variables: tuple[str, ...], label: str) -> BackendError:
    """Return the error for an API key absent from every one of ``variables`` (``label``: "OpenAI")."""
    return BackendError(
        f"environment variable {' or '.join(variables)} is not set (or is empty; needed for {label})"
    )


async def close_client(client: Any) -> None:
    """Close an SDK's async client: ``aclose()`` (google-genai) or ``close()`` (openai, anthropic)."""
    close = getattr(client, "aclose", None) or client.close
    await close()


class ProviderBackend(ApiBackend):
    """A hosted provider's back end for ``model`` at ``base_url`` (None = the SDK's default endpoint).

    Class attributes a provider sets: ``provider`` (its registered name), ``label`` (its name in messages),
    ``sdk`` (module to import) and ``sdk_package`` (distribution to install), ``key_variables`` (tried in
    order), ``key_required`` (False: a missing key reaches ``_connect`` as None, for self-hosted servers),
    ``notes`` (constant facts added to ``describe()``).

    Raises:
        ProviderUnavailableError: the SDK is not installed.
        BackendError: ``key_required`` and no key in the environment.
    """

    label: ClassVar[str] = ""
    sdk: ClassVar[str] = ""
    sdk_package: ClassVar[str] = ""
    key_variables: tuple[str, ...] = ()
    key_required: bool = True
    notes: ClassVar[Mapping[str, Any]] = {}

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        settings: ApiSettings | None = None,
        seed: int | None = None,
    ) -> None:
        super().__init__(settings, seed)
        self.model = model
        self.base_url = base_url
        self._sdk = load_sdk(self.provider, self.sdk, self.sdk_package)
        key = environment_key(self.key_variables)
        if key is None and self.key_required:
            raise missing_key(self.key_variables, self.label)
        self._client = self._connect(key)

    @classmethod
    def from_model_part(
        cls, model: str, *, api: ApiSettings | None = None, seed: int | None = None, **options: Any
    ) -> ProviderBackend:
        """Build from the part of a model name after ``provider:`` (a factory of ``BACKENDS``).

        ``api``: transport settings; ``options``: the provider's own arguments (e.g. ``base_url``).

        Raises:
            BackendError: empty model part, or no API key. ProviderUnavailableError: no SDK.
        """
        if not model:
            raise BackendError(f"{cls.provider} back end needs a model name: {cls.provider}:MODEL")
        return cls(model, settings=api, seed=seed, **options)

    @abstractmethod
    def _connect(self, key: str | None) -> Any:
        """Return the SDK's async client (``self._sdk``) for ``self.base_url`` with ``key``."""

    def describe(self) -> dict[str, Any]:
        """Return provider, model, endpoint (without credentials), transport settings and ``notes``."""
        identity = {"model": self.model, "base_url": public_url(self.base_url)}
        return {**super().describe(), **identity, **self.notes}

    async def aclose(self) -> None:
        """Close the HTTP connection pool."""
        await close_client(self._client)
