r"""Shared clean-up of model responses before robust extraction (rules R0–R3 of the robust modes).

R1 reasoning wrappers: text inside ``<think>…</think>`` (also ``<thinking>``, ``<thought>``,
   ``<reasoning>``, ``<reflection>``, any case) is dropped (the answer follows it); an unclosed opening
   tag drops everything after it; a stray closing tag drops everything before it.
R0 length bound: of what R1 leaves, only the last 32 KB (``MAX_ANSWER_CHARS`` characters) count. An
   answer is stated at the end of a response; the bound keeps the work per response small and fixed
   (a looping 1 MB response costs the same as a 32 KB one). Full-width forms (``Ｂ``, ``（３）``, the
   ideographic space) read as their ASCII letters, digits and signs, the ideographic full stop and comma
   (``B。``, ``、``) as ``.`` and ``,``. Invisible format characters (Unicode category Cf: zero-width
   space, zero-width (non-)joiner, word joiner, soft hyphen, byte-order mark, direction marks) are
   removed, so ``B`` followed by a zero-width space reads as ``B``.
R2 ``\boxed{…}``: when present, the content of the last one is the answer text (nested ``\boxed{}``
   unwrapped). LaTeX text wrappers (``\text{B}``, ``\textbf{B}``, ``\mathrm{}``, ``\emph{}`` …, nested
   too) and math delimiters (``$``, ``\(`` ``\)``, ``\[`` ``\]``) are reduced to their content first.
   Otherwise the content of the last ``<answer>…</answer>`` tag and the value of the last JSON
   ``"answer": "…"`` pair are tried first (the forms MMSI-Video-Bench's official extractor reads, App. B).
R3 answer markers: ``answer:``, ``the answer is``, ``final answer``, ``答案``, ``option`` … and
   self-corrections (``wait``, ``actually``, ``correction``, ``on second thought``, ``I mean``)
   split the text into segments. The segment after the *last* marker is tried first, then earlier
   ones, then the whole text: ``final answer: C`` overrides an earlier letter, ``Answer: 3. Wait,
   actually 4`` gives 4, and ``Answer: B. Actually, I am sure.`` keeps B (the last segment states no
   answer). Segments are tagged ``correction`` (after a self-correction), ``option`` (after
   ``option`` / ``choice`` alone) or ``marker`` (after an answer phrase), so readers can weigh them.

Every rule scans the text once (no pattern that can backtrack over the whole text per position).
"""

from __future__ import annotations

import re

