"""Keep secrets off disk: redact credential values from any text a run writes (errors, provider metadata).

Values come from environment variables whose names look like credentials (``*_API_KEY``, ``*_TOKEN``,
``*SECRET*``...), read when redacting, never at import; key-shaped strings (``sk-...``) and user info in
URLs (``https://user:password@host``) and credential-like URL query parameters (``?api_key=...``,
``&key=``, ``&token=``, ``&access_token=``, ``&sig=``...) are masked too. The values of such query
parameters in a URL a back end was given (:func:`remember_url_secrets`) are secrets from then on, so a
server that echoes the key in its reply text ("Incorrect API key provided: …") is redacted as well.
"""

from __future__ import annotations

import os
import re

_SECRET_NAME = re.compile(r"(API_?KEY|TOKEN|SECRET|PASSWORD|AUTH)", re.IGNORECASE)
_KEY_SHAPE = re.compile(r"\b(sk|pk|rk)-[A-Za-z0-9_\-*]{6,}")
_URL_USERINFO = re.compile(r"(://)[^/@\s\"']+@")
_QUERY_SECRET = re.compile(
    r"([?&;](?:(?:[\w.-]*[_.-])?(?:api[_-]?key|key|token|secret|password|passwd|auth|signature)|sig|code)=)"
    r"[^&#\s\"'<>]+",
    re.IGNORECASE,
)


_REMEMBERED: set[str] = set()


def remember_url_secrets(url: str) -> None:
    """Treat the values (4+ characters) of credential-like query parameters of ``url`` as secrets."""
    for found in _QUERY_SECRET.finditer(url):
        value = found.group(0)[len(found.group(1)):]
        if len(value) >= 4:
            _REMEMBERED.add(value)


def secret_values() -> list[str]:
    """Values of credential-like environment variables (8+ characters) and URL keys, longest first."""
    values = {v for k, v in os.environ.items() if _SECRET_NAME.search(k) and len(v) >= 8} | _REMEMBERED
    return sorted(values, key=len, reverse=True)


def redact(text: str, secrets: list[str] | None = None) -> str:
    """``text`` with every secret value, key-shaped token, URL password and URL query key as ``***``."""
    for value in secrets if secrets is not None else secret_values():
        text = text.replace(value, "***")
    text = _QUERY_SECRET.sub(r"\1***", _KEY_SHAPE.sub("***", text))
    return _URL_USERINFO.sub(r"\1***@", text)
