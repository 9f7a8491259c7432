"""Model names (``provider:model``) → back ends; every provider is a lazy entry of one registry.

The registry is :data:`~spatialbench.models.base.BACKENDS`; nothing else lists the providers.

Names (the part after the first ``:`` goes to the provider's factory unchanged):

- ``openai:gpt-4o`` — OpenAI's API (key from ``OPENAI_API_KEY``);
- ``openai-compatible:http://127.0.0.1:8000/v1#Qwen2.5-VL-7B`` — any OpenAI-compatible server (vLLM, SGLang,
  LMDeploy, Ollama, gateways): base URL, ``#``, served model name;
- ``openai-compatible:URL1,URL2#MODEL`` — one model served at several URLs (data-parallel replicas), one
  back end spreading requests over them (:mod:`spatialbench.models.pool`);
- ``gemini:gemini-1.5-pro``, ``anthropic:claude-...``, ``hf:/path/or/hub-name``.

Every factory is called as ``factory(model_part, api=ApiSettings|None, seed=int|None, **options)``; back ends
without a transport (``hf``) ignore ``api``. Chance baselines (``chance-random``, ``chance-frequency``) are
scorers, not back ends: they are handled before a back end is resolved.
"""

from __future__ import annotations

from typing import Any

from spatialbench.models.api import check_base_url
from spatialbench.models.base import BACKENDS, Backend
from spatialbench.models.errors import ProviderUnavailableError
from spatialbench.models.pool import make_pool, pool_urls
from spatialbench.records.redaction import redact, secret_values

#: providers whose models are proprietary (VSI-Bench Table 9 post-prompts differ by model family).
PROPRIETARY_PROVIDERS = frozenset({"openai", "gemini", "anthropic"})


def split_model_name(name: str) -> tuple[str, str]:
    """Split ``provider:model`` at the first ``:``; a bare name (``hf``) has model part ``""``.

    Imports nothing.

    Raises:
        spatialbench.registry.UnknownNameError: the provider is not known (message suggests close names).
    """
    provider, _, model = name.partition(":")
    if provider not in BACKENDS:
        BACKENDS.get(provider)  # raises with suggestions
    return provider, model


def model_family(name: str) -> str:
    """``"proprietary"`` for hosted commercial APIs, ``"open"`` otherwise (VSI-Bench Table 9).

    Raises:
        spatialbench.registry.UnknownNameError: the provider is not known.
    """
    provider, _ = split_model_name(name)
    return "proprietary" if provider in PROPRIETARY_PROVIDERS else "open"


def check_model_urls(name: str) -> None:
    """Check the base URL(s) of an ``openai-compatible:URL[,URL...]#MODEL`` name without building anything.

    Other providers have no URL to check. Lets a run refuse a bad port or bracket before it makes a folder.

    Raises:
        BackendError: one line naming the URL (without credentials) and what is wrong with it.
    """
    provider, _, model = name.partition(":")  # baselines and unknown names are checked elsewhere
    if provider != "openai-compatible":
        return
    pooled = pool_urls(model)
    for url in pooled[0] if pooled is not None else [model.rpartition("#")[0]]:
        if url:
            check_base_url(url)


def load_backend(name: str, **options: Any) -> Backend:
    """Build the back end for a model name, importing its provider module on first use.

    The result's ``registered_as`` records the provider, model part and options it was built with, string
    values redacted (URL user info, key-shaped tokens); API keys are never arguments, so never recorded.

    Raises:
        UnknownNameError: unknown provider.
        ProviderUnavailableError: the provider's module or SDK cannot be imported (the message names it).
        BackendError: the factory rejects the name or options (bad URL, missing key...).
    """
    provider, model = split_model_name(name)
    try:
        if provider == "openai-compatible" and pool_urls(model) is not None:  # several URLs: one pool
            backend: Backend = make_pool(model, **options)
        else:
            backend = BACKENDS.create(provider, model, **options)
    except ImportError as exc:
        raise ProviderUnavailableError(f"model provider {provider!r} is unavailable: {exc}") from exc
    if backend.registered_as is not None:
        backend.registered_as = _redacted(backend.registered_as)
    return backend


def _redacted(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` (from ``Registry.create``) with every string argument passed through ``redact``."""
    secrets = secret_values()

    def clean(value: Any) -> Any:
        return redact(value, secrets) if isinstance(value, str) else value

    return {
        **record,
        "args": [clean(a) for a in record["args"]],
        "kwargs": {key: clean(value) for key, value in record["kwargs"].items()},
    }
