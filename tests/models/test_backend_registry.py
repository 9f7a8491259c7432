import json
import subprocess
import sys

PROVIDERS = ["anthropic", "gemini", "hf", "openai", "openai-compatible"]
SDKS = ["openai", "google.genai", "anthropic", "transformers", "torch"]

PROBE = f"""
import json, sys
from spatialbench.models import BACKENDS
print(json.dumps({{"names": BACKENDS.names(), "loaded": [m for m in {SDKS!r} if m in sys.modules]}}))
"""


def test_every_back_end_is_listed_without_importing_an_sdk() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    result = json.loads(out.stdout)
    assert set(PROVIDERS) <= set(result["names"])
    assert result["loaded"] == []
