"""The options of ``spatialbench run`` and how they become a :class:`~spatialbench.runs.config.RunConfig`.

Every option defaults to None, meaning "the run file's value, else the config default" (the transport
defaults come from ``spatialbench.models.api.ApiSettings``; the help shows their values).
:data:`FLAG_PATHS` names the config field each option sets; :func:`flag_values` turns the options given
into the nested dict laid over the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from spatialbench.models.api import ApiSettings

_API = ApiSettings()
ConfigOpt = Annotated[
    Path | None,
    typer.Option(
        "--config",
        help="Run file (YAML or TOML: data/media/prompt/model/scoring); its relative out and data.path "
        "resolve against its folder.",
    ),
]
BenchmarkOpt = Annotated[str | None, typer.Option(help="Registered benchmark name, e.g. vsibench.")]
DataOpt = Annotated[Path | None, typer.Option(help="Benchmark data folder or annotation file.")]
ModelOpt = Annotated[
    str | None, typer.Option(help="provider:model (openai-compatible:http://host/v1#name), chance-random.")
]
OutOpt = Annotated[Path | None, typer.Option(help="Run folder (created); re-running the command resumes.")]
FramesOpt = Annotated[
    str | None,
    typer.Option(
        help="uniform:N|coverage:N|aks:N|fps:F|consecutive:N@S|all (default: the benchmark's, else "
        "uniform:32)"
    ),
]
AksModelOpt = Annotated[
    str | None,
    typer.Option(help="Image-text scorer of --frames aks:N: a CLIP or BLIP-ITM checkpoint folder or name."),
]
LimitOpt = Annotated[int | None, typer.Option(help="Only the first N selected items.")]
IdsOpt = Annotated[Path | None, typer.Option(help="File of item ids to run, one per line.")]
ShardOpt = Annotated[str | None, typer.Option(help="K/N: only slice K of N (by item id hash); merge after.")]
BlindOpt = Annotated[bool | None, typer.Option("--blind/--no-blind", help="Vision disabled: send no images.")]
ConcurrencyOpt = Annotated[
    int | None, typer.Option(help=f"Requests in flight (default: {_API.concurrency}).")
]
MaxPixelsOpt = Annotated[int | None, typer.Option(help="Max pixels per frame.")]
FamilyOpt = Annotated[str | None, typer.Option(help="open|proprietary (Table 9).")]
OrderOpt = Annotated[str | None, typer.Option(help="video_first (default) | question_first.")]
RepeatsOpt = Annotated[int | None, typer.Option(help="Show the video this many times (App. D).")]
PromptOpt = Annotated[list[str] | None, typer.Option(help="Prompt field KEY=VALUE.")]
OptionOpt = Annotated[list[str] | None, typer.Option("--option", "-o", help="Benchmark option KEY=VALUE.")]
SettingOpt = Annotated[
    str | None, typer.Option(help="= -o setting=S (MMSI-Video-Bench: uniform-50 | sufficient-coverage).")
]
TokensOpt = Annotated[int | None, typer.Option(help="Answer length (default: benchmark's).")]
TimeoutOpt = Annotated[float | None, typer.Option(help=f"Seconds per attempt (default: {_API.timeout_s:g}).")]
AttemptsOpt = Annotated[
    int | None, typer.Option(help=f"Attempts per request (default: {_API.retry.max_attempts}).")
]
MaxImagesOpt = Annotated[int | None, typer.Option(help="Per-request image limit.")]
OverflowOpt = Annotated[str | None, typer.Option(help="error (default) | subsample beyond --max-images.")]
ImageFormatOpt = Annotated[
    str | None, typer.Option(help="png (default, lossless, zlib level 1) | jpeg: how frames are sent.")
]
JpegQualityOpt = Annotated[int | None, typer.Option(help="JPEG quality 1-100 (default 90).")]
ExtractOpt = Annotated[str | None, typer.Option(help="Extraction mode (default: the benchmark's).")]
SeedOpt = Annotated[int | None, typer.Option(help="Seed (recorded; sent to APIs that take one).")]
StrategyOpt = Annotated[
    str | None,
    typer.Option(help="direct (default), zero-shot-cot, self-consistency, tree-of-thought, … (see docs)."),
]
ModelOptionOpt = Annotated[
    list[str] | None,
    typer.Option("--model-option", "-M", help="Back-end option KEY=VALUE (hf: trace=true, dtype=...)."),
]
StrategyParamOpt = Annotated[
    list[str] | None, typer.Option("--strategy-param", "-S", help="Strategy parameter KEY=VALUE.")
]

#: option (parameter name) → the RunConfig field it sets
FLAG_PATHS: dict[str, tuple[str, ...]] = {
    "benchmark": ("data", "benchmark"),
    "data": ("data", "path"),
    "limit": ("data", "limit"),
    "ids": ("data", "ids"),
    "shard": ("data", "shard"),
    "option": ("data", "options"),
    "setting": ("data", "options", "setting"),
    "subset": ("data", "options", "subset"),
    "frames": ("media", "frames"),
    "max_pixels": ("media", "max_pixels"),
    "aks_model": ("media", "aks_model"),
    "blind": ("prompt", "blind"),
    "model_family": ("prompt", "model_family"),
    "order": ("prompt", "order"),
    "video_repeats": ("prompt", "video_repeats"),
    "prompt": ("prompt", "overrides"),
    "model": ("model", "name"),
    "concurrency": ("model", "concurrency"),
    "max_new_tokens": ("model", "max_new_tokens"),
    "timeout": ("model", "timeout_s"),
    "max_attempts": ("model", "max_attempts"),
    "max_images": ("model", "max_images"),
    "image_overflow": ("model", "image_overflow"),
    "image_format": ("model", "image_format"),
    "jpeg_quality": ("model", "jpeg_quality"),
    "seed": ("model", "seed"),
    "model_option": ("model", "options"),
    "extract": ("scoring", "extract"),
    "strategy": ("strategy", "name"),
    "strategy_param": ("strategy", "params"),
    "out": ("out",),
}
_OPTION_OF_PATH = {path: "--" + name.replace("_", "-") for name, path in FLAG_PATHS.items()}
_SECTION_OPTIONS = {("data",): "--benchmark and --data", ("model",): "--model"}  # a section left out


def parse_assignments(pairs: list[str], what: str, typed: bool = True) -> dict[str, str | int | float | bool]:
    """``["k=v", ...]`` → dict; with ``typed``, values ``true``/``false``, integers and floats are typed.

    Raises:
        ValueError: an entry without ``=``.
    """
    parsed: dict[str, str | int | float | bool] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"{what}: must look like KEY=VALUE, got {pair!r}")
        parsed[key.strip()] = _typed(value.strip()) if typed else value.strip()
    return parsed


def _typed(value: str) -> str | int | float | bool:
    if value.lower() in ("true", "false"):
        return value.lower() == "true"
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def read_ids(path: Path) -> tuple[str, ...]:
    """Item ids from a file, one per line; blank lines and ``#`` comments are skipped.

    Raises:
        ValueError: the file cannot be read or lists no id: nothing would run (the message names
            ``--ids`` and the path).
    """
    try:
        text = path.read_text()
    except OSError as exc:
        raise ValueError(f"--ids: cannot read {path}: {exc.strerror or exc}") from None
    lines = (line.split("#", 1)[0].strip() for line in text.splitlines())
    ids = tuple(line for line in lines if line)
    if not ids:
        raise ValueError(f"--ids: {path} lists no item id: nothing to run")
    return ids


def _value(name: str, value: Any) -> Any:
    """Return an option's value as the config holds it (files read, assignments parsed, paths as text)."""
    if name == "ids":
        return read_ids(value)
    if name == "option":  # text: a loader option's type is the loader's (spec.check_options)
        return parse_assignments(value, "--option", typed=False)
    if name == "strategy_param":
        return parse_assignments(value, "--strategy-param")
    if name == "model_option":
        return parse_assignments(value, "--model-option")
    if name == "prompt":
        return parse_assignments(value, "--prompt", typed=False)
    return str(value) if isinstance(value, Path) else value


