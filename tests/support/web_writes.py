"""Every write route of ``spatialbench serve`` with the fields its own form posts (issue 26 item 1 tests).

``/human/own/answer`` needs the human run ``own`` started first; ``vision`` is the served run.
"""

from __future__ import annotations

WRITES = {
    "/flag": {"item_id": "0", "flag": "wrong", "note": "forged"},
    "/human/start": {"name": "forged", "size": "2"},
    "/human/own/answer": {"item_id": "0", "answer": "A"},
    "/errors/sample": {"run": "vision"},
    "/errors/annotate": {"run": "vision", "item_id": "0", "categories": "egocentric"},
}
