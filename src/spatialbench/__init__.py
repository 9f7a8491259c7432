"""spatialbench: visual-spatial intelligence benchmarks for multimodal LLMs.

Packages are layers (see DESIGN.md; checked by import-linter, contracts in pyproject.toml): ``records`` /
``registry`` → ``scene``, ``media``, ``prompting``, ``models``, ``scoring`` → ``synth`` → ``generate`` →
``benchmarks`` → ``runs`` → ``audit`` / ``demo`` / ``analysis`` → ``report`` / ``web`` → ``cli``.
"""

__version__ = "0.1.0"
