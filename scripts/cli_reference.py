"""Write docs/cli.md: every spatialbench command's --help (spatialbench.cli.reference)."""

from pathlib import Path

from spatialbench.cli.main import app
from spatialbench.cli.reference import render_reference

PAGE = Path(__file__).resolve().parents[1] / "docs" / "cli.md"

if __name__ == "__main__":
    PAGE.write_text(render_reference(app))
    print(f"wrote {PAGE}")
