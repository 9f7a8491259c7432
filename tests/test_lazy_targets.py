"""Lazy registry entries are strings, which import-linter cannot see: check them against the layers here.

A ``"spatialbench.X.module:attribute"`` target in a module of package ``spatialbench.P`` must lie in ``P``
itself: a registry lists only what its own package (the layer that owns it) provides, so a lazy entry can
never smuggle in an import the layers contract forbids.
"""

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "spatialbench"
TARGET = re.compile(r"spatialbench\.([a-z_]+)(?:\.[a-z_.]+)?:[A-Za-z_]\w*")


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def lazy_targets(path: Path) -> list[tuple[int, str, str]]:
    """(line, target, its top-level package) of every lazy-target string in ``path`` (docstrings skipped)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            for match in TARGET.finditer(node.value):
                found.append((node.lineno, match.group(0), match.group(1)))
    return found


def _package(path: Path) -> str:
    return path.relative_to(SRC).parts[0].removesuffix(".py")


def test_every_lazy_target_lies_in_the_package_that_registers_it() -> None:
    wrong = [
        f"{path.relative_to(SRC)}:{line}: {target}"
        for path in sorted(SRC.rglob("*.py"))
        for line, target, package in lazy_targets(path)
        if package != _package(path)
    ]
    assert not wrong, "lazy entries pointing outside their own package:\n" + "\n".join(wrong)


def test_the_check_sees_the_known_registries() -> None:
    targets = {t for p in SRC.rglob("*.py") for _, t, _ in lazy_targets(p)}
    assert "spatialbench.models.openai_compat:make_openai" in targets
    assert "spatialbench.scoring.robust_choice:robust_choice" in targets


@pytest.mark.parametrize("source", ['REG.lazy("x", "spatialbench.runs.runner:Runner")\n'])
def test_a_lazy_entry_into_another_package_is_caught(tmp_path: Path, source: str) -> None:
    module = tmp_path / "scoring_copy.py"
    module.write_text(source)
    assert [(t, p) for _, t, p in lazy_targets(module)] == [("spatialbench.runs.runner:Runner", "runs")]
