"""run.lock is removed on every exit path of the holder, and a deleted lock file is never shared."""

import os

import pytest

from spatialbench.runs.lock import LOCK_NAME, RunLockedError, run_lock


def test_lock_file_is_removed_after_success_and_error(tmp_path) -> None:
    with run_lock(tmp_path):
        assert (tmp_path / LOCK_NAME).read_text() == str(os.getpid())
    assert not (tmp_path / LOCK_NAME).exists()
    with pytest.raises(RuntimeError), run_lock(tmp_path):
        raise RuntimeError("boom")
    assert not (tmp_path / LOCK_NAME).exists()
    with run_lock(tmp_path), pytest.raises(RunLockedError, match="another run is using"), run_lock(tmp_path):
        pass  # still exclusive while held


def test_a_lock_on_a_deleted_file_is_not_kept(tmp_path, monkeypatch) -> None:
    import spatialbench.runs.lock as lock

    calls = []

    def first_stale(fd, path):  # the first file locked was deleted by a finishing run meanwhile
        calls.append(fd)
        return len(calls) > 1

    monkeypatch.setattr(lock, "_same_file", first_stale)
    with run_lock(tmp_path):
        assert len(calls) == 2  # it locked the file again instead of running on the deleted one