def flag_values(flags: dict[str, Any]) -> dict[str, Any]:
    """Nested config values of the options given (None = not given; an empty list is not given either).

    Raises:
        ValueError: an unreadable ``--ids`` file, a malformed ``--option`` / ``--prompt`` assignment,
            ``--setting`` / ``--subset`` and ``-o setting=`` / ``-o subset=`` that disagree.
    """
    nested: dict[str, Any] = {}
    for name in sorted(flags, key=lambda n: len(FLAG_PATHS[n])):  # --setting after -o
        if flags[name] is None or flags[name] == []:
            continue
        *parents, leaf = FLAG_PATHS[name]
        target = nested
        for key in parents:
            target = target.setdefault(key, {})
        value = _value(name, flags[name])
        if name in ("setting", "subset") and target.get(leaf, value) != value:
            raise ValueError(f"--{name} {value} and -o {name}={target[leaf]} disagree; give one of them")
        target[leaf] = {**target.get(leaf, {}), **value} if isinstance(value, dict) else value
    return nested


def option_of(loc: tuple[Any, ...]) -> str:
    """Return the option setting a config field (a pydantic error location), e.g. ``--frames``.

    A field inside an option's value (``--option subset=...``) names that option; a field no option sets
    (a run file's unknown key) is named by its dotted path (``data.frames``).
    """
    path = tuple(str(part) for part in loc)
    if path in _SECTION_OPTIONS:
        return _SECTION_OPTIONS[path]
    for end in range(len(path), 0, -1):
        if path[:end] in _OPTION_OF_PATH:
            return _OPTION_OF_PATH[path[:end]]
    return ".".join(path) or "value"
