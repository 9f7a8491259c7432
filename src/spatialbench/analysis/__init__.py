"""Analyses of stored runs (layer 5): run comparisons, error taxonomy, cognitive-map locality.

Each analysis reads run folders (``config.json``, ``items.csv``, ``run.sqlite``), never re-sends a request,
and writes one versioned JSON document (``schema``, ``version``) next to the run, which the report draws.
Modules: ``run_folder`` (reading a run), ``compare`` + ``compare_render`` (``spatialbench compare``),
``errors`` (``spatialbench errors``).
"""
