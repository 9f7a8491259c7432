import dataclasses
import importlib
import importlib.metadata
import subprocess
import sys
import textwrap

import pytest

from spatialbench.registry import (
    BrokenEntryError,
    DuplicateNameError,
    PluginWarning,
    Registry,
    UnknownNameError,
    unknown_name,
)


def test_register_and_get():
    reg: Registry[int] = Registry("metric")
    reg.register("mra")(1)
    assert reg.get("mra") == 1
    assert "mra" in reg and reg.names() == ["mra"]


def test_duplicate_name_raises():
    reg: Registry[int] = Registry("metric")
    reg.add("mra", 1)
    with pytest.raises(DuplicateNameError, match="'mra' is already registered"):
        reg.add("mra", 2)


def test_unknown_name_suggests_near_miss():
    reg: Registry[int] = Registry("model back end")
    reg.add("openai-compatible", 1)
    with pytest.raises(UnknownNameError, match="did you mean 'openai-compatible'"):
        reg.get("openai-compatable")


# --- lazy entries: "module:attribute" placeholders resolved on first get() ---------------------------------


@pytest.fixture
def write_module(tmp_path, monkeypatch):
    """Write ``source`` as a fresh importable module on sys.path; return its name. Unimported at teardown."""
    monkeypatch.syspath_prepend(str(tmp_path))
    written: list[str] = []

    def write(source: str) -> str:
        module = f"toy_{tmp_path.name}_{len(written)}".replace("-", "_")
        (tmp_path / f"{module}.py").write_text(textwrap.dedent(source))
        written.append(module)
        return module

    yield write
    for module in written:
        sys.modules.pop(module, None)


TOY = """
    class Toy:
        def __init__(self, *args, **kwargs):
            self.args, self.kwargs = args, kwargs

    def make_toy(*args, **kwargs):
        return Toy(*args, **kwargs)

    VALUE = 42
"""


def test_lazy_entry_is_listed_without_importing(write_module):
    module = write_module(TOY)
    reg: Registry[int] = Registry("metric")
    reg.lazy("answer", f"{module}:VALUE")
    assert "answer" in reg and reg.names() == ["answer"] and len(reg) == 1 and list(reg) == ["answer"]
    assert module not in sys.modules


def test_get_imports_on_first_use(write_module):
    module = write_module(TOY)
    reg: Registry[int] = Registry("metric")
    reg.lazy("answer", f"{module}:VALUE")
    assert module not in sys.modules
    assert reg.get("answer") == 42
    assert module in sys.modules
    assert reg.get("answer") == 42 and reg.names() == ["answer"]


def test_names_are_complete_without_importing(write_module):
    first, second = write_module(TOY), write_module(TOY)
    reg: Registry[object] = Registry("model back end")
    reg.add("eager", 1)
    reg.lazy("zeta", f"{first}:make_toy")
    reg.lazy("alpha", f"{second}:make_toy")
    assert reg.names() == ["alpha", "eager", "zeta"]
    assert first not in sys.modules and second not in sys.modules


@pytest.fixture
def shared_registry(write_module):
    """A module holding ``REG = Registry("toy")``, like a package's registry module; returns (name, REG)."""
    holder = write_module("""
        from spatialbench.registry import Registry

        REG = Registry("toy")
    """)
    return holder, importlib.import_module(holder).REG


def test_module_registering_itself_fulfils_its_placeholder(write_module, shared_registry):
    holder, reg = shared_registry
    module = write_module(f"""
        from {holder} import REG

        @REG.register("self-made")
        def make():
            return "made"
    """)
    reg.lazy("self-made", f"{module}:make")
    assert module not in sys.modules
    factory = reg.get("self-made")
    assert factory.__module__ == module and factory() == "made"
    assert reg.names() == ["self-made"]


def test_another_module_cannot_take_a_lazy_name(write_module, shared_registry):
    holder, reg = shared_registry
    module = write_module(TOY)
    intruder = write_module(f"""
        from {holder} import REG

        @REG.register("taken")
        def make():
            return "intruder"
    """)
    reg.lazy("taken", f"{module}:make_toy")
    with pytest.raises(DuplicateNameError, match="'taken' is already registered"):
        importlib.import_module(intruder)


