"""No local absolute path in a report: every known folder is printed relative to the report folder.

A report is meant to be moved and shared, so the paths it prints (run settings, analysis sources, warnings,
errors quoted from a run) must not reveal or depend on the machine it was built on. :func:`relativize`
rewrites, in every text file of the report, each absolute path under a known folder — the report folder,
each run folder and its parent, each benchmark path and its data root, the working directory — as the
path relative to the report folder (``../runs/cot``), and the home folder as ``~``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

from spatialbench.records.files import atomic_write_text

TEXT_SUFFIXES = (".html", ".md", ".csv", ".tex", ".svg", ".json", ".txt")
_NAME_CHAR = r"[A-Za-z0-9._\-]"


def replacements(out: Path, folders: Iterable[Path]) -> tuple[re.Pattern[str], dict[str, str]]:
    """Return one pattern matching every absolute form of ``folders``, longest first, and their replacements.

    Each folder is matched as written and resolved (symlinks), and only as a whole path segment
    (``/a/run`` does not match inside ``/a/run2``).
    """
    base = out.resolve()
    pairs: dict[str, str] = {}
    home = Path.home()
    for folder in [out, *folders, Path.cwd()]:
        for form in {folder.absolute(), folder.resolve()}:
            pairs.setdefault(str(form), os.path.relpath(folder.resolve(), base))
    pairs.setdefault(str(home), "~")
    pairs.setdefault(str(home.resolve()), "~")
    ordered = sorted((p for p in pairs if p not in ("/", "")), key=len, reverse=True)
    return re.compile("(" + "|".join(map(re.escape, ordered)) + f")(?!{_NAME_CHAR})"), pairs


def relativize(out: Path, folders: Iterable[Path]) -> int:
    """Rewrite the absolute paths of ``folders`` in every text file under ``out``; return files changed."""
    pattern, pairs = replacements(out, folders)
    changed = 0
    for path in sorted(out.rglob("*")):
        if not path.is_file() or path.suffix not in TEXT_SUFFIXES:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:  # not text the report wrote (every page and table is UTF-8)
            continue
        new = pattern.sub(lambda match: pairs[match.group(1)], text)
        if new != text:
            atomic_write_text(path, new)
            changed += 1
    return changed
