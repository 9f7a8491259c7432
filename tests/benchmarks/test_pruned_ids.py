import pytest

from spatialbench.benchmarks.vsibench.pruned_ids import read_pruned_ids


def test_ids_comments_and_blank_lines(tmp_path):
    path = tmp_path / "pruned.txt"
    derived = "scene0001_00-0123456789ab"
    path.write_text(f"# VSI-Bench-Debiased\n\n 14 \n14\n{derived}\n{derived}-2\n")
    assert read_pruned_ids(path) == {"14", "scene0001_00-0123456789ab", "scene0001_00-0123456789ab-2"}


def test_junk_lines_are_named_by_line_number(tmp_path):
    # newcomer's file: abc, blank, " 14 ", 14, #comment, 1.5 -> was read as {"abc", "14", "#comment", "1.5"}
    path = tmp_path / "weird_pruned.txt"
    path.write_text("abc\n\n  14  \n14\n#comment\n1.5\n")
    with pytest.raises(ValueError, match=r"weird_pruned\.txt: not an id .*: line 1: 'abc'; line 6: '1\.5'$"):
        read_pruned_ids(path)


def test_empty_file_is_an_error(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text("\n# nothing\n")
    with pytest.raises(ValueError, match="no pruned id"):
        read_pruned_ids(path)
