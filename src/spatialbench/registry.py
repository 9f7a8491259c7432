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

Duplicate names raise at registration; unknown names raise with the closest known names. A registry may
``check`` what is registered (benchmarks: a ``BenchmarkSpec`` named as its entry); an entry that does not
resolve (missing module or attribute, an object the check refuses) is one :class:`BrokenEntryError` naming
the entry and its target.
:meth:`Registry.create` calls a registered factory and records the name and arguments on the result
(``registered_as``), so a run's configuration can name exactly what it built.
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Generic, TypeVar

from spatialbench.errors import SpatialBenchError

T = TypeVar("T")


class UnknownNameError(SpatialBenchError, KeyError):
    """A name that is not registered; the message lists near misses."""

    def __str__(self) -> str:  # KeyError quotes its message; show it plainly
        return str(self.args[0])


class BrokenEntryError(UnknownNameError, ImportError):
    """A registered name that cannot be used: its module or attribute is missing, or the check refuses it.

    Both an UnknownNameError (commands report it as an unusable name) and an ImportError (like a failed
    ``from module import attribute``: callers that treat an unimportable provider as unavailable still do).
    """


class DuplicateNameError(SpatialBenchError, ValueError):
    """A second registration under a name already taken."""


Check = Callable[[str, Any], None]
"""``check(name, obj)`` raises ValueError or TypeError (the reason, without the name) for an unfit entry."""


def near_misses(name: str, known: Iterable[str]) -> list[str]:
    """Return up to 3 known names like ``name`` (similarity >= 0.5), best first, within 0.1 of the best."""
    close = difflib.get_close_matches(name, list(known), n=3, cutoff=0.5)
    best = difflib.SequenceMatcher(None, name, close[0]).ratio() if close else 0.0
    return [c for c in close if difflib.SequenceMatcher(None, name, c).ratio() >= best - 0.1]


def unknown_name(kind: str, name: str, known: Iterable[str], hints: Sequence[str] = ()) -> UnknownNameError:
    """Return the error for ``name`` not among ``known``: ``hints`` and near misses first, then all names.

    The message reads ``unknown KIND 'NAME'; did you mean 'A', 'B'? Known: A, B, C`` (``; Known: ...``
    without a suggestion).
    """
    names = sorted(known)
    close = [*hints, *near_misses(name, names)]
    hint = f"; did you mean {', '.join(map(repr, dict.fromkeys(close)))}?" if close else ";"
    return UnknownNameError(f"unknown {kind} {name!r}{hint} Known: {', '.join(names) or '(none)'}")


class Registry(Generic[T]):
    """A name → object mapping with eager (decorator) and lazy (``"module:attribute"``) entries.

    Args:
        kind: what is registered, used in error messages (e.g. ``"metric"``).
        check: called on every object registered or resolved (see :data:`Check`); None checks nothing.
    """

    def __init__(self, kind: str, check: Check | None = None) -> None:
        self.kind = kind
        self._check = check
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
            ValueError: the registry's check refuses ``obj`` (the message names the entry and why).
        """
        if self._check is not None:
            try:
                self._check(name, obj)
            except (TypeError, ValueError) as exc:
                raise ValueError(f"{self.kind} {name!r}: {exc}") from None
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
            BrokenEntryError: a lazy entry's own module or attribute is missing, or the check refuses the
                object (the entry stays lazy).
            ImportError: a module the entry's module imports is missing (e.g. an optional SDK).
        """
        if name in self._items:
            return self._items[name]
        if name in self._lazy:
            return self._resolve(name)
        raise unknown_name(self.kind, name, self.names()) from None

    def _resolve(self, name: str) -> T:
        target = self._lazy[name]
        module_name, _, attribute = target.partition(":")
        try:
            module = importlib.import_module(module_name)
            obj: T = self._items[name] if name in self._items else getattr(module, attribute)
            if self._check is not None:
                self._check(name, obj)
        except ImportError as exc:
            if exc.name is None or not f"{module_name}.".startswith(f"{exc.name}."):  # a dependency's import
                raise
            raise BrokenEntryError(f"{self.kind} {name!r} ({target}): no module named {exc.name!r}") from None
        except (AttributeError, TypeError, ValueError) as exc:
            raise BrokenEntryError(f"{self.kind} {name!r} ({target}): {exc}") from None
        self._items[name] = obj
        self._lazy.pop(name, None)
        return obj

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
