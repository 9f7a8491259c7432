"""Run files: a :class:`~spatialbench.runs.config.RunConfig` written as YAML or TOML.

The file holds the config's sections (``data``, ``media``, ``prompt``, ``model``, ``scoring``) and ``out``,
with the field names of :mod:`spatialbench.runs.config`::

    out: runs/qwen
    data: {benchmark: vsibench, path: data/vsibench, limit: 100, options: {subset: debiased}}
    media: {frames: "uniform:16"}
    model: {name: "openai-compatible:http://127.0.0.1:8000/v1#Qwen2.5-VL-7B", concurrency: 16}

It is validated by ``RunConfig`` itself (unknown keys are errors); settings given on the command line
override the file's (:func:`merged`).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

SUFFIXES = (".yaml", ".yml", ".toml")


def read_config_file(path: Path) -> dict[str, Any]:
    """Read a run file (``.yaml`` / ``.yml`` / ``.toml``) into nested dicts; nothing is validated yet.

    Raises:
        ValueError: the file cannot be read, is not YAML / TOML, has another suffix or is not a mapping
            (the message starts with ``--config`` and names the file).
    """
    if path.suffix not in SUFFIXES:
        raise ValueError(f"--config {path}: expected a {' / '.join(SUFFIXES)} file")
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text) if path.suffix == ".toml" else yaml.safe_load(text)
    except (OSError, UnicodeError, tomllib.TOMLDecodeError, yaml.YAMLError) as exc:
        raise ValueError(f"--config {path}: {exc}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ValueError(f"--config {path}: expected a mapping of sections, got {type(data).__name__}")
    return data


def merged(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """Return ``base`` with ``override`` laid over it: mappings merge key by key, other values replace."""
    result = dict(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(result.get(key), Mapping):
            result[key] = merged(result[key], value)
        else:
            result[key] = value
    return result
