"""The one template module: strict filling, files read once."""

import pytest

from spatialbench.prompting.templates import TemplateError, fill, fill_lines, read_json, read_text


def test_fill_names_the_missing_placeholder() -> None:
    assert fill("{a} and {b}", {"a": "x", "b": "y", "unused": "z"}) == "x and y"
    with pytest.raises(TemplateError, match=r"needs \['b'\]"):
        fill("{a} and {b}", {"a": "x"})


def test_fill_lines_drops_lines_that_fill_to_nothing() -> None:
    assert fill_lines("{pre}\n{question}", {"pre": "", "question": "Why?"}) == "Why?"


def test_files_are_read_once() -> None:
    read_text.cache_clear()
    first = read_text("spatialbench.benchmarks.remindview", "templates/user.txt")
    assert "{question}" in first
    assert read_text("spatialbench.benchmarks.remindview", "templates/user.txt") is first
    assert read_text.cache_info().hits == 1
    data = read_json("spatialbench.benchmarks.vsibench", "prompt.json")
    assert data is read_json("spatialbench.benchmarks.vsibench", "prompt.json")
    with pytest.raises(FileNotFoundError):
        read_text("spatialbench.benchmarks.vsibench", "no-such-file.txt")
