r"""lmms-eval's VSI-Bench answer reading, by lmms-eval version (our own implementation of its rules).

What each lmms-eval release does in ``lmms_eval/tasks/vsibench/utils.py`` (read from the lmms-eval source;
the per-item scores of the unedited logs in ``../shared/data/lmms_eval`` are reproduced by the tests):

* v0.6 – v0.7.2 (``utils.py`` blobs 9405acc9 and d73ca512; d73ca512 only splits the aggregation into one
  metric per task): multiple choice and numbers both read the first space-separated token
  (``fuzzy_matching``), numbers through ``float()`` — exactly spatialbench's ``official`` mode, registered
  again (``extraction.py``) as ``lmms-eval-0.7.2`` so a reconcile can name the version.
* 0.7.3 (commit eab6655a, "robust numeric-answer extraction"): multiple choice unchanged; a number is the
  first number token anywhere in the response — a digit run ``-?\d+(\.\d+)?`` or a run of English number
  words (``zero`` … ``twenty``, the tens, ``hundred``, ``thousand``; ``and`` inside a run is skipped),
  whichever starts first; no number scores 0. lmms-eval 0.7.x's evaluator strips ``<think>…</think>``
  blocks before a task sees the text (``api/reasoning.py``: case-sensitive; a closing tag without an
  opening one keeps only what follows it); mode ``lmms-eval-0.7.3`` does the same, so it scores raw
  responses (ours) as lmms-eval would, and lmms-eval's own logs (already stripped) unchanged.

Both readers never raise on any text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from spatialbench.scoring.extraction import NO_ANSWER, Extraction, official_choice

_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
          "sixteen seventeen eighteen nineteen").split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
NUMBER_WORDS: dict[str, int] = {
    **{word: value for value, word in enumerate(_UNITS)},
    **{word: 10 * (value + 2) for value, word in enumerate(_TENS)},
    "hundred": 100,
    "thousand": 1000,
}
"""The English number words lmms-eval 0.7.3 reads, with their values."""

_DIGITS = re.compile(r"-?\d+(?:\.\d+)?")
_WORD = re.compile(r"[a-z]+")
_TAG_OPEN, _TAG_CLOSE = "<think>", "</think>"


def strip_think(text: str) -> str:
    """Drop ``<think>…</think>`` blocks as lmms-eval 0.7.x's evaluator does, then strip whitespace.

    Case-sensitive; blocks are removed left to right while both tags remain; a remaining closing tag
    without an opening one keeps only the text after the last closing tag; an unclosed opening tag stays.
    """
    out = text
    while _TAG_OPEN in out and _TAG_CLOSE in out:
        start = out.find(_TAG_OPEN)
        end = out.find(_TAG_CLOSE, start)
        if end == -1:
            break
        out = out[:start] + out[end + len(_TAG_CLOSE):]
    if _TAG_CLOSE in out and _TAG_OPEN not in out:
        out = out.rsplit(_TAG_CLOSE, 1)[-1]
    return out.strip()


def _word_run(text: str) -> tuple[int, list[str]] | None:
    """Return the start and the words of the first run of number words in lower-case ``text``."""
    start, words = -1, []
    for match in _WORD.finditer(text):
        word = match.group(0)
        if start < 0:
            if word in NUMBER_WORDS:
                start, words = match.start(), [word]
        elif word in NUMBER_WORDS:
            words.append(word)
        elif word != "and":
            break
    return (start, words) if start >= 0 else None


def _word_value(words: list[str]) -> float:
    """Value of a number-word run: tens and units add, ``hundred`` multiplies, ``thousand`` closes a group."""
    total, current = 0, 0
    for word in words:
        value = NUMBER_WORDS[word]
        if value == 100:
            current = max(current, 1) * 100
        elif value == 1000:
            total, current = total + max(current, 1) * 1000, 0
        else:
            current += value
    return float(total + current)


def first_number(text: str) -> float | None:
    """lmms-eval 0.7.3 ``extract_number``: the first digit run or number-word run in ``text``, or None."""
    lowered = text.strip().lower()
    digits = _DIGITS.search(lowered)
    run = _word_run(lowered)
    if digits is not None and (run is None or digits.start() < run[0]):
        return float(digits.group(0))
    return None if run is None else _word_value(run[1])


def lmms_eval_073_number(text: str, question: str = "") -> Extraction:
    """lmms-eval 0.7.3 number reading (commit eab6655a) after its ``<think>`` strip; see the module text."""
    if not isinstance(text, str):
        return Extraction(None, f"{NO_ANSWER}:not_text")
    value = first_number(strip_think(text))
    if value is None:
        return Extraction(None, f"{NO_ANSWER}:no_number")
    return Extraction(value, "lmms-eval-0.7.3:first_number")


def lmms_eval_073_choice(text: str, options: Sequence[str] = ()) -> Extraction:
    """lmms-eval 0.7.3 letter reading: the official first token, after its ``<think>`` strip."""
    if not isinstance(text, str):
        return Extraction(None, f"{NO_ANSWER}:not_text")
    return official_choice(strip_think(text), options)

