"""The static report: leaderboard tables, figures (matplotlib), per-item pages, as one HTML folder.

Public names: ``build_report``, ``ReportResult``, ``load_run``, ``RunData`` (unreadable run folders raise
:class:`~spatialbench.runs.checks.RunFolderError`).
"""

from spatialbench.report.build import ReportResult, build_report
from spatialbench.report.runs import RunData, load_run

__all__ = ["ReportResult", "RunData", "build_report", "load_run"]
