"""Speed of ``generate remindview`` (issue 12): scenes/minute and questions/minute on this machine.

Generates ``--scenes`` rooms with the paper's settings (both rigs, all 11 distance levels, every target,
1024×768 frames unless told otherwise) into a temporary folder and prints the wall time, the rates, the
frames rendered and the megabytes written (all files, the frames, ``metadata.jsonl``).

    .venv/bin/python bench/remindview_speed.py [--scenes 1] [--width 1024 --height 768] [--keep DIR]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from spatialbench.generate.remindview import generate_remindview, preset_config


def main() -> None:
    """Parse the options, generate, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=1)
    parser.add_argument("--width", type=int, default=1024)
    parser.add_argument("--height", type=int, default=768)
    parser.add_argument("--keep", type=Path, default=None, help="write here (kept) instead of a temp folder")
    args = parser.parse_args()
    config = preset_config("paper", scenes=args.scenes, width=args.width, height=args.height)
    with tempfile.TemporaryDirectory() as tmp:
        out = args.keep or Path(tmp) / "remindview"
        started = time.perf_counter()
        generated = generate_remindview(
            out, config, progress=lambda d, n, s: print(f"[{d}/{n}] {s}", flush=True)
        )
        minutes = (time.perf_counter() - started) / 60
        pngs = [path.stat().st_size for path in out.rglob("frame*.png")]
        frames = len(pngs)
        total = sum(path.stat().st_size for path in out.rglob("*") if path.is_file())
        metadata = sum(path.stat().st_size for path in out.rglob("metadata.jsonl"))
    questions = generated.manifest["questions"]
    print(
        f"{args.scenes} scenes, {generated.manifest['frame_sets']} frame sets, {frames} frames "
        f"({args.width}x{args.height}), {questions} questions in {minutes * 60:.1f} s"
    )
    print(f"scenes/minute: {args.scenes / minutes:.2f}")
    print(f"questions/minute: {questions / minutes:.0f}")
    print(f"frames/second (render + ray casting + PNG): {frames / (minutes * 60):.1f}")
    print(f"written: {total / 1e6:.1f} MB, of which the frames {sum(pngs) / 1e6:.1f} MB and metadata.jsonl "
          f"{metadata / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
