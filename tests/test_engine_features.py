"""The batched line features (newsclean.cleaners.engine.features.batch_features) are doc_features' rows, bit
for bit: whatever documents share a batch, in any order and batch size, with or without a lexicon
and corpus context, and the tokens it hands out are the ones doc_features keeps."""
from __future__ import annotations

import gzip
import json
import os
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from newsclean.cleaners.corpus import DocContext
from newsclean.cleaners.engine import features as engine
from newsclean.cleaners.engine.features import batch_features
from newsclean.cleaners.lines import normalise_lines
from newsclean.cleaners.model import LineModel
from newsclean.cleaners.model import features as fx

# a DocContext's df_site of 0 (no site key) makes df_site_log -inf, in doc_features as here
pytestmark = pytest.mark.filterwarnings("ignore:divide by zero encountered in log1p:RuntimeWarning")

SENTENCE = "The river authority said on Monday that the flood barrier would be raised before the storm."
LONG_PARAGRAPH = " ".join([SENTENCE] * 900)  # ~80,000 characters: longer than a 16-bit count


def _segments_doc(n_segments: int) -> list[str]:
    """Textual lines each followed by four short lines: every textual line is a segment of its own."""
    out = []
    for i in range(n_segments):
        out += [f"Paragraph {i}: " + SENTENCE, "Share", "Tweet", "Home", f"{i}"]
    return out


AWKWARD_DOCS: dict[str, list[str]] = {
    "empty": [],
    "one line": ["Just one line."],
    "article": ["Home", "News", "Flood barrier to be raised", "By Jane Doe", "March 3, 2024 10:30",
                SENTENCE, "Engineers have tested the barrier twice this year, and both tests went as planned.",
                "What engineers found", SENTENCE, "Home", "Contact us: news@example.com",
                "© 2024 Example Media. All rights reserved.", "https://example.com/privacy", "www.example.org"],
    "no text": ["Home", "News", "Sport", "Weather", "Home", "Login"],
    "punctuation": ["...", "!!!", "—", "» «", "|", "/", "- -", "•", "?", ":"],
    "digits": ["123", "456", "7 8", "-- 9 --", "2024", "12:30", "1/2/2018", "12.3.2018", "01-02-2019", "3"],
    "digits last": ["Results", "10", "20"],
    "digits first": ["30", "40", "Table"],
    "cjk": ["東京都の天気は晴れです。", "東京", "北京市は中国の首都です、人口は多い。", "日本語のテキスト"],
    "emoji": ["Great news 🎉🎉", "😀", "🇩🇪 Deutschland", "𝐁𝐨𝐥𝐝 𝐦𝐚𝐭𝐡 text", "𐐀𐐨 Deseret"],
    "rtl": ["مرحبا بالعالم", "שלום עולם", "هذا نص عربي طويل بما فيه الكفاية ليكون فقرة كاملة من الكلمات هنا.",
            "עברית ו-English mixed"],
    "combining": ["e\u0301te\u0301", "Cafe\u0301 au lait", "n\u0303", "\u0301", "a\u0308\u0308\u0308"],
    "tabs and spaces": ["\t", "a\tb\tc", " leading", "trailing ", "\u00a0", "x\u2028y", "\u200b", "a\u3000b"],
    "long lines": [LONG_PARAGRAPH, "Short", LONG_PARAGRAPH[:70_000] + " end.", "x" * 66_000],
    "trailing empties": ["First line here", "Second line here", "", ""],
    "inner empties": ["", "a", "", "", "bc", ""],
    "lower-casing grows": ["İstanbul İzmir", "By İlker", "DİKKAT 2024", "© İ", "x"],
    "final sigma": ["ΟΔΟΣ", "ΟΔΟΣ ΑΘΗΝΑ", "Σ", "ΣΣ.", "όλος ο κόσμος"],
    "odd characters": ["under_score __init__", "x²+y²", "½ cup", "Ⅻ roman", "\ud800 lone", "tab\tsep"],
    "bylines": ["By John Smith", "by the river", "Von Max Mustermann", "Por Juan", "de la Cruz", "BY X"],
    "bullets": ["- item one", "* item two", "• item three", "> quote", "» next", "– dash"],
    "months": ["March 3", "3 mars 2024", "mai", "Mai 2024", "dezember 1", "May", "the may flower 7"],
    "duplicates": ["Home", "Home", "Share", "Home", "Share", "Something else entirely"],
    "400 segments": _segments_doc(400),
    "401 segments": _segments_doc(401),
}
NAMES = list(AWKWARD_DOCS)


