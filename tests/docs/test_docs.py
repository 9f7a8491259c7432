"""The documentation (issue 22 item 8): README ≤ 150 lines, ``mkdocs build --strict``, commands that run.

Command blocks are the ```` ```bash ```` blocks of the README and of ``docs/``. Every ``spatialbench`` line
in them must parse against the command line (the sub-command and each option exist, values have their
types, required options are given); blocks not marked ``<!-- docs-test: skip (why) -->`` are also run, in
``mkdocs.yml``'s page order, in one sandbox (so the quickstart's demo feeds the later pages). A marked block
is listed in :data:`SKIPPED`, and a block with any other command (``pip``, ``vllm``) must be marked.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import typer
import yaml
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.cli.reference import render_reference
from support.shared_data import REPO_ROOT, shared_data_dir

DOCS = REPO_ROOT / "docs"
README = REPO_ROOT / "README.md"
MARK = re.compile(r"<!-- docs-test: skip \((?P<why>[^)]+)\) -->\n```bash\n(?P<body>.*?)```", re.S)
BLOCK = re.compile(r"^```bash\n(?P<body>.*?)^```", re.S | re.M)
#: the blocks that are not run (page, first line): a live model server, GPUs, the network, minutes
SKIPPED = {
    ("README.md", "# a model behind any OpenAI-compatible server (vLLM, SGLang, Ollama...), 32 uniform"
                  " frames per video"),
    ("docs/quickstart.md", "bash scripts/venv.sh spatialbench demo --out demo-out"),
    ("docs/workflows/run.md", "spatialbench run --benchmark vsibench --data demo-out/benchmark --limit 5 \\"),
    ("docs/workflows/shortcuts.md",
     "spatialbench stress-test --benchmark vsibench --data VSI-Bench/ --out st/   "
     "# st/stress_test.{json,md,csv,png,svg}"),
    ("docs/workflows/profile.md", "spatialbench profile --benchmark vsibench --data demo-out/benchmark \\"),
    ("docs/workflows/serve.md", "spatialbench serve --data demo-out/benchmark --runs runs --port 8765"),
    ("docs/workflows/scale-out.md", "pip install 'spatialbench[ray]'"),
    ("docs/workflows/scale-out.md", "# one GPU per replica, two replicas (data parallel by hand; the pool "
                                    "spreads the requests):"),
}
#: blocks parsed but not run: they need files no page makes (a run file of four shards)
PARSE_ONLY = {("docs/workflows/scale-out.md",
               "spatialbench run --config run.yaml --shard 1/4 --out runs/q7b-1     "
               "# ... 2/4, 3/4, 4/4 anywhere")}


def _pages() -> list[Path]:
    """README, then the pages in mkdocs.yml's nav order."""
    nav = yaml.safe_load((REPO_ROOT / "mkdocs.yml").read_text())["nav"]

    def walk(entries: list) -> list[str]:
        out: list[str] = []
        for entry in entries:
            for value in entry.values():
                out += walk(value) if isinstance(value, list) else [value]
        return out

    return [README, *(DOCS / page for page in walk(nav))]


def _blocks() -> list[tuple[str, str, str]]:
    """Every bash block: (page relative to the repo, its text, skip reason or "")."""
    found = []
    for page in _pages():
        text = page.read_text()
        marked = {m["body"]: m["why"] for m in MARK.finditer(text)}
        for match in BLOCK.finditer(text):
            found.append((str(page.relative_to(REPO_ROOT)), match["body"], marked.get(match["body"], "")))
    return found


def _commands(body: str) -> list[str]:
    """The block's command lines: continuations joined, comments and blank lines dropped."""
    joined = re.sub(r"\\\n\s*", " ", body)
    lines = (line.strip() for line in joined.splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def _parse(args: list[str]) -> None:
    """Parse ``args`` as the command line would, running nothing (click.UsageError when they don't)."""
    command = typer.main.get_command(app)  # typer 0.29 brings its own click (typer._click)
    ctx = command.make_context("spatialbench", list(args), resilient_parsing=False)
    while hasattr(command, "list_commands") and [*ctx._protected_args, *ctx.args]:
        rest = [*ctx._protected_args, *ctx.args]
        sub = command.get_command(ctx, rest[0])
        assert sub is not None, f"no command {rest[0]!r} in {args}"
        command, ctx = sub, sub.make_context(rest[0], rest[1:], parent=ctx, resilient_parsing=False)


def test_the_readme_is_short_and_starts_with_the_two_commands() -> None:
    lines = README.read_text().splitlines()
    assert len(lines) <= 150
    two = ["bash scripts/venv.sh spatialbench demo --out demo-out", "bash scripts/venv.sh pytest"]
    assert [line.rstrip() for line in lines[:2]] == two
    # rendered as two lines, not one paragraph "… demo-out bash scripts/venv.sh pytest" (a hard break)
    import markdown

    assert "demo-out<br />\nbash scripts/venv.sh pytest" in markdown.markdown("\n".join(lines[:2]))
    for link in re.findall(r"\]\((docs/[^)#]+)", README.read_text()):
        assert (REPO_ROOT / link).is_file(), link


def test_the_skip_list_is_the_marked_blocks() -> None:
    blocks = _blocks()
    marked = {(page, body.splitlines()[0]) for page, body, why in blocks if why}
    assert marked == SKIPPED
    for page, body, why in blocks:
        others = [c for c in _commands(body) if not c.startswith("spatialbench ")]
        assert why or not others, f"{page}: {others} is no spatialbench command: mark the block skipped"


def test_every_command_line_parses() -> None:
    checked = 0
    for page, body, _ in _blocks():
        for command in _commands(body):
            if command.startswith("spatialbench "):
                try:
                    _parse(shlex.split(command, comments=True)[1:])
                except Exception as exc:  # typer._click's UsageError: not click's class
                    if not hasattr(exc, "format_message"):
                        raise
                    pytest.fail(f"{page}: {command}: {exc.format_message()}")
                checked += 1
    assert checked >= 20


def test_the_cli_reference_is_current() -> None:
    assert (DOCS / "cli.md").read_text() == render_reference(app), "run: python scripts/cli_reference.py"


def test_mkdocs_builds_strictly(tmp_path: Path) -> None:
    mkdocs = shutil.which("mkdocs", path=str(Path(sys.executable).parent)) or shutil.which("mkdocs")
    if mkdocs is None:
        pytest.skip("mkdocs is a dev dependency (pip install -e .[dev])")
    done = subprocess.run([mkdocs, "build", "--strict", "-q", "-d", str(tmp_path / "site")], cwd=REPO_ROOT,
                          capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site" / "workflows" / "import" / "index.html").is_file()


@pytest.mark.slow
def test_the_runnable_blocks_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shared = shared_data_dir()
    if not shared.is_dir():
        pytest.skip("the docs' examples read ../shared/data")
    work = tmp_path / "work"
    work.mkdir()
    (tmp_path / "shared").symlink_to(shared.parent)  # ../shared/data as the pages write it
    monkeypatch.chdir(work)
    ran = 0
    for page, body, why in _blocks():
        if why or (page, body.splitlines()[0]) in PARSE_ONLY:
            continue
        for command in _commands(body):
            result = CliRunner().invoke(app, shlex.split(command, comments=True)[1:])
            assert result.exit_code == 0, f"{page}: {command}\n{result.output}"
            ran += 1
    assert ran >= 10 and (work / "report" / "index.html").is_file()
