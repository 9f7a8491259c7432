"""Number words of the robust number mode (rule N5 of :mod:`spatialbench.scoring.robust_number`).

Whole numbers (``three``, ``twenty-one``, ``three hundred and five``, ``two thousand``), decimals
(``four point five`` → 4.5, ``zero point seven five`` → 0.75, ``point five`` → 0.5) and fractions
(``three and a half`` → 3.5, ``two and three quarters`` → 2.75, ``a quarter`` → 0.25, ``half`` → 0.5,
``three quarters`` → 0.75; a fraction without a numeral is flagged *bare*, so the caller can ask for
a unit after it). Words join only as numerals do (``twenty one``, ``three hundred five``), so ``seven
or eight``, ``one, two, three`` and ``seven and eight`` are separate readings, never a sum
(:func:`word_values` lists every reading; issue 26). The words come from
``scoring/data/units.json`` (``number_words``, ``number_scales``, ``fraction_words``,
``decimal_point_words``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

_WORD = re.compile(r"[A-Za-z]+")
Tokens = Sequence[tuple[str, int]]
"""The words of a text, lower case, each with the offset where it ends."""


@dataclass(frozen=True)
class WordTables:
    """The word tables: value of each number word, scale words, fraction denominators, decimal points."""

    words: Mapping[str, int]
    scales: Mapping[str, int]
    fractions: Mapping[str, int]
    points: frozenset[str]


@dataclass
class _Reading:
    """The state of one reading: whole part so far (``total`` + ``current``) and where it ended."""

    total: int = 0
    current: int = 0
    seen: bool = False
    end: int = 0

    def value(self, fraction: float = 0.0) -> float | None:
        try:
            return float(self.total + self.current) + fraction
        except OverflowError:  # e.g. "one hundred hundred ...": no float holds it
            return None


def _digit(token: str, tables: WordTables) -> int | None:
    value = tables.words.get(token)
    return value if value is not None and value < 10 else None


def _fraction(tokens: Tokens, i: int, tables: WordTables) -> tuple[float, int] | None:
    """Read ``a half`` / ``one half`` / ``three quarters`` at ``tokens[i:]``: (value, index after) or None."""
    if i + 1 >= len(tokens):
        return None
    first, second = tokens[i][0], tokens[i + 1][0]
    numerator = 1 if first == "a" else tables.words.get(first)
    denominator = tables.fractions.get(second)
    if numerator is None or denominator is None:
        return None
    return numerator / denominator, i + 2


def _starts(tokens: Tokens, i: int, tables: WordTables) -> bool:
    token = tokens[i][0]
    following = tokens[i + 1][0] if i + 1 < len(tokens) else ""
    return (token in tables.words or token == "half" or (token == "a" and following in tables.fractions)
            or (token in tables.points and _digit(following, tables) is not None))


def _decimals(tokens: Tokens, i: int, tables: WordTables) -> tuple[float, int] | None:
    digits = []
    while i < len(tokens) and _digit(tokens[i][0], tables) is not None:
        digits.append(str(_digit(tokens[i][0], tables)))
        i += 1
    return (float("0." + "".join(digits)), i) if digits else None


def _finish(reading: _Reading, tokens: Tokens, found: tuple[float, int]) -> tuple[float, int] | None:
    value = reading.value(found[0])
    return None if value is None else (value, tokens[found[1] - 1][1])


Reading = tuple[float, int, bool]
"""``(value, end offset, bare fraction)``: a bare fraction has no numeral (``half``, ``a quarter``)."""


def _whole(result: tuple[float, int] | None) -> Reading | None:
    return None if result is None else (result[0], result[1], False)


def _joins(current: int, word: int) -> bool:
    """Whether a number word of value ``word`` continues a numeral now at ``current``.

    ``twenty`` + ``one``, ``three hundred`` + ``five``, ``two thousand`` + ``six`` do; ``seven`` + ``eight``
    (a list or a hedge) does not.
    """
    below_hundred = current % 100
    if below_hundred == 0:
        return word < 100 if current else True
    return below_hundred >= 20 and below_hundred % 10 == 0 and word < 10


def _read(tokens: Tokens, i: int, tables: WordTables) -> Reading | None:
    reading = _Reading()
    while i < len(tokens):
        token = tokens[i][0]
        if token in tables.points or (token == "and" and reading.seen):
            found = (_decimals if token in tables.points else _fraction)(tokens, i + 1, tables)
            if found is not None:
                return _whole(_finish(reading, tokens, found))
            following = tables.words.get(tokens[i + 1][0]) if i + 1 < len(tokens) else None
            if token in tables.points or following is None or not _joins(reading.current, following):
                break  # "seven and eight": two readings
            i += 1
            continue
        elif not reading.seen and (token == "half" or token == "a"):
            found = _fraction(tokens, i, tables) if token == "a" else (0.5, i + 1)
            result = _finish(reading, tokens, found) if found else None
            return (result[0], result[1], True) if result else None
        elif token in tables.fractions and reading.seen:
            found = (reading.current / tables.fractions[token], i + 1)
            reading.current = 0
            return _whole(_finish(reading, tokens, found))
        elif token in tables.words and reading.seen and not _joins(reading.current, tables.words[token]):
            break  # "one, two, three" / "seven eight": the next reading starts here
        elif token in tables.words:
            reading.current, reading.seen = reading.current + tables.words[token], True
        elif token in tables.scales and reading.seen:
            scale = tables.scales[token]
            if scale >= 1000:
                reading.total, reading.current = reading.total + reading.current * scale, 0
            else:
                reading.current *= scale
        else:
            break
        reading.end = tokens[i][1]
        i += 1
    value = reading.value() if reading.seen else None
    return None if value is None else (value, reading.end, False)


def word_value(text: str, tables: WordTables) -> Reading | None:
    """Read the first run of number words in ``text``.

    Returns:
        ``(value, end, bare)``: the value, the character offset in ``text`` where the words end (a unit
        may follow there) and whether it is a bare fraction (``half``, ``a quarter``: no numeral, so the
        caller may want a unit after it), or None when ``text`` holds no number word (or a value no
        float holds).
    """
    found = word_values(text, tables)
    return found[0][1:] if found else None


def word_values(text: str, tables: WordTables) -> list[tuple[int, float, int, bool]]:
    """Every run of number words in ``text``, in order: ``(start, value, end, bare)`` each.

    ``start``/``end`` are character offsets of the run in ``text``; ``value`` and ``bare`` as in
    :func:`word_value`. ``seven or eight`` gives two readings (7 and 8), ``one, two, three`` three.
    """
    tokens = [(m.group().lower(), m.end()) for m in _WORD.finditer(text)]
    starts = [m.start() for m in _WORD.finditer(text)]
    readings, i = [], 0
    while i < len(tokens):
        found = _read(tokens, i, tables) if _starts(tokens, i, tables) else None
        if found is not None:
            readings.append((starts[i], *found))
            while i < len(tokens) and tokens[i][1] <= found[1]:
                i += 1
        else:
            i += 1
    return readings
