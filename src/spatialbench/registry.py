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

**Plugins.** A registry made with ``entry_points="spatialbench.benchmarks"`` also lists the entry points of
that group of every installed distribution (``[project.entry-points."spatialbench.benchmarks"]
toy = "toy_plugin:SPEC"`` in the plugin's ``pyproject.toml``) as lazy entries. The group is read once, on the
first call that needs the names (``names()``, ``in``, iteration, ``len``, a :meth:`Registry.get` of a name
not registered in code), never at import; a plugin module is imported only by :meth:`Registry.get`. A
plugin name taken by a built-in entry (one registered in code) is ignored: the built-in wins and a
:class:`PluginWarning` names the plugin's distribution (so an installed package can neither replace nor
break a built-in part); of two plugins with one name, the first distribution read wins likewise. A plugin
entry that does not resolve (its module fails to import, for any reason, or the attribute is missing or
refused) is a :class:`BrokenEntryError` on :meth:`Registry.get` naming the entry and its distribution; the
names are still listed.

:meth:`Registry.create` calls a registered factory and records the name and arguments on the result
(``registered_as``), so a run's configuration can name exactly what it built.
"""

from __future__ import annotations

import difflib
import importlib
import inspect
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import reduce
from importlib import metadata
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


class PluginWarning(UserWarning):
    """An entry point of an installed distribution that is ignored (its name is already taken)."""


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
    """A name → object mapping with eager (decorator), lazy (``"module:attribute"``) and plugin entries.

    Args:
        kind: what is registered, used in error messages (e.g. ``"metric"``).
        check: called on every object registered or resolved (see :data:`Check`); None checks nothing.
        entry_points: the entry-point group that plugins register in (``"spatialbench.benchmarks"``), read
            on first need (see the module docstring); None reads none.
    """

    def __init__(self, kind: str, check: Check | None = None, entry_points: str | None = None) -> None:
        self.kind = kind
        self.entry_points = entry_points
        self._check = check
        self._items: dict[str, T] = {}
        self._lazy: dict[str, str] = {}  # name → "module:attribute", until first resolved
        self._descriptions: dict[str, str] = {}  # name → the one line given to lazy()
        self._plugins: dict[str, str] = {}  # name → distribution, for the entries read from entry points
        self._read = entry_points is None  # whether the group has been read
        self._resolving: set[str] = set()  # lazy entries whose module is being imported

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

        An object defined in the module a lazy entry of ``name`` points at, or registered while that entry
        is being resolved (by the module it imports), fulfils that entry; a plugin entry of ``name`` gives
        way otherwise (with a :class:`PluginWarning`).

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
        module = target.partition(":")[0].strip() if target is not None else None
        if target is not None and (module == getattr(obj, "__module__", None) or name in self._resolving):
            del self._lazy[name]
        else:
            self._claim(name)
        self._items[name] = obj

    def lazy(self, name: str, target: str, description: str = "") -> None:
        """Register ``name`` as ``"package.module:attribute"``, imported on the first :meth:`get`.

        ``description``: one line for listings (:meth:`describe`), so that listing imports nothing.

        Raises:
            DuplicateNameError: ``name`` is already registered.
            ValueError: ``target`` is not of the form ``module:attribute``.
        """
        module, _, attribute = target.partition(":")
        if not module or not attribute:
            raise ValueError(f"lazy {self.kind} {name!r}: target {target!r} is not 'module:attribute'")
        self._claim(name)
        self._lazy[name] = target
        if description:
            self._descriptions[name] = description

    def _claim(self, name: str) -> None:
        """Make way for a registration in code: a plugin entry of ``name`` is dropped (warned), else raise."""
        dist = self._plugins.pop(name, None)
        if dist is not None:
            target = self._lazy.pop(name, None) or "imported"
            self._items.pop(name, None)
            self._ignore(name, dist, target, "built in")
        elif name in self._items or name in self._lazy:
            raise DuplicateNameError(f"{self.kind} {name!r} is already registered")

    def _ignore(self, name: str, dist: str, target: str, holder: str) -> None:
        message = f"{self.kind} {name!r} of distribution {dist!r} ({target}) is ignored: {name!r} is {holder}"
        warnings.warn(message, PluginWarning, stacklevel=4)

    def _read_entry_points(self) -> None:
        """Add the entry points of the registry's group as lazy entries (once; names taken are ignored)."""
        if self._read:
            return
        self._read = True
        for entry in metadata.entry_points(group=self.entry_points or ""):
            dist = entry.dist.name if entry.dist is not None else "unknown"
            if entry.name in self._items or entry.name in self._lazy:
                holder = self._plugins.get(entry.name)
                taken = f"registered by {holder!r}" if holder else "built in"
                self._ignore(entry.name, dist, entry.value, taken)
                continue
            self._lazy[entry.name] = entry.value
            self._plugins[entry.name] = dist

    def get(self, name: str) -> T:
        """Look ``name`` up, importing its module first for a lazy entry.

        Raises:
            UnknownNameError: not registered; the message suggests close matches and lists all names.
            BrokenEntryError: a lazy entry's own module or attribute is missing, or the check refuses the
                object (the entry stays lazy); for a plugin entry also any error its module raises (the
                message names the distribution).
            ImportError: a module a built-in entry's module imports is missing (e.g. an optional SDK).
        """
        if name in self._items:
            return self._items[name]
        if name not in self._lazy:
            self._read_entry_points()
        if name in self._lazy:
            return self._resolve(name)
        raise unknown_name(self.kind, name, self.names()) from None

    def _resolve(self, name: str) -> T:
        target = self._lazy[name]
        dist = self._plugins.get(name)
        module_name, _, attribute = (part.strip() for part in target.partition("[")[0].partition(":"))
        self._resolving.add(name)
        try:
            if not module_name or not attribute:
                raise ValueError(f"{target!r} is not 'module:attribute'")
            module = importlib.import_module(module_name)
            obj: T = self._items[name] if name in self._items else _attribute(module, attribute)
            if self._check is not None:
                self._check(name, obj)
        except Exception as exc:
            reason = _broken_reason(exc, module_name, plugin=dist is not None)
            if reason is None:
                raise
            where = target if dist is None else f"{target}, distribution {dist!r}"
            raise BrokenEntryError(f"{self.kind} {name!r} ({where}): {reason}") from (exc if dist else None)
        finally:
            self._resolving.discard(name)
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

    def describe(self, name: str, *, load: bool = False) -> str:
        """One line about ``name`` ("" when there is none).

        The description given to :meth:`lazy`; else, once the object is imported (``load``: import it now),
        its ``description`` attribute or the first line of its own docstring (a function's or a class's).

        Raises:
            UnknownNameError: not registered. BrokenEntryError / ImportError: ``load`` of an entry that does
                not resolve (see :meth:`get`).
        """
        if name in self._descriptions:
            return self._descriptions[name]
        if load:
            self.get(name)
        elif name not in self:
            raise unknown_name(self.kind, name, self.names())
        return _one_line(self._items[name]) if name in self._items else ""

    def origin(self, name: str) -> str | None:
        """Return the distribution whose entry point registered ``name``; None for one registered in code."""
        return self._plugins.get(name) if name in self else None

    def names(self) -> list[str]:
        """All registered names (lazy and plugin ones included, nothing imported), sorted."""
        self._read_entry_points()
        return sorted({*self._items, *self._lazy})

    def __contains__(self, name: object) -> bool:
        if name in self._items or name in self._lazy:
            return True
        self._read_entry_points()
        return name in self._lazy

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self.names())


