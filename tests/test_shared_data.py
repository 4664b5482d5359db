"""The shared development data is found through NEWSCLEAN_SHARED or beside the checkout, never
through a machine's absolute path written in the code (tests/test_repo_hygiene.py checks every file)."""
from __future__ import annotations


from newsclean.cleaners.shared_data import devset_dir, shared_dir
from tests.conftest import ROOT


def test_environment_variable_wins(monkeypatch, tmp_path):
    monkeypatch.delenv("NEWSCLEAN_DEVSET", raising=False)
    monkeypatch.setenv("NEWSCLEAN_SHARED", str(tmp_path))
    assert shared_dir() == tmp_path
    assert devset_dir() == tmp_path / "devset"


def test_default_is_the_shared_folder_beside_the_checkout(monkeypatch):
    monkeypatch.delenv("NEWSCLEAN_SHARED", raising=False)
    monkeypatch.delenv("NEWSCLEAN_DEVSET", raising=False)
    assert shared_dir() == ROOT.parent / "shared"
    assert shared_dir().name == "shared"
    assert devset_dir() == ROOT.parent / "shared" / "devset"


def test_the_devset_can_be_named_on_its_own(monkeypatch, tmp_path):
    from newsclean.cleaners.shared_data import devset_dir

    monkeypatch.setenv("NEWSCLEAN_DEVSET", str(tmp_path / "pages"))
    monkeypatch.setenv("NEWSCLEAN_SHARED", str(tmp_path / "elsewhere"))
    assert devset_dir() == tmp_path / "pages"


def test_train_and_eval_say_how_to_find_missing_dev_pages(tmp_path):
    import pytest

    from newsclean.cleaners.model.evaluate import main as eval_main
    from newsclean.cleaners.model.train import main as train_main

    for main in (train_main, eval_main):
        with pytest.raises(SystemExit) as stop:
            main(["--devset", str(tmp_path)])
        message = str(stop.value)
        assert str(tmp_path) in message and "--devset" in message and "NEWSCLEAN_DEVSET" in message
