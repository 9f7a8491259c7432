r"""ViewSpatial-Bench's answer reader (github ZJU-REAL/ViewSpatial-Bench, ``evaluate.py``) and a fixed one.

Official: take the last line of the response and the first ``\b([A-D])\b`` in it, case-insensitively
(``extract_option``), compared with the same reading of the answer (``"A. right"``). That reading takes the
article in "a chair is on the left" as option A. ``viewspatial`` (the default) is the official reader
except that an "a"/"A" that is the article (:func:`spatialbench.scoring.article.is_article`, the rule the
``robust`` reader of every benchmark uses: "a chair", not "A is correct") is no letter.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from spatialbench.scoring.article import is_article
from spatialbench.scoring.extraction import NO_ANSWER, Extraction

_OFFICIAL = re.compile(r"\b([A-D])\b", re.IGNORECASE)
_LETTER = re.compile(r"\b[A-Da-d]\b")
PROMPT_FORMAT = "\nReply only to the corresponding option.\nAnswer:"


def _last_line(text: str) -> str:
    return text.split("\n")[-1]


def official_choice(text: str, options: Sequence[str] = ()) -> Extraction:
    """Read the letter with the official ``extract_option`` on the response's last line; never raises."""
    if not isinstance(text, str):
        return Extraction(None, f"{NO_ANSWER}:not_text")
    found = _OFFICIAL.search(_last_line(text))
    if found is None:
        return Extraction(None, f"{NO_ANSWER}:no_letter_on_last_line")
    return Extraction(found.group(1).upper(), "viewspatial:official_last_line")


def viewspatial_choice(text: str, options: Sequence[str] = ()) -> Extraction:
    """Read the letter as the official reader, but the article "a"/"A" is no letter; never raises."""
    if not isinstance(text, str):
        return Extraction(None, f"{NO_ANSWER}:not_text")
    line = _last_line(text)
    found = next((m for m in _LETTER.finditer(line) if not is_article(line, m.start())), None)
    if found is None:
        return Extraction(None, f"{NO_ANSWER}:no_letter_on_last_line")
    return Extraction(found.group().upper(), "viewspatial:last_line_no_article")
