"""VLMEvalKit's rule-based VSI-Bench answer reading (``--judge extract_matching``), our own implementation.

Follows VLMEvalKit at commit e8e78f05 (``vlmeval/dataset/utils/spatial_bench/matching_func.py``,
``cal_scores.py``), the version that wrote ``../shared/data/vlmevalkit``; the tests reproduce its per-item
scores and its overall 85.848 there. Zero-width characters are removed first.

Letters (A–F; VLMEvalKit passes no option list), first rule that finds one wins:
1. ``<answer>X …</answer>``; 2. a letter right before ``</answer>`` or ``</think>`` in the last 800
characters; 3. the last 6 non-empty lines after the last ``</think>`` (else after the last ``<think>``),
from the bottom: a line that is one letter (markdown or brackets around it allowed), a line starting
``X.``/``X)``/…, or a line whose standalone upper-case letters are all one letter (``option X:`` lines
skipped); 4. the same on the last 6 lines of the last 800 characters; 5. the first ``final answer`` /
``the answer is`` / ``answer`` … phrase followed by a letter; 6. one distinct standalone upper-case letter in
the whole text.

Numbers: English number words zero–twenty become digits; then ``<answer>N…</answer>``; else the *last*
number after the last ``</think>`` (or ``<think>``); else the one distinct number, or the last one.
No unit conversion. Never raises.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from spatialbench.scoring.extraction import NO_ANSWER, Extraction

_ZERO_WIDTH = re.compile("[\u200b\u200c\u200d\ufeff]")
_NUMBER = r"[-+]?(?:\d*\.\d+|\d+)(?:[eE][-+]?\d+)?"
_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
          "sixteen seventeen eighteen nineteen twenty").split()
_WORD_NUMBER = re.compile(r"\b(" + "|".join(sorted(_WORDS, key=len, reverse=True)) + r")\b", re.IGNORECASE)
_ANSWER_LETTER = re.compile(r"<\s*answer\b[^>]*>\s*([A-Ja-j])(?:\s*[\.．:：\)\]】、])?.*?<\s*/\s*answer\s*>",
                            re.IGNORECASE | re.DOTALL)
_ANSWER_NUMBER = re.compile(rf"<\s*answer\b[^>]*>\s*({_NUMBER})(?:[^\d<][^<]*)?<\s*/\s*answer\s*>",
                            re.IGNORECASE | re.DOTALL)
_OPEN_BR, _CLOSE_BR = r"[\(\[\{（【]?\s*", r"[\)\]\}）】]?"
_LETTERS = "ABCDEF"
_TIGHT = r"\.,:;!?\)\]】》」』，。；、：）"
_OPTION_LINE = re.compile(r"^(?:[*_>\-\s]*)(?:option|选项)\s+[A-J]\s*[:：]", re.IGNORECASE)
_SINGLE_LINE = re.compile(r"^\s*[*_`>（）\[\]【】\(\)]*\s*([A-Fa-f])\s*[*_`（）\[\]【】\(\)]*\s*$")
_LABELLED = re.compile(r"^\s*([A-F])\s*[\.．:：\)\]】、-]\s+", re.IGNORECASE)
_INLINE = re.compile(rf"(?<![A-Za-z])[*_`（\[\{{\(]*\s*([A-F])\s*[*_`）\]\}})]*(?=$|[\s{_TIGHT}])")
_BEFORE_TAG = [
    re.compile(rf"(?<![A-Za-z]){_OPEN_BR}([{_LETTERS}])\s*{_CLOSE_BR}\s*</\s*{tag}\s*>", re.IGNORECASE)
    for tag in ("answer", "think")
]
_PHRASE = re.compile(
    rf"(?i)(?:final\s*answer|the\s*answer\s*is|answer(?:\s*is)?|correct\s*answer|答案|最终答案|结论"
    rf"|所以|因此|我选(?:择)?|选择|选)\s*[:：>＝=]?\s*{_OPEN_BR}([{_LETTERS}])\s*{_CLOSE_BR}(?:\b|[.)、。])"
)
_STANDALONE = re.compile(rf"(?<![A-Za-z]){_OPEN_BR}([{_LETTERS}])\s*{_CLOSE_BR}(?![A-Za-z])")
_THINK_END = re.compile(r"</\s*think\s*>", re.IGNORECASE)
_THINK_START = re.compile(r"<\s*think\s*>", re.IGNORECASE)
_TAIL_CHARS, _TAIL_LINES = 800, 6


def after_think(text: str) -> str:
    """Text after the last ``</think>`` (else after the last ``<think>``), stripped; ``text`` when neither."""
    for tag in (_THINK_END, _THINK_START):
        ends = [m.end() for m in tag.finditer(text)]
        if ends:
            return text[ends[-1]:].strip()
    return text


def _line_letter(lines: list[str]) -> str | None:
    """Rule 3/4: scan the last lines from the bottom for a letter."""
    for line in reversed([ln.strip() for ln in lines[-_TAIL_LINES:] if ln.strip()]):
        if _OPTION_LINE.search(line):
            continue
        found = _SINGLE_LINE.fullmatch(line) or _LABELLED.match(line)
        if found:
            return found.group(1).upper()
        tokens = {t.upper() for t in _INLINE.findall(line)}
        if len(tokens) == 1:
            return tokens.pop()
    return None


def match_letter(text: str) -> str | None:
    """VLMEvalKit ``can_match_option`` without choices: the letter (A–F; J via ``<answer>``) or None."""
    text = _ZERO_WIDTH.sub("", text.strip())
    found = _ANSWER_LETTER.search(text)
    if found:
        return found.group(1).upper()
    tail = text[-_TAIL_CHARS:]
    for pattern in _BEFORE_TAG:
        found = pattern.search(tail)
        if found:
            return found.group(1).upper()
    letter = _line_letter(after_think(text).splitlines()) or _line_letter(tail.splitlines())
    if letter:
        return letter
    found = _PHRASE.search(text)
    if found:
        return found.group(1).upper()
    kept = "\n".join(ln for ln in text.splitlines() if not _OPTION_LINE.search(ln))
    tokens = set(_STANDALONE.findall(kept))
    return tokens.pop() if len(tokens) == 1 else None


def match_number(text: str) -> float | None:
    """VLMEvalKit ``can_match_na`` for a text prediction: the number read, or None."""
    text = _ZERO_WIDTH.sub("", text.strip())
    text = _WORD_NUMBER.sub(lambda m: str(_WORDS.index(m.group(1).lower())), text)
    found = _ANSWER_NUMBER.search(text)
    if found:
        return float(found.group(1))
    tail = re.findall(_NUMBER, after_think(text))
    if tail:
        return float(tail[-1])
    numbers = re.findall(_NUMBER, text)
    if not numbers:
        return None
    return float(numbers[0]) if len(set(numbers)) == 1 else float(numbers[-1])


def vlmevalkit_choice(text: str, options: Sequence[str] = ()) -> Extraction:
    """VLMEvalKit rule-based letter reading (see the module text); ``options`` are ignored, as there."""
    if not isinstance(text, str):
        return Extraction(None, f"{NO_ANSWER}:not_text")
    letter = match_letter(text)
    return Extraction(letter, "vlmevalkit:option") if letter else Extraction(None, f"{NO_ANSWER}:no_letter")


def vlmevalkit_number(text: str, question: str = "") -> Extraction:
    """VLMEvalKit rule-based number reading (see the module text); no unit conversion."""
    if not isinstance(text, str):
        return Extraction(None, f"{NO_ANSWER}:not_text")
    try:
        value = match_number(text)
    except (ValueError, OverflowError):
        value = None
    if value is None or value != value or value in (float("inf"), float("-inf")):
        return Extraction(None, f"{NO_ANSWER}:no_number")
    return Extraction(value, "vlmevalkit:number")
