"""A study over one run setting (``spatialbench sweep KEY=V1,V2,... RUN-OPTIONS``).

One run per value, each the ``spatialbench run`` of the given options with the swept option set to the
value and ``--out`` set to ``OUT/<key>-<value>`` (characters other than letters, digits, ``.``, ``_``,
``=`` and ``-`` become ``_``); re-running the sweep resumes every run. The runs share one frame cache
(:func:`spatialbench.runs.runner.shared_frame_caches`): each video is decoded once per distinct frame
strategy and size limit, however many values sample it alike. The runs are then compared against
the first value (:mod:`spatialbench.analysis.compare`): the accuracy-vs-frames curve of VSI-Bench App.
C.3 / Fig. 12 (``frames=uniform:8,uniform:16,uniform:32``), MMSI-Video-Bench Fig. 5
(``frames=uniform:50,consecutive:50@0``), input order and repetition (App. D, Table 7), strategies
(Fig. 9: ``strategy=direct,zero-shot-cot``).

``OUT/sweep.json`` (``schema`` ``spatialbench.sweep``, ``version`` 1): ``setting``, ``values``, ``runs``
(``value``, ``path``, ``exit_code``) and ``comparison`` (the ``compare.json`` document, null when no run
could be scored).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from spatialbench.errors import SpatialBenchError

SCHEMA = "spatialbench.sweep"
VERSION = 1
#: sweepable settings -> the ``spatialbench run`` option that sets them
OPTIONS = {
    "frames": "--frames",
    "order": "--order",
    "video_repeats": "--video-repeats",
    "strategy": "--strategy",
    "blind": "--blind",
    "max_pixels": "--max-pixels",
    "setting": "--setting",
    "model": "--model",
    "model_family": "--model-family",
}
_UNSAFE = re.compile(r"[^A-Za-z0-9._=-]")


class SweepError(SpatialBenchError, ValueError):
    """A sweep specification or option list that cannot be run (the message names it)."""


def parse_sweep(text: str) -> tuple[str, tuple[str, ...]]:
    """Split ``"frames=uniform:8,uniform:16"`` into the setting and its values.

    Raises:
        SweepError: no ``=``, an unknown setting (the message lists the known ones), no value or a value
            given twice.
    """
    key, sep, values = text.partition("=")
    key = key.strip().replace("-", "_")
    if not sep or key not in OPTIONS:
        raise SweepError(
            f"sweep {text!r}: expected SETTING=V1,V2,... with SETTING one of {', '.join(OPTIONS)}"
        )
    listed = tuple(v.strip() for v in values.split(",") if v.strip())
    if not listed:
        raise SweepError(f"sweep {text!r}: no value")
    if len(set(listed)) < len(listed):
        raise SweepError(f"sweep {text!r}: a value is given twice")
    if key == "blind" and not set(listed) <= {"true", "false"}:
        raise SweepError(f"sweep {text!r}: blind takes true,false")
    return key, listed


def folder_name(key: str, value: str) -> str:
    """Return the run folder name of one value: ``frames-uniform_8``."""
    return _UNSAFE.sub("_", f"{key}-{value}")


def _without(args: Sequence[str], option: str) -> list[str]:
    """Drop ``option`` from ``args``: with its value (``--out X``, ``--out=X``); ``--blind``: both flags."""
    if option == "--blind":
        return [a for a in args if a not in ("--blind", "--no-blind")]
    kept: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == option:
            skip = True
        elif not arg.startswith(option + "="):
            kept.append(arg)
    return kept


def run_arguments(args: Sequence[str], key: str, value: str, out: str) -> list[str]:
    """Return the ``spatialbench run`` arguments of one value: ``args``, swept option and ``--out`` replaced.

    Raises:
        SweepError: unknown ``key``.
    """
    if key not in OPTIONS:
        raise SweepError(f"unknown sweep setting {key!r}")
    option = OPTIONS[key]
    rest = _without(_without(args, "--out"), option)
    swept = ([option] if value == "true" else ["--no-blind"]) if key == "blind" else [option, value]
    return ["run", *rest, *swept, "--out", out]


def out_of(args: Sequence[str]) -> str | None:
    """Return the ``--out`` value among ``args`` (``--out X`` or ``--out=X``), None when absent."""
    for index, arg in enumerate(args):
        if arg == "--out" and index + 1 < len(args):
            return args[index + 1]
        if arg.startswith("--out="):
            return arg.split("=", 1)[1]
    return None