MAX_ANSWER_CHARS = 32_000
_THINK_TAG = re.compile(r"<(/?)(?:think|thinking|thought|reasoning|reflection)>", re.IGNORECASE)
_BOXED = re.compile(r"\\boxed\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
_LATEX_TEXT = re.compile(
    r"\\(?:text|textbf|textit|texttt|textrm|textsf|mathrm|mathbf|mathit|mathsf|mathtt|emph|operatorname)"
    r"\s*\{([^{}]*)\}"
)
_MATH_DELIMITERS = re.compile(r"\\[()\[\]]|\$")
_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {
    0x3000: 0x20, 0x3001: 0x2C, 0x3002: 0x2E, 0xFF61: 0x2E, 0xFF64: 0x2C}  # ideographic space, 、 。 ｡ ､
_WIDE = re.compile("[\u3000-\u3002\uff01-\uff5e\uff61\uff64]")
_INVISIBLE = re.compile(  # Unicode category Cf (format characters) a model or editor may leave in text
    "[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]")
_MARKER = re.compile(
    r"\b(?:(?P<marker>final\s+answer|correct\s+answer|answer|correct\s+option|correct\s+choice|答案)\s*"
    r"(?:is|would\s+be|should\s+be|will\s+be)?\s*(?:[:=-]\s*)?"
    r"|(?P<option>option|choice)\s*(?:is\s*)?(?:[:=-]\s*)?"
    r"|(?P<fix>wait|actually|correction|on\s+second\s+thought|i\s+mean)\b[\s,:;!.-]*)",
    re.IGNORECASE,
)
_MARKUP = re.compile(r"[*_`#]+")
_LATEX_PASSES = 4  # nesting depth of text wrappers unwrapped (\textbf{\text{B}} needs 2)
_ANSWER_TAG = re.compile(r"<answer>([^<]{0,200})</answer>", re.IGNORECASE)
_JSON_ANSWER = re.compile(r"\"answer\"\s*:\s*\"([^\"\\]{0,200})\"", re.IGNORECASE)


def strip_reasoning(text: str) -> str:
    """R1: drop ``<think>`` blocks (closed or not) and anything before a stray ``</think>``.

    One pass over the tags: an opening tag starts a block that the next closing tag ends (nested
    openings inside a block are part of it); a closing tag outside a block discards all kept text.
    """
    if "<" not in text or not _THINK_TAG.search(text):
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
    """R1 then R0: the reasoning-free text, its last ``MAX_ANSWER_CHARS`` characters, in ASCII forms.

    Format characters (Cf) are removed and full-width forms / ideographic stops read as ASCII.
    """
    text = strip_reasoning(text)
    text = text[-MAX_ANSWER_CHARS:] if len(text) > MAX_ANSWER_CHARS else text
    if text.isascii():
        return text
    text = _INVISIBLE.sub("", text)
    return text.translate(_FULL_WIDTH) if _WIDE.search(text) else text


def unwrap_latex(text: str) -> str:
    r"""R2: ``\text{B}`` → ``B`` (up to ``_LATEX_PASSES`` levels deep), math delimiters removed."""
    if "\\" not in text and "$" not in text:
        return text
    for _ in range(_LATEX_PASSES):
        text, count = _LATEX_TEXT.subn(r"\1", text)
        if not count:
            break
    return _MATH_DELIMITERS.sub(" ", text)


def last_boxed(text: str) -> str | None:
    r"""R2: the content of the last ``\boxed{}``, nested boxes unwrapped; None when there is none."""
    found = _BOXED.findall(text) if "boxed" in text else []
    if not found:
        return None
    content = found[-1]
    while "boxed" in content and _BOXED.search(content):
        content = _BOXED.findall(content)[-1]
    return content.replace("{", " ").replace("}", " ")


def answer_texts(text: str, use_markers: bool = True) -> list[tuple[str, str]]:
    """Apply R0–R3 and strip Markdown emphasis; return the candidate answer texts, best first.

    Returns:
        ``[(text, rule), ...]`` with ``rule`` one of ``"boxed"`` (only candidate when present),
        ``"tag"`` / ``"json"`` (``<answer>`` content, JSON ``"answer"`` value), ``"correction"`` /
        ``"marker"`` / ``"option"`` (segments after markers, last first) and ``"plain"`` (the whole
        text, last).
    """
    text = unwrap_latex(bounded(text))
    boxed = last_boxed(text)
    if boxed is not None:
        return [(_MARKUP.sub("", boxed).strip(), "boxed")]
    plain = _MARKUP.sub("", text)
    candidates: list[tuple[str, str]] = []
    for pattern, rule in ((_ANSWER_TAG, "tag"), (_JSON_ANSWER, "json")):
        found = pattern.findall(text)
        if found and found[-1].strip():
            candidates.append((_MARKUP.sub("", found[-1]).strip(), rule))
    if use_markers:
        markers = list(_MARKER.finditer(plain))
        ends = [m.start() for m in markers[1:]] + [len(plain)] * bool(markers)
        for marker, end in reversed(list(zip(markers, ends, strict=True))):
            segment = plain[marker.end():end].strip()
            if segment:
                kind = "correction" if marker.group("fix") else (
                    "option" if marker.group("option") else "marker")
                candidates.append((segment, kind))
    candidates.append((plain.strip(), "plain"))
    return candidates
