"""VLMEvalKit's generic image multiple-choice question: its default prompt and its exact-matching reader.

Benchmarks that VLMEvalKit runs through ``ImageMCQDataset`` without a prompt of their own (3DSRBench, ...)
are asked :func:`kit_prompt` (``build_prompt``: ``Question: q``, ``Options:`` and one ``X. text`` line per
option, ``Please select the correct answer from the options above.``) and read by :func:`kit_choice`
(``vlmeval/utils/matching_util.py`` ``can_infer`` under ``exact_matching``, at commit e8e78f05):

1. a refusal phrase is no answer (the kit's ``Z``, never right);
2. ``.()[],:;!*#{}`` become spaces and the text is split on white space; exactly one option letter among
   the words, and it is one of the last 4 words: that letter; none, and a word ``Z``: no answer;
3. ``answer is X`` / ``correct answer is **X**`` (any case): that letter, when it is an option;
4. otherwise, unless the text is more than twice as long as all option texts together, the one option
   whose text (lower case) is inside the text (lower case).

The kit's LLM judge, used only when nothing is read and a judge is configured, is not applied.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from spatialbench.records.item import Item
from spatialbench.scoring.extraction import NO_ANSWER, Extraction

POST_PROMPT = "Please select the correct answer from the options above. \n"
_REFUSALS = (
    "Sorry, I can't help with images of people yet.",
    "I can't process this file.",
    "I'm sorry, but without the image provided",
    "Cannot determine the answer",
)
_PUNCTUATION = str.maketrans({c: " " for c in ".()[],:;!*#{}"})
_VERBOSE = re.compile(r"(?i)(?:correct\s+)?answer\s+is\s+\**([ABCD])\**")


def kit_prompt(item: Item) -> str:
    """Return ``build_prompt``'s text: the question, the lettered options (``"A. text"``), the post-prompt."""
    if not item.options:
        return f"Question: {item.question}\n"
    return f"Question: {item.question}\nOptions:\n" + "".join(f"{o}\n" for o in item.options) + POST_PROMPT


def _choices(options: Sequence[str]) -> dict[str, str]:
    """Return ``{"A": "left", ...}`` for options ``("A. left", ...)`` (the TSV's option columns)."""
    return {o[0]: o[3:] for o in options if o}


def _by_letter(text: str, choices: dict[str, str]) -> str | None:
    """``can_infer_option``: a letter, ``Z`` (no answer) or None (try the option texts)."""
    words = text.translate(_PUNCTUATION).split()
    present = [c for c in choices if c in words]
    if len(present) == 1 and words.index(present[0]) > len(words) - 5:
        return present[0]
    if not present and "Z" in words:
        return "Z"
    verbose = _VERBOSE.search(text)
    if verbose and verbose.group(1).upper() in choices:
        return verbose.group(1).upper()
    return None


def _by_text(text: str, choices: dict[str, str]) -> str | None:
    lowered = text.lower()
    if len(lowered) > 2 * sum(len(v) for v in choices.values()):
        return None
    found = [k for k, v in choices.items() if v.lower() in lowered]
    return found[0] if len(found) == 1 else None


def kit_choice(text: str, options: Sequence[str] = ()) -> Extraction:
    """Read a letter as VLMEvalKit's ``can_infer`` does (module docstring); never raises."""
    if not isinstance(text, str):
        return Extraction(None, f"{NO_ANSWER}:not_text")
    choices = _choices(options)
    if "Failed to obtain answer via API" in text:
        return Extraction(None, f"{NO_ANSWER}:api_failure")
    if any(refusal in text for refusal in _REFUSALS):
        return Extraction(None, f"{NO_ANSWER}:refusal")
    letter = _by_letter(text, choices)
    if letter == "Z":
        return Extraction(None, f"{NO_ANSWER}:letter_z")
    if letter:
        return Extraction(letter, "vlmevalkit:can_infer_option")
    letter = _by_text(text, choices)
    return (
        Extraction(letter, "vlmevalkit:can_infer_text")
        if letter
        else Extraction(None, f"{NO_ANSWER}:no_option")
    )
