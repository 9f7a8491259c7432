"""Is this "A" / "a" the English article or the option letter A? One rule for every reader that asks.

A response such as "A person stands nearer, so B" starts with the article, not with option A (issue 24).
The article "a" comes before a noun phrase (a noun, an adjective, an adverb such as "very"); the letter A,
used as a word, comes before a verb, conjunction, preposition or pronoun ("A is correct", "A because the
chair is nearer", "A or B"). And English writes "an" before a vowel sound, so "a" before a word starting
a, e, i or o ("A is", "A appears", "A and B", "A or C") is the letter. A capitalised next word ("A Person")
is no evidence either way and is left to the reader (the letter, as the official readers take it).

This is a heuristic with one known miss each way: "a unit" / "a one-way street" are articles (the ``u`` and
``one`` exceptions below keep them so), and an adjective-like word after the letter ("A clearly") reads as
the article — a response that says so states its answer again later in practice ("..., so A").
"""

from __future__ import annotations

import re

#: words that follow the letter A used as a noun, never the article "a" (consonant-initial ones; the
#: vowel-initial ones are covered by the a/an rule).
LETTER_FOLLOWERS = frozenset("""
    because but by could can cannot did does doesn't fits for from had has have looks matches may might must
    not now should so seems shows since than that the then there this to was which will with would yes
    """.split())
_NEXT_WORD = re.compile(r"[ \t]+([a-z][a-z'-]*)")
_VOWEL = "aeio"


def is_article(text: str, at: int = 0) -> bool:
    """Whether the ``A`` / ``a`` at ``text[at]`` is the article "a", not the letter.

    It is when a lower-case word follows it (after spaces or tabs) that neither is in
    :data:`LETTER_FOLLOWERS` nor starts with a vowel letter (``one`` and ``once`` count as consonant
    sounds). ``"A."``, ``"A)"``, ``"A: sofa"`` and ``"A"`` alone are no article. Shapes: ``text`` any
    string, ``at`` an index into it; never raises (False off the end).
    """
    if at >= len(text) or text[at] not in "Aa":
        return False
    word = _NEXT_WORD.match(text, at + 1)
    if word is None:
        return False
    following = word.group(1)
    if following in LETTER_FOLLOWERS:
        return False
    return following[0] not in _VOWEL or following.startswith("one")
