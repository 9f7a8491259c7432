"""Typer application objects shared by the sub-command modules (no commands defined here)."""

import typer

app = typer.Typer(
    name="spatialbench",
    help="Build, run and analyse visual-spatial intelligence benchmarks for multimodal LLMs.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)
generate_app = typer.Typer(
    help="Generate a benchmark (VSI-Bench from meta-info, synthetic scenes).", no_args_is_help=True
)
audit_app = typer.Typer(help="Audit a benchmark's answers against its 3D annotations.", no_args_is_help=True)
app.add_typer(generate_app, name="generate")
app.add_typer(audit_app, name="audit")
