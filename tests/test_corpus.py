"""Corpus-level line repetition (newsclean.cleaners.corpus)."""
import re
import sys
import unicodedata

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from newsclean.cleaners.corpus import CorpusStats, DocContext, _Counter, line_hashes, normalise_for_hash


def test_normalisation_folds_case_digits_punctuation():
    assert normalise_for_hash(["Share this: 12 Comments!", "  "]) == ["share this 00 comments", ""]
    a, b = line_hashes(["Sign in | Subscribe", "sign in  subscribe"])
    assert a == b


def test_document_frequency_counts_documents_not_occurrences():
    docs = [
        (["Menu", "Menu", "A story about rivers and boats on the water.", "Subscribe"], "a.com"),
        (["Menu", "Another story entirely, about trains.", "Subscribe"], "a.com"),
        (["Menu", "A third one about bread.", "Sign in"], "b.org"),
    ]
    stats = CorpusStats.build(docs)
    assert stats.n_docs == 3
    ctx = stats.doc_context(docs[0][0], "a.com")
    assert list(ctx.df) == [3, 3, 1, 2]
    assert list(ctx.df_site) == [2, 2, 1, 2]
    assert ctx.n_site_docs == 2
    # unknown key: site counts fall back to the document itself
    ctx = stats.doc_context(docs[2][0], None)
    assert list(ctx.df_site) == [1, 1, 1]
    # a line never seen counts as the document's own
    assert list(stats.doc_context(["never seen"], "a.com").df) == [1]


def test_counter_merges_chunks_exactly():
    rng = np.random.default_rng(0)
    keys = rng.integers(0, 500, size=20_000).astype(np.uint64)
    c = _Counter(chunk=1_000)
    for part in np.array_split(keys, 37):
        c.add(part)
    c.finish()
    uniq, counts = np.unique(keys, return_counts=True)
    assert np.array_equal(c.keys, uniq)
    assert np.array_equal(c.counts, counts)
    assert np.array_equal(c.lookup(uniq[:5]), counts[:5])
    assert c.lookup(np.array([10_000], dtype=np.uint64))[0] == 0


def test_memory_is_bounded_by_distinct_lines():
    # 200k documents of which lines repeat: the table holds only distinct hashes (12 bytes each)
    def docs():
        for i in range(20_000):
            yield [f"footer line {i % 50}", "Home", "About us", f"story {i}"], f"site{i % 7}"
    stats = CorpusStats.build(docs())
    assert stats.n_docs == 20_000
    assert stats.n_distinct_lines <= 50 + 2 + 20_000  # digits fold to 0: "story 00000" style collisions allowed
    assert stats._overall.keys.dtype == np.uint64


def test_empty_context():
    ctx = DocContext.empty(3, url="https://example.com/a")
    assert list(ctx.df) == [1, 1, 1] and ctx.n_docs == 1 and ctx.url.endswith("/a")


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=()), max_size=60)
       | st.lists(st.sampled_from(["a", "B", " ", "\n", ".", "“", "”", "é", "—", "€", "©", "Ω", "😀", "\ud83d", "&", "9"]),
                  max_size=40).map("".join))
def test_drop_punctuation_is_translate_of_the_drop_table(text):
    # the byte-and-line split form, with its table filled as characters are met, deletes exactly
    # what str.translate deletes with the whole table built up front
    from newsclean.cleaners.corpus import drop_punctuation
    assert drop_punctuation(text) == text.translate(FULL_DROP_TABLE)


# every punctuation mark and symbol of Unicode, built the slow way as the reference
FULL_DROP_TABLE = {cp: None for cp in range(sys.maxunicode + 1) if unicodedata.category(chr(cp))[0] in "PS"}