def test_duplicate_lazy_names_raise(write_module):
    module = write_module(TOY)
    reg: Registry[object] = Registry("metric")
    reg.lazy("mra", f"{module}:VALUE")
    with pytest.raises(DuplicateNameError, match="'mra' is already registered"):
        reg.lazy("mra", f"{module}:make_toy")
    reg.add("accuracy", 1)
    with pytest.raises(DuplicateNameError, match="'accuracy' is already registered"):
        reg.lazy("accuracy", f"{module}:VALUE")
    with pytest.raises(DuplicateNameError, match="'mra' is already registered"):
        reg.add("mra", 2)  # an object from another module (this one) does not fulfil the placeholder
    assert module not in sys.modules


def test_lazy_target_must_name_module_and_attribute():
    reg: Registry[object] = Registry("metric")
    for target in ("no_colon", ":attribute", "module:"):
        with pytest.raises(ValueError, match="is not 'module:attribute'"):
            reg.lazy("x", target)
    assert reg.names() == []


def test_unknown_name_suggests_lazy_near_miss_without_importing(write_module):
    module = write_module(TOY)
    reg: Registry[object] = Registry("model back end")
    reg.lazy("openai", f"{module}:make_toy")
    reg.lazy("gemini", f"{module}:make_toy")
    with pytest.raises(UnknownNameError, match="did you mean 'openai'") as raised:
        reg.get("opanai")
    assert "Known: gemini, openai" in str(raised.value)
    assert module not in sys.modules


def test_unknown_name_without_near_miss_lists_known():
    reg: Registry[int] = Registry("metric")
    with pytest.raises(UnknownNameError, match=r"^unknown metric 'mra'; Known: \(none\)$"):
        reg.get("mra")


def test_unknown_name_message_puts_hints_first():
    error = unknown_name("model", "gpt-4o", ["openai", "hf"], hints=["openai:gpt-4o"])
    assert str(error) == "unknown model 'gpt-4o'; did you mean 'openai:gpt-4o'? Known: hf, openai"


def test_missing_module_is_a_broken_entry_naming_it():
    reg: Registry[object] = Registry("model back end")
    reg.lazy("ghost", "spatialbench_no_such_module_anywhere:make")
    with pytest.raises(BrokenEntryError) as raised:
        reg.get("ghost")
    assert str(raised.value) == (
        "model back end 'ghost' (spatialbench_no_such_module_anywhere:make): "
        "no module named 'spatialbench_no_such_module_anywhere'"
    )
    assert "ghost" in reg


def test_missing_dependency_of_the_entry_module_stays_an_import_error(write_module):
    module = write_module("import spatialbench_no_such_sdk_anywhere\n")
    reg: Registry[object] = Registry("model back end")
    reg.lazy("sdk", f"{module}:make")
    with pytest.raises(ImportError) as raised:
        reg.get("sdk")
    assert not isinstance(raised.value, BrokenEntryError)
    assert raised.value.name == "spatialbench_no_such_sdk_anywhere"


def test_missing_attribute_is_a_broken_entry(write_module):
    module = write_module(TOY)
    reg: Registry[object] = Registry("metric")
    reg.lazy("gone", f"{module}:GONE")
    with pytest.raises(BrokenEntryError, match=rf"metric 'gone' \({module}:GONE\): module '{module}' has no"):
        reg.get("gone")


def _positive(name: str, obj: object) -> None:
    if not isinstance(obj, int) or obj <= 0:
        raise ValueError(f"{obj!r} is not a positive number")


def test_check_refuses_unfit_objects_added_or_resolved(write_module):
    module = write_module(TOY)
    reg: Registry[object] = Registry("metric", check=_positive)
    with pytest.raises(ValueError, match=r"^metric 'zero': 0 is not a positive number$"):
        reg.add("zero", 0)
    assert "zero" not in reg
    reg.lazy("toy", f"{module}:make_toy")
    with pytest.raises(BrokenEntryError, match=rf"^metric 'toy' \({module}:make_toy\): <function make_toy"):
        reg.get("toy")
    assert "toy" in reg  # still the lazy entry, not the refused object
    reg.lazy("value", f"{module}:VALUE")
    assert reg.get("value") == 42


def test_create_records_arguments(write_module):
    module = write_module(TOY)
    reg: Registry[object] = Registry("model back end")
    reg.lazy("toy", f"{module}:make_toy")
    toy = reg.create("toy", "model-x", temperature=0.0)
    assert (toy.args, toy.kwargs) == (("model-x",), {"temperature": 0.0})
    assert toy.registered_as == {
        "kind": "model back end", "name": "toy", "args": ["model-x"], "kwargs": {"temperature": 0.0},
    }


