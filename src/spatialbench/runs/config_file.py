"""Run files: a :class:`~spatialbench.runs.config.RunConfig` written as YAML or TOML.

The file holds the config's sections (``data``, ``media``, ``prompt``, ``model``, ``scoring``) and ``out``,
with the field names of :mod:`spatialbench.runs.config`::

    out: runs/qwen
    data: {benchmark: vsibench, path: data/vsibench, limit: 100, options: {subset: debiased}}
    media: {frames: "uniform:16"}
    model: {name: "openai-compatible:http://127.0.0.1:8000/v1#Qwen2.5-VL-7B", concurrency: 16}

Relative ``out`` and ``data.path`` resolve against the file's folder (a run file and its data travel
together), not the working folder. It is validated by ``RunConfig`` itself (:func:`validated`: unknown keys
are errors; types are strict, as the file writes them: ``true`` is no number, ``"5"`` no integer); settings
given on the command line override the file's (:func:`merged`).
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from spatialbench.records.files import NotUtf8Error, read_text
from spatialbench.runs.config import RunConfig

SUFFIXES = (".yaml", ".yml", ".toml")
_TOML_AT = re.compile(r"^(?P<problem>.*) \(at line (?P<line>\d+), column (?P<column>\d+)\)$")


def read_config_file(path: Path) -> dict[str, Any]:
    """Read a run file (``.yaml`` / ``.yml`` / ``.toml``) into nested dicts; nothing is validated yet.

    A relative ``out`` or ``data.path`` is joined to the file's folder.

    Raises:
        ValueError: the file cannot be read, is not YAML / TOML, has another suffix or is not a mapping
            (one line starting with ``--config`` and the file, with the line and column of a syntax error).
    """
    if path.suffix not in SUFFIXES:
        raise ValueError(f"--config {path}: expected a {' / '.join(SUFFIXES)} file")
    try:
        text = read_text(path)  # a byte-order mark is dropped
        data = tomllib.loads(text) if path.suffix == ".toml" else yaml.safe_load(text)
    except NotUtf8Error as exc:  # names the file and the line of the first bad byte
        raise ValueError(f"--config {exc}") from None
    except (OSError, tomllib.TOMLDecodeError, yaml.YAMLError) as exc:
        raise ValueError(f"--config {path}: {_syntax_error(exc)}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ValueError(f"--config {path}: expected a mapping of sections, got {type(data).__name__}")
    return _paths_resolved(data, path.parent)


def _syntax_error(exc: Exception) -> str:
    """One line for a read or parse error: ``line L, column C: problem`` where the parser says where."""
    if isinstance(exc, yaml.MarkedYAMLError) and exc.problem_mark is not None:
        mark, context = exc.problem_mark, ""
        if exc.context and exc.context_mark is not None:
            context = f" ({exc.context} from line {exc.context_mark.line + 1})"
        return f"line {mark.line + 1}, column {mark.column + 1}: {exc.problem}{context}"
    match = _TOML_AT.match(str(exc)) if isinstance(exc, tomllib.TOMLDecodeError) else None
    if match:
        return f"line {match['line']}, column {match['column']}: {match['problem']}"
    return " ".join(str(exc).split())


def _paths_resolved(data: dict[str, Any], folder: Path) -> dict[str, Any]:
    """Return ``data`` with a relative ``out`` and ``data.path`` joined to ``folder`` (others as they are)."""

    def joined(value: Any) -> Any:
        return str(folder / value) if isinstance(value, str) and not Path(value).is_absolute() else value

    result = dict(data)
    if "out" in result:
        result["out"] = joined(result["out"])
    if isinstance(result.get("data"), dict) and "path" in result["data"]:
        result["data"] = {**result["data"], "path": joined(result["data"]["path"])}
    return result


def validated(values: Mapping[str, Any]) -> RunConfig:
    """Return the :class:`RunConfig` of nested ``values`` (a run file with the flags laid over it).

    Validated strictly, as JSON: numbers must be numbers and flags booleans (``true`` is not 1, ``"5"`` not
    5); enum fields take their values' text; dates or other YAML / TOML values become text.

    Raises:
        pydantic.ValidationError: every field refused (a ValueError; locations are the fields' paths).
    """
    return RunConfig.model_validate_json(json.dumps(values, default=str), strict=True)


def merged(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """Return ``base`` with ``override`` laid over it: mappings merge key by key, other values replace."""
    result = dict(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(result.get(key), Mapping):
            result[key] = merged(result[key], value)
        else:
            result[key] = value
    return result
