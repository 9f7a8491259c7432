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
