"""spatialbench: visual-spatial intelligence benchmarks for multimodal LLMs.

Packages follow the data flow (see DESIGN.md): ``scene`` → ``synth`` / ``generate`` → ``benchmarks``
→ ``media`` + ``prompting`` + ``models`` → ``runs`` → ``scoring`` → ``analysis`` / ``report``.
"""

__version__ = "0.1.0"
