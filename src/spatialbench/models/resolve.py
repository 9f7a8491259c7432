"""Model names (``provider:model``) → back ends, importing each provider's module only when used.

Names (the part after the first ``:`` goes to the provider's factory unchanged):

- ``openai:gpt-4o`` — OpenAI's API (key from ``OPENAI_API_KEY``);
- ``openai-compatible:http://127.0.0.1:8000/v1#Qwen2.5-VL-7B`` — any OpenAI-compatible server (vLLM, SGLang,
  LMDeploy, Ollama, gateways): base URL, ``#``, served model name;
- ``gemini:gemini-1.5-pro``, ``anthropic:claude-...``, ``hf:/path/or/hub-name``;
- ``chance-random``, ``chance-frequency`` — chance baselines (no media).

Every factory is called as ``factory(model_part, api=ApiSettings|None, seed=int|None, **options)``; back ends
without a transport (``hf``, chance) ignore ``api``.
"""

from __future__ import annotations

import importlib
from typing import Any

from spatialbench.models.base import BACKENDS, Backend
from spatialbench.models.errors import ProviderUnavailableError
from spatialbench.registry import Registry

#: provider name → module that registers its factory in BACKENDS on import.
PROVIDER_MODULES: Registry[str] = Registry("model provider")
for _provider, _module in (
    ("openai", "spatialbench.models.openai_compat"),
    ("openai-compatible", "spatialbench.models.openai_compat"),
    ("gemini", "spatialbench.models.gemini"),
    ("anthropic", "spatialbench.models.anthropic"),
    ("hf", "spatialbench.models.hf"),
    ("chance-random", "spatialbench.models.chance"),
    ("chance-frequency", "spatialbench.models.chance"),
):
    PROVIDER_MODULES.add(_provider, _module)

#: providers whose models are proprietary (VSI-Bench Table 9 post-prompts differ by model family).
PROPRIETARY_PROVIDERS = frozenset({"openai", "gemini", "anthropic"})


def split_model_name(name: str) -> tuple[str, str]:
    """Split ``provider:model`` at the first ``:``; a bare name (``chance-random``) has model part ``""``.

    Raises:
        spatialbench.registry.UnknownNameError: the provider is not known (message suggests close names).
    """
    provider, _, model = name.partition(":")
    PROVIDER_MODULES.get(provider)  # raises with suggestions
    return provider, model


def model_family(name: str) -> str:
    """``"proprietary"`` for hosted commercial APIs, ``"open"`` otherwise (VSI-Bench Table 9)."""
    provider, _ = split_model_name(name)
    return "proprietary" if provider in PROPRIETARY_PROVIDERS else "open"


def load_backend(name: str, **options: Any) -> Backend:
    """Build the back end for a model name, importing its provider module on first use.

    Raises:
        UnknownNameError: unknown provider.
        ProviderUnavailableError: the provider's module or SDK cannot be imported.
    """
    provider, model = split_model_name(name)
    if provider not in BACKENDS:
        module = PROVIDER_MODULES.get(provider)
        try:
            importlib.import_module(module)
        except ImportError as exc:
            raise ProviderUnavailableError(
                f"model provider {provider!r} needs module {module} which failed to import: {exc}"
            ) from exc
    return BACKENDS.get(provider)(model, **options)
