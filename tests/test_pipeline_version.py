"""pipeline_version changes with whatever changes the output: the settings, the package's code and
data files (a retrained model, an edited word list), the user's outlet registry. An incremental run
re-cleans everything when it changes (manifest.plan_table, tests/test_flow_incremental.py)."""
from __future__ import annotations

import pytest

from newsclean.cleaners import settings as settings_module
from newsclean.cleaners.settings import Settings


@pytest.fixture
def package(tmp_path, monkeypatch):
    """A stand-in for the cleaners package: a module, a model file, a word list."""
    root = tmp_path / "cleaners"
    (root / "model" / "files").mkdir(parents=True)
    (root / "rules.py").write_text("RULES = ()\n")
    (root / "model" / "files" / "stage1.lgb.txt").write_text("tree\n")
    (root / "stopwords.txt").write_text("the\n")
    monkeypatch.setattr(settings_module, "CODE_ROOT", root)
    monkeypatch.delenv("NEWSCLEAN_OUTLETS", raising=False)
    settings_module._package_digest.cache_clear()
    settings_module._code_digest.cache_clear()
    yield root
    settings_module._package_digest.cache_clear()
    settings_module._code_digest.cache_clear()


def _version() -> str:
    """The version a new process computes (the digests are cached per process)."""
    settings_module._package_digest.cache_clear()
    settings_module._code_digest.cache_clear()
    return Settings().pipeline_version


@pytest.mark.parametrize("path, content", [("rules.py", "RULES = (1,)\n"), ("model/files/stage1.lgb.txt", "tree 2\n"),
                                           ("stopwords.txt", "the\nand\n"), ("metadata/outlets.csv", "name,domain\n")])
def test_a_change_to_code_or_data_changes_the_version(package, path, content):
    before = _version()
    (package / path).parent.mkdir(parents=True, exist_ok=True)
    (package / path).write_text(content)
    assert _version() != before


def test_bytecode_and_other_files_do_not_change_it(package):
    before = _version()
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "rules.cpython-311.pyc").write_bytes(b"\x00compiled")
    (package / "notes.md").write_text("a maintainer's note\n")
    assert _version() == before


def test_the_users_outlet_registry_is_part_of_it(package, tmp_path, monkeypatch):
    before = _version()
    registry = tmp_path / "my_outlets.csv"
    registry.write_text("name,domain,aliases\nValley News,valleynews.example,\n")
    monkeypatch.setenv("NEWSCLEAN_OUTLETS", str(registry))
    with_registry = _version()
    assert with_registry != before
    registry.write_text("name,domain,aliases\nValley News,valley-news.example,\n")
    assert _version() != with_registry


def test_settings_that_change_output_change_it_and_batch_size_does_not(package):
    base = _version()
    assert Settings(keep_curly_quotes=True).pipeline_version != base
    assert Settings(batch_size=7).pipeline_version == base


def test_the_shipped_package_has_a_stable_version():
    first = _version()
    assert _version() == first
    assert Settings().pipeline_version == first and first.startswith(settings_module.PACKAGE_VERSION + "+")
