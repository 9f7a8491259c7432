"""Parametric assets built from primitives; ``ASSETS`` maps a variant name to a builder ``f(rng) -> Asset``.

Importing this package registers every builder (the modules register on import).
"""

from spatialbench.synth.assets import appliances, decor, fixtures, furniture, small  # noqa: F401  (registration)
from spatialbench.synth.assets.fixtures import door, window
from spatialbench.synth.assets.registry import ASSETS, AssetBuilder

__all__ = ["ASSETS", "AssetBuilder", "door", "window"]
