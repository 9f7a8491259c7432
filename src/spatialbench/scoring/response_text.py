r"""Shared clean-up of model responses before robust extraction (rules R1–R3 of the robust modes).

R1 reasoning wrappers: text inside ``<think>…</think>`` is dropped (the answer follows it); an unclosed
   ``<think>`` drops everything after it.
R2 ``\boxed{…}``: when present, the content of the last one is the answer text.
R3 answer markers: when the text says ``answer:``, ``the answer is``, ``final answer``, ``option`` …, the
   text after the *last* marker is the answer text (so ``final answer: C`` overrides an earlier letter).
"""

from __future__ import annotations

import re

_THINK_BLOCK = re.compile(r"<think>.*?</think>", re.IGNORECASE | re.DOTALL)
_THINK_OPEN = re.compile(r"<think>.*", re.IGNORECASE | re.DOTALL)
_THINK_CLOSE = re.compile(r"^.*</think>", re.IGNORECASE | re.DOTALL)
_BOXED = re.compile(r"\\boxed\{((?:[^{}]|\{[^{}]*\})*)\}")
_MARKER = re.compile(
    r"(?:final\s+answer|correct\s+answer|answer|correct\s+option|option|choice)\s*"
    r"(?:is|would\s+be|should\s+be|will\s+be)?\s*(?:[:=-]\s*)?",
    re.IGNORECASE,
)
_MARKUP = re.compile(r"[*_`#]+")


def strip_reasoning(text: str) -> str:
    """R1: drop ``<think>`` blocks (closed or not) and anything before a stray ``</think>``."""
    if "think>" not in text.lower():
        return text
    text = _THINK_BLOCK.sub(" ", text)
    text = _THINK_CLOSE.sub(" ", text)
    return _THINK_OPEN.sub(" ", text)


def answer_text(text: str, use_markers: bool = True) -> tuple[str, str]:
    """Apply R1–R3 (R3 only when ``use_markers``) and strip Markdown emphasis.

    Returns:
        ``(answer_text, rule)`` with ``rule`` one of ``"boxed"``, ``"marker"``, ``"plain"``.
    """
    text = strip_reasoning(text)
    boxed = _BOXED.findall(text)
    if boxed:
        return _MARKUP.sub("", boxed[-1]).strip(), "boxed"
    plain = _MARKUP.sub("", text)
    markers = list(_MARKER.finditer(plain)) if use_markers else []
    last = markers[-1] if markers else None
    if last is not None and plain[last.end() :].strip():
        return plain[last.end() :].strip(), "marker"
    return plain.strip(), "plain"
