import asyncio

import pytest

from spatialbench.models.errors import BackendError, ProviderUnavailableError
from spatialbench.models.provider import ProviderBackend, environment_key
from spatialbench.records.messages import Request, Response


class _Client:
    closed = False

    async def close(self) -> None:
        self.closed = True


class _Toy(ProviderBackend):
    provider = "toy"
    label = "Toy"
    sdk = "json"  # any importable module stands in for an SDK
    sdk_package = "json"
    key_variables = ("TOY_KEY", "TOY_OTHER_KEY")
    notes = {"sampling": "fixed"}

    def _connect(self, key: str | None) -> _Client:
        self.key = key
        return _Client()

    async def _send(self, request: Request) -> Response:
        return Response(text="x")


@pytest.fixture(autouse=True)
def _no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in _Toy.key_variables:
        monkeypatch.delenv(name, raising=False)


def test_first_non_empty_key_variable_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOY_KEY", "")
    monkeypatch.setenv("TOY_OTHER_KEY", "k2")
    assert environment_key(_Toy.key_variables) == "k2"
    assert _Toy("m").key == "k2"


def test_missing_or_empty_key_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOY_KEY", "")
    with pytest.raises(BackendError, match="TOY_KEY or TOY_OTHER_KEY is not set .*needed for Toy"):
        _Toy("m")


def test_missing_sdk_names_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOY_KEY", "k")
    monkeypatch.setattr(_Toy, "sdk", "no_such_sdk_module")
    with pytest.raises(ProviderUnavailableError, match=r"toy back end needs the json package"):
        _Toy("m")


def test_describe_has_identity_and_notes_and_aclose_closes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOY_KEY", "k-secret")
    backend = _Toy("m", base_url="https://u:p@example.org/v1?x=1")
    described = backend.describe()
    assert described["provider"] == "toy" and described["model"] == "m"
    assert described["base_url"] == "https://example.org/v1" and described["sampling"] == "fixed"
    assert "k-secret" not in repr(described)
    asyncio.run(backend.aclose())
    assert backend._client.closed
