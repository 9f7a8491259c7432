"""ReMindView-Bench generation on synthetic scenes (issue 12; paper Sec. 3, App. A-C, Tables 4-7).

Modules: ``settings`` (paper defaults, ``official-code`` preset), ``relations`` (8 direction bins,
turns, distances), ``frameset`` (one sample: cameras, visibility, question objects), ``naming`` (object
names, colours for repeated categories), ``questions`` (the 22 templates of ``data/templates.json``),
``forms`` (their answer computations), ``instantiate`` (search over bindings), ``choices``
(distractors, letter and pattern balance), ``render`` (frame sets on disk), ``viewgraph`` (per-sample
view graph), ``dataset`` (QA rows), ``stats`` (App. A.3 tables), ``pipeline`` (:func:`generate_remindview`).
"""

from spatialbench.generate.remindview.pipeline import Generated, generate_remindview
from spatialbench.generate.remindview.settings import PRESETS, RemindViewConfig, preset_config

__all__ = ["PRESETS", "Generated", "RemindViewConfig", "generate_remindview", "preset_config"]
