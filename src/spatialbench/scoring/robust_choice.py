r"""The ``robust`` choice extraction mode, rule by rule.

After the shared clean-up (R1 ``<think>`` blocks dropped, R0 only the last 32 KB count, R2 last
``\boxed{}`` content, R3 segments after answer markers such as ``Answer:``, ``The answer is``, ``final
answer:`` and self-corrections such as ``Wait, actually``; Markdown emphasis removed — see
:mod:`spatialbench.scoring.response_text`), each candidate answer text is read with:

C1 leading letter: ``B``, ``B.``, ``(B)``, ``B)``, ``[B]``, ``b``, ``B: sofa``, ``B. sofa`` — a single
   letter that ends the text or is followed by ``.``, ``:``, ``)``, ``]`` or ``,`` or is bracketed. A
   bare word such as ``A chair`` is not a letter.
C2 option text: the text equals one option's text (``"sofa"`` for ``"B. sofa"``), or contains exactly
   one option's text as a whole phrase (phrases inside a longer matched option, e.g. ``left`` inside
   ``front-left``, do not count).
Candidates are tried in R3's order (the segment after the last marker first, the whole text last); the
first one that C1/C2 read gives the answer (``Answer: B. Wait, actually C`` → C). A letter
outside the options (``E`` for four options) is no answer. Anything else is no answer — never a guess.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from spatialbench.scoring.extraction import (
    CHOICE_EXTRACTORS,
    NO_ANSWER,
    Extraction,
    option_letters,
)
from spatialbench.scoring.response_text import answer_texts

_LEADING_LETTER = re.compile(
    r"^\s*(?:[(\[]\s*([A-Za-z])\s*[)\]]|([A-Za-z])(?:\s*$|\s*[.:)\],]))",
)
_OPTION_PREFIX = re.compile(r"^\s*[(\[]?[A-Za-z][.:)\]]\s*")
_EDGE_PUNCT = " \t\r\n.,;:!?\"'()[]"


def _normalise(text: str) -> str:
    return " ".join(text.lower().split()).strip(_EDGE_PUNCT)


def option_texts(options: Sequence[str]) -> list[str]:
    """Option contents without their letter prefix, normalised (``"A. Sofa"`` → ``"sofa"``)."""
    return [_normalise(_OPTION_PREFIX.sub("", option, count=1)) for option in options]


def _by_option_text(text: str, options: Sequence[str]) -> str | None:
    texts = option_texts(options)
    letters = option_letters(options)
    said = _normalise(text)
    if said in texts and texts.count(said) == 1:
        return letters[texts.index(said)]
    spans: list[tuple[int, int, str]] = []
    for letter, option in zip(letters, texts, strict=False):
        if not option:
            continue
        pattern = r"(?<![\w-])" + re.escape(option) + r"(?![\w-])"
        spans += [(m.start(), m.end(), letter) for m in re.finditer(pattern, said)]
    outer = [s for s in spans if not any(o[0] <= s[0] and s[1] <= o[1] and o != s for o in spans)]
    found = {letter for _, _, letter in outer}
    return found.pop() if len(found) == 1 else None


def _read(text: str, options: Sequence[str]) -> tuple[str | None, str]:
    letters = option_letters(options)
    match = _LEADING_LETTER.match(text)
    if match:
        letter = (match.group(1) or match.group(2)).upper()
        if letter in letters:
            return letter, "letter"
        if not options:
            return None, "letter_out_of_range"
    if options:
        letter = _by_option_text(text, options)
        if letter:
            return letter, "option_text"
    return None, "not_found"


@CHOICE_EXTRACTORS.register("robust")
def robust_choice(text: str, options: Sequence[str] = ()) -> Extraction:
    """Read an option letter by rules C1–C2 after clean-up R1–R3 (module docstring). Never raises."""
    if not isinstance(text, str):
        return Extraction(None, f"{NO_ANSWER}:not_text")
    rule = "not_found"
    for focus, where in answer_texts(text):
        letter, rule = _read(focus, options)
        if letter is not None:
            return Extraction(letter, f"robust:{where}:{rule}")
    return Extraction(None, f"{NO_ANSWER}:{rule}")
