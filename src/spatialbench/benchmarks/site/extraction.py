"""SITE's answer reader, the official ``parse_multi_choice_response``.

From github wenqi-wang20/SITE-Bench ``eval_scripts/sitebench/utils.py`` (adapted there from MMMU).

The response is stripped and padded with a space on each side; the candidates are the option letters
(``A`` ... one per option) found as ``(X)``; if none, as `` X `` (spaces around); if none, as ``X.``; if
none, as ``X:``, ``:X`` or ``: X``. One candidate is the answer; of several, the one whose last `` X ``
stands furthest right (the first candidate when none stands between spaces). With no candidate the official
code draws a random letter (``random.choice``, unseeded): that draw cannot be reproduced, so here it is no
answer (scored 0 and counted as an extraction failure; the official expected score of such an item is 1/n).
"""

from __future__ import annotations

import string
from collections.abc import Sequence

from spatialbench.scoring.extraction import NO_ANSWER, Extraction


def _forms(letter: str) -> tuple[tuple[str, ...], ...]:
    """Return the spellings of ``letter`` each pass looks for, in pass order."""
    return ((f"({letter})",), (f" {letter} ",), (f"{letter}.",), (f"{letter}:", f":{letter}", f": {letter}"))


def site_choice(text: str, options: Sequence[str] = ()) -> Extraction:
    """Read the letter the official way (module docstring) among ``len(options)`` letters; never raises."""
    if not isinstance(text, str):
        return Extraction(None, f"{NO_ANSWER}:not_text")
    response = f" {text.strip()} "
    letters = string.ascii_uppercase[: len(options)]
    for step in range(4):
        candidates = [c for c in letters if any(form in response for form in _forms(c)[step])]
        if candidates:
            starts = [response.rfind(f" {c} ") for c in candidates]
            return Extraction(candidates[starts.index(max(starts))], f"site:pass_{step + 1}")
    return Extraction(None, f"{NO_ANSWER}:no_candidate (official: a random letter)")
