"""Split a response into its reasoning phases (ReMindView-Bench Sec. 5.1, Table 7) for the phase analyses.

The 4-phase prompt asks for ``(1)`` frame descriptions, ``(2)`` cross-frame alignment, ``(3)`` query
reasoning and ``(4)`` the final answer. Phase ``k`` starts at the first marker ``(k)`` found after the
previous phase's marker (markers may carry markdown: ``**(2)**``, ``### (3)``, ``( 2 )``, ``(2):``); a
phase not found so (written out of order: ``(1) a (2) b (4) A (3) c``) starts at its first marker after
the first phase found. Each phase ends where the next marker found, in text order, starts. A phase not
found, or whose marker has nothing after it, is listed in ``missing``, never guessed. Markdown decoration
around a marker (``**``, ``#``, a heading word ``Phase`` / ``Step`` just before it, ``:`` just after)
belongs to neither phase.

``spans`` give each phase's character range in the original text, so per-token analyses
(:mod:`spatialbench.analysis.entropy`) assign generated tokens to phases by their character offsets.
Never raises: a non-text response has every phase missing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PHASES = (1, 2, 3, 4)
_DECOR_BEFORE = re.compile(r"(?:[#*_>\s]|\b(?:phase|step|stage)\b)*$", re.IGNORECASE)
_DECOR_AFTER = re.compile(r"^[*_:\s.\-]*")


#: marker styles: ``paren`` — ``(k)`` (ReMindView-Bench Table 7); ``step`` — ``Step k`` / ``Phase k``
#: (MMSI-Video-Bench's three steps, strategy ``mmsi-three-step``: phases 1–3, no phase 4 marker)
MARKERS = {"paren": r"\(\s*{k}\s*\)", "step": r"\b(?:step|phase)\s*{k}\b"}


def _marker(k: int, style: str) -> re.Pattern[str]:
    return re.compile(MARKERS[style].format(k=k), re.IGNORECASE)


@dataclass(frozen=True)
class PhaseSplit:
    """Phases found in one response.

    Attributes:
        phases: phase number → its text (stripped of marker decoration), only phases found.
        spans: phase number → (start, end) character offsets of that text in the response.
        missing: the phase numbers (of ``PHASES``) not found, ascending.
    """

    phases: dict[int, str]
    spans: dict[int, tuple[int, int]]
    missing: tuple[int, ...]

    def phase_of(self, offset: int) -> int | None:
        """Return the phase whose span holds character ``offset`` (None: before (1), or decoration)."""
        for k, (start, end) in self.spans.items():
            if start <= offset < end:
                return k
        return None


def _markers(text: str, style: str) -> list[tuple[int, int, int]]:
    """(phase, marker start, marker end) of each phase found (module docstring), in text order."""
    found: dict[int, tuple[int, int, int]] = {}
    position = 0
    for k in PHASES:  # each marker after the previous one found
        match = _marker(k, style).search(text, position)
        if match is not None:
            found[k] = (k, match.start(), match.end())
            position = match.end()
    first = min((start for _, start, _ in found.values()), default=0)
    for k in [
        k for k in PHASES if k not in found
    ]:  # written out of order: its first marker after the first phase's
        match = _marker(k, style).search(text, first)
        if match is not None:
            found[k] = (k, match.start(), match.end())
    return sorted(found.values(), key=lambda marker: marker[1])


def split(text: object, style: str = "paren") -> PhaseSplit:
    """Split ``text`` into phases (module docstring) at markers of ``style`` (:data:`MARKERS`); never raises.

    Raises:
        ValueError: unknown ``style`` (a caller's error, not the model's).
    """
    if style not in MARKERS:
        raise ValueError(f"unknown phase marker style {style!r}; styles: {', '.join(MARKERS)}")
    if not isinstance(text, str):
        return PhaseSplit({}, {}, PHASES)
    markers = _markers(text, style)
    phases: dict[int, str] = {}
    spans: dict[int, tuple[int, int]] = {}
    for i, (k, _, marker_end) in enumerate(markers):
        limit = markers[i + 1][1] if i + 1 < len(markers) else len(text)
        if i + 1 < len(markers):  # leave the next marker's heading decoration out
            decoration = _DECOR_BEFORE.search(text[marker_end:limit])
            limit = marker_end + (decoration.start() if decoration else limit - marker_end)
        start = marker_end + _DECOR_AFTER.match(text[marker_end:limit]).end()  # type: ignore[union-attr]
        body = text[start:limit].rstrip(" \t\r\n*_#")
        if not body:  # a marker with nothing after it: the phase is missing
            continue
        phases[k] = body
        spans[k] = (start, start + len(body))
    missing = tuple(k for k in PHASES if k not in phases)
    return PhaseSplit(phases, spans, missing)
