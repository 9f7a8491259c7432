"""The run's progress bar: items done, ETA and throughput (tqdm), failures and tokens in the postfix."""

from __future__ import annotations

from typing import Any

from spatialbench.records.messages import Response


class Progress:
    """Counts outcomes and shows them; ``enabled=False`` counts silently (tests, libraries).

    ``counts`` always holds ``ok``, ``empty`` and ``failed``; ``not_applicable`` (no answer expected, e.g.
    chance-random on numerical items) and ``not_attempted`` (run stopped before the item) appear once seen.
    """

    def __init__(
        self, total: int, enabled: bool = True, description: str = "run", stream: Any = None
    ) -> None:
        self.counts = {"ok": 0, "empty": 0, "failed": 0}
        self.input_tokens = 0
        self.output_tokens = 0
        self._bar: Any = None
        if enabled:
            from tqdm import tqdm

            self._bar = tqdm(
                total=total, desc=description, unit="item", dynamic_ncols=True, smoothing=0.1, file=stream
            )

    def update(self, status: str, response: Response | None) -> None:
        """Count one finished item."""
        self.counts[status] = self.counts.get(status, 0) + 1
        if response is not None:
            self.input_tokens += response.input_tokens or 0
            self.output_tokens += response.output_tokens or 0
        if self._bar is not None:
            self._bar.set_postfix(
                failed=self.counts["failed"],
                empty=self.counts["empty"],
                tok_in=self.input_tokens,
                tok_out=self.output_tokens,
                refresh=False,
            )
            self._bar.update(1)

    def close(self) -> None:
        """Finish the bar."""
        if self._bar is not None:
            self._bar.close()
