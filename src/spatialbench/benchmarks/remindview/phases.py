"""Parse ReMindView-Bench's 4-phase structured output and read the final answer (Sec. 5.1, Table 7).

Phases are the texts after the markers ``(1)``…``(4)``, each found after the previous one: (1) description of
each frame, (2) cross-frame alignment, (3) query-specific reasoning, (4) final answer. The answer is read
from phase (4) only:

P1 a choice label ``B.sofa`` / ``B. sofa`` / ``B`` (a letter of the options) — the first in phase (4);
P2 otherwise the text of exactly one choice (robust rule C2 of ``spatialbench.scoring.robust_choice``);
P3 otherwise any robust read of phase (4) alone (``(4) Final answer: C``; rule ``phase4:robust:...``).

When phase (4) is missing or holds neither, the ``robust`` extractor reads the whole response (rule names
start with ``fallback:``). Extraction mode ``official`` (:func:`official_choice`) reproduces the official
evaluation's reader instead: the last ``X.<text>`` label anywhere in the response (X in A–D), else the last
standalone A–D letter. Never raises; "no answer" is ``value=None``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from spatialbench.scoring.extraction import (
    NO_ANSWER,
    Extraction,
    extract_choice,
    option_letters,
)

PHASES = (1, 2, 3, 4)
_LABEL = re.compile(r"\b([A-Z])\s*\.\s*([^\n\r]*)")
_BARE_LETTER = re.compile(r"^\s*\(?([A-Z])\)?\s*$")
_OFFICIAL_LABEL = re.compile(r"\b([ABCD])\s*\.\s*([^\n\r]+)")
_OFFICIAL_LETTER = re.compile(r"\b([ABCD])\b")


@dataclass(frozen=True)
class PhaseParse:
    """The phases found (number → text, stripped) and the answer read."""

    phases: dict[int, str]
    extraction: Extraction

    @property
    def complete(self) -> bool:
        """True when all four phases are present."""
        return all(k in self.phases for k in PHASES)


def split_phases(text: str) -> dict[int, str]:
    """Return the text of each phase marker ``(k)`` found in order; a phase ends where the next one starts."""
    starts: list[tuple[int, int, int]] = []  # (phase, marker start, text start)
    position = 0
    for k in PHASES:
        found = text.find(f"({k})", position)
        if found < 0:
            continue
        starts.append((k, found, found + len(f"({k})")))
        position = found + 3
    phases = {}
    for i, (k, _, begin) in enumerate(starts):
        end = starts[i + 1][1] if i + 1 < len(starts) else len(text)
        phases[k] = text[begin:end].strip()
    return phases


def _from_final_phase(final: str, options: Sequence[str]) -> Extraction | None:
    letters = option_letters(options)
    bare = _BARE_LETTER.match(final)
    if bare and bare.group(1) in letters:
        return Extraction(bare.group(1), "phase4:label")
    for match in _LABEL.finditer(final):
        if match.group(1) in letters:
            return Extraction(match.group(1), "phase4:label")
    read = extract_choice(final, options, mode="robust")
    if not read.answered:
        return None
    if read.rule.endswith("option_text"):
        return Extraction(read.value, "phase4:option_text")
    return Extraction(read.value, f"phase4:{read.rule}")  # "Final answer: C" in phase (4)


def parse_response(text: str, options: Sequence[str]) -> PhaseParse:
    """Split ``text`` into phases and read the answer (module docstring). Never raises."""
    if not isinstance(text, str):
        return PhaseParse({}, Extraction(None, f"{NO_ANSWER}:not_text"))
    phases = split_phases(text)
    found = _from_final_phase(phases[4], options) if 4 in phases else None
    if found is None:
        fallback = extract_choice(text, options, mode="robust")
        found = Extraction(fallback.value, f"fallback:{fallback.rule}")
    return PhaseParse(phases, found)


def phases_choice(text: str, options: Sequence[str] = ()) -> Extraction:
    """Read the answer of phase (4), robust fallback otherwise (extraction mode ``phases``)."""
    return parse_response(text, options).extraction


def official_choice(text: str, options: Sequence[str] = ()) -> Extraction:
    """Read the answer as the official evaluation does (extraction mode ``official``, module docstring)."""
    if not isinstance(text, str) or not text:
        return Extraction(None, f"{NO_ANSWER}:empty")
    labels = list(_OFFICIAL_LABEL.finditer(text))
    if labels:
        return Extraction(labels[-1].group(1), "official:last_label")
    letters = _OFFICIAL_LETTER.findall(text)
    if letters:
        return Extraction(letters[-1], "official:last_letter")
    return Extraction(None, f"{NO_ANSWER}:no_label")
