"""Parse official VSI-Bench questions back into their template fields (Table 3 wording).

Each template of ``generate.vsi`` becomes a regular expression: placeholders turn into lazy named groups
(a placeholder used twice must repeat the same text), so the audit and the generator share one wording.
"""

from __future__ import annotations

import re
import string
from functools import cache

from spatialbench.generate.vsi.templates import templates


@cache
def template_pattern(task: str) -> re.Pattern[str]:
    """Return the compiled pattern of ``task``'s template (KeyError for an unknown task)."""
    parts, seen = [], set()
    for literal, name, _, _ in string.Formatter().parse(templates()[task]):
        parts.append(re.escape(literal))
        if name:
            parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
            seen.add(name)
    return re.compile("".join(parts) + r"\Z", re.DOTALL)


def parse_question(task: str, question: str) -> dict[str, str] | None:
    """Template fields of an official question, or None when it does not follow ``task``'s template.

    Whitespace at the ends is ignored; inner text must match exactly.
    """
    try:
        pattern = template_pattern(task)
    except KeyError:
        return None
    match = pattern.match(question.strip())
    return match.groupdict() if match else None
