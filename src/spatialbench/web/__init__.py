"""The local browser UI of ``spatialbench serve``: browse, compare, evaluate as a human, review, annotate.

Public names: ``create_app``, ``ServeConfig``, ``new_token``, ``excluded_ids`` (the flags ``score --exclude``
drops).
"""

from spatialbench.records.flags import excluded_ids
from spatialbench.web.app import create_app
from spatialbench.web.security import new_token
from spatialbench.web.state import ServeConfig

__all__ = ["ServeConfig", "create_app", "excluded_ids", "new_token"]
