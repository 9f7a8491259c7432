"""Benchmark generation: questions from scenes.

``generate.vsi``: VSI-Bench from scene meta-information; ``generate.synthetic``: the synthetic VSI-Bench
benchmark from rendered procedural scenes.
"""