def test_create_returns_frozen_results_unchanged():
    @dataclasses.dataclass(frozen=True)
    class Frozen:
        size: int

    reg: Registry[object] = Registry("metric")
    reg.add("frozen", Frozen)
    made = reg.create("frozen", size=3)
    assert made == Frozen(3) and not hasattr(made, "registered_as")


def test_create_rejects_non_factories():
    reg: Registry[object] = Registry("metric")
    reg.add("constant", 42)
    with pytest.raises(TypeError, match="'constant' is not a factory"):
        reg.create("constant")


# --- plugins: entry points of installed distributions, read once on first need ---------------------------


@pytest.fixture
def install_plugin(tmp_path, monkeypatch):
    """Write an installed distribution's metadata (``<dist>-1.0.dist-info``) on sys.path with entry points."""
    site = tmp_path / "site"
    monkeypatch.syspath_prepend(str(site))

    def install(dist: str, group: str, entries: dict[str, str]) -> None:
        info = site / f"{dist.replace('-', '_')}-1.0.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
        lines = [f"[{group}]", *(f"{name} = {value}" for name, value in entries.items())]
        (info / "entry_points.txt").write_text("\n".join(lines) + "\n")

    return install


def _group(tmp_path) -> str:
    return f"spatialbench.test_{tmp_path.name}".replace("-", "_")


def test_plugin_entries_are_listed_without_importing(write_module, install_plugin, tmp_path):
    module = write_module(TOY)
    entries = {"answer": f"{module}:VALUE", "maker": f"{module}:make_toy"}
    install_plugin("toy-plugin", _group(tmp_path), entries)
    reg: Registry[object] = Registry("metric", entry_points=_group(tmp_path))
    reg.add("eager", 1)
    assert reg.names() == ["answer", "eager", "maker"] and "maker" in reg and len(reg) == 3
    assert module not in sys.modules
    assert reg.origin("answer") == "toy-plugin" and reg.origin("eager") is None
    assert reg.get("answer") == 42 and module in sys.modules


def test_get_of_a_plugin_name_reads_the_group(write_module, install_plugin, tmp_path):
    module = write_module(TOY)
    install_plugin("toy-plugin", _group(tmp_path), {"answer": f"{module}:VALUE"})
    assert Registry("metric", entry_points=_group(tmp_path)).get("answer") == 42


def test_the_group_is_read_once_and_not_when_registering(write_module, install_plugin, tmp_path, monkeypatch):
    module = write_module(TOY)
    install_plugin("toy-plugin", _group(tmp_path), {"answer": f"{module}:VALUE"})
    groups: list[str] = []
    real = importlib.metadata.entry_points

    def counting(**selection):
        groups.append(selection["group"])
        return real(**selection)

    monkeypatch.setattr(importlib.metadata, "entry_points", counting)
    reg: Registry[object] = Registry("metric", entry_points=_group(tmp_path))
    reg.lazy("built-in", f"{module}:make_toy")
    reg.add("eager", 1)
    assert reg.get("eager") == 1 and "built-in" in reg and groups == []  # answered without the plugins
    assert reg.names() == ["answer", "built-in", "eager"] and list(reg) == reg.names() and len(reg) == 3
    assert "missing" not in reg and reg.get("answer") == 42
    with pytest.raises(UnknownNameError, match="did you mean 'answer'"):
        reg.get("answr")
    assert groups == [_group(tmp_path)]


def test_a_plugin_cannot_take_a_built_in_name(write_module, install_plugin, tmp_path):
    module = write_module(TOY)
    entries = {"mra": f"{module}:VALUE", "fresh": f"{module}:VALUE"}
    install_plugin("clashing-plugin", _group(tmp_path), entries)
    reg: Registry[object] = Registry("metric", entry_points=_group(tmp_path))
    reg.add("mra", 1)
    with pytest.warns(PluginWarning, match=r"metric 'mra' of distribution 'clashing-plugin' \(.*:VALUE\) is "
                                           r"ignored: 'mra' is built in"):
        assert reg.names() == ["fresh", "mra"]
    assert reg.get("mra") == 1 and reg.origin("mra") is None
    with pytest.warns(PluginWarning, match="metric 'fresh' of distribution 'clashing-plugin'"):
        reg.lazy("fresh", f"{module}:make_toy")  # registered in code after the group was read: it wins
    assert reg.origin("fresh") is None and reg.get("fresh") is not None and module in sys.modules


