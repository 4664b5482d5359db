"""The articles' language: py3langid's model, its arrays unpacked once per machine into the model
cache folder (newsclean.cleaners.language.unpacked_tables) instead of in every process, and scored
many texts at once (newsclean.cleaners.langid_batch). The results must be py3langid's own: these
tests fail loudly if a py3langid release changes its model's arrays, its walk, its encoding or its
scoring."""
from __future__ import annotations

import gzip
import io
import json
import lzma
from collections import Counter
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier, visit_counts

from newsclean.cleaners import language
from newsclean.cleaners.langid_batch import encoded

TEXTS = [
    "The city council voted on Tuesday to expand the downtown bus network after months of debate.",
    "Der Stadtrat hat am Dienstagabend nach einer langen Debatte den Haushalt beschlossen.",
    "El consejo de ministros aprobó este martes un plan de inversiones para el transporte.",
    "Le conseil municipal a adopté mardi soir le budget de la ville pour l'année prochaine.",
    "市议会周二投票决定扩大市中心的公交网络。",
    "Rīgas dome otrdien nobalsoja par jaunu sabiedriskā transporta tīklu.",
    # the automaton's deepest states spell two characters of three bytes each ("こと", "いる"):
    # a window one byte short misses them (test_each_bytes_state_is_settled_by_the_window...)
    "東京都は火曜日、市内のバス路線を拡大することを決めた。関係者によると、来年から運行が始まっている。",
    "서울시는 화요일 시내 버스 노선을 확대하기로 결정했다.",
    "กรุงเทพมหานครตัดสินใจขยายเส้นทางรถประจำทางในวันอังคาร",
    "قرر مجلس المدينة يوم الثلاثاء توسيع شبكة الحافلات في وسط المدينة.",
    "12 345 678",
]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("NEWSCLEAN_MODEL_CACHE", str(tmp_path))
    return tmp_path


def test_the_cached_tables_score_exactly_as_py3langids_own(cache):
    language._batch_model.cache_clear()  # built afresh, from the tables this test's cache holds
    try:
        ours = language.identify_many(TEXTS)
        assert list(cache.glob("langid-*"))
    finally:
        language._batch_model.cache_clear()
    theirs = _theirs()
    assert ours == [_as_column(theirs, text) for text in TEXTS]


def test_the_tables_are_unpacked_once_then_mapped_from_the_cache(cache, monkeypatch):
    first = language.unpacked_tables(MODEL_DIR / MODEL_FILE)
    (folder,) = cache.glob("langid-*")
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"{name}.npy" for name in language._STORED)
    assert not list(cache.glob("*.tmp"))

    def no_unpacking(*args, **kwargs):
        raise AssertionError("the model file was unpacked again")

    monkeypatch.setattr(language.lzma, "open", no_unpacking)
    again = language.unpacked_tables(MODEL_DIR / MODEL_FILE)
    assert all(isinstance(again[name], np.memmap) for name in language._STORED)
    assert all(np.array_equal(first[name], again[name]) for name in language._STORED)


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
    assert tables is not None and tables["ptc32"].shape[1] == len(tables["pc"])


PAGES = Path(__file__).parent / "data" / "devset_subset" / "pages.jsonl.gz"


@lru_cache(maxsize=1)
def _theirs() -> LanguageIdentifier:
    """py3langid's identifier as py3langid loads it (once: ~0.5 s)."""
    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def _as_column(identifier: LanguageIdentifier, text: str):
    return language._column_values(*identifier.classify(text[:language.MAX_CHARS]))


def _page_texts() -> list[str]:
    pages = [json.loads(line) for line in gzip.open(PAGES, "rt", encoding="utf-8")]
    # whole pages (menus and all), true bodies, and lines of every length
    texts = [p["text"] for p in pages] + [p["truth"] for p in pages]
    texts += [line for p in pages[:20] for line in p["text"].splitlines()]
    return texts + TEXTS + ["", " ", "A", "ALL CAPITALS HEADLINE", "Ünïcödé ÀÉÎ", "\u00e9" * 3000, "😀" * 40]


def test_texts_scored_together_get_py3langids_own_results():
    theirs = _theirs()
    texts = _page_texts()
    assert len(texts) > 1_000
    assert language.identify_many(texts) == [_as_column(theirs, text) for text in texts]
    # in groups of the lock-step size, and one at a time: a text's neighbours change nothing
    assert [r for a in range(0, 192, 32) for r in language.identify_many(texts[a:a + 32])] == \
        [language.identify(text) for text in texts[:192]]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(min_size=0, max_size=60), min_size=1, max_size=6))
def test_any_texts_scored_together_get_py3langids_own_results(texts):
    theirs = _theirs()
    assert language.identify_many(texts) == [_as_column(theirs, text) for text in texts]


def test_each_bytes_state_is_settled_by_the_window_of_bytes_before_it():
    """What the batched walk rests on: the feature counts of the window walk are py3langid's."""
    model = language._batch_model()
    assert model is not None and 1 <= model.window <= 16
    identifier = _theirs()
    for text in TEXTS + _page_texts()[:300]:
        data = np.frombuffer(encoded(text), dtype=np.uint8).astype(np.int32)
        states = model.states(data, np.arange(len(data)))
        ours = Counter(f for f in model.out_feat[states].tolist() if f >= 0)
        theirs = visit_counts(identifier.tk_nextmove, [r << 8 for r in identifier.tk_row], identifier.tk_output, encoded(text))
        assert ours == (theirs or Counter()), text[:80]


def test_a_model_of_another_layout_is_scored_by_py3langid(monkeypatch):
    monkeypatch.setattr(language, "_batch_model", lambda: None)
    theirs = _theirs()
    assert language.identify_many(TEXTS) == [_as_column(theirs, text) for text in TEXTS]
