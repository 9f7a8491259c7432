"""MMSI-Video-Bench's general answer extractor (App. B), rule for rule: extraction mode ``official``.

The official evaluation reads a letter from the first rule that applies, after removing ``<answer>`` tags:

1. the text contains ``no answer``: failure;
2. ``boxed{``: the text up to the next ``}`` after the first ``boxed{``;
3. ``"answer":``, else ``answer is``, else ``Answer: `` (case as written): the text after the *last*
   occurrence, cut at the first ``,`` and then at the first ``.``;
4. otherwise the text before the first ``.``.

The candidate is cleaned of spaces, quotes, newlines and colons and must then be exactly one of A–F; anything
else (``(C)``, ``d``, a sentence) is a failure, counted and scored as wrong. The paper states that every
correct response of every evaluated model is read by this function; the robust mode of
``spatialbench.scoring`` reads more forms and is reported beside it.
"""

from __future__ import annotations

from collections.abc import Sequence

from spatialbench.benchmarks.mmsi_video.options import OPTION_LETTERS
from spatialbench.scoring.extraction import NO_ANSWER, Extraction

_KEYS_IN_ORDER = ('"answer":', "answer is", "Answer: ")


def _clean(text: str) -> str:
    for junk in (" ", '"', "'", "\n", ":"):
        text = text.replace(junk, "")
    return text


def _candidate(response: str) -> str | None:
    if "boxed{" in response:
        return response.split("boxed{", 1)[1].split("}", 1)[0]
    for key in _KEYS_IN_ORDER:
        if key in response:
            return response.rsplit(key, 1)[1].split(",", 1)[0].split(".", 1)[0]
    return response.split(".", 1)[0]


def extract_official(response: str | None) -> str | None:
    """Return the letter the official MMSI-Video-Bench extractor reads from ``response`` (None: failure).

    Never raises; ``None`` or non-text input is a failure.
    """
    if not isinstance(response, str):
        return None
    response = response.replace("<answer>", "").replace("</answer>", "")
    if "no answer" in response:
        return None
    candidate = _candidate(response)
    letter = _clean(candidate) if candidate is not None else ""
    return letter if letter in OPTION_LETTERS else None


def official_choice(text: str, options: Sequence[str] = ()) -> Extraction:
    """Read a letter with the official general extractor (extraction mode ``official``); else no answer."""
    letter = extract_official(text)
    if letter is None:
        return Extraction(None, f"{NO_ANSWER}:official_general_extractor")
    return Extraction(letter, "mmsi-official")
