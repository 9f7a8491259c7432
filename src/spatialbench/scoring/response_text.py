r"""Shared clean-up of model responses before robust extraction (rules R0–R3 of the robust modes).

R1 reasoning wrappers: text inside ``<think>…</think>`` is dropped (the answer follows it); an unclosed
   ``<think>`` drops everything after it; a stray ``</think>`` drops everything before it.
R0 length bound: of what R1 leaves, only the last 32 KB (``MAX_ANSWER_CHARS`` characters) count. An
   answer is stated at the end of a response; the bound keeps the work per response small and fixed
   (a looping 1 MB response costs the same as a 32 KB one).
R2 ``\boxed{…}``: when present, the content of the last one is the answer text. Otherwise the content
   of the last ``<answer>…</answer>`` tag and the value of the last JSON ``"answer": "…"`` pair are
   tried first (the forms MMSI-Video-Bench's official extractor reads, App. B).
R3 answer markers: ``answer:``, ``the answer is``, ``final answer``, ``option`` … and self-corrections
   (``wait``, ``actually``, ``correction``, ``on second thought``, ``I mean``) split the text into
   segments. The segment after the *last* marker is tried first, then earlier ones, then the whole
   text: ``final answer: C`` overrides an earlier letter, ``Answer: 3. Wait, actually 4`` gives 4, and
   ``Answer: B. Actually, I am sure.`` keeps B (the last segment states no answer).

Every rule scans the text once (no pattern that can backtrack over the whole text per position).
"""

from __future__ import annotations

import re

MAX_ANSWER_CHARS = 32_000
_THINK_TAG = re.compile(r"<(/?)think>", re.IGNORECASE)
_BOXED = re.compile(r"\\boxed\{((?:[^{}]|\{[^{}]*\})*)\}")
_MARKER = re.compile(
    r"\b(?:(?:final\s+answer|correct\s+answer|answer|correct\s+option|option|choice)\s*"
    r"(?:is|would\s+be|should\s+be|will\s+be)?\s*(?:[:=-]\s*)?"
    r"|(?:wait|actually|correction|on\s+second\s+thought|i\s+mean)\b[\s,:;!.-]*)",
    re.IGNORECASE,
)
_MARKUP = re.compile(r"[*_`#]+")
_ANSWER_TAG = re.compile(r"<answer>([^<]{0,200})</answer>", re.IGNORECASE)
_JSON_ANSWER = re.compile(r"\"answer\"\s*:\s*\"([^\"\\]{0,200})\"", re.IGNORECASE)


def strip_reasoning(text: str) -> str:
    """R1: drop ``<think>`` blocks (closed or not) and anything before a stray ``</think>``.

    One pass over the tags: an opening tag starts a block that the next closing tag ends (nested
    openings inside a block are part of it); a closing tag outside a block discards all kept text.
    """
    if "think>" not in text.lower():
        return text
    kept: list[str] = []
    position, opened = 0, None
    for tag in _THINK_TAG.finditer(text):
        if not tag.group(1):
            opened = tag.start() if opened is None else opened
        elif opened is not None:
            kept.append(text[position:opened])
            position, opened = tag.end(), None
        else:
            kept, position = [], tag.end()
    kept.append(text[position:opened])  # opened is None: up to the end
    return " ".join(kept)


def bounded(text: str) -> str:
    """R1 then R0: the reasoning-free text, cut to its last ``MAX_ANSWER_CHARS`` characters."""
    text = strip_reasoning(text)
    return text[-MAX_ANSWER_CHARS:] if len(text) > MAX_ANSWER_CHARS else text


def answer_texts(text: str, use_markers: bool = True) -> list[tuple[str, str]]:
    """Apply R0–R3 and strip Markdown emphasis; return the candidate answer texts, best first.

    Returns:
        ``[(text, rule), ...]`` with ``rule`` one of ``"boxed"`` (only candidate when present),
        ``"tag"`` / ``"json"`` (``<answer>`` content, JSON ``"answer"`` value), ``"marker"`` (segments
        after markers, last first) and ``"plain"`` (the whole text, last).
    """
    text = bounded(text)
    boxed = _BOXED.findall(text)
    if boxed:
        return [(_MARKUP.sub("", boxed[-1]).strip(), "boxed")]
    plain = _MARKUP.sub("", text)
    candidates: list[tuple[str, str]] = []
    for pattern, rule in ((_ANSWER_TAG, "tag"), (_JSON_ANSWER, "json")):
        found = pattern.findall(text)
        if found and found[-1].strip():
            candidates.append((_MARKUP.sub("", found[-1]).strip(), rule))
    if use_markers:
        markers = list(_MARKER.finditer(plain))
        ends = [m.start() for m in markers[1:]] + [len(plain)] * bool(markers)
        for start, end in reversed(list(zip((m.end() for m in markers), ends, strict=True))):
            segment = plain[start:end].strip()
            if segment:
                candidates.append((segment, "marker"))
    candidates.append((plain.strip(), "plain"))
    return candidates
