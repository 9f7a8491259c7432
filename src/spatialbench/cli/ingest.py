"""``spatialbench ingest scannet|arkitscenes|scannetpp DIR --out OUT``: raw scans → meta-info (issue 15)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from spatialbench.cli.apps import CommandError, app
from spatialbench.cli.out_dir import new_out_dir

DatasetArg = Annotated[str, typer.Argument(help="Scan format: scannet, arkitscenes or scannetpp.")]
DirArg = Annotated[Path, typer.Argument(help="One scan folder, or a folder of scan folders.")]
OutOpt = Annotated[Path, typer.Option("--out", help="Folder for <dataset>_meta_info.json and ingest.json.")]
AlphaOpt = Annotated[
    float, typer.Option("--alpha", help="Circumradius limit (m) of the floor's alpha shape (room size).")
]
LabelsOpt = Annotated[
    Path | None,
    typer.Option("--labels", help="JSON object raw label -> category, on top of the built-in table."),
]


def _extra_labels(path: Path | None) -> dict[str, str]:
    """Return the ``--labels`` table (targets checked against the vocabulary).

    Raises:
        CommandError: an unusable file (the message starts ``--labels`` and names the file and line).
    """
    from spatialbench.scene.ingest.labels import LabelFileError, read_extra_labels

    if path is None:
        return {}
    try:
        return read_extra_labels(path)
    except LabelFileError as err:
        raise CommandError(f"--labels {err}") from None


@app.command("ingest")
def ingest_command(
    dataset: DatasetArg, folder: DirArg, out: OutOpt, alpha: AlphaOpt = 0.5, labels: LabelsOpt = None
) -> None:
    """Read raw scans into the official VSI-Bench meta-info schema (App. B.1).

    Writes ``OUT/<dataset>_meta_info.json`` (one entry per scan) and ``OUT/ingest.json`` (per scan: labels
    dropped for want of a VSI-Bench category, instances without points). Exit 2 on unreadable input.
    """
    from spatialbench.cli.progress_bar import progress_bar
    from spatialbench.scene import write_meta_info
    from spatialbench.scene.ingest import IngestOptions, ingest

    if not alpha > 0:
        raise CommandError(f"--alpha must be > 0, got {alpha}")
    options = IngestOptions(alpha=alpha, labels=_extra_labels(labels))
    # an unknown dataset, an unreadable scan: exit 2, no new --out left behind; the bar: stderr, terminal only
    with new_out_dir(out), progress_bar(f"ingest {dataset}", unit="scan") as bar:
        scans = ingest(dataset, folder, options, bar)
    write_meta_info([s.scene for s in scans], out / f"{dataset}_meta_info.json")
    report = {s.scene.scene_id: {"dropped_labels": s.dropped, "skipped_instances": s.skipped} for s in scans}
    (out / "ingest.json").write_text(json.dumps(report, indent=2) + "\n")
    for s in scans:
        boxes = sum(len(v) for v in s.scene.objects.values())
        dropped = f"; dropped {sum(s.dropped.values())} ({', '.join(s.dropped)})" if s.dropped else ""
        typer.echo(f"{s.scene.scene_id}: {boxes} boxes, room {s.scene.room_size:.2f} m²{dropped}")
    typer.echo(f"wrote {out / f'{dataset}_meta_info.json'} ({len(scans)} scenes)")
