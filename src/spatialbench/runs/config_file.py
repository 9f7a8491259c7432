"""Run files: a :class:`~spatialbench.runs.config.RunConfig` written as YAML or TOML.

The file holds the config's sections (``data``, ``media``, ``prompt``, ``model``, ``scoring``) and ``out``,
with the field names of :mod:`spatialbench.runs.config`::

    out: runs/qwen
    data: {benchmark: vsibench, path: data/vsibench, limit: 100, options: {subset: debiased}}
    media: {frames: "uniform:16"}
    model: {name: "openai-compatible:http://127.0.0.1:8000/v1#Qwen2.5-VL-7B", concurrency: 16}

Relative ``out`` and ``data.path`` resolve against the file's folder (a run file and its data travel
together), not the working folder; absolute ones stay as written. A run's own ``RUN/config.json``
(``{"config": {...}, "environment": ...}``, :func:`~spatialbench.runs.record.record_run`) is a run file too:
its ``config`` section is read, and a relative ``out`` recorded there (by runs recorded before ``out`` was
made absolute) is the run folder itself, so ``--config RUN/config.json`` resumes that run. It is validated
by ``RunConfig`` itself (:func:`validated`: unknown keys are errors; types are strict, as the file writes
them: ``true`` is no number, ``"5"`` no integer); settings given on the command line override the file's
(:func:`merged`).

:func:`run_config` is the library's way in (``spatialbench.run(config, **overrides)``): a ``RunConfig``, a
mapping of sections or a run file, with overrides laid over it section by section; every refusal is one
:class:`RunConfigError` naming the file and the field.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from spatialbench.records.files import TOO_DEEP, NotUtf8Error, read_text
from spatialbench.runs.checks import RunSetupError
from spatialbench.runs.config import RunConfig
from spatialbench.runs.imported import imported_origin, imported_source

SUFFIXES = (".yaml", ".yml", ".toml", ".json")
RUN_RECORD = "config.json"
"""The name of the record a run writes in its folder (read back by ``--config RUN/config.json``)."""
_TOML_AT = re.compile(r"^(?P<problem>.*) \(at line (?P<line>\d+), column (?P<column>\d+)\)$")
_SCALAR_TAGS = {"str", "int", "float", "bool"}  # pydantic's locations of a scalar union's members
#: the keys of ``spatialbench.run(config, **overrides)``: ``out`` and the config's sections
OVERRIDE_KEYS = tuple(RunConfig.model_fields)
#: what a config can be given as: the config, a mapping of its sections, or a run file's path
ConfigSource = RunConfig | Mapping[str, Any] | str | os.PathLike[str]


class RunConfigError(RunSetupError):
    """A run file or config that cannot be read or is refused; ``location`` names the file and/or field."""

    def __init__(self, message: str, location: str | None = None) -> None:
        super().__init__(message)
        self.location = location


MAX_VALUES = 100_000
"""Most values (mapping keys and values, list entries) a run file may hold with every YAML alias written out.

