r"""The ``robust`` number extraction mode, rule by rule.

After the shared clean-up (R1 ``<think>`` dropped, R2 last ``\boxed{}``, R3 text after the last answer
marker; see :mod:`spatialbench.scoring.response_text`):

N1 digits: ``3``, ``2.5``, ``.5``, ``1,200`` (thousands commas removed), ``1e3``, as whole words (not
   inside ``0x10``, ``3rd``, ``room2``); a ``-`` sign counts only at the start of a word.
N2 ranges: ``3-4``, ``3 – 4``, ``3 to 4`` give the **midpoint** (3.5): MRA rewards closeness, and the
   midpoint is the single value nearest to every point of the stated range.
N3 units: a unit right after a number (``2.5 m``, ``200 cm``, ``3 meters``, ``48 sq m``, ``10 feet``;
   table in ``scoring/data/units.json``) is converted to the unit the question asks for (``in meters``,
   ``in centimeters``, ``square meters``). A unit of another dimension, or no unit asked, leaves the
   number as written.
N4 number words, only when there are no digits: ``three``, ``twenty-one``, ``three hundred and five``.
N5 choice among several numbers: one value (or all equal after conversion) → it; after a marker or
   inside ``\boxed{}`` → the first; otherwise the first only in a short response (≤ 12 words), and
   no answer in a longer one (a reasoning text without a marker is ambiguous).
No number at all → no answer (never 0).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

from spatialbench.scoring.extraction import NO_ANSWER, NUMBER_EXTRACTORS, Extraction
from spatialbench.scoring.response_text import answer_text

_NUM = r"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_SHORT_WORDS = 12


@dataclass(frozen=True)
class _Tables:
    length: dict[str, float]
    area: dict[str, float]
    words: dict[str, int]
    scales: dict[str, int]
    number: re.Pattern[str]
    question_unit: re.Pattern[str]


@cache
def _tables() -> _Tables:
    data = json.loads(resources.files("spatialbench.scoring").joinpath("data/units.json").read_text("utf-8"))
    units = sorted({**data["length"], **data["area"]}, key=len, reverse=True)
    unit_alt = "|".join(re.escape(u) for u in units)
    number = re.compile(
        rf"(?:(?<![\w.])(?P<sign>-))?(?<![\w.])(?P<a>{_NUM})(?:\s*(?:-|–|—|to)\s*(?P<b>{_NUM}))?"
        rf"(?:\s*(?P<unit>{unit_alt})(?![\w²^]))?(?!\w)",  # a number is a whole word: not "x10", "3rd"
        re.IGNORECASE,
    )
    question_unit = re.compile(rf"\b(?P<unit>{unit_alt})(?![\w²^])", re.IGNORECASE)
    words, scales = data["number_words"], data["number_scales"]
    return _Tables(data["length"], data["area"], words, scales, number, question_unit)


def _dimension(unit: str | None, tables: _Tables) -> tuple[str, float] | None:
    if unit is None:
        return None
    unit = " ".join(unit.lower().split())
    if unit in tables.area:
        return "area", tables.area[unit]
    if unit in tables.length:
        return "length", tables.length[unit]
    return None


@lru_cache(maxsize=4096)
def question_unit(question: str) -> tuple[str, float] | None:
    """Return the unit a question asks for as ``(dimension, factor to SI)``, or None.

    Only the phrases ``in <unit>``, ``(in <unit>)`` and ``measured in <unit>`` count, so a unit that is
    merely mentioned elsewhere does not.
    """
    tables = _tables()
    for match in tables.question_unit.finditer(question):
        if re.search(r"(?:^|\W)in\W*$", question[: match.start()], re.IGNORECASE):
            return _dimension(match.group("unit"), tables)
    return None


def _digit_values(text: str, asked: tuple[str, float] | None) -> list[float]:
    tables = _tables()
    values = []
    for match in tables.number.finditer(_THOUSANDS.sub("", text)):
        value = float(match.group("a"))
        if match.group("b") is not None:
            value = (value + float(match.group("b"))) / 2.0
        if match.group("sign"):
            value = -value
        said = _dimension(match.group("unit"), tables)
        if said and asked and said[0] == asked[0]:
            value = value * said[1] / asked[1]
        values.append(value)
    return values


def _word_value(text: str) -> float | None:
    tables = _tables()
    total, current, seen = 0, 0, False
    for token in re.findall(r"[a-z]+", text.lower()):
        if token in tables.words:
            current, seen = current + tables.words[token], True
        elif token in tables.scales and seen:
            scale = tables.scales[token]
            total, current = (total + current * scale, 0) if scale >= 1000 else (total, current * scale)
        elif seen and token != "and":
            break
    if not seen:
        return None
    try:
        return float(total + current)
    except OverflowError:  # e.g. "one hundred hundred ...": no float holds it
        return None


def _choose(values: list[float], where: str, text: str) -> tuple[float | None, str]:
    if not values:
        return None, "not_found"
    first = values[0]
    if all(math.isclose(v, first, rel_tol=1e-9) for v in values):
        return first, "single"
    if where in ("marker", "boxed"):
        return first, "first_after_marker"
    if len(text.split()) <= _SHORT_WORDS:
        return first, "first_in_short_text"
    return None, "ambiguous_numbers"


@NUMBER_EXTRACTORS.register("robust")
def robust_number(text: str, question: str = "") -> Extraction:
    """Read a number by rules N1–N5 after clean-up R1–R3 (module docstring). Never raises."""
    if not isinstance(text, str):
        return Extraction(None, f"{NO_ANSWER}:not_text")
    try:  # fast path: the whole response is a plain number
        plain = float(text)
        if math.isfinite(plain) and "_" not in text:
            return Extraction(plain, "robust:plain_number")
    except ValueError:
        pass
    focus, where = answer_text(text)
    values = _digit_values(focus, question_unit(question) if isinstance(question, str) else None)
    value, rule = _choose(values, where, focus)
    if not values:
        value = _word_value(focus)
        rule = "not_found" if value is None else "number_words"
    if value is None or not math.isfinite(value):
        return Extraction(None, f"{NO_ANSWER}:{rule if value is None else 'not_finite'}")
    return Extraction(value, f"robust:{where}:{rule}")
