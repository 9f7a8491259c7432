r"""The ``robust`` number extraction mode, rule by rule.

After the shared clean-up (R1 ``<think>`` dropped, R0 only the last 32 KB count, R2 last ``\boxed{}``,
R3 candidate segments after answer markers and self-corrections, last first, then the whole text; see
:mod:`spatialbench.scoring.response_text`), each candidate is read with:

N1 digits: ``3``, ``2.5``, ``.5``, ``1,200`` (thousands commas removed), ``1 000`` (groups of three
   digits after a single space, SI style), ``1e3``, as whole words (not inside ``0x10``, ``3rd``,
   ``room2``). A sign ``-``, ``–`` (en dash) or ``−`` (minus) counts only at the start of a word:
   ``–5`` is −5. Something that only looks like a number (``2.5.3``, a version or date) is not one.
N2 ranges: ``3-4``, ``3 – 4``, ``3 to 4`` give the **midpoint** (3.5): MRA rewards closeness, and the
   midpoint is the single value nearest to every point of the stated range.
N3 fractions and powers are their value: ``3/4`` → 0.75, ``10^3`` → 1000 (``1/0`` → no answer);
   mixed numbers ``1 1/2`` (a whole number, a space, a proper fraction) → 1.5 and vulgar fraction
   characters ``½``, ``1½``, ``2 ¾``, ``⅓`` → 0.5, 1.5, 2.75, 0.333…; ``2 3/2`` (not a proper
   fraction) stays two numbers (N6).
N4 units: a unit right after a number (``2.5 m``, ``200 cm``, ``3 meters``, ``48 sq m``, ``10 feet``;
   table in ``scoring/data/units.json``) is converted to the unit the question asks for (``in meters``,
   ``in centimeters``, ``square meters``). Feet and inches written ``5'6"`` are 5.5 feet. A unit of
   another dimension, or no unit asked, leaves the number as written. A lone ``'`` or ``"`` is a quote,
   not a unit.
N5 number words, only when there are no digits: ``three``, ``twenty-one``, ``three hundred and five``,
   decimals ``four point five`` (4.5) and fractions ``three and a half`` (3.5), ``two and three
   quarters`` (:mod:`spatialbench.scoring.number_words`); a unit right after the words converts as in
   N4 (``two hundred centimeters`` → 2 for a question in metres). A fraction without a numeral
   (``half``, ``a quarter``) counts only before a unit (``half a meter``, ``a quarter of a meter``) or
   alone: ``half of the room is hidden`` is no answer. Words join only as numerals do, so hedged or
   listed words (``seven or eight``, ``one, two, three``, ``between seven and eight``) are several
   values (N6: no answer), while a measure in two units adds up (``three meters and fifty
   centimeters`` → 3.5 m; only a smaller unit after a larger one).
N6 one value per answer: a candidate holding one value (or several equal after conversion) gives it;
   one holding several different values (``1,2,3``, ``2 m and 3 m``, even after ``Answer:``) gives
   **no answer** — the response does not say which one it means. A candidate with no number passes to
   the next (``Answer: 3. Wait, let me check.`` → 3); ``Answer: 3. Wait, actually 4`` → 4 (R3).
No number at all → no answer (never 0).
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

from spatialbench.scoring.extraction import NO_ANSWER, NUMBER_EXTRACTORS, Extraction
from spatialbench.scoring.number_words import WordTables, word_values
from spatialbench.scoring.response_text import answer_texts

_NUM = r"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?(?!\.?\d)"
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_SPACE_GROUPS = re.compile(r"(?<![\d.,])\d{1,3}(?: \d{3})+(?![.,]?\d)")
_FEET_INCHES = re.compile(r"(?<![\w.])(\d+)\s*['′]\s*(\d+(?:\.\d+)?)\s*[\"″]")
_VULGAR = re.compile(r"(?<![\w.])(?:(\d+)[ \t]?)?([\u00bc-\u00be\u2150-\u215e])")  # 1½, 2 ¾, ⅓
_COMPOUND_GAP = re.compile(r"\s*(?:,\s*)?(?:and\s+)?")  # "3 metres and 50 cm", "5 feet, 6 inches"
_MIXED = re.compile(r"(?<![\w.,/^])(\d+)[ \t]+(\d+)\s*/\s*(\d+)(?![\w./^])")  # 1 1/2 (a proper fraction)


@dataclass(frozen=True)
class _Tables:
    length: dict[str, float]
    area: dict[str, float]
    words: WordTables
    number: re.Pattern[str]
    question_unit: re.Pattern[str]
    asked_unit: re.Pattern[str]
    unit_after: re.Pattern[str]


@cache
def _tables() -> _Tables:
    data = json.loads(resources.files("spatialbench.scoring").joinpath("data/units.json").read_text("utf-8"))
    units = sorted({**data["length"], **data["area"]}, key=len, reverse=True)
    unit_alt = "|".join(re.escape(u) for u in units)
    number = re.compile(
        rf"(?:(?<![\w.])(?P<sign>[-–−]))?(?<![\w.])(?P<a>{_NUM})"
        rf"(?:\^(?P<exp>[-+]?\d{{1,3}})(?!\d)|\s*/\s*(?P<den>{_NUM})|\s*(?:-|–|—|to)\s*(?P<b>{_NUM}))?"
        rf"(?:\s*(?P<unit>{unit_alt})(?![\w²^]))?(?!\w)",  # a number is a whole word: not "x10", "3rd"
        re.IGNORECASE,
    )
    question_unit = re.compile(rf"\b(?P<unit>{unit_alt})(?![\w²^])", re.IGNORECASE)
    # "in" (a whole word) then a unit: one search, each "in" tried in turn (question_unit below)
    asked_unit = re.compile(rf"(?<!\w)in\W*{question_unit.pattern}", re.IGNORECASE)
    unit_after = re.compile(rf"\s*(?:of\s+)?(?:an?\s+)?(?P<unit>{unit_alt})(?![\w²^])", re.IGNORECASE)
    words = WordTables(data["number_words"], data["number_scales"], data["fraction_words"],
                       frozenset(data["decimal_point_words"]))
    return _Tables(data["length"], data["area"], words, number, question_unit, asked_unit, unit_after)


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
    # the first "in" with a unit right after it: one C search (units start with a letter, and none holds
    # "in" before a non-word character: tests/scoring), at a third less than finding each "in" in Python
    match = tables.asked_unit.search(question)
    if match is None:
        return None
    unit = match.group("unit")
    found = _UNIT_DIMENSIONS.get(unit, _MISSING)
    if found is _MISSING:  # a few spellings of units, met over and over: each looked up once
        found = _UNIT_DIMENSIONS[unit] = _dimension(unit, tables)
    return found  # type: ignore[return-value]


_UNIT_DIMENSIONS: dict[str, tuple[str, float] | None] = {}
""":func:`_dimension` of each unit text a question held (the tables never change)."""
_MISSING = object()


def _feet_inches(match: re.Match[str]) -> str:
    return f"{int(match.group(1)) + float(match.group(2)) / 12!r} ft"


def _vulgar(match: re.Match[str]) -> str:
    return repr(int(match.group(1) or 0) + unicodedata.numeric(match.group(2)))


def _mixed(match: re.Match[str]) -> str:
    numerator, denominator = int(match.group(2)), int(match.group(3))
    if not 0 < numerator < denominator:
        return match.group()
    return repr(int(match.group(1)) + numerator / denominator)


def _join_groups(match: re.Match[str]) -> str:
    return match.group().replace(" ", "")


def _match_value(match: re.Match[str]) -> float:
    """Return the value of one number match (N1–N3); NaN when it has none (``1/0``, ``10^999``)."""
    value = float(match.group("a"))
    try:
        if match.group("b") is not None:
            value = (value + float(match.group("b"))) / 2.0
        elif match.group("den") is not None:
            value = value / float(match.group("den"))
        elif match.group("exp") is not None:
            value = value ** int(match.group("exp"))
    except (ZeroDivisionError, OverflowError):
        return math.nan
    return -value if match.group("sign") else value


def _digit_values(text: str, asked: tuple[str, float] | None) -> list[float]:
    tables = _tables()
    # the guards skip a regex pass over text that cannot match it (this runs once per response)
    if "'" in text or "′" in text:
        text = _FEET_INCHES.sub(_feet_inches, text)
    if not text.isascii():
        text = _VULGAR.sub(_vulgar, text)
    if "," in text:
        text = _THOUSANDS.sub("", text)
    if "/" in text:
        text = _MIXED.sub(_mixed, text)
    if " " in text:
        text = _SPACE_GROUPS.sub(_join_groups, text)
    values = []
    for match in tables.number.finditer(text):
        values.append(_converted(_match_value(match), match.group("unit"), asked, tables))
    return values


def _converted(value: float, unit: str | None, asked: tuple[str, float] | None, tables: _Tables) -> float:
    """N4: ``value`` in ``unit`` expressed in the unit asked for (unchanged unless both known and alike)."""
    said = _dimension(unit, tables)
    return value * said[1] / asked[1] if said and asked and said[0] == asked[0] else value


def _word_values(text: str, asked: tuple[str, float] | None) -> list[float]:
    """N5: the values the number words of ``text`` say, compound measures added up, in the unit asked."""
    tables = _tables()
    said: list[tuple[float, str | None, int]] = []  # (value, unit, where it ends)
    for start, value, end, bare in word_values(text, tables.words):
        unit = tables.unit_after.match(text, end)
        if bare and unit is None and text[end:].strip(" \t\r\n.!"):
            continue  # "half of the room is hidden": a fraction of something else, not the answer
        if said and unit and said[-1][1] and _COMPOUND_GAP.fullmatch(text, said[-1][2], start):
            total = _compound(said[-1][0], said[-1][1], value, unit.group("unit"), tables)
            if total is not None:  # "three meters and fifty centimeters": one length, 3.5 m
                said[-1] = (total, said[-1][1], unit.end())
                continue
        said.append((value, unit.group("unit") if unit else None, unit.end() if unit else end))
    return [_converted(v, unit, asked, tables) for v, unit, _ in said]


def _compound(first: float, unit: str, second: float, second_unit: str, tables: _Tables) -> float | None:
    """``first unit`` + ``second second_unit`` in ``unit`` when both are one dimension, else None."""
    a, b = _dimension(unit, tables), _dimension(second_unit, tables)
    if a is None or b is None or a[0] != b[0] or b[1] >= a[1]:
        return None  # only a smaller unit adds on: "3 m and 2 m" stays two values
    return first + second * b[1] / a[1]


def _choose(values: list[float]) -> tuple[float | None, str]:
    """N6: one value (or several equal ones) is the answer; different values are no answer."""
    first = values[0]
    if all(math.isclose(v, first, rel_tol=1e-9) for v in values):
        return first, "single"
    return None, "ambiguous_numbers"


def _read(text: str, asked: tuple[str, float] | None) -> tuple[float | None, str]:
    """Try R3's candidates in order; the first holding a number (N1–N5) decides (N6)."""
    for focus, where in answer_texts(text):
        values = _digit_values(focus, asked)
        if values:
            value, rule = _choose(values)
            return value, f"{where}:{rule}"
        words = _word_values(focus, asked)
        if words:
            value, rule = _choose(words)
            return value, f"{where}:{'number_words' if value is not None else rule}"
    return None, "not_found"


@NUMBER_EXTRACTORS.register("robust")
def robust_number(text: str, question: str = "") -> Extraction:
    """Read a number by rules N1–N6 after clean-up R0–R3 (module docstring). Never raises."""
    if not isinstance(text, str):
        return Extraction(None, f"{NO_ANSWER}:not_text")
    try:  # fast path: the whole response is a plain number
        plain = float(text)
        if math.isfinite(plain) and "_" not in text:
            return Extraction(plain, "robust:plain_number")
    except ValueError:
        pass
    value, rule = _read(text, question_unit(question) if isinstance(question, str) else None)
    if value is None:
        return Extraction(None, f"{NO_ANSWER}:{rule.rsplit(':', 1)[-1]}")
    if not math.isfinite(value):
        return Extraction(None, f"{NO_ANSWER}:not_finite")
    return Extraction(value, f"robust:{rule}")
