"""Errors raised by model back ends.

A back end raises :class:`BackendError` (or a subclass) when a request fails for good; the runner records
the message against the item and goes on. :class:`RetryableError` marks a failure worth another attempt
(HTTP 429, 5xx, timeouts); the shared retry loop in :mod:`spatialbench.models.api` consumes it.
"""

from __future__ import annotations

from spatialbench.errors import SpatialBenchError


class BackendError(SpatialBenchError, RuntimeError):
    """A model request failed (after any retries). The message never contains credentials."""


class RetryableError(BackendError):
    """A transient failure: rate limit, server error, timeout, dropped connection.

    Attributes:
        retry_after: seconds the server asked us to wait (``Retry-After``), or None.
        connection: the endpoint could not be reached at all (refused, DNS, reset before a reply); the
            circuit breaker of :mod:`spatialbench.models.api` counts these.
    """

    def __init__(self, message: str, retry_after: float | None = None, connection: bool = False) -> None:
        super().__init__(message)
        self.retry_after = retry_after
        self.connection = connection


class EndpointUnreachableError(BackendError):
    """The circuit breaker is open: the first requests of a run could not reach the endpoint at all.

    Raised for the request that opened it and, without sending anything, for every later one; the
    runner stops and leaves the remaining items unattempted.
    """


class TooManyImagesError(BackendError):
    """A request holds more images than the back end's per-request limit and the policy is ``error``."""


class ProviderUnavailableError(BackendError):
    """A provider's SDK or module cannot be imported (e.g. the ``hf`` extra is not installed)."""
