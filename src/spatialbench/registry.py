"""One small registry type: parts (back ends, task generators, metrics, benchmarks...) register by name.

Usage::

    BACKENDS: Registry[Callable[..., Backend]] = Registry("model back end")
    BACKENDS.lazy("openai", "spatialbench.models.openai_compat:make_openai")   # listed, not imported

    @METRICS.register("mra")          # eager registration where the module is already imported
    def mra(...): ...

    BACKENDS.get("opanai")             # UnknownNameError: ... did you mean 'openai'?

A **lazy entry** (the lm-evaluation-harness way) is a ``"module:attribute"`` placeholder: the name is known
at once (``names()``, ``in``) and the module is imported only on the first :meth:`Registry.get` of that
name, so every registry is complete at import without importing heavy modules (SDKs, torch). A module that
decorates the object with ``@registry.register(name)`` fulfils its own placeholder instead of clashing.

Duplicate names raise at registration; unknown names raise with the closest known names.
:meth:`Registry.create` calls a registered factory and records the name and arguments on the result
(``registered_as``), so a run's configuration can name exactly what it built.
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class UnknownNameError(KeyError):
    """A name that is not registered; the message lists near misses."""

    def __str__(self) -> str:  # KeyError quotes its message; show it plainly
        return str(self.args[0])


class DuplicateNameError(ValueError):
    """A second registration under a name already taken."""


class Registry(Generic[T]):
    """A name → object mapping with eager (decorator) and lazy (``"module:attribute"``) entries.

    Args:
        kind: what is registered, used in error messages (e.g. ``"metric"``).
    """

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._items: dict[str, T] = {}
        self._lazy: dict[str, str] = {}  # name → "module:attribute", until first resolved

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
        """Register ``obj`` under ``name``.

        An object defined in the module a lazy entry of ``name`` points at fulfils that entry.

        Raises:
            DuplicateNameError: ``name`` is taken (by another object or another module's placeholder).
        """
        target = self._lazy.get(name)
        if target is not None and target.partition(":")[0] == getattr(obj, "__module__", None):
            del self._lazy[name]
        elif name in self:
            raise DuplicateNameError(f"{self.kind} {name!r} is already registered")
        self._items[name] = obj

    def lazy(self, name: str, target: str) -> None:
        """Register ``name`` as ``"package.module:attribute"``, imported on the first :meth:`get`.

        Raises:
            DuplicateNameError: ``name`` is already registered.
            ValueError: ``target`` is not of the form ``module:attribute``.
        """
        module, _, attribute = target.partition(":")
        if not module or not attribute:
            raise ValueError(f"lazy {self.kind} {name!r}: target {target!r} is not 'module:attribute'")
        if name in self:
            raise DuplicateNameError(f"{self.kind} {name!r} is already registered")
        self._lazy[name] = target

    def get(self, name: str) -> T:
        """Look ``name`` up, importing its module first for a lazy entry.

        Raises:
            UnknownNameError: not registered; the message suggests close matches and lists all names.
            ImportError: a lazy entry's module cannot be imported (e.g. an optional SDK is missing).
        """
        if name in self._items:
            return self._items[name]
        if name in self._lazy:
            return self._resolve(name)
        close = difflib.get_close_matches(name, self.names(), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
        known = ", ".join(self.names()) or "(none)"
        raise UnknownNameError(f"unknown {self.kind} {name!r}{hint} Known: {known}") from None

    def _resolve(self, name: str) -> T:
        module_name, _, attribute = self._lazy[name].partition(":")
        module = importlib.import_module(module_name)
        if name not in self._items:  # the module did not register it itself
            obj: T = getattr(module, attribute)
            self._items[name] = obj
            self._lazy.pop(name, None)
        return self._items[name]

    def create(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """Call the factory registered as ``name`` and record how on the result.

        The result gets ``registered_as = {"kind", "name", "args", "kwargs"}`` when it accepts attributes
        (frozen or slotted results are returned as they are).

        Raises:
            UnknownNameError: ``name`` is not registered. TypeError: the entry is not callable.
        """
        factory = self.get(name)
        if not callable(factory):
            raise TypeError(f"{self.kind} {name!r} is not a factory")
        obj = factory(*args, **kwargs)
        record = {"kind": self.kind, "name": name, "args": list(args), "kwargs": dict(kwargs)}
        try:
            obj.registered_as = record
        except (AttributeError, TypeError, ValueError):  # frozen dataclass / pydantic model
            pass
        return obj

    def names(self) -> list[str]:
        """All registered names (lazy ones included, nothing imported), sorted."""
        return sorted({*self._items, *self._lazy})

    def __contains__(self, name: object) -> bool:
        return name in self._items or name in self._lazy

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self.names())
