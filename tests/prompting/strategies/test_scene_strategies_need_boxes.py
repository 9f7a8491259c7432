"""A strategy that cannot work without scene boxes (with-3d-cues) is a set-up error when none can be found."""

from pathlib import Path

import pytest

from spatialbench.runs import RunConfig
from spatialbench.runs.checks import RunSetupError
from spatialbench.runs.dialogue import prepare_strategy
from support.configs import run_config


def _config(data: Path, strategy: str) -> RunConfig:
    return run_config(data, data / "out", benchmark="remindview", url="http://127.0.0.1:1/v1", served="m",
                      strategy={"name": strategy})

def test_with_3d_cues_without_meta_info_is_a_set_up_error(tmp_path: Path) -> None:
    with pytest.raises(RunSetupError, match=r"with-3d-cues needs scene boxes: give -S meta_info=PATH"):
        prepare_strategy(_config(tmp_path, "with-3d-cues"))


def test_the_cognitive_map_strategy_may_still_run_without_scenes(tmp_path: Path) -> None:
    # its categories can come from the question alone (VSI-Bench rules), so no boxes is not an error up front
    assert prepare_strategy(_config(tmp_path, "cognitive-map")).name == "cognitive-map"
