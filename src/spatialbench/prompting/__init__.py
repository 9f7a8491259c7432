"""Prompts: the builder base, layout helpers (input order, repetition, blind mode) and templates.

Benchmark-specific builders live in their benchmark's package (``spatialbench.benchmarks.<name>``).
"""

from spatialbench.prompting.builders import BuilderFactory, Frames, PromptBuilder, arrange, image_parts
from spatialbench.prompting.config import InputOrder, ModelFamily, PromptConfig
from spatialbench.prompting.templates import TemplateError, fill, fill_lines, read_json, read_text

__all__ = [
    "BuilderFactory",
    "Frames",
    "InputOrder",
    "ModelFamily",
    "PromptBuilder",
    "PromptConfig",
    "TemplateError",
    "arrange",
    "fill",
    "fill_lines",
    "image_parts",
    "read_json",
    "read_text",
]
