"""HTML views shared by the static report and the browser UI (layer 5: both import it, neither is imported).

:mod:`spatialbench.views.transcript` renders an item's dialogue
(:class:`~spatialbench.runs.transcript.Transcript`) to one HTML fragment; each caller says where an image
sent lives (a ``/media`` URL in the UI, a thumbnail file in the report).
"""

from spatialbench.views.transcript import Thumb, map_legend, map_svg, stylesheet, transcript_html

__all__ = ["Thumb", "map_legend", "map_svg", "stylesheet", "transcript_html"]