def test_of_two_plugins_with_one_name_one_is_kept_and_the_other_named(write_module, install_plugin, tmp_path):
    module = write_module(TOY)
    install_plugin("first-plugin", _group(tmp_path), {"same": f"{module}:VALUE"})
    install_plugin("second-plugin", _group(tmp_path), {"same": f"{module}:make_toy"})
    reg: Registry[object] = Registry("metric", entry_points=_group(tmp_path))
    with pytest.warns(PluginWarning, match=r"metric 'same' of distribution '(first|second)-plugin' .* is "
                                           r"ignored: 'same' is registered by '(first|second)-plugin'"):
        assert reg.names() == ["same"]
    assert reg.origin("same") in ("first-plugin", "second-plugin")


def test_broken_plugin_entries_fail_on_get_and_still_list(write_module, install_plugin, tmp_path):
    module = write_module(TOY)
    failing = write_module("raise RuntimeError('plugin bug')\n")
    install_plugin("broken-plugin", _group(tmp_path), {
        "ghost": "spatialbench_no_such_plugin:SPEC",
        "gone": f"{module}:GONE",
        "failing": f"{failing}:SPEC",
        "shapeless": "no_colon_here",
        "fine": f"{module}:VALUE",
    })
    reg: Registry[object] = Registry("metric", entry_points=_group(tmp_path))
    assert reg.names() == ["failing", "fine", "ghost", "gone", "shapeless"]
    expected = {
        "ghost": "no module named 'spatialbench_no_such_plugin'",
        "gone": f"module '{module}' has no attribute 'GONE'",
        "failing": "RuntimeError: plugin bug",
        "shapeless": "'no_colon_here' is not 'module:attribute'",
    }
    for name, reason in expected.items():
        with pytest.raises(BrokenEntryError) as raised:
            reg.get(name)
        assert str(raised.value).startswith(f"metric {name!r} (")
        assert f", distribution 'broken-plugin'): {reason}" in str(raised.value)
    assert reg.get("fine") == 42 and "ghost" in reg


def test_a_plugin_module_registering_its_own_name_fulfils_its_entry(
    write_module, install_plugin, tmp_path, recwarn
):
    holder = write_module(f"""
        from spatialbench.registry import Registry

        REG = Registry("toy", entry_points={_group(tmp_path)!r})
    """)
    module = write_module(f"""
        from {holder} import REG

        REG.add("selfie", 7)  # an int: its __module__ is not this module
        VALUE = 7
    """)
    install_plugin("selfie-plugin", _group(tmp_path), {"selfie": f"{module}:VALUE"})
    reg = importlib.import_module(holder).REG
    assert reg.get("selfie") == 7 and reg.origin("selfie") == "selfie-plugin"
    assert not [w for w in recwarn if issubclass(w.category, PluginWarning)]


def test_plugin_entries_go_through_the_check(write_module, install_plugin, tmp_path):
    module = write_module(TOY)
    install_plugin("toy-plugin", _group(tmp_path), {"toy": f"{module}:make_toy"})
    reg: Registry[object] = Registry("metric", check=_positive, entry_points=_group(tmp_path))
    with pytest.raises(BrokenEntryError, match=r"distribution 'toy-plugin'\): <function make_toy"):
        reg.get("toy")


def test_describe_gives_one_line(write_module):
    module = write_module('''
        class Described:
            description = "a described object"

        def documented():
            """First line.

            More.
            """

        DESCRIBED = Described()
    ''')
    reg: Registry[object] = Registry("metric")
    reg.lazy("given", f"{module}:documented", "given with the entry")
    reg.lazy("documented", f"{module}:documented")
    reg.lazy("described", f"{module}:DESCRIBED")
    reg.add("number", 3)
    assert reg.describe("given") == "given with the entry" and reg.describe("documented") == ""
    assert module not in sys.modules  # nothing imported to describe
    assert reg.describe("documented", load=True) == "First line."
    assert reg.describe("described", load=True) == "a described object"
    assert reg.describe("number") == ""  # an instance's class docstring is not its description
    with pytest.raises(UnknownNameError, match="unknown metric 'nothing'"):
        reg.describe("nothing")


def test_importing_spatialbench_reads_no_entry_points():
    code = textwrap.dedent("""
        import importlib.metadata

        real = importlib.metadata.entry_points

        def refuse(**selection):
            if selection.get("group", "").startswith("spatialbench"):  # pydantic reads its own group
                raise AssertionError(f"entry points read at import: {selection}")
            return real(**selection)

        importlib.metadata.entry_points = refuse
        import spatialbench.cli.main, spatialbench.analysis.registry, spatialbench.benchmarks
        import spatialbench.models.base, spatialbench.prompting.strategies
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
