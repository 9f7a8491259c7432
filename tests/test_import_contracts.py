"""The import contracts in pyproject.toml ([tool.importlinter]) hold, and they catch a wrong import.

The other tests copy src/ to a temporary folder, add one wrong import to the copy (upward across layers,
between two back ends, out of the records leaf) and check that lint-imports, pointed at the copy, fails
naming exactly that import.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
WRONG_IMPORTS = {  # module file in the copy → (imported module, id of the contract it breaks)
    "scoring/__init__.py": ("spatialbench.runs", "layers"),
    "models/gemini.py": ("spatialbench.models.openai_compat", "backends"),
    "records/__init__.py": ("spatialbench.registry", "records-leaf"),
}


def contract_name(contract_id: str) -> str:
    """The display name of the [tool.importlinter] contract with id ``contract_id``."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return next(c["name"] for c in config["contracts"] if c["id"] == contract_id)


def lint_imports(cwd: Path, src: Path) -> subprocess.CompletedProcess[str]:
    """Run lint-imports on the package under ``src`` with the contracts of ``cwd``/pyproject.toml."""
    env = {**os.environ, "PYTHONPATH": str(src), "COLUMNS": "250"}  # no wrapped lines in the report
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-logo", "--no-cache", str(cwd / "pyproject.toml")],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False,
    )


def test_contracts_hold_on_the_tree():
    result = lint_imports(ROOT, ROOT / "src")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("module_file", sorted(WRONG_IMPORTS))
def test_a_wrong_import_breaks_a_contract(tmp_path, module_file):
    imported, contract_id = WRONG_IMPORTS[module_file]
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    src = tmp_path / "src"
    shutil.copytree(ROOT / "src" / "spatialbench", src / "spatialbench",
                    ignore=shutil.ignore_patterns("__pycache__"))
    path = src / "spatialbench" / module_file
    path.write_text(path.read_text() + f"import {imported}  # deliberately wrong\n")
    importer = "spatialbench." + module_file.removesuffix(".py").removesuffix("/__init__").replace("/", ".")

    result = lint_imports(tmp_path, src)

    out = result.stdout + result.stderr
    assert f"{importer} -> {imported}" not in lint_imports(ROOT, ROOT / "src").stdout  # the copy's line only
    assert result.returncode != 0, out
    assert f"{contract_name(contract_id)} BROKEN" in out
    assert f"{importer} is not allowed to import {imported}" in out
    assert f"- {importer} -> {imported} (l." in out
