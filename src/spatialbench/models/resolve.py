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

import difflib
import inspect
import types
import typing
from typing import Any

from spatialbench.models.api import check_base_url
from spatialbench.models.base import BACKENDS, Backend
from spatialbench.models.errors import BackendError, ProviderUnavailableError
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


#: factory arguments every back end gets from the run itself, never as a back-end option
_RUN_ARGUMENTS = frozenset({"self", "model_part", "path", "model", "base_url", "api", "settings", "seed"})


def backend_parameters(name: str) -> dict[str, inspect.Parameter]:
    """Return the options a provider's back end takes, with their annotations resolved.

    They are the keyword arguments of its factory, or of the class it returns when the factory passes
    ``**options`` on (:class:`~spatialbench.models.hf.HFBackend` for ``hf``).

    Imports the provider's module (not its SDK).

    Raises:
        UnknownNameError: unknown provider.
    """
    provider, _ = split_model_name(name)
    factory = BACKENDS.get(provider)
    target: Any = factory
    if any(p.kind is p.VAR_KEYWORD for p in inspect.signature(factory).parameters.values()):
        target = typing.get_type_hints(factory).get("return", factory).__init__
    hints = typing.get_type_hints(target)
    return {
        key: param.replace(annotation=hints.get(key, Any))
        for key, param in inspect.signature(target).parameters.items()
        if key not in _RUN_ARGUMENTS and param.kind not in (param.VAR_KEYWORD, param.VAR_POSITIONAL)
    }


def check_backend_options(name: str, options: dict[str, Any]) -> dict[str, Any]:
    """Check ``options`` against the back end's constructor; return them in the types it takes.

    Values come from a run file or ``--model-option KEY=VALUE`` (text, numbers, true/false, lists):
    ``tuple[int, ...]`` takes an integer, a list or comma-separated text (``-1,-2``); ``float`` an integer.

    Raises:
        BackendError: one line naming the key: not an option of this back end (with near misses and the
            known options), or a value of the wrong type (naming the type expected).
    """
    known = backend_parameters(name)
    provider = name.partition(":")[0]
    checked: dict[str, Any] = {}
    for key, value in options.items():
        if key not in known:
            near = difflib.get_close_matches(key, list(known), n=3)
            hint = f"did you mean {' or '.join(near)}? " if near else ""
            raise BackendError(f"model option {key!r}: not an option of the {provider} back end "
                               f"({hint}known: {', '.join(sorted(known))})")
        try:
            checked[key] = _as_type(value, known[key].annotation)
        except (TypeError, ValueError):
            raise BackendError(f"model option {key!r}: expected {_type_name(known[key].annotation)}, "
                               f"got {value!r}") from None
    return checked


def _as_type(value: Any, annotation: Any) -> Any:
    """``value`` as ``annotation`` (str, bool, int, float, tuple[int, ...], dict, Literal, their ``| None``).

    Raises:
        TypeError: ``value`` is not of that type (no text-to-number conversion).
    """
    members = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and len(members) == 1:
        annotation = members[0]
    origin = typing.get_origin(annotation) or annotation
    if origin is typing.Literal:  # a closed set of words (``frames_as``): checked before the run
        if value in typing.get_args(annotation):
            return value
        raise TypeError(annotation)
    if origin is tuple:
        items = value.split(",") if isinstance(value, str) else value if isinstance(value, list) else [value]
        return tuple(_as_type(int(i) if isinstance(i, str) else i, int) for i in items)
    if origin is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if origin in (str, bool, int, float, dict) and type(value) is origin:
        return value
    if annotation is Any:
        return value
    raise TypeError(annotation)


def _type_name(annotation: Any) -> str:
    """``int``, ``str | None``, ``tuple[int, ...]``: the annotation as written; a Literal as its words."""
    if typing.get_origin(annotation) is typing.Literal:
        return "one of " + ", ".join(repr(a) for a in typing.get_args(annotation))
    return getattr(annotation, "__name__", None) or str(annotation).replace("typing.", "")


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
