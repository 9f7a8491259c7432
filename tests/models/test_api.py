import asyncio

from spatialbench.models.api import ApiBackend, ApiSettings
from spatialbench.records.messages import Request, Response, TextPart


def test_concurrency_is_bounded() -> None:
    class Probe(ApiBackend):
        provider = "probe"
        active = peak = 0

        async def _send(self, request: Request) -> Response:
            Probe.active += 1
            Probe.peak = max(Probe.peak, Probe.active)
            await asyncio.sleep(0.01)
            Probe.active -= 1
            return Response(text="x")

    backend = Probe(ApiSettings(concurrency=3))

    async def main() -> None:
        await asyncio.gather(*[backend.generate(Request(parts=(TextPart("q"),))) for _ in range(20)])

    asyncio.run(main())
    assert Probe.peak == 3


def test_public_url_of_a_malformed_url_never_raises_and_check_base_url_names_it() -> None:
    import re

    import pytest

    from spatialbench.models.api import check_base_url, public_url
    from spatialbench.models.errors import BackendError

    assert public_url("http://u:secret@127.0.0.1:8000/v1?api_key=K#m") == "http://127.0.0.1:8000/v1"
    assert public_url("http://127.0.0.1:99999/v1") == "http://<malformed URL>"
    assert public_url("http://[::1:8000/v1") == "http://<malformed URL>"
    assert check_base_url("http://[::1]:8000/v1") == "http://[::1]:8000/v1"
    for bad, why in [
        ("http://u:secret@127.0.0.1:99999/v1?api_key=K", "http://127.0.0.1:99999: Port out of range"),
        ("http://[::1:8000/v1", "http://[::1:8000: Invalid IPv6 URL"),
        ("ftp://127.0.0.1/v1", "not an http(s) URL"),
        ("http:///v1", "not an http(s) URL"),
    ]:
        with pytest.raises(BackendError, match=rf"base URL .*{re.escape(why)}") as raised:
            check_base_url(bad)
        assert "secret" not in str(raised.value) and "K" not in str(raised.value)
