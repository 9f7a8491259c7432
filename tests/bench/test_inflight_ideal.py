"""``bench/inflight.py``'s ideal: n requests at concurrency c take ceil(n / c) rounds of one latency."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from types import ModuleType

import numpy as np
import pytest

from support.shared_data import REPO_ROOT


@pytest.fixture(scope="module")
def inflight() -> ModuleType:
    """The bench script as a module (bench/ is no package; its imports are numpy and the standard library)."""
    spec = importlib.util.spec_from_file_location("bench_inflight", REPO_ROOT / "bench" / "inflight.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_inflight", module)
    spec.loader.exec_module(module)
    return module


def test_the_round_based_ideal_counts_whole_rounds(inflight: ModuleType) -> None:
    # the demo's 132 items at 16: 8.25 rounds naive (1.65 s), 9 whole rounds (1.80 s)
    assert inflight.ideals(132, 0.2, 16) == pytest.approx((1.65, 1.8))
    # 320 at 16 divides: both are 20 rounds, 4.0 s
    assert inflight.ideals(320, 0.2, 16) == pytest.approx((4.0, 4.0))
    assert inflight.ideals(1, 0.2, 16) == pytest.approx((0.0125, 0.2))


def test_a_client_that_never_idles_reaches_the_round_based_ideal(inflight: ModuleType) -> None:
    # 20 requests at 16, 200 ms each: 16 in [0, 0.2), 4 in [0.2, 0.4) — span 0.4 s, the round-based ideal
    spans = np.array([[0.0, 0.2]] * 16 + [[0.2, 0.4]] * 4)
    figures = inflight.in_flight(spans, argparse.Namespace(latency=0.2, concurrency=16))
    assert figures["share"] == pytest.approx(1.0)
    assert figures["naive_share"] == pytest.approx(0.25 / 0.4)
    assert figures["n"] == 20 and figures["span_s"] == pytest.approx(0.4)


def test_idle_slot_seconds_add_up_to_the_slots_idle_time(inflight: ModuleType) -> None:
    # 2 slots, 200 ms each: A [0, 0.20] then [0.21, 0.41]; B [0.01, 0.21] then [0.23, 0.43]
    spans = np.array([[0.0, 0.2], [0.01, 0.21], [0.21, 0.41], [0.23, 0.43]])
    idle = inflight.idle_slots(spans, 2)
    assert idle["ramp_up"] == pytest.approx(0.01)  # B arrived 10 ms after A
    assert idle["hand_offs"] == pytest.approx(0.01 + 0.02)  # 0.20 → 0.21 and 0.21 → 0.23
    assert idle["per_hand_off"] == pytest.approx(0.015)
    assert idle["ramp_down"] == pytest.approx(0.02)  # A's last answer (0.41) to the end (0.43)
    # together: 2 slots × 0.43 s span − 4 × 0.2 s answering = 0.06 slot-seconds idle
    assert idle["ramp_up"] + idle["hand_offs"] + idle["ramp_down"] == pytest.approx(2 * 0.43 - 4 * 0.2)
