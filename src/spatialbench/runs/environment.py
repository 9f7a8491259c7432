"""What a run records about its environment: Python, platform and package versions (no env variables)."""

from __future__ import annotations

import platform
import sys
from importlib import metadata
from typing import Any

PACKAGES = (
    "spatialbench",
    "numpy",
    "pandas",
    "pydantic",
    "av",
    "pillow",
    "openai",
    "google-genai",
    "anthropic",
    "httpx",
    "transformers",
    "tokenizers",
    "torch",
    "torchvision",
)


def environment() -> dict[str, Any]:
    """Python version, platform and the installed version of each relevant package (None = absent)."""
    versions: dict[str, str | None] = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return {"python": sys.version.split()[0], "platform": platform.platform(), "packages": versions}
