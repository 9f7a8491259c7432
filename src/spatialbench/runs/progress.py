"""The run's progress bar: items done, ETA and throughput (tqdm), failures and tokens in the postfix."""

from __future__ import annotations

from typing import Any

from spatialbench.records.messages import Response


def tqdm_bar(
    total: int, description: str, unit: str, stream: Any = None, disable: bool | None = False
) -> Any:
    """Return the one bar style of every command: description, count, ETA and rate (tqdm).

    ``stream``: where it is drawn (None: stderr); ``disable=None`` draws it only when that is a terminal.
    """
    from tqdm import tqdm

    return tqdm(
        total=total,
        desc=description,
        unit=unit,
        dynamic_ncols=True,
        smoothing=0.1,
        file=stream,
        disable=disable,
    )


class Progress:
    """Counts outcomes and shows them; ``enabled=False`` counts silently (tests, libraries).

    ``counts`` always holds ``ok``, ``empty`` and ``failed``; ``not_applicable`` (no answer expected, e.g.
    chance-random on numerical items) and ``not_attempted`` (run stopped before the item) appear once seen.
    An item not attempted is counted but does not advance the bar, and a bar closed with such items ends
    as ``stopped`` with their count: a run stopped by a full disk or a dead endpoint never reads n/n.
    """

    def __init__(
        self, total: int, enabled: bool = True, description: str = "run", stream: Any = None
    ) -> None:
        self.counts = {"ok": 0, "empty": 0, "failed": 0}
        self.input_tokens = 0
        self.output_tokens = 0
        self._bar: Any = None
        self.description = description
        if enabled:
            self._bar = tqdm_bar(total, description, "item", stream)

    def update(self, status: str, response: Response | None) -> None:
        """Count one finished item."""
        self.counts[status] = self.counts.get(status, 0) + 1
        if response is not None:
            self.input_tokens += response.input_tokens or 0
            self.output_tokens += response.output_tokens or 0
        if self._bar is not None and status != "not_attempted":
            self._bar.set_postfix(
                failed=self.counts["failed"],
                empty=self.counts["empty"],
                tok_in=self.input_tokens,
                tok_out=self.output_tokens,
                refresh=False,
            )
            self._bar.update(1)

    def close(self) -> None:
        """Finish the bar (``stopped``, with the items not attempted, when the run stopped early)."""
        if self._bar is None:
            return
        skipped = self.counts.get("not_attempted", 0)
        if skipped:
            self._bar.set_description_str(f"{self.description}: stopped", refresh=False)
            self._bar.set_postfix(failed=self.counts["failed"], not_attempted=skipped, refresh=False)
        self._bar.close()