def _context(n: int, seed: int) -> DocContext:
    rng = np.random.default_rng(seed)
    df = rng.integers(1, 50, size=n).astype(np.int32)
    return DocContext(df=df, df_site=np.minimum(df, rng.integers(0, 8, size=n)).astype(np.int32),
                      n_docs=50, n_site_docs=7)


@pytest.fixture(scope="module")
def lexicon() -> dict[str, float]:
    return LineModel.default().lexicon


def _check_batch(docs, contexts=None, lexicon=None):
    """batch_features of `docs` against doc_features of each document, rows and tokens."""
    cache_before = fx._TOKENS_BY_LINE
    F, offsets, tokens = batch_features(docs, contexts, lexicon, want_tokens=True)
    assert fx._TOKENS_BY_LINE is cache_before  # doc_features' token cache is left alone
    F2, offsets2, none = batch_features(docs, contexts, lexicon)
    assert none is None and np.array_equal(F, F2) and np.array_equal(offsets, offsets2)
    assert F.dtype == np.float32 and F.shape == (sum(map(len, docs)), len(fx.FEATURE_NAMES))
    assert offsets.dtype == np.int64 and offsets.tolist() == [0, *np.cumsum([len(d) for d in docs]).tolist()]
    assert len(tokens) == len(docs)
    for k, doc in enumerate(docs):
        if doc and not any(doc):  # doc_features raises IndexError when every line is empty
            assert not np.isnan(F[offsets[k]:offsets[k + 1]]).any() and not tokens[k][0].size
            continue
        keep: dict = {}
        want = fx.doc_features(doc, contexts[k] if contexts else None, keep, lexicon)
        got = F[offsets[k]:offsets[k + 1]]
        if not np.array_equal(got, want):
            bad = sorted({fx.FEATURE_NAMES[c] for c in np.argwhere(got != want)[:, 1]})
            pytest.fail(f"document {k} ({len(doc)} lines) differs in {bad}")
        ids, tcount = tokens[k]
        want_ids, want_tcount = keep.get("tokens", (np.zeros(0, np.int64), np.zeros(0, np.int64)))
        assert ids.dtype == np.int64 and tcount.dtype == np.int64
        assert np.array_equal(ids, want_ids) and np.array_equal(tcount, want_tcount), f"tokens of document {k}"


@pytest.mark.parametrize("with_lexicon", [False, True])
@pytest.mark.parametrize("with_context", [False, True])
def test_awkward_documents_in_several_orders_and_batch_sizes(with_lexicon, with_context, request):
    lex = request.getfixturevalue("lexicon") if with_lexicon else None
    docs = [AWKWARD_DOCS[name] for name in NAMES]
    contexts = [_context(len(d), i) if with_context and i % 3 else None for i, d in enumerate(docs)]
    rng = random.Random(7)
    for order_seed in range(3):
        order = list(range(len(docs)))
        if order_seed == 1:
            order.reverse()
        elif order_seed == 2:
            rng.shuffle(order)
        for size in (1, 3, 8, len(docs)):
            for start in range(0, len(order), size):
                part = order[start:start + size]
                _check_batch([docs[i] for i in part], [contexts[i] for i in part], lex)


def test_every_awkward_document_beside_every_other():
    """Each pair of awkward documents in one batch, both orders: nothing leaks across the boundary
    (number-only lines meeting, empty documents, documents without text beside text)."""
    small = [name for name in NAMES if "segments" not in name and name != "long lines"]
    for a in small:
        for b in small:
            _check_batch([AWKWARD_DOCS[a], AWKWARD_DOCS[b]])


def test_lines_holding_a_newline_fall_back_per_document(lexicon):
    docs = [["a\nb", "12", "Some sentence that is long enough to count as text, and it ends here."],
            AWKWARD_DOCS["article"], ["x", "\n", "y\n\n"], []]
    contexts = [_context(len(d), i) for i, d in enumerate(docs)]
    _check_batch(docs, contexts, lexicon)
    _check_batch(docs)


