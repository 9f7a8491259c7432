from typing import Any

import pytest

from spatialbench.models import resolve
from spatialbench.models.errors import ProviderUnavailableError
from spatialbench.models.resolve import load_backend, model_family, split_model_name
from spatialbench.registry import Registry, UnknownNameError


def test_model_names() -> None:
    assert split_model_name("openai-compatible:http://127.0.0.1:8000/v1#Qwen2.5-VL-7B") == (
        "openai-compatible", "http://127.0.0.1:8000/v1#Qwen2.5-VL-7B")
    assert split_model_name("hf") == ("hf", "")  # a bare name has an empty model part
    assert model_family("openai:gpt-4o") == "proprietary" and model_family("hf:/m") == "open"
    with pytest.raises(UnknownNameError, match="did you mean 'openai'"):
        load_backend("opnai:gpt-4o")


@pytest.mark.parametrize("name", ["chance-random", "chance-frequency"])
def test_chance_baselines_are_not_back_ends(name: str) -> None:
    with pytest.raises(UnknownNameError):
        split_model_name(name)


def test_backend_records_how_it_was_built_without_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret-123456")
    backend = load_backend("openai-compatible:http://user:pw-secret@127.0.0.1:9/v1#m", seed=3)
    assert backend.registered_as is not None
    assert backend.registered_as["name"] == "openai-compatible"
    assert backend.registered_as["kwargs"] == {"seed": 3}
    assert backend.registered_as["args"] == ["http://***@127.0.0.1:9/v1#m"]
    assert "secret" not in repr(backend.registered_as)


def test_provider_whose_module_cannot_be_imported_is_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    backends: Registry[Any] = Registry("model back end")
    backends.lazy("toy", "spatialbench.models.no_such_provider:make_toy")
    monkeypatch.setattr(resolve, "BACKENDS", backends)
    with pytest.raises(ProviderUnavailableError, match="'toy' is unavailable.*no_such_provider"):
        resolve.load_backend("toy:m")
