"""MMSI-Bench's own answer reader (the official repository's ``vlmeval/dataset/mmsi_bench.py``).

``extract_single_choice_with_word_boundary``: take the text inside the first double backticks, then inside
the first single backticks, then the first stand-alone capital A-D not followed by a space and a letter
(so the article in "A bike" is no answer); no such letter is no answer. An item scores 1 when the
lower-cased answer equals the first character of the lower-cased extraction, i.e. the letter itself.

The README's copy of the function also reads ``{...}`` before the letter; the code the repository runs has
no such step, and this reader follows the code. The kit falls back to an LLM judge when nothing is read;
that fallback is not part of this reader (an unread answer scores 0).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from spatialbench.scoring.extraction import NO_ANSWER, Extraction

_DOUBLE = re.compile(r"``([^`]*)``")
_SINGLE = re.compile(r"`([^`]*)`")
_LETTER = re.compile(r"\b[A-D]\b(?!\s[a-zA-Z])")
POST_PROMPT = (
    "Answer with the option's letter from the given choices directly. Enclose the option's letter within ``."
)


def mmsi_choice(text: str, options: Sequence[str] = ()) -> Extraction:
    """Read the letter of one response the official way (module docstring); never raises."""
    if not isinstance(text, str):
        return Extraction(None, f"{NO_ANSWER}:not_text")
    for pattern in (_DOUBLE, _SINGLE):
        match = pattern.search(text)
        if match:
            text = match.group(1)
    letter = _LETTER.search(text)
    if letter is None:
        return Extraction(None, f"{NO_ANSWER}:no_standalone_letter")
    return Extraction(letter.group(), "mmsi:word_boundary_letter")
