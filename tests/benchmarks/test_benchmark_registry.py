"""The benchmark registry lists every benchmark without importing one; a lookup imports only that one."""

import json
import subprocess
import sys

import pytest

from spatialbench.benchmarks import BENCHMARKS, get_benchmark
from spatialbench.registry import UnknownNameError

PROBE = """
import json, sys
from spatialbench.scoring.extraction import CHOICE_EXTRACTORS, NUMBER_EXTRACTORS
modes = CHOICE_EXTRACTORS.names(), NUMBER_EXTRACTORS.names()
from spatialbench.benchmarks import BENCHMARKS
loaded = sorted(m for m in sys.modules if m.startswith("spatialbench.benchmarks."))
print(json.dumps([BENCHMARKS.names(), modes, loaded]))
"""


def test_names_are_complete_before_anything_is_imported() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True).stdout
    benchmarks, modes, loaded = json.loads(out)
    assert benchmarks == ["3dsrbench", "blink", "cvbench", "embspatial", "mindcube", "mmsi-bench",
                          "mmsi-video", "remindview", "revsi", "site", "viewspatial", "vsi-super-count",
                          "vsi-super-count-streaming",
                          "vsi-super-recall", "vsibench"]
    every = ["lmms-eval-0.7.2", "lmms-eval-0.7.3", "official", "robust", "vlmevalkit"]
    assert modes == [every, every]
    assert loaded == ["spatialbench.benchmarks.option_kinds", "spatialbench.benchmarks.spec"]  # no package


def test_lookup_returns_the_spec_and_suggests_near_misses() -> None:
    assert get_benchmark("mmsi-video").name == "mmsi-video"
    assert set(BENCHMARKS.names()) >= {"vsibench", "mmsi-video", "remindview"}
    with pytest.raises(UnknownNameError, match="did you mean 'vsibench'"):
        get_benchmark("vsibench2")
