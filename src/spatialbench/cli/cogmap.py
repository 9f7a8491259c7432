"""``spatialbench cogmap RUN``: locality of the cognitive maps a run stored (VSI-Bench Sec. 6.1, Table 4).

Prints accuracy per ground-truth distance bin beside the paper's Table 4 curves and writes
``RUN/analysis/cogmap_locality.json`` (:mod:`spatialbench.analysis.cogmap`). Scenes come from
``--meta-info``, else the run's ``-S meta_info=`` strategy parameter, else ``<data>/meta_info``. The grid
size and categories mode are the run's strategy parameters; the ground-truth normalisation options are
those of :mod:`spatialbench.scene.cogmap`. A MindCube run is scored the official MindCube way instead
(:mod:`spatialbench.analysis.mindcube_cogmap`: validity, isomorphism, similarities per setting, and the
locality bins of the same maps) into ``RUN/analysis/mindcube_cogmap.json``; the options are not used.
Exit 2 (nothing written): not a scored run, no stored map,
no meta-info, unreadable data.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from spatialbench.cli.apps import app, command_errors
from spatialbench.cli.out_dir import prepare_out_dir

if TYPE_CHECKING:
    from spatialbench.runs.folder import RunFolder


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
    from spatialbench.analysis.cogmap import ANALYSIS, locality_text
    from spatialbench.analysis.registry import write_document
    from spatialbench.runs.folder import open_run

    with command_errors(ValueError, OSError):  # unreadable data, bad options
        folder = open_run(run, scored=True)
        if folder.benchmark == "mindcube":
            _mindcube(folder)
            return
        doc = ANALYSIS.run(folder, meta_info=meta_info, extent=extent, aspect=aspect, origin=origin)
    prepare_out_dir(run / "analysis")
    write_document(run, doc, ANALYSIS.file)
    typer.echo(locality_text(doc.model_dump(mode="json"), folder.name), nl=False)


def _mindcube(folder: RunFolder) -> None:
    """Score a MindCube run's maps the official way, write the document and print its table."""
    from spatialbench.analysis.mindcube_cogmap import ANALYSIS as MINDCUBE
    from spatialbench.analysis.mindcube_cogmap import cogmap_grid
    from spatialbench.analysis.registry import write_document
    from spatialbench.scoring.render import to_markdown

    doc = MINDCUBE.run(folder)
    prepare_out_dir(folder.path / "analysis")
    write_document(folder.path, doc, MINDCUBE.file)
    fields = doc.model_dump(mode="json")
    bins = fields["locality"]
    pooled = f"{sum(bins['correct'])} of {sum(bins['total'])}" if sum(bins["total"]) else "no pair"
    line = f"locality (VSI-Bench App. B.4, the same maps' object pairs): {pooled} within 1 cell"
    typer.echo("\n".join([*to_markdown(cogmap_grid(fields)), "", line]))
