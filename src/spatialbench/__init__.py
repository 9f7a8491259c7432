"""spatialbench: visual-spatial intelligence benchmarks for multimodal LLMs.

The library's entry points are attributes of this package, imported on first use (``import spatialbench``
itself imports nothing else)::

    import spatialbench
    summary = spatialbench.run("run.yaml", data={"limit": 5})   # or a RunConfig, or a mapping
    summary.score.table.average                                 # the benchmark's average, percent
    run = spatialbench.open_run("runs/qwen")                    # a finished run, read-only
    spatialbench.score(run)                                      # scored as it scored itself

``run``, ``arun``, ``prepare``, ``open_run``, ``score``, ``generate``, ``analyze`` and ``import_run``: see
:mod:`spatialbench.api`. The synchronous forms work inside a running event loop (Jupyter).

Packages are layers (see DESIGN.md; checked by import-linter, contracts in pyproject.toml): ``records`` /
``registry`` → ``scene``, ``media``, ``prompting``, ``models``, ``scoring`` → ``synth`` → ``generate`` →
``benchmarks`` → ``runs`` → ``audit`` / ``demo`` / ``analysis`` → ``report`` / ``web`` → ``api`` → ``cli``.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spatialbench.api import analyze, arun, generate, import_run, open_run, prepare, run, score

__version__ = "0.1.0"
__all__ = ["__version__", "analyze", "arun", "generate", "import_run", "open_run", "prepare", "run", "score"]
_ENTRY_POINTS = frozenset(__all__) - {"__version__"}


def __getattr__(name: str) -> Any:
    """Return the entry point ``name`` of :mod:`spatialbench.api`, importing it on first use."""
    if name not in _ENTRY_POINTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module("spatialbench.api"), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *_ENTRY_POINTS})


class _Generate:
    """``spatialbench.generate``: the entry point when called, the ``spatialbench.generate`` package else.

    The package of the generators has the entry point's name; importing it sets the attribute, so the
    attribute is this object, which calls :func:`spatialbench.api.generating.generate` and reads every
    other attribute from the package (``spatialbench.generate.vsi``).
    """

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """See :func:`spatialbench.api.generating.generate`."""
        return __getattr__("generate")(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.generate"), name)


class _Package(types.ModuleType):
    @property
    def generate(self) -> _Generate:
        return _GENERATE

    @generate.setter
    def generate(self, module: types.ModuleType) -> None:  # the import system's setattr: kept out
        return None


_GENERATE: _Generate = _Generate()
sys.modules[__name__].__class__ = _Package
