"""Benchmark generation: VSI-Bench from scene meta-information (``generate.vsi``)."""
