"""Benchmark items and the loaders/writers of each benchmark's official files."""

from spatialbench.records.item import AnswerKind, Item, MediaKind, MediaRef

__all__ = ["AnswerKind", "Item", "MediaKind", "MediaRef"]
