"""Analyses of stored runs (layer 5): comparisons and sweeps, error taxonomy, cognitive-map locality.

Each analysis reads run folders (``config.json``, ``items.csv``, ``run.sqlite``), never re-sends a request,
and writes one versioned JSON document (``schema``, ``version``) next to the run, which the report draws.
Modules: ``run_folder`` (reading a run), ``compare`` + ``compare_render`` (``spatialbench compare``),
``sweep`` (``spatialbench sweep``), ``errors`` + ``error_table`` (``spatialbench errors sample|table``),
``cogmap`` (``spatialbench cogmap``). The pure parts they build on sit lower: the map prompt and parser in
``prompting.cogmap*``, ground-truth maps in ``scene.cogmap``, the locality metric in
``scoring.cogmap_locality``, VSI-Bench (tiny) in ``benchmarks.vsibench.tiny``.
"""
