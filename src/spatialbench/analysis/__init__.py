"""Analyses of finished runs (layer 5), registered by name in :data:`registry.ANALYSES`.

Each analysis reads a :class:`~spatialbench.runs.folder.RunFolder` (never re-sends a request unless it
asks a model, as a judge does) and returns one versioned document (``analysis``, ``version``) with its
tables and figures, which the report draws wherever the document lies beside a run. Registered here:
``compare`` (+ ``compare_render``: ``spatialbench compare``), ``sweep`` (``spatialbench sweep``),
``error-table`` (``error_table``; ``errors`` samples the errors to annotate: ``spatialbench errors``),
``cogmap-locality`` (``cogmap``: ``spatialbench cogmap``), ``mindcube-cogmap`` (``mindcube_cogmap``: the
same command on a MindCube run). ``stored`` holds what they share: stored
answers, correct items, flattened settings. The pure parts they build on sit lower: the map prompt and
parser in ``prompting.cogmap*``, ground-truth maps in ``scene.cogmap``, the locality metric in
``scoring.cogmap_locality``, VSI-Bench (tiny) in ``benchmarks.vsibench.tiny``, the charts in ``charts``.
"""
