r"""Lone UTF-16 surrogates in untrusted text, written as ``\uXXXX`` escapes so that any store can hold them.

A JSON reply may carry half of a surrogate pair (``"2 \ud83d"``, a model cut mid-emoji); Python decodes
it to a string that UTF-8 (SQLite, every file) cannot encode. :func:`escape_lone_surrogates` writes each
such code point as the six characters of its JSON escape, so the text is stored, read and scored like any
other (issue 26). A literal backslash-u text in a reply reads back the same: the one ambiguity kept.
"""

from __future__ import annotations

import re

LONE_SURROGATE = re.compile("[\ud800-\udfff]")
"""Any surrogate code point in a Python string (each is lone)."""


def escape_lone_surrogates(text: str) -> str:
    r"""``text`` with every surrogate code point (U+D800–U+DFFF) as ``\uXXXX`` (lower-case hex).

    A Python string never holds a valid pair as two code points (JSON decoding joins them), so every
    surrogate in it is lone.
    """
    return LONE_SURROGATE.sub(lambda found: f"\\u{ord(found.group()):04x}", text)
