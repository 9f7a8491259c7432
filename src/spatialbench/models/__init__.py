"""Model back ends behind one interface (``Backend.generate(Request) -> Response``)."""

from spatialbench.models.base import BACKENDS, Backend
from spatialbench.records.messages import (
    GenerationSettings,
    ImagePart,
    Request,
    Response,
    TextPart,
    TokenLogprob,
)

__all__ = [
    "BACKENDS",
    "Backend",
    "GenerationSettings",
    "ImagePart",
    "Request",
    "Response",
    "TextPart",
    "TokenLogprob",
]