def test_every_code_point_is_classified_as_its_definition_says(monkeypatch):
    """_KIND, learnt on first sight, gives every code point what the slow definitions give: a digit
    as _DIGITS matches it, punctuation and symbols by their Unicode category; the second look is
    read from the array."""
    from newsclean.cleaners import corpus

    monkeypatch.setattr(corpus, "_KIND", np.zeros(0x110000, dtype=np.uint8))
    cps = np.arange(sys.maxunicode + 1, dtype=np.uint32)
    kinds = corpus._kinds(cps)
    drop = np.zeros(len(cps), dtype=bool)
    drop[list(FULL_DROP_TABLE)] = True
    digit = np.array([corpus._DIGITS.match(chr(cp)) is not None for cp in range(sys.maxunicode + 1)])
    assert ((kinds == corpus._DROP) == drop).all() and ((kinds == corpus._DIGIT) == digit).all()
    assert (kinds != corpus._UNSEEN).all() and (corpus._kinds(cps) == kinds).all()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=st.characters(blacklist_categories=()), max_size=30)
                | st.lists(st.sampled_from(["a", "B", " ", "\t", ".", "“", "”", "é", "—", "€", "©", "٣", "Ⅷ", "²", "😀",
                                            "\ud83d", "9", "İ", "ẞ"]), max_size=20).map("".join), max_size=6))
def test_normalise_for_hash_is_its_definition(lines):
    # lower case, every digit to "0", punctuation and symbols deleted, white space folded per line
    expected = [" ".join(s.split()) for s in re.sub(r"\d", "0", "\n".join(lines).lower()).translate(FULL_DROP_TABLE).split("\n")]
    assert normalise_for_hash(lines) == (expected if lines else [])


_LINE_PIECES = ["a", "B", " ", ".", "Σ", "ΑΣ", "σ", "İ", "ẞ", "9", "“", "é", "\u0301", "'", "😀", "Menu"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_LINE_PIECES), max_size=8).map("".join), min_size=1, max_size=8),
       st.lists(st.integers(0, 7), max_size=8))
def test_a_documents_context_is_doc_context_in_every_pass(lines, later):
    # the passes after the first ask for a subset of the first pass's lines (and lines cut since):
    # each line's hash is computed once, and the counts are what doc_context gives on the same lines
    stats = CorpusStats.build([(lines, "a.com"), (lines[:2] + ["ΑΣ", "Menu"], "a.com"), (["Menu", "σ"], "b.org")])
    context = stats.context_fn("a.com", "https://a.com/x")
    second = [lines[i % len(lines)] for i in later] + ["Σ cut", "never seen"]
    for asked in (lines, second, lines):
        got, want = context(asked), stats.doc_context(asked, "a.com", "https://a.com/x")
        assert np.array_equal(got.df, want.df) and np.array_equal(got.df_site, want.df_site)
        assert (got.n_docs, got.n_site_docs, got.url) == (want.n_docs, want.n_site_docs, want.url)
    assert np.array_equal(stats.context_fn(None)(second).df_site, stats.doc_context(second, None).df_site)


_FOLD_PIECES = ["a", "B", " ", ".", "Σ", "ΑΣ", "σ", "'", "İ", "ẞ", "9", "²", "ﬁ", "Ⅷ", "\u00a0", "\u2028", "\u0301", "\u0308",
                "ᄀ", "\u1161", "“", "—", "€", "é", "e\u0301", "😀", "\ud83d", "\r", "\t", "Menu"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_FOLD_PIECES), max_size=12).map("".join)
                | st.text(alphabet=st.characters(blacklist_categories=(), blacklist_characters="\n"), max_size=20),
                max_size=8))
def test_folded_tokens_many_is_each_texts_tokens(texts):
    # one pass over the joined texts gives what each text gives alone: a final sigma before the
    # break, a combining mark or a Hangul vowel after it, compatibility forms, odd white space
    from newsclean.cleaners.corpus import folded_tokens_many, tokens

    assert folded_tokens_many(texts) == [" ".join(tokens(t)) for t in texts]


def test_folded_tokens_many_folds_a_text_with_a_line_break_alone():
    from newsclean.cleaners.corpus import folded_tokens_many, tokens

    texts = ["ΟΔΟΣ\nΑΣ", "Foo, bar!", ""]
    assert folded_tokens_many(texts) == [" ".join(tokens(t)) for t in texts] == ["οδος ας", "foo bar", ""]
