"""`newsclean train --check`: train into a temporary folder and compare with the packaged model
byte for byte, so a change that stops the code reproducing the shipped model is seen (the
packaged files once drifted from what training at HEAD gives). The training itself is replaced
here by one that writes given files: the suite cannot afford a real training."""
from __future__ import annotations

from pathlib import Path

import pytest

from newsclean.cleaners.model import train


def _write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


def test_differing_files_names_changed_missing_and_extra_files(tmp_path):
    a = _write(tmp_path / "a", {"model.json": "{}", "stage1.lgb.txt": "tree 1", "only_a.txt": "x"})
    b = _write(tmp_path / "b", {"model.json": "{}", "stage1.lgb.txt": "tree 2", "only_b.txt": "y",
                                "__init__.py": ""})  # the package folder's own file is no model file
    assert train.differing_files(a, b) == ["only_a.txt", "only_b.txt", "stage1.lgb.txt"]
    assert train.differing_files(a, a) == []


@pytest.mark.parametrize("trained, code", [("tree 1", 0), ("tree 2", 1)])
def test_check_exits_non_zero_when_training_does_not_reproduce_the_packaged_files(tmp_path, monkeypatch, capsys,
                                                                                  trained, code):
    packaged = _write(tmp_path / "packaged", {"model.json": "{}\n", "stage1.lgb.txt": "tree 1", "__init__.py": ""})
    monkeypatch.setattr(train, "build_docs", lambda devset, with_snippets: ([], None))
    monkeypatch.setattr(train, "train_models", lambda docs: {"stage1": trained, "lexicon": {}})
    monkeypatch.setattr(train, "save", lambda models, out, meta: _write(out, {"model.json": "{}\n",
                                                                              "stage1.lgb.txt": models["stage1"]}))
    assert train.main(["--devset", str(tmp_path), "--out", str(packaged), "--check"]) == code
    assert ("reproduced byte for byte" in capsys.readouterr().out) is (code == 0)
    assert (packaged / "stage1.lgb.txt").read_text() == "tree 1"  # the packaged files are never written