def test_empty_batch_and_empty_documents():
    F, offsets, tokens = batch_features([], want_tokens=True)
    assert F.shape == (0, len(fx.FEATURE_NAMES)) and offsets.tolist() == [0] and tokens == []
    F, offsets, tokens = batch_features([[], []], want_tokens=True)
    assert F.shape == (0, len(fx.FEATURE_NAMES)) and offsets.tolist() == [0, 0, 0] and len(tokens) == 2


def test_documents_of_empty_lines_only():
    """doc_features fails on a document whose every line is empty (its class-count matrix has no
    columns); the batch gives such a document rows of its own and leaves its neighbours exact."""
    with pytest.raises(IndexError):
        fx.doc_features(["", ""])
    F, offsets, tokens = batch_features([[""], AWKWARD_DOCS["article"], ["", ""]], want_tokens=True)
    assert offsets.tolist() == [0, 1, 15, 17] and np.isfinite(F).all()
    assert np.array_equal(F[1:15], fx.doc_features(AWKWARD_DOCS["article"]))
    _check_batch([[""], AWKWARD_DOCS["digits"], ["", ""], AWKWARD_DOCS["no text"]])


def test_a_context_of_the_wrong_length_is_refused():
    with pytest.raises(ValueError):
        batch_features([["a", "b"]], [DocContext.empty(3)])
    with pytest.raises(ValueError):
        batch_features([["a"], ["b"]], [None])


def test_number_only_runs_on_over_the_number_lines_below_it():
    """number_only's match crosses line ends while the lines hold only digits, "_" and non-word
    characters: in such a run only the first line where it matches counts, and a letter, an
    empty-of-digits line or a new document ends the run (look-alikes: "_8" does not match, "8_" does)."""
    doc = ["12", "34", "-- 5 --", "Text", "7", "--", "8", "_8", "9", "8_", "x1", "2024"]
    F, offsets, _ = batch_features([doc, ["56", "78"]])
    got = F[:, fx.FEATURE_NAMES.index("number_only")].tolist()
    assert got == [1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1] + [1, 0]
    _check_batch([doc, ["56", "78"], ["__", "3"], ["", "4", "", "5"]])


def _later_pass(doc: list[str], seed: int) -> list[str]:
    """A decision pass after the first, as newsclean.cleaners.fixpoint makes it: most lines dropped,
    some cut (what is left of them is a text the last pass did not see), one new."""
    rng = random.Random(seed)
    kept = [line for line in doc if rng.random() < 0.4]
    out = [line[len(line) // 3:] if rng.random() < 0.1 and len(line) > 3 else line for line in kept]
    return [line for line in out if line] + ["A line no pass has seen before, 2025."]


def test_a_later_pass_reads_its_lines_from_the_last_call(lexicon):
    """The rows of a later pass (the lines the first kept, a few of them cut) are the same whether
    their line columns, tokens and number flags are read from the last call or computed afresh."""
    # (a table holding an "İ" is never remembered: see the test below)
    docs = [[line for line in AWKWARD_DOCS[name] if line] for name in NAMES if name not in ("long lines", "lower-casing grows")]
    docs = [d for d in docs if d]
    later = [_later_pass(d, i) for i, d in enumerate(docs)]
    contexts = [_context(len(d), i) for i, d in enumerate(later)]
    for lex in (None, lexicon):
        engine.forget_lines()
        fresh = batch_features(later, contexts, lex, want_tokens=True)
        batch_features(docs, None, lex)  # the first pass: remembered
        assert engine._memo.last is not None and engine._memo.last.lexicon is lex
        reused = batch_features(later, contexts, lex, want_tokens=True)
        assert np.array_equal(fresh[0], reused[0]) and np.array_equal(fresh[1], reused[1])
        assert all(np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]) for a, b in zip(fresh[2], reused[2]))
        _check_batch(later, contexts, lex)
    # another lexicon, or a call with an empty line, is never read from the memo
    batch_features(docs, None, None)
    memo = engine._memo.last
    assert engine._line_part_from_memo(engine.lines_table(later), np.zeros((sum(map(len, later)), len(fx.FEATURE_NAMES)),
                                                                          dtype=np.float32), lexicon) is None
    batch_features([["a", ""]])
    assert engine._memo.last is None and memo is not None
    batch_features(docs + [AWKWARD_DOCS["lower-casing grows"]])
    assert engine._memo.last is None
    engine.forget_lines()


