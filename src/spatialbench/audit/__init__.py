"""Audits of benchmark answers against 3D annotations (``audit.vsibench``)."""
