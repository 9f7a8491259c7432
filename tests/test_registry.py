import pytest

from spatialbench.registry import DuplicateNameError, Registry, UnknownNameError


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
