"""Non-visual shortcut diagnosis: the Test-set Stress-Test with random forests (TsT-RF) and its leak check.

Brown et al., "Benchmark Designers Should 'Train on the Test Set' to Expose Exploitable Non-Visual
Shortcuts" (Sec. 3): one random forest per question type is trained by k-fold cross-validation on the
test set's own text-only features; its held-out accuracy beside chance says how much of the task is
answerable without seeing anything, and its per-item confidence in the gold answer is the bias score s(x).

Public names: :func:`stress_test`, :class:`StressTest`, :func:`check_label_invariance`, :class:`LeakError`,
:func:`question_table`, :data:`FEATURE_SETS`, :func:`write_stress_test`.
"""

from spatialbench.analysis.shortcuts.document import write_stress_test
from spatialbench.analysis.shortcuts.forest import StressTest, stress_test
from spatialbench.analysis.shortcuts.leak import LeakError, check_label_invariance
from spatialbench.analysis.shortcuts.sets import FEATURE_SETS
from spatialbench.analysis.shortcuts.table import question_table

__all__ = [
    "FEATURE_SETS",
    "LeakError",
    "StressTest",
    "check_label_invariance",
    "question_table",
    "stress_test",
    "write_stress_test",
]
