"""Media: video decoding (PyAV), frame sampling strategies by name, frame folders, images, a frame cache."""

from spatialbench.media.cache import FrameCache, load_media
from spatialbench.media.errors import MediaError
from spatialbench.media.image import resize_to_max_pixels
from spatialbench.media.sampling import FrameStrategy, StrategyError, parse_strategy
from spatialbench.media.video import SampledFrames, sample_video

__all__ = [
    "FrameCache",
    "FrameStrategy",
    "MediaError",
    "SampledFrames",
    "StrategyError",
    "load_media",
    "parse_strategy",
    "resize_to_max_pixels",
    "sample_video",
]
