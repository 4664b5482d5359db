"""The articles' language: py3langid's model, its arrays unpacked once per machine into the model
cache folder (newsclean.cleaners.language.unpacked_tables) instead of in every process. The
identifier built from them must score exactly as py3langid's own loading does; this test fails
loudly if a py3langid release changes how its identifier is built from the model file's arrays."""
from __future__ import annotations

import io
import lzma

import numpy as np
import pytest
from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier

from newsclean.cleaners import language

TEXTS = [
    "The city council voted on Tuesday to expand the downtown bus network after months of debate.",
    "Der Stadtrat hat am Dienstagabend nach einer langen Debatte den Haushalt beschlossen.",
    "El consejo de ministros aprobó este martes un plan de inversiones para el transporte.",
    "Le conseil municipal a adopté mardi soir le budget de la ville pour l'année prochaine.",
    "市议会周二投票决定扩大市中心的公交网络。",
    "Rīgas dome otrdien nobalsoja par jaunu sabiedriskā transporta tīklu.",
    "12 345 678",
]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("NEWSCLEAN_MODEL_CACHE", str(tmp_path))
    return tmp_path


def test_the_identifier_scores_exactly_as_py3langids_own(cache):
    language._identifier.cache_clear()  # built afresh, from the tables this test's cache holds
    try:
        ours = language._identifier()
        assert list(cache.glob("langid-*"))
    finally:
        language._identifier.cache_clear()
    theirs = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    for text in TEXTS:
        assert ours.classify(text) == theirs.classify(text), text
        assert ours.rank(text)[:5] == theirs.rank(text)[:5], text


def test_the_tables_are_unpacked_once_then_mapped_from_the_cache(cache, monkeypatch):
    first = language.unpacked_tables(MODEL_DIR / MODEL_FILE)
    (folder,) = cache.glob("langid-*")
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"{name}.npy" for name in language._TABLES)
    assert not list(cache.glob("*.tmp"))

    def no_unpacking(*args, **kwargs):
        raise AssertionError("the model file was unpacked again")

    monkeypatch.setattr(language.lzma, "open", no_unpacking)
    again = language.unpacked_tables(MODEL_DIR / MODEL_FILE)
    assert all(isinstance(again[name], np.memmap) for name in language._TABLES)
    assert all(np.array_equal(first[name], again[name]) for name in language._TABLES)


def test_a_damaged_cache_is_unpacked_again(cache):
    language.unpacked_tables(MODEL_DIR / MODEL_FILE)
    (folder,) = cache.glob("langid-*")
    damaged = folder / "nextmove.npy"
    damaged.write_bytes(damaged.read_bytes()[:1000])
    tables = language.unpacked_tables(MODEL_DIR / MODEL_FILE)
    assert tables["nextmove"].shape == np.load(damaged, mmap_mode="r").shape  # stored whole again


def test_a_model_file_of_another_layout_is_left_to_py3langid(tmp_path, cache):
    buffer = io.BytesIO()
    np.savez(buffer, weights=np.zeros(3))
    model = tmp_path / "other.npz.xz"
    model.write_bytes(lzma.compress(buffer.getvalue()))
    assert language.unpacked_tables(model) is None


def test_an_unwritable_cache_still_gives_the_tables(tmp_path, monkeypatch):
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("NEWSCLEAN_MODEL_CACHE", str(blocker / "cache"))
    tables = language.unpacked_tables(MODEL_DIR / MODEL_FILE)
    assert tables is not None and tables["ptc"].shape[1] == len(tables["pc"])