def test_lines_below_a_dotted_capital_i_are_never_read_from_the_last_call():
    """lower() makes "İ" two characters, and doc_features places a match by its document's
    unlowered line starts: below an "İ" a line's pattern columns read its neighbours' matches (here
    the "©" that ends a line counts for the "." under it). Such a table is neither read from the
    last call nor kept for the next: a later pass gets what a fresh call gives, with the "İ" line
    still there or removed by the pass before."""
    doc = ["İstanbul ve İzmir'de yağmur", "Haberler ©", ".", "Hava durumu, 2024"]  # two: a shift of 2
    without = [doc[1], doc[2], doc[3]]  # the pass before removed the "İ" line
    for later in (doc, without):
        engine.forget_lines()
        fresh, _, _ = batch_features([later])
        engine.forget_lines()
        batch_features([doc])  # the first pass
        reused, _, _ = batch_features([later])
        assert np.array_equal(fresh, reused), later
        _check_batch([later])
    engine.forget_lines()
    first, _, _ = batch_features([doc])
    assert first[2, fx._IDX["copyright"]] == 1  # doc_features' count, which the model was trained on
    engine.forget_lines()


# ---------------------------------------------------------------- property test
PIECES = ["the", "council", "said", "Bridge", "news", "Subscribe", "cookies", "March", "mai", "août",
          "2024", "1999", "12:30", "1/2/2018", "3.4.2020", "42", "7", ".", ",", "!", "?", ":", "—", "»",
          "|", "/", "-", "•", "©", "(c)", "By Jane Doe", "by", "www.example.com", "https://x.org/a",
          "me@example.com", "東京都", "天気", "😀", "مرحبا", "שלום", "Ωμέγα", "ΟΔΟΣ", "İ", "é", "e\u0301",
          "\t", "_", "x²", "Copyright", "All rights reserved"]
LEXICON = {"the": -0.25, "council": -1.5, "said": -1.0, "subscribe": 2.5, "cookies": 1.75, "news": 0.5,
           "東京都": 0.125}


@st.composite
def lines(draw):
    words = draw(st.lists(st.sampled_from(PIECES), max_size=16))
    line = " ".join(words) + draw(st.sampled_from(["", "", ".", "!", " ", ":"]))
    return draw(st.sampled_from(["", "- ", "» ", "by ", "  "])) + line if words else line


documents = st.lists(lines(), max_size=30)


@given(batch=st.lists(documents, min_size=1, max_size=5), with_context=st.booleans(), with_lexicon=st.booleans(),
       seed=st.integers(0, 1000))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_batches_match_doc_features(batch, with_context, with_lexicon, seed):
    contexts = [_context(len(d), seed + i) for i, d in enumerate(batch)] if with_context else None
    _check_batch(batch, contexts, LEXICON if with_lexicon else None)


# ---------------------------------------------------------------- the development pages
def _shared_dir() -> Path:
    return Path(os.environ.get("NEWSCLEAN_SHARED") or Path(__file__).resolve().parents[2] / "shared")


def test_first_dev_pages_batched_match_doc_features(lexicon):
    pages_file = _shared_dir() / "devset" / "pages.jsonl.gz"
    if not pages_file.exists():
        pytest.skip(f"no development pages at {pages_file}")
    with gzip.open(pages_file, "rt", encoding="utf-8") as fh:
        pages = [json.loads(line) for _, line in zip(range(40), fh)]
    docs = [[line for line in normalise_lines(p["text"], keep_curly_quotes=False) if line] for p in pages]
    _check_batch(docs, None, lexicon)
    _check_batch([_later_pass(d, i) for i, d in enumerate(docs)], None, lexicon)  # read from the call before
    _check_batch(docs[:20], [_context(len(d), i) for i, d in enumerate(docs[:20])], None)
