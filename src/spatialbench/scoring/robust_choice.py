r"""The ``robust`` choice extraction mode, rule by rule.

After the shared clean-up (R1 ``<think>``-style blocks dropped, R0 only the last 32 KB count and
full-width letters read as ASCII, R2 LaTeX wrappers such as ``\text{B}`` reduced and the last
``\boxed{}`` content taken, R3 segments after answer phrases such as ``Answer:``, ``The answer is``,
``final answer:`` and self-corrections such as ``Wait, actually``; Markdown emphasis removed — see
:mod:`spatialbench.scoring.response_text`), candidate answer texts are read with:

C1 letter: a single letter standing alone at the start — ``B``, ``B.``, ``(B)``, ``B)``, ``[B]``,
   ``"B"``, ``'B'``, ``“B”``, ``b``, ``B: sofa``, ``B. sofa`` (the letter ends the text or is followed by
   punctuation, or is bracketed or quoted). Where the text is known to state the answer (``\boxed{}``,
   ``<answer>``, after an answer phrase or a self-correction) and at the start of the whole response, a
   letter followed by a space and more words also counts (``B because the sofa is closer``,
   ``Answer: B`` then a paragraph naming other letters) — after an answer phrase only an upper-case
   one (``the answer is a sofa`` names no letter); a letter inside a word (``Answer``, ``B2``,
   ``B's``) never does. Otherwise case does not matter.
C2 option text: the text equals one option's text (``"sofa"`` for ``"B. sofa"``), or contains exactly
   one option's text as a whole phrase (phrases inside a longer matched option, e.g. ``left`` inside
   ``front-left``, do not count).
C3 hedges: a letter followed by another option letter (``B, C``, ``B or C``, ``B/C``, ``B and C``),
   bracketed or softened too (``(B) or maybe (C)``, ``B (or C)``, ``B, perhaps C``, ``[B] and possibly
   [C]``), is **no answer** — the response names two — never the first letter.
C4 the article: a response starting ``A`` / ``a`` then a space and an option's text (``A sofa is
   closest`` with ``B. sofa``) names that option (B). Any other starting ``A`` / ``a`` before a lower-case
   word that is not an option marker is the article too, never option A (``A person stands nearer, so B``
   is no starting letter; :func:`spatialbench.scoring.article.is_article`): the letter is ``A``, ``A.``,
   ``A)``, ``(A)``, ``A: sofa`` and ``A`` before a verb, conjunction or vowel-initial word (``A because
   ...``, ``A is correct``, ``A or B`` → hedge).
C5 the closing letter: where no earlier rule reads a letter, an upper-case option letter standing alone
   as the last word (``..., so B``, ``the order is (C).``) is the answer, unless a hedge names another
   letter just before it (``B or C``) or a negation (:data:`NEGATIONS`) stands right before it (``It is
   not B.``, ``Neither A nor B``, ``none of A``: no answer).

Order (the first candidate that gives a letter decides): ``\boxed{}`` (alone when present), ``<answer>``
tag, JSON ``"answer"``, segments after self-corrections (last first: ``Answer: B. Wait, actually C`` →
C), segments after answer phrases (``The answer is``, ``final answer:``; last first), then the letter
the response *starts* with, then segments after ``option`` / ``choice`` (strict C1 only), then the
closing letter (C5), then the whole text (C2). When the response starts with a letter, later segments
count only by a letter they state (C1), never by an option text they mention: ``B. This is because the
answer must be on the left`` stays B; ``A seems close, so the answer is (C)`` is C.

Robust therefore scores at or above the official rule (which reads the first space-separated token)
on every response that starts with an option letter — the same letter — except where the response
itself says otherwise: a hedge (C3), a self-correction, a later answer phrase naming another letter,
or the article ``A`` (C4: ``A sofa`` when B is the sofa, ``A lamp`` naming no option; the official rule
reads A in both). **The hedge rule deliberately wins over
"robust never below official"** (issue 10 asks for both): ``B or C`` is B for the official rule and no
answer here, so a hedging model can score below its official-mode figure — a response naming two
letters has not chosen one, and reading its first letter would reward hedging.
``A chair is there`` (no option named chair) names no letter (the official rule reads A). A letter
outside the options (``E`` for four options) is no answer; without known options only strict C1
applies. Anything else is no answer — never a guess.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from spatialbench.scoring.article import is_article
from spatialbench.scoring.extraction import (
    CHOICE_EXTRACTORS,
    NO_ANSWER,
    Extraction,
    option_letters,
)
from spatialbench.scoring.response_text import answer_texts

_OPEN, _CLOSE = "([{\"'“‘«「", ")]}\"'”’»」"
_LETTER = re.compile(  # a bracketed or quoted letter, or a bare one (with a closing bracket right after)
    rf"\s*(?:([{re.escape(_OPEN)}])\s*([A-Za-z])\s*([{re.escape(_CLOSE)}])?|()([A-Za-z])([)\]}}]?))"
)
_HEDGE = re.compile(  # "B or C", "(B) or maybe (C)", "B (or C)", "B, perhaps C", "[B] and possibly [C]"
    r"\s*[(\[]?\s*(?:,|/|&|\bor\b|\band\b)\s*(?:,\s*)?(?:(?:or|maybe|perhaps|possibly|probably)\b\s*,?\s*)*"
    r"(?:option\s+)?[(\[\"'“‘]?([A-Z])(?![A-Za-z])")
_AFTER_STRICT = ".:,;!?"
_OPTION_PREFIX = re.compile(r"^\s*[(\[]?[A-Za-z][.:)\]]\s*")
_EDGE_PUNCT = " \t\r\n.,;:!?\"'()[]"
_ARTICLE = re.compile(r"\s*[Aa][ \t]+(\S.*)", re.DOTALL)
_CLOSING = re.compile(r"(?:^|[\s,:;])[(\[]?([A-Z])[)\]]?[.!]?\s*$")  # C5: "..., so B", "is (C)."
#: words that, directly before a closing letter, say it is NOT the answer ("It is not B.", "Neither A nor
#: B", "none of A"): such a letter is no answer, never the choice. Only the word right before the letter
#: counts, so "Not A. It is B" still closes on B; which option a negation leaves is unknown, so none is read.
NEGATIONS = ("not", "nor", "neither", "none of", "isn't", "never", "no")
_NEGATED = re.compile(rf"(?<![\w'])(?:{'|'.join(re.escape(w) for w in NEGATIONS)})[\s(\[]*$", re.IGNORECASE)
_HEDGE_BEFORE = re.compile(r"(?<![A-Za-z])([A-Z])[)\]]?\s*(?:,|/|&|\bor\b|\band\b)[\s\w,]{0,20}$")
_STATED = ("boxed", "tag", "json", "correction", "marker", "lead")
_HEDGED = "hedged"


def _normalise(text: str) -> str:
    return " ".join(text.lower().split()).strip(_EDGE_PUNCT)


def option_texts(options: Sequence[str]) -> list[str]:
    """Option contents without their letter prefix, normalised (``"A. Sofa"`` → ``"sofa"``).

    An option that is its letter alone (MMSI-Bench's ``"A"``, texts in the question) has no text: else the
    article in "a person stands there" would name option A by its text.
    """
    texts = [_normalise(_OPTION_PREFIX.sub("", option, count=1)) for option in options]
    return ["" if len(text) == 1 and text.isalpha() else text for text in texts]


def _by_option_text(text: str, options: Sequence[str]) -> str | None:
    texts = option_texts(options)
    letters = option_letters(options)
    said = _normalise(text)
    if said in texts and texts.count(said) == 1:
        return letters[texts.index(said)]
    spans: list[tuple[int, int, str]] = []
    for letter, option in zip(letters, texts, strict=False):
        if not option:
            continue
        pattern = r"(?<![\w-])" + re.escape(option) + r"(?![\w-])"
        spans += [(m.start(), m.end(), letter) for m in re.finditer(pattern, said)]
    outer = [s for s in spans if not any(o[0] <= s[0] and s[1] <= o[1] and o != s for o in spans)]
    found = {letter for _, _, letter in outer}
    return found.pop() if len(found) == 1 else None


def _letter(text: str, relaxed: bool, letters: str) -> str | None:
    """C1/C3: the letter standing alone at the start of ``text``, ``_HEDGED``, or None."""
    match = _LETTER.match(text)
    if not match:
        return None
    groups = match.groups()
    opened, letter, closed = groups[0:3] if groups[1] else groups[3:6]
    rest = text[match.end():]
    if (opened and not closed) or rest[:1].isalnum():
        return None
    hedge = _HEDGE.match(rest)
    if hedge and hedge.group(1) in letters and hedge.group(1) != letter.upper():
        return _HEDGED
    bracketed = bool(closed) and (bool(opened) or closed in ")]}")
    strict = bracketed or not rest.strip() or rest.lstrip()[:1] in _AFTER_STRICT
    return letter.upper() if strict or (relaxed and rest[:1].isspace()) else None


def _relaxed(where: str, options: Sequence[str], text: str) -> bool:
    """Whether C1 may read a letter followed by more words here (a lower-case one only at the start)."""
    if not options or where not in _STATED:
        return False
    return where == "lead" or text.lstrip(_OPEN + " \t\r\n")[:1].isupper()


def _article(text: str, options: Sequence[str]) -> str | None:
    """C4: the letter of the option whose text follows a starting article ``A`` / ``a``, else None."""
    match = _ARTICLE.match(text)
    if not match or not options:
        return None
    said = _normalise(match.group(1))
    pairs = zip(option_letters(options), option_texts(options), strict=False)
    named = [(len(o), letter) for letter, o in pairs if o and re.match(re.escape(o) + r"(?![\w-])", said)]
    return max(named)[1] if named else None


def _read(text: str, options: Sequence[str], where: str, by_text: bool = True) -> tuple[str | None, str]:
    letters = option_letters(options)
    article = _article(text, options) if where == "lead" else None
    if article is not None:
        return article, "article"
    if where == "lead" and is_article(text, len(text) - len(text.lstrip())):
        return None, "article_no_letter"
    letter = _letter(text, _relaxed(where, options, text), letters)
    if letter == _HEDGED:
        return None, _HEDGED
    if letter is not None:
        if letter in letters:
            return letter, "letter"
        if not options:
            return None, "letter_out_of_range"
    if options and by_text:
        found = _by_option_text(text, options)
        if found:
            return found, "option_text"
    return None, "not_found"


def _closing(text: str, letters: str) -> list[tuple[str, str, bool]]:
    """C5: candidate ``(letter, "closing", False)`` for a letter ending ``text``; none if hedged/negated."""
    match = _CLOSING.search(text)
    if match is None or _NEGATED.search(text, 0, match.start(1)):
        return []
    hedge = _HEDGE_BEFORE.search(text, 0, match.start(1))
    if hedge and hedge.group(1) in letters and hedge.group(1) != match.group(1):
        return []
    return [(match.group(1), "closing", False)]


def _ordered(text: str, options: Sequence[str]) -> list[tuple[str, str, bool]]:
    """Candidates ``(text, where, read option texts)`` in the order of the module docstring."""
    candidates = answer_texts(text)
    plain = [c for c in candidates if c[1] == "plain"]
    starts = bool(plain) and _read(plain[0][0], options, "lead", by_text=False)[0] is not None
    ordered = [(t, w, True) for t, w in candidates if w in ("boxed", "tag", "json", "correction")]
    ordered += [(t, w, not starts) for t, w in candidates if w == "marker"]
    ordered += [(plain[0][0], "lead", False)] if plain else []
    ordered += [(t, w, not starts) for t, w in candidates if w == "option"]
    ordered += _closing(plain[0][0], option_letters(options)) if plain and options else []
    ordered += [(t, w, not starts) for t, w in candidates if w == "plain"]
    return ordered


@CHOICE_EXTRACTORS.register("robust")
def robust_choice(text: str, options: Sequence[str] = ()) -> Extraction:
    """Read an option letter by rules C1–C5 after clean-up R0–R3 (module docstring). Never raises."""
    if not isinstance(text, str):
        return Extraction(None, f"{NO_ANSWER}:not_text")
    rule = "not_found"
    for focus, where, by_text in _ordered(text, options):
        letter, rule = _read(focus, options, where, by_text)
        if letter is not None:
            return Extraction(letter, f"robust:{where}:{rule}")
        if rule == _HEDGED:
            break
    return Extraction(None, f"{NO_ANSWER}:{rule}")
