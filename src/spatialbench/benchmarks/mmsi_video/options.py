"""Read the lettered options (A–F) that MMSI-Video-Bench writes inside its ``user_prompt``.

The release has no separate options field: a question's options are lines such as ``A. 2;1`` in the user
prompt (MMSI-Video-Bench Fig. 2). Their count gives the random-guess baseline (1 / number of options).
"""

from __future__ import annotations

import re

#: the letters MMSI-Video-Bench uses (4–6 options per question, Sec. 3.2)
OPTION_LETTERS = ("A", "B", "C", "D", "E", "F")

_LINE_MARKER = re.compile(r"(?m)^[ \t]*\(?([A-F])[.):][ \t]*")
_INLINE_MARKER = re.compile(r"(?:^|(?<=\s))\(?([A-F])[.):][ \t]*")


def _consecutive(matches: list[re.Match[str]]) -> list[re.Match[str]]:
    """Keep the markers A, B, C... in order of appearance, stopping at the first gap."""
    run: list[re.Match[str]] = []
    for match in matches:
        if match.group(1) == OPTION_LETTERS[len(run)]:
            run.append(match)
            if len(run) == len(OPTION_LETTERS):
                break
    return run


def parse_options(text: str) -> tuple[str, ...]:
    """Read the options in ``text`` as ``("A. 2;1", "B. 1;2", ...)``; empty if fewer than two are found.

    Options at line starts are preferred; options inline (``A. x B. y``) are read when there are none.
    """
    for pattern in (_LINE_MARKER, _INLINE_MARKER):
        run = _consecutive(list(pattern.finditer(text)))
        if len(run) >= 2:
            return tuple(_option_text(text, run, i) for i in range(len(run)))
    return ()


def _option_text(text: str, run: list[re.Match[str]], i: int) -> str:
    start = run[i].end()
    stop = run[i + 1].start() if i + 1 < len(run) else len(text)
    body = text[start:stop].strip().split("\n", 1)[0].strip()
    return f"{run[i].group(1)}. {body}"
