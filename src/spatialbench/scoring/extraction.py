"""Answer extraction: turn a model's free text into a choice letter or a number, or "no answer".

Two modes are registered for each answer kind (``CHOICE_EXTRACTORS`` / ``NUMBER_EXTRACTORS``; ``robust`` as a
lazy entry, so both registries are complete at import):

* ``official`` — exactly the official VSI-Bench scoring code (lmms-eval ``tasks/vsibench/utils.py``):
  the first token of ``text.split(" ")`` with trailing ``.`` stripped, then ``.strip()``; a letter is
  compared case-insensitively, a number is Python ``float()`` of that token (a failure scores 0).
* ``lmms-eval-0.7.2`` (= ``official``), ``lmms-eval-0.7.3`` and ``vlmevalkit`` — the peer toolkits' own
  rules, by version (:mod:`spatialbench.scoring.peer_lmms_eval`, :mod:`spatialbench.scoring.peer_vlmevalkit`);
* ``robust`` — documented rule by rule in :mod:`spatialbench.scoring.robust_choice` and
  :mod:`spatialbench.scoring.robust_number`; the default for new runs.

Model output is untrusted text: no extractor raises, and "no answer" is an explicit ``None`` value,
never a guessed letter or a 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from spatialbench.registry import Registry

NO_ANSWER = "no_answer"
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True, slots=True)
class Extraction:
    """The answer read from one response.

    Attributes:
        value: the upper-case option letter (choices), a finite float (numbers), or None for no answer.
        rule: name of the rule that produced ``value`` (``"no_answer"`` or a reason prefixed by it).
    """

    value: str | float | None
    rule: str

    @property
    def answered(self) -> bool:
        """True when an answer was found."""
        return self.value is not None


ChoiceExtractor = Callable[[str, Sequence[str]], Extraction]
"""``(response_text, options) -> Extraction``; options as shown (``"A. sofa"``), may be empty."""
NumberExtractor = Callable[[str, str], Extraction]
"""``(response_text, question_text) -> Extraction``; the question gives the unit asked for."""

CHOICE_EXTRACTORS: Registry[ChoiceExtractor] = Registry("choice extraction mode")
NUMBER_EXTRACTORS: Registry[NumberExtractor] = Registry("number extraction mode")
CHOICE_EXTRACTORS.lazy("robust", "spatialbench.scoring.robust_choice:robust_choice")
NUMBER_EXTRACTORS.lazy("robust", "spatialbench.scoring.robust_number:robust_number")
# Peer toolkits' rules, by version (spatialbench.scoring.peer_lmms_eval, .peer_vlmevalkit).
CHOICE_EXTRACTORS.lazy("lmms-eval-0.7.2", "spatialbench.scoring.extraction:official_choice")
NUMBER_EXTRACTORS.lazy("lmms-eval-0.7.2", "spatialbench.scoring.extraction:official_number")
CHOICE_EXTRACTORS.lazy("lmms-eval-0.7.3", "spatialbench.scoring.peer_lmms_eval:lmms_eval_073_choice")
NUMBER_EXTRACTORS.lazy("lmms-eval-0.7.3", "spatialbench.scoring.peer_lmms_eval:lmms_eval_073_number")
CHOICE_EXTRACTORS.lazy("vlmevalkit", "spatialbench.scoring.peer_vlmevalkit:vlmevalkit_choice")
NUMBER_EXTRACTORS.lazy("vlmevalkit", "spatialbench.scoring.peer_vlmevalkit:vlmevalkit_number")


def option_letters(options: Sequence[str]) -> str:
    """Return the valid letters for ``options`` (``"ABCD"`` for four); A–Z when the options are unknown."""
    return _LETTERS[: len(options)] if options else _LETTERS


def official_token(text: str) -> str:
    """Return the official VSI-Bench ``fuzzy_matching`` token: ``text.split(" ")[0].rstrip(".").strip()``."""
    return text.split(" ")[0].rstrip(".").strip()


@CHOICE_EXTRACTORS.register("official")
def official_choice(text: str, options: Sequence[str] = ()) -> Extraction:
    """Official VSI-Bench letter extraction (exact-match on the first space-separated token).

    The official code compares that token to the ground-truth letter case-insensitively, so a token
    that is not one of the option letters can never score; it is reported here as no answer.
    """
    if not isinstance(text, str):
        return Extraction(None, f"{NO_ANSWER}:not_text")
    token = official_token(text)
    if len(token) == 1 and token.upper() in option_letters(options):
        return Extraction(token.upper(), "official:first_token")
    return Extraction(None, f"{NO_ANSWER}:first_token_not_a_letter")


@NUMBER_EXTRACTORS.register("official")
def official_number(text: str, question: str = "") -> Extraction:
    """Official VSI-Bench number extraction: ``float()`` of the first space-separated token.

    ``float`` accepts forms such as ``"1_000"``, ``"1e3"`` and ``"inf"``; a non-finite value can never
    earn MRA credit (the official comparison is False for NaN and infinity) and is reported as no answer.
    """
    if not isinstance(text, str):
        return Extraction(None, f"{NO_ANSWER}:not_text")
    try:
        value = float(official_token(text))
    except ValueError:
        return Extraction(None, f"{NO_ANSWER}:first_token_not_a_number")
    if not math.isfinite(value):
        return Extraction(None, f"{NO_ANSWER}:not_finite")
    return Extraction(value, "official:first_token")


def extract_choice(text: str, options: Sequence[str] = (), mode: str = "robust") -> Extraction:
    """Read an option letter from ``text``.

    Args:
        text: the model's response (untrusted; any string).
        options: the options as shown, e.g. ``("A. sofa", "B. bed")``; empty when unknown.
        mode: a registered choice extraction mode (``official`` or ``robust``).

    Returns:
        The letter (upper case) or ``value=None`` for no answer. Never raises on any text.

    Raises:
        UnknownNameError: ``mode`` is not registered.
    """
    return CHOICE_EXTRACTORS.get(mode)(text, options)


def extract_number(text: str, question: str = "", mode: str = "robust") -> Extraction:
    """Read a number from ``text``, in the unit ``question`` asks for when it names one.

    Args:
        text: the model's response (untrusted; any string).
        question: the question text (used by ``robust`` to convert e.g. ``200 cm`` to metres).
        mode: a registered number extraction mode (``official`` or ``robust``).

    Returns:
        A finite float or ``value=None`` for no answer. Never raises on any text.

    Raises:
        UnknownNameError: ``mode`` is not registered.
    """
    return NUMBER_EXTRACTORS.get(mode)(text, question)