def _attribute(module: Any, dotted: str) -> Any:
    """``module.a.b`` for ``dotted`` ``"a.b"`` (AttributeError naming the missing part)."""
    return reduce(getattr, dotted.split("."), module)


def _broken_reason(exc: Exception, module_name: str, *, plugin: bool) -> str | None:
    """Why a lazy entry is broken, or None when ``exc`` is not the entry's own fault (it propagates).

    The entry's own module missing, a missing attribute or a refused object break any entry; any other
    error (a dependency of its module missing, an error raised by its module) breaks a plugin entry only.
    """
    if isinstance(exc, ImportError) and exc.name is not None and f"{module_name}.".startswith(f"{exc.name}."):
        return f"no module named {exc.name!r}"
    if isinstance(exc, AttributeError | TypeError | ValueError) and not isinstance(exc, ImportError):
        return str(exc)
    return f"{type(exc).__name__}: {exc}" if plugin else None


def _one_line(obj: object) -> str:
    """``obj.description`` if a non-empty string, else the first line of a function's or class's docstring."""
    text = getattr(obj, "description", None)
    if not isinstance(text, str) or not text.strip():
        own = inspect.isroutine(obj) or inspect.isclass(obj)
        text = inspect.cleandoc(obj.__doc__) if own and obj.__doc__ else ""
    return text.strip().split("\n", 1)[0].strip()
