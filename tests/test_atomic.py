"""newsclean.cleaners.atomic: a file takes its name only once it is whole, with the permissions asked for."""
from __future__ import annotations

import stat

import pytest

from newsclean.cleaners.atomic import atomic_file, atomic_write_text
from newsclean.cleaners.shared_data import training_cli


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "model.txt"
    atomic_write_text("old", path)
    with pytest.raises(RuntimeError):
        with atomic_file(path, "w", encoding="utf-8") as fh:
            fh.write("half")
            raise RuntimeError("disk full")
    assert path.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["model.txt"]


def test_a_packaged_data_file_is_readable_by_all(tmp_path):
    """A temporary file is private (0600); a trained model file is written 0644 like the package's data."""
    path = tmp_path / "ranker.lgb.txt"
    atomic_write_text("tree", path, permissions=0o644)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    atomic_write_text("tree", tmp_path / "private.txt")
    assert stat.S_IMODE((tmp_path / "private.txt").stat().st_mode) == 0o600


def test_a_trainer_reads_its_dev_pages_and_output_from_the_command_line(tmp_path):
    (tmp_path / "pages.jsonl.gz").write_bytes(b"")
    assert training_cli("train", tmp_path / "default", ["--devset", str(tmp_path)]) == (tmp_path, tmp_path / "default")
    with pytest.raises(SystemExit):
        training_cli("train", tmp_path / "default", ["--devset", str(tmp_path / "missing")])
