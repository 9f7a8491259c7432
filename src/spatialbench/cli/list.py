"""``spatialbench list [KIND]``: every registered name with a one-line description, plugins included.

KIND is one of :data:`KINDS`; without it every kind is printed under its own heading. A name registered
by an installed package's entry point is tagged ``[plugin: DISTRIBUTION]``; an entry that cannot be
imported is listed with the reason instead of a description (listing never fails on one broken entry).
Benchmarks, strategies, analyses and baselines are imported to read their descriptions (light modules);
back ends are described by their registry entries, so no provider module or SDK is imported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import typer

from spatialbench.cli.apps import app
from spatialbench.registry import BrokenEntryError, Registry, unknown_name


def _benchmarks() -> Registry[Any]:
    from spatialbench.benchmarks import BENCHMARKS

    return BENCHMARKS


def _backends() -> Registry[Any]:
    from spatialbench.models.base import BACKENDS

    return BACKENDS


def _strategies() -> Registry[Any]:
    from spatialbench.prompting.strategies import STRATEGIES

    return STRATEGIES


def _analyses() -> Registry[Any]:
    from spatialbench.analysis.registry import ANALYSES

    return ANALYSES


def _baselines() -> Registry[Any]:
    from spatialbench.scoring.baselines import BASELINES

    return BASELINES


#: KIND → (its registry, whether listing imports an entry to describe it)
KINDS: dict[str, tuple[Callable[[], Registry[Any]], bool]] = {
    "benchmarks": (_benchmarks, True),
    "backends": (_backends, False),
    "strategies": (_strategies, True),
    "analyses": (_analyses, True),
    "baselines": (_baselines, True),
}


def _description(registry: Registry[Any], name: str, load: bool) -> str:
    """Return the entry's one line, or why it cannot be imported (a broken entry, a missing dependency)."""
    try:
        return registry.describe(name, load=load)
    except (BrokenEntryError, ImportError) as exc:  # BrokenEntryError first: it is also an ImportError
        return f"(cannot be imported: {exc})"


def describe_kind(kind: str) -> list[str]:
    """One line per name registered for ``kind`` (a key of :data:`KINDS`): name, description, plugin tag.

    Raises:
        UnknownNameError: ``kind`` is not a key of :data:`KINDS` (the message suggests near misses).
    """
    if kind not in KINDS:
        raise unknown_name("kind", kind, KINDS)
    make, load = KINDS[kind]
    registry = make()
    names = registry.names()
    width = max((len(name) for name in names), default=0)
    lines = []
    for name in names:
        origin = registry.origin(name)
        tag = f"  [plugin: {origin}]" if origin else ""
        lines.append(f"{name:<{width}}  {_description(registry, name, load)}{tag}".rstrip())
    return lines or ["(none registered)"]


@app.command("list")
def list_(
    kind: Annotated[str | None, typer.Argument(help=f"One of: {', '.join(KINDS)}; all when omitted.")] = None,
) -> None:
    """Print every registered name with a one-line description (plugins of installed packages included)."""
    if kind is not None:  # an unknown kind: UnknownNameError, one line and exit 2 (cli/apps.py)
        typer.echo("\n".join(describe_kind(kind)))
        return
    blocks = [f"{name}\n" + "\n".join(f"  {line}" for line in describe_kind(name)) for name in KINDS]
    typer.echo("\n\n".join(blocks))