A real run file holds dozens; a 450-byte file of nested aliases holds billions once expanded (issue 26)."""


def _expanded_beyond(data: Any, budget: int) -> bool:
    """Whether ``data`` holds more than ``budget`` values counting each alias use anew (cycles: True).

    Stops as soon as the budget is spent, so time and memory stay bounded whatever the nesting.
    """
    stack, seen = [data], 0
    while stack:
        value = stack.pop()
        seen += 1
        if seen > budget:
            return True
        if isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return False


def read_config_file(path: Path) -> dict[str, Any]:
    """Read a run file (``.yaml`` / ``.yml`` / ``.toml``, or a run's ``config.json``) into nested dicts.

    Nothing is validated yet. A relative ``out`` or ``data.path`` is joined to the file's folder; a run
    record's ``config`` section is taken, its relative ``out`` being the record's own folder.

    Raises:
        RunConfigError: the file cannot be read, is not YAML / TOML, has another suffix or is not a mapping
            (one line starting with ``--config`` and the file, with the line and column of a syntax error;
            a ValueError, as it always was); the record of an imported run (it cannot be re-run).
    """
    where = str(path)
    if path.suffix not in SUFFIXES:
        raise RunConfigError(f"--config {path}: expected a {' / '.join(SUFFIXES)} file", where)
    try:
        text = read_text(path)  # a byte-order mark is dropped
        data = _parsed(text, path.suffix)
    except NotUtf8Error as exc:  # names the file and the line of the first bad byte
        raise RunConfigError(f"--config {exc}", where) from None
    except (OSError, tomllib.TOMLDecodeError, yaml.YAMLError, json.JSONDecodeError) as exc:
        raise RunConfigError(f"--config {path}: {_syntax_error(exc)}", where) from None
    except RecursionError:  # a value nested thousands deep: the parsers recurse per level
        raise RunConfigError(f"--config {path}: {TOO_DEEP}", where) from None
    if data is None:
        return {}
    if _expanded_beyond(data, MAX_VALUES):  # before anything copies or prints it (json.dumps, errors)
        raise RunConfigError(f"--config {path}: YAML aliases expand to over {MAX_VALUES:,} values (an alias "
                             "bomb or an alias inside itself); write the values out", where)
    if not isinstance(data, dict):
        raise RunConfigError(f"--config {path}: expected a mapping of sections, got {type(data).__name__}",
                             where)
    if path.suffix == ".json" and isinstance(data.get("config"), dict):  # a run's own record
        _not_imported(data, path)
        data = dict(data["config"])
        if isinstance(data.get("out"), str) and not Path(data["out"]).is_absolute():
            data["out"] = str(path.parent.absolute())
    return _paths_resolved(data, path.parent)


def _not_imported(record: dict[str, Any], path: Path) -> None:
    """Refuse the record of an imported run: another tool asked its questions, nothing here can again.

    Raises:
        RunConfigError: the record's ``backend`` marks it imported; the message names the tool and version.
    """
    source = imported_source(record)
    if source is not None:
        raise RunConfigError(f"--config {path}: imported from {imported_origin(source)}; it cannot be re-run "
                             "(its answers came from that tool's file)", str(path))


def is_run_record(path: Path) -> bool:
    """Whether the run file at ``path`` (read before by :func:`read_config_file`) is a run's own record.

    A record (``{"config": {...}, "environment": ...}``) is what a run wrote, not a file its user edits:
    a copy of it kept elsewhere names the recorded folder wherever it is.
    """
    if path.suffix != ".json":
        return False
    data = _parsed(read_text(path), path.suffix)
    return isinstance(data, dict) and isinstance(data.get("config"), dict)


class _UniqueKeyLoader(yaml.SafeLoader):
    """YAML's safe loader refusing a key given twice in one mapping (``safe_load`` keeps the last)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} given twice (a run file gives each setting once)",
                    key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def _parsed(text: str, suffix: str) -> Any:
    """Parse a run file's text by its suffix (TOML, JSON, else YAML, each key once)."""
    if suffix == ".toml":
        return tomllib.loads(text)
    return json.loads(text) if suffix == ".json" else yaml.load(text, Loader=_UniqueKeyLoader)  # noqa: S506


def _syntax_error(exc: Exception) -> str:
    """One line for a read or parse error: ``line L, column C: problem`` where the parser says where."""
    if isinstance(exc, yaml.MarkedYAMLError) and exc.problem_mark is not None:
        mark, context = exc.problem_mark, ""
        if exc.context and exc.context_mark is not None:
            context = f" ({exc.context} from line {exc.context_mark.line + 1})"
        return f"line {mark.line + 1}, column {mark.column + 1}: {exc.problem}{context}"
    if isinstance(exc, json.JSONDecodeError):
        return f"line {exc.lineno}, column {exc.colno}: {exc.msg}"
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


def field_errors(exc: ValidationError) -> dict[tuple[Any, ...], str]:
    """Return each refused field's location and message (no pydantic prefix or URL), in pydantic's order.

    A scalar union's one error per member (``data.options.x.int``, ``....str``...) is one entry at the
    field, "Input should be text, a number or true/false".
    """
    fields: dict[tuple[Any, ...], str] = {}
    for error in exc.errors():
        loc, message = tuple(error["loc"]), error["msg"].removeprefix("Value error, ")
        if loc and loc[-1] in _SCALAR_TAGS:
            loc, message = loc[:-1], "Input should be text, a number or true/false"
        fields.setdefault(loc, message)
    return fields


def run_config(source: ConfigSource, overrides: Mapping[str, Any] | None = None) -> RunConfig:
    """Return the config of ``source`` with ``overrides`` laid over it, validated as a run file is.

    ``source``: a :class:`RunConfig`, a mapping of sections (``{"data": {...}, "model": {...}, "out":
    ...}``) or the path of a run file (:func:`read_config_file`). ``overrides``: keys of
    :data:`OVERRIDE_KEYS`; ``out`` takes a path, a section a mapping of its fields, merged key by key over
    the source's (``data={"limit": 5}`` keeps ``data.benchmark``).

    Raises:
        RunConfigError: an unreadable run file; an unknown override key (the message names it and, for a
            field of a section, the override that sets it) or a section override that is no mapping; a
            refused value (each named by its field, after the run file when there is one).
    """
    where = None
    if isinstance(source, RunConfig):
        if not overrides:
            return source
        base: dict[str, Any] = source.model_dump(mode="json")
    elif isinstance(source, Mapping):
        base = dict(source)
    else:
        where = str(source)
        base = read_config_file(Path(source))
    values = merged(base, _checked_overrides(overrides or {}))
    try:
        return validated(values)
    except ValidationError as exc:
        parts = [f"Invalid value for {'.'.join(map(str, loc)) or 'value'}: {message}"
                 for loc, message in field_errors(exc).items()]
        first = ".".join(map(str, next(iter(field_errors(exc)), ())))
        prefix = f"{where}: " if where else ""
        raise RunConfigError(prefix + "; ".join(parts), f"{where}:{first}" if where else first) from None


def _checked_overrides(overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Return ``overrides`` as config values (paths as text).

    Raises:
        RunConfigError: a key that is not in :data:`OVERRIDE_KEYS`, or a section given no mapping.
    """
    for key, value in overrides.items():
        if key not in OVERRIDE_KEYS:
            owners = [s for s in OVERRIDE_KEYS if key in getattr(RunConfig.model_fields[s].annotation,
                                                                 "model_fields", {})]
            hint = f"; did you mean {owners[0]}={{{key!r}: ...}}?" if owners else ""
            raise RunConfigError(f"unknown override {key!r}: overrides are out=PATH or a section as a "
                                 f"mapping ({', '.join(OVERRIDE_KEYS)}){hint}", key)
        if key != "out" and not isinstance(value, Mapping):
            raise RunConfigError(f"override {key}: a section is a mapping of its fields, e.g. {key}={{...}}; "
                                 f"got {type(value).__name__}", key)
    return {key: str(value) if isinstance(value, os.PathLike) else value for key, value in overrides.items()}
