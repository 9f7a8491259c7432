"""The built-in demo: synthetic scenes rendered to videos, all VSI-Bench tasks, chance baselines, a table.

Public names: ``run_demo``, ``DemoResult``, ``contact_sheet``.
"""

from spatialbench.demo.contact_sheet import contact_sheet
from spatialbench.demo.pipeline import DemoResult, run_demo

__all__ = ["DemoResult", "contact_sheet", "run_demo"]
