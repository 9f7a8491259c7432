"""Media errors: one per item, recorded in the run; the run goes on."""

from __future__ import annotations

from spatialbench.errors import SpatialBenchError


class MediaError(SpatialBenchError, RuntimeError):
    """Media that cannot be used (missing, corrupt, zero-length, rotated, bad strategy...).

    The message names the file and the reason.
    """

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason
        self.location = path
