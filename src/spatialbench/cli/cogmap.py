"""``spatialbench cogmap RUN``: locality of the cognitive maps a run stored (VSI-Bench Sec. 6.1, Table 4).

Prints accuracy per ground-truth distance bin beside the paper's Table 4 curves and writes
``RUN/analysis/cogmap_locality.json`` (:mod:`spatialbench.analysis.cogmap`). Scenes come from
``--meta-info``, else the run's ``-S meta_info=`` strategy parameter, else ``<data>/meta_info``. The grid
size and categories mode are the run's strategy parameters; the ground-truth normalisation options are
those of :mod:`spatialbench.scene.cogmap`. Exit 2 (nothing written): not a scored run, no stored map,
no meta-info, unreadable data.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Annotated, Any

import typer

from spatialbench.cli.apps import app
from spatialbench.cli.out_dir import prepare_out_dir


def _meta_info(option: Path | None, config: dict[str, Any]) -> Path:
    given = str(config.get("strategy", {}).get("params", {}).get("meta_info") or "")
    beside = Path(config["data"]["path"]) / "meta_info"
    for candidate in (option, Path(given) if given else None, beside):
        if candidate is not None and candidate.exists():
            return candidate
    raise ValueError(
        f"no meta-info found (tried --meta-info, -S meta_info=, {beside}): give --meta-info PATH"
    )


def _tenth(value: float) -> str:
    """One decimal, halves rounded up as Table 4 prints the edges (3.25 -> 3.3)."""
    return f"{math.floor(value * 10 + 0.5) / 10:.1f}"


def _table(doc: dict[str, Any], name: str) -> str:
    bins = doc["bins"]
    labels = [f"{'[' if i == 0 else '('}{_tenth(b['low'])}, {_tenth(b['high'])}]" for i, b in enumerate(bins)]

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(cells) + " |"

    def share(value: float | None) -> str:
        return "-" if value is None else f"{value:.2f}"

    rows = [
        line(["", *labels]),
        "|---|" + "---:|" * len(bins),
        line([name, *(share(b["accuracy"]) for b in bins)]),
        line(["pairs", *(str(b["total"]) for b in bins)]),
    ]
    rows += [
        line([f"{model} (Table 4)", *(share(v) for v in curve)]) for model, curve in doc["reference"].items()
    ]
    maps, grid = doc["maps"], doc["grid"]["grid_size"]
    title = f"**cognitive-map locality** · grid {grid} · categories: {doc['categories']}"
    counts = (
        f"maps: {maps['stored']} stored, {maps['read']} read, {maps['no_point']} without a point, "
        f"{maps['with_problems']} with problems, {maps['no_scene']} without scene; "
        f"pairs outside the bins: {doc['below']} below, {doc['above']} above; "
        f"pairs with a category missing: {doc['missing_pairs']}"
    )
    off = maps.get("points_outside_grid", 0)
    outside = [f"{off} predicted point(s) outside the {grid} x {grid} grid in {maps['outside_grid']} map(s): "
               "kept as given (per item: outside_grid)"] if off else []
    return "\n".join([title, "", *rows, "", counts, *outside]) + "\n"


@app.command("cogmap")
def cogmap(
    run: Annotated[Path, typer.Argument(help="A run of --strategy cognitive-map or map-then-answer.")],
    meta_info: Annotated[
        Path | None, typer.Option("--meta-info", help="Scene meta-info file or folder.")
    ] = None,
    extent: Annotated[
        str, typer.Option("--extent", help="Ground-truth extent: objects, centers or room.")
    ] = "objects",
    aspect: Annotated[str, typer.Option("--aspect", help="isotropic or per-axis.")] = "isotropic",
    origin: Annotated[int, typer.Option("--origin", help="First cell index: 0 or 1.")] = 0,
) -> None:
    """Score the locality of a run's cognitive maps (8 distance bins, App. B.4) without re-sending."""
    from spatialbench.analysis.cogmap import locality_study
    from spatialbench.analysis.run_folder import RunFolderError, read_run
    from spatialbench.benchmarks import get_benchmark
    from spatialbench.registry import UnknownNameError
    from spatialbench.scene import MetaInfoError, load_meta_info
    from spatialbench.scene.cogmap import GridSpec

    try:
        folder = read_run(run)
        params = folder.config.get("strategy", {}).get("params", {})
        spec = GridSpec(int(params.get("grid_size", 10)), extent, aspect, origin)  # type: ignore[arg-type]
        scenes = load_meta_info(_meta_info(meta_info, folder.config))
        data = folder.config["data"]
        items = get_benchmark(folder.benchmark).load_items(data["path"], **data.get("options", {}))
        doc = locality_study(folder, items, scenes, spec, str(params.get("categories", "scene")))
    except (RunFolderError, MetaInfoError, UnknownNameError, ValueError, OSError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    path = prepare_out_dir(run / "analysis") / "cogmap_locality.json"
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    part.replace(path)
    typer.echo(_table(doc, folder.name), nl=False)
