r"""MindCube's answer reader (github mll-lab-nu/MindCube, ``src/evaluation/core/extractors.py``).

``official`` is ``extract_answer``: (1) the *last* ``([A-E])\.`` anywhere in the response; (2) else, after an
``<Answer>`` tag (capital A, as the code writes it), the last match of the first of "my answer is X", "the
answer is X" and a stand-alone capital that matches; (3) else the last match of the first of its priority
patterns that matches (a letter at the start of a line, in quotes or asterisks, after "Answer:", after
"answer is"); (4) else, from the last line up, the first stand-alone capital A-E. An item scores 1 when the
letter equals ``gt_answer``.

The official function lists more patterns; every one of them needs a capital followed by a dot, which step
(1) has already taken, so they never fire and are not repeated here (the test transcribes the full function
and checks both agree). Step (1) reads any capital before a dot, so "<answer>B</answer> ... in the
MIDDLE." reads E; the official numbers are computed that way. ``answer-tag`` reads the text inside the last
``<answer>...</answer>`` (the format the raw-QA prompt asks for) the official way first, and the whole
response only when there is no tag or nothing in it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from spatialbench.scoring.extraction import NO_ANSWER, Extraction

_SIMPLE = re.compile(r"([A-E])\.")
_ANSWER_SECTION = re.compile(r"<Answer>(.*?)(?:<|$)", re.DOTALL)
# the official lists, less the patterns that need "X." (step 1 has taken those; module docstring)
_SECTION_PATTERNS = tuple(
    re.compile(p) for p in (r"[Mm]y answer is ([A-E])", r"[Tt]he answer is ([A-E])", r"\b([A-E])\b")
)
_PRIORITY = tuple(
    re.compile(p)
    for p in (
        r"(?:^|\n)(?:Answer: )?([A-E])(?:$|\s)",
        r"[\*\"]([A-E])[\*\"]",
        r"\bAnswer:?\s*([A-E])\b",
        r"[Mm]y answer is ([A-E])",
        r"answer is ([A-E])",
    )
)
_LINE_LETTER = re.compile(r"\b([A-E])\b")
_TAG = re.compile(r"<answer>(.*?)</answer>", re.DOTALL | re.IGNORECASE)


def _last(pattern: re.Pattern[str], text: str) -> str | None:
    found = list(pattern.finditer(text))
    return found[-1].group(1) if found else None


def _first_of(patterns: Sequence[re.Pattern[str]], text: str) -> str | None:
    return next((letter for p in patterns if (letter := _last(p, text)) is not None), None)


def _official_letter(text: str) -> tuple[str | None, str]:
    """Return (letter, the step that read it) by ``extract_answer``'s order (module docstring)."""
    letter = _last(_SIMPLE, text)
    if letter:
        return letter, "letter_dot"
    section = _ANSWER_SECTION.search(text)
    if section and (letter := _first_of(_SECTION_PATTERNS, section.group(1))):
        return letter, "answer_section"
    if letter := _first_of(_PRIORITY, text):
        return letter, "priority_pattern"
    lines = reversed(text.split("\n"))
    single = next((m.group(1) for line in lines if (m := _LINE_LETTER.search(line))), None)
    return single, "last_letter_line"


def official_choice(text: str, options: Sequence[str] = ()) -> Extraction:
    """Read the letter as the official ``extract_answer`` does; never raises."""
    if not isinstance(text, str) or not text:
        return Extraction(None, f"{NO_ANSWER}:empty")
    letter, step = _official_letter(text)
    if letter is None:
        return Extraction(None, f"{NO_ANSWER}:no_letter")
    return Extraction(letter, f"mindcube:{step}")


def answer_tag_choice(text: str, options: Sequence[str] = ()) -> Extraction:
    """Read the official way inside the last ``<answer>...</answer>``, else the whole text; never raises."""
    if not isinstance(text, str):
        return Extraction(None, f"{NO_ANSWER}:not_text")
    tags = _TAG.findall(text)
    if tags and tags[-1].strip():
        found = official_choice(tags[-1])
        if found.value is not None:
            return Extraction(found.value, f"mindcube:answer_tag:{found.rule.split(':')[-1]}")
    return official_choice(text)
