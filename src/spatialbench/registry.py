"""One small registry type: parts (back ends, task generators, metrics, benchmarks...) register by name.

Usage::

    backends: Registry[Callable[..., Backend]] = Registry("model back end")

    @backends.register("openai-compatible")
    def make_openai_compatible(...): ...

    backends.get("openai-compatable")  # UnknownNameError: ... did you mean 'openai-compatible'?

Duplicate names raise at registration; unknown names raise with the closest known names.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

T = TypeVar("T")


class UnknownNameError(KeyError):
    """A name that is not registered; the message lists near misses."""

    def __str__(self) -> str:  # KeyError quotes its message; show it plainly
        return str(self.args[0])


class DuplicateNameError(ValueError):
    """A second registration under a name already taken."""


class Registry(Generic[T]):
    """A name → object mapping with a decorator for registration.

    Args:
        kind: what is registered, used in error messages (e.g. ``"metric"``).
    """

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._items: dict[str, T] = {}

    def register(self, name: str) -> Callable[[T], T]:
        """Return a decorator that registers its argument under ``name``.

        Raises:
            DuplicateNameError: ``name`` is already registered.
        """

        def decorator(obj: T) -> T:
            self.add(name, obj)
            return obj

        return decorator

    def add(self, name: str, obj: T) -> None:
        """Register ``obj`` under ``name``; raises DuplicateNameError if taken."""
        if name in self._items:
            raise DuplicateNameError(f"{self.kind} {name!r} is already registered")
        self._items[name] = obj

    def get(self, name: str) -> T:
        """Look ``name`` up.

        Raises:
            UnknownNameError: not registered; the message suggests close matches and lists all names.
        """
        try:
            return self._items[name]
        except KeyError:
            close = difflib.get_close_matches(name, list(self._items), n=3, cutoff=0.5)
            hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
            known = ", ".join(sorted(self._items)) or "(none)"
            raise UnknownNameError(f"unknown {self.kind} {name!r}{hint} Known: {known}") from None

    def names(self) -> list[str]:
        """All registered names, sorted."""
        return sorted(self._items)

    def __contains__(self, name: object) -> bool:
        return name in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self._items)
