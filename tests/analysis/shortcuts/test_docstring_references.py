"""Every :data:/:func:/:class:/:mod: reference in the shortcuts package's docs names an object that exists.

Issue 23 item 5: ``features.py`` pointed at :data:`LEAKY_FEATURE_SETS` as its own, but it lives in
``sets.py``. A reference resolves as Sphinx reads it here: ``spatialbench.x.y`` fully qualified,
``.x.y`` from the package, a bare name from the module whose docstring (or ``#:`` comment) holds it;
``~`` only shortens the shown name.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
import types

import pytest

import spatialbench.analysis.shortcuts as package

ROLE = re.compile(r":(data|func|class|mod|exc|meth|attr):`([^`]+)`")
MODULES = sorted(f"{package.__name__}.{m.name}" for m in pkgutil.iter_modules(package.__path__))
KINDS = {
    "func": callable,
    "meth": callable,
    "class": inspect.isclass,
    "exc": lambda o: inspect.isclass(o) and issubclass(o, BaseException),
    "mod": inspect.ismodule,
    "data": lambda o: not (inspect.isclass(o) or inspect.ismodule(o) or inspect.isfunction(o)),
    "attr": lambda o: True,
}


def _lookup(dotted: str) -> object:
    """Import the longest module prefix of ``dotted``, then follow the rest as attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            found = getattr(found, name)
        return found
    raise AttributeError(dotted)


def resolve(module: str, role: str, target: str) -> object:
    """The object ``:role:`target``` names in ``module``'s docs; AttributeError when there is none."""
    target = target.lstrip("~")
    if target.startswith("spatialbench."):
        found = _lookup(target)
    elif target.startswith("."):
        found = _lookup(package.__name__ + target)
    else:
        found = _lookup(f"{module}.{target}")
    if not KINDS[role](found):
        raise AttributeError(f":{role}:`{target}` is a {type(found).__name__}")
    return found


def references(module: types.ModuleType) -> list[tuple[str, str]]:
    """(role, target) of every reference in the module's docstrings and ``#:`` doc comments."""
    source = inspect.getsource(module)
    texts = [ast.get_docstring(node, clean=False) or "" for node in ast.walk(ast.parse(source))
             if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)]
    texts += [line for line in source.splitlines() if line.lstrip().startswith("#:")]
    return [match.groups() for text in texts for match in ROLE.finditer(text)]


@pytest.mark.parametrize("name", MODULES)
def test_every_reference_resolves(name: str) -> None:
    module = importlib.import_module(name)
    wrong = []
    for role, target in references(module):
        try:
            resolve(name, role, target)
        except AttributeError as error:
            wrong.append(f":{role}:`{target}` ({error})")
    assert wrong == [], f"{name}: {wrong}"


def test_the_package_has_references_to_check() -> None:
    # features.py alone holds 3 (the label columns, the leaky sets, question_table)
    features = importlib.import_module(f"{package.__name__}.features")
    assert len(references(features)) == 3 and len(MODULES) >= 13


def test_the_old_wrong_reference_is_refused_and_the_right_one_found() -> None:
    from spatialbench.analysis.shortcuts.sets import LEAKY_FEATURE_SETS

    features = f"{package.__name__}.features"
    with pytest.raises(AttributeError):
        resolve(features, "data", "LEAKY_FEATURE_SETS")  # not in features.py
    with pytest.raises(AttributeError):
        resolve(features, "func", ".sets.LEAKY_FEATURE_SETS")  # a dict, not a function
    assert resolve(features, "data", ".sets.LEAKY_FEATURE_SETS") is LEAKY_FEATURE_SETS
    assert resolve(features, "data", "~spatialbench.analysis.shortcuts.sets.LEAKY_FEATURE_SETS") is (
        LEAKY_FEATURE_SETS
    )
