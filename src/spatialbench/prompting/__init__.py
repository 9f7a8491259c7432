"""Prompts: template data files, per-benchmark prompt builders, input order, repetition and blind mode."""

from spatialbench.prompting.builders import (
    PROMPT_BUILDERS,
    PromptBuilder,
    arrange,
    get_prompt_builder,
    image_parts,
)
from spatialbench.prompting.config import InputOrder, ModelFamily, PromptConfig
from spatialbench.prompting.templates import TemplateError, fill, load_template_data

__all__ = [
    "PROMPT_BUILDERS",
    "InputOrder",
    "ModelFamily",
    "PromptBuilder",
    "PromptConfig",
    "TemplateError",
    "arrange",
    "fill",
    "get_prompt_builder",
    "image_parts",
    "load_template_data",
]
