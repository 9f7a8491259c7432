"""Errors raised by model back ends.

A back end raises :class:`BackendError` (or a subclass) when a request fails for good; the runner records
the message against the item and goes on. :class:`RetryableError` marks a failure worth another attempt
(HTTP 429, 5xx, timeouts); the shared retry loop in :mod:`spatialbench.models.api` consumes it.
"""

from __future__ import annotations


class BackendError(RuntimeError):
    """A model request failed (after any retries). The message never contains credentials."""


class RetryableError(BackendError):
    """A transient failure: rate limit, server error, timeout, dropped connection.

    Attributes:
        retry_after: seconds the server asked us to wait (``Retry-After``), or None.
    """

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class TooManyImagesError(BackendError):
    """A request holds more images than the back end's per-request limit and the policy is ``error``."""


class ProviderUnavailableError(BackendError):
    """A provider's SDK or module cannot be imported (e.g. the ``hf`` extra is not installed)."""
