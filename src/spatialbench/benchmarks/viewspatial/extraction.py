r"""ViewSpatial-Bench's answer reader (github ZJU-REAL/ViewSpatial-Bench, ``evaluate.py``) and a fixed one.

Official: take the last line of the response and the first ``\b([A-D])\b`` in it, case-insensitively
(``extract_option``), compared with the same reading of the answer (``"A. right"``). That reading takes the
article in "a chair is on the left" as option A. ``viewspatial`` (the default) is the official reader
except that an "a"/"A" followed by a space and a word is an article, not a letter.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from spatialbench.scoring.extraction import NO_ANSWER, Extraction

_OFFICIAL = re.compile(r"\b([A-D])\b", re.IGNORECASE)
_NO_ARTICLE = re.compile(r"\b(?:[B-Db-d]|[Aa](?!\s+[A-Za-z]))\b")
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
    """Read the letter as the official reader, but "a"/"A" before a word is no letter; never raises."""
    if not isinstance(text, str):
        return Extraction(None, f"{NO_ANSWER}:not_text")
    found = _NO_ARTICLE.search(_last_line(text))
    if found is None:
        return Extraction(None, f"{NO_ANSWER}:no_letter_on_last_line")
    return Extraction(found.group().upper(), "viewspatial:last_line_no_article")
