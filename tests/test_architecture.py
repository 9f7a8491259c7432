"""Size limits of the project guide: no module over 400 lines, no function or method over 50 lines."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "spatialbench"
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 50


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def name(path: Path) -> str:
    return path.relative_to(PACKAGE.parent).as_posix()


def long_functions(path: Path) -> list[str]:
    """``file:line name (N lines)`` for each function, method or nested function over the limit."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                found.append(f"{name(path)}:{node.lineno} {node.name} ({length} lines)")
    return found


def test_the_package_is_found():
    assert len(modules()) > 50


def test_no_module_over_400_lines():
    too_long = []
    for path in modules():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_MODULE_LINES:
            too_long.append(f"{name(path)} ({lines} lines)")
    assert not too_long, f"modules over {MAX_MODULE_LINES} lines: " + "; ".join(too_long)


def test_no_function_over_50_lines():
    too_long = [entry for path in modules() for entry in long_functions(path)]
    assert not too_long, f"functions over {MAX_FUNCTION_LINES} lines: " + "; ".join(too_long)
