"""A chance-adjusted score below chance (SITE's CAA of -50) is drawn below the radar's 0 ring, not at it."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import pytest

from spatialbench.report import figures
from spatialbench.report.figures import radial_scale


def test_radial_scale_reaches_below_the_lowest_negative_score() -> None:
    assert radial_scale([-50.0, 100.0]) == (-50.0, [-50.0, -25.0, 0.0, 25.0, 50.0, 75.0, 100.0])
    assert radial_scale([-10.0, float("nan"), 40.0]) == (-25.0, [-25.0, 0.0, 25.0, 50.0, 75.0, 100.0])
    assert radial_scale([0.0, 60.0]) == (0.0, [25.0, 50.0, 75.0, 100.0])  # as before: centre 0


def test_radar_draws_the_negative_score_at_its_radius(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list = []
    monkeypatch.setattr(figures, "save", lambda figure, stem: drawn.append(figure.axes[0]) or [])
    figures.radar(["counting & existence", "spatial relationship reasoning", "3D"],
                  [("neg", [-50.0, 100.0, 25.0])], "site", tmp_path / "radar")
    axes = drawn[0]
    assert axes.get_ylim() == (-50.0, 100.0)
    assert list(axes.lines[0].get_ydata()) == [-50.0, 100.0, 25.0, -50.0]
    plt.close("all")
