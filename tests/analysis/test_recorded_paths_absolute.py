"""A run records its data path and meta-info path absolute (issue 11, #4).

A run started with ``--data demo/vsi`` recorded ``"path": "demo/vsi"``, so ``errors sample``, ``cogmap``
and ``score --run`` failed from any other folder. The recorded config (``config.json`` and the store)
now holds the absolute paths; the run's own request keys do not change.
"""

import json

from spatialbench.api import run
from spatialbench.runs import RunConfig
from spatialbench.runs.record import recorded_config
from support.vsi_data import make_vsibench


def test_config_json_holds_absolute_paths(tmp_path, monkeypatch) -> None:
    make_vsibench(tmp_path / "vsi", n_videos=1, per_video=4, shuffle=False)
    monkeypatch.chdir(tmp_path)
    config = RunConfig.model_validate(
        {
            "data": {"benchmark": "vsibench", "path": "vsi"},
            "model": {"name": "chance-random"},
            "out": "run",
        }
    )
    run(config, progress=False)
    recorded = json.loads((tmp_path / "run" / "config.json").read_text())["config"]
    assert recorded["data"]["path"] == str(tmp_path / "vsi")


def test_a_relative_meta_info_is_recorded_absolute(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    config = RunConfig.model_validate(
        {
            "data": {"benchmark": "vsibench", "path": "vsi"},
            "model": {"name": "chance-random"},
            "strategy": {"name": "cognitive-map", "params": {"meta_info": "maps", "grid_size": 10}},
            "out": "run",
        }
    )
    recorded = recorded_config(config)
    assert recorded["strategy"]["params"] == {"meta_info": str(tmp_path / "maps"), "grid_size": 10}
    assert recorded["data"]["path"] == str(tmp_path / "vsi")
    empty = config.updated("strategy", params={"meta_info": ""})  # "" (read <data>/meta_info) stays ""
    assert recorded_config(empty)["strategy"]["params"] == {"meta_info": ""}
