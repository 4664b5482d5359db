"""The speed shortcuts in the line features (newsclean.cleaners.model.features) give what the plain forms give:
all patterns counted per line in one pass ("(?m)^" patterns searched as "\\n"), token lists per line
from a cache, the word hashes of title_features from one longer draw."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from newsclean.cleaners.model import features as fx


def _pattern_counts_plain(lines: list[str]) -> dict[str, np.ndarray]:
    n = len(lines)
    text = "\n".join(lines)
    lower = text.lower()
    lens = np.fromiter(map(len, lines), dtype=np.int64, count=n)
    starts_nl = np.concatenate([[0], np.cumsum(lens)[:-1]]) + np.arange(n)
    return {name: sum(fx._counts_per_line(p, lower, starts_nl, n) for p in pats) for name, pats in fx.PATTERNS.items()}


LINE_SETS = [
    ["By Jane Doe", "123", "456", "---", "- item one", "• item two", "by the river", "Posted 2018-02-24 10:30",
     "© 2018 Example Media. All rights reserved.", "Email me@example.com or visit www.example.com/page",
     "1/2/2018", "12.3.2018", "(c) 2019", "Copyright Foo", "42", "— dash", "» next", "de la Cruz"],
    ["12", "34", "ab", "56", "", "7 8", "-- 9 --"],
    ["x"], ["1"], ["by x"], ["", "", "1"],
]


@given(st.lists(st.text(alphabet=st.sampled_from(list("by -*•>»1234567890.:/@©abc\t")), max_size=12), min_size=1, max_size=8))
@settings(max_examples=300, deadline=None)
def test_pattern_counts_match_per_pattern_counts(lines):
    _check_patterns(lines)


def test_pattern_counts_on_samples():
    for lines in LINE_SETS:
        _check_patterns(lines)


def _check_patterns(lines):
    n = len(lines)
    lower = "\n".join(lines).lower()
    lens = np.fromiter(map(len, lines), dtype=np.int64, count=n)
    starts_nl = np.concatenate([[0], np.cumsum(lens)[:-1]]) + np.arange(n)
    got = fx._pattern_counts(lower, starts_nl, n, skip_email=False)
    want = _pattern_counts_plain(lines)
    for k, name in enumerate(fx._SEARCH_NAMES):
        assert np.array_equal(got[k], want[name]), (name, lines)


@given(st.lists(st.text(alphabet=st.sampled_from(list("ab Σς,.'\n\u00a0\u2028x1_-")), max_size=10), min_size=1, max_size=6))
@settings(max_examples=300, deadline=None)
def test_line_token_lists_match_the_plain_split(lines):
    lower = "\n".join(lines).lower()
    want = [s.split() for s in fx._TOKEN_STRIP.sub(" ", lower).split("\n")]
    fx._TOKENS_BY_LINE = {}
    assert fx._line_token_lists(lines, lower) == want  # cold
    assert fx._line_token_lists(lines, lower) == want  # from the cache
    if len(lines) > 1:  # some lines cached, some not
        fx._TOKENS_BY_LINE.pop(lines[0], None)
        assert fx._line_token_lists(lines, lower) == want


def test_word_hashes_are_a_prefix_of_a_longer_draw():
    for size in (1, 2, 7, 100, 1000, 8192, 8193, 20000):
        want = np.random.default_rng(fx._HASH_SEED).integers(1, 2**63, size=size, dtype=np.uint64)
        assert np.array_equal(fx._word_hashes(size), want)
    assert np.array_equal(fx._word_hashes(5), np.random.default_rng(fx._HASH_SEED).integers(1, 2**63, size=5, dtype=np.uint64))


def test_line_start_patterns_are_rewritten():
    for name, pats in fx._SEARCH.items():
        for (pat, shift), orig in zip(pats, fx.PATTERNS[name]):
            assert (shift == 0) == orig.pattern.startswith("(?m)^")
            assert pat is orig if shift else pat.pattern == "(?m)\n" + orig.pattern[len("(?m)^"):]


def test_stage2_features_match_the_plain_form():
    rng = np.random.default_rng(4)
    for n in (1, 2, 3, 4, 5, 7, 12, 40, 300):
        X1 = rng.normal(size=(n, len(fx.FEATURE_NAMES))).astype(np.float32)
        X1[:, fx._IDX["n_chars"]] = np.log1p(rng.integers(0, 400, size=n)).astype(np.float32)
        for p in (rng.random(n), np.round(rng.random(n), 1), np.full(n, 0.5), np.zeros(n), np.ones(n),
                  rng.normal(size=n)):  # also outside 0..1
            got, want = fx.stage2_features(X1, p), fx.stage2_features_plain(X1, p)
            assert got.dtype == want.dtype and np.array_equal(got, want, equal_nan=True), (n, p[:5])
    X1 = np.zeros((0, len(fx.FEATURE_NAMES)), dtype=np.float32)
    assert fx.stage2_features(X1, np.zeros(0)).shape == fx.stage2_features_plain(X1, np.zeros(0)).shape


def test_stage2_features_of_several_ps_match_each_alone():
    """A bag's chains' smoothing features are computed together (stage2_features_many): each row
    of the stack must give exactly what its p gives alone, on short and long documents."""
    rng = np.random.default_rng(23)
    for n in (1, 2, 3, 4, 6, 11, 40, 300, 2500):
        X1 = rng.normal(size=(n, len(fx.FEATURE_NAMES))).astype(np.float32)
        X1[:, fx._IDX["n_chars"]] = np.log1p(rng.integers(0, 400, size=n)).astype(np.float32)
        ps = [rng.random(n), np.round(rng.random(n), 1), np.zeros(n), np.ones(n), np.full(n, 0.2),
              rng.normal(size=n), (rng.random(n) < 0.5) * 1.0]
        ps.append(np.mean(ps[:4], axis=0))
        got = fx.stage2_features_many(X1, ps)
        assert len(got) == len(ps)
        for g, p in zip(got, ps):
            want = fx.stage2_features_plain(X1, p)
            assert g.dtype == want.dtype and np.array_equal(g, want, equal_nan=True), (n, p[:5])
    # float32 ps keep their own arithmetic, as the one-p form does
    X1 = rng.normal(size=(9, len(fx.FEATURE_NAMES))).astype(np.float32)
    p32 = rng.random(9).astype(np.float32)
    assert np.array_equal(fx.stage2_features_many(X1, [p32])[0], fx.stage2_features_plain(X1, p32))


def test_stage2_features_on_dev_lines():
    import gzip
    import json
    from pathlib import Path

    from newsclean.cleaners.lines import normalise_lines

    subset = Path(__file__).parent / "data" / "devset_subset" / "pages.jsonl.gz"
    with gzip.open(subset, "rt", encoding="utf-8") as fh:
        pages = [json.loads(line) for _, line in zip(range(20), fh)]
    rng = np.random.default_rng(0)
    for page in pages:
        lines = [ln for ln in normalise_lines(page["text"]) if ln]
        X1 = fx.doc_features(lines)
        p = rng.random(len(lines))
        assert np.array_equal(fx.stage2_features(X1, p), fx.stage2_features_plain(X1, p))


def test_token_ids_in_order_of_first_appearance():
    """doc_features' one-pass vocabulary ids (keep["tokens"]) are the plain form's: ids numbered by
    first appearance (dict.fromkeys), one per token."""
    from itertools import chain, count

    docs = [["Alpha beta, beta", "gamma ALPHA -- delta", "", "beta"], ["x"], ["...", "!!"], ["a b c", "c b a", "d"]]
    for lines in docs + [[f"w{i % 7} w{i % 3} v{i}" for i in range(40)]]:
        lines = [ln for ln in lines if ln] or ["x"]
        keep: dict = {}
        fx._TOKENS_BY_LINE = {}
        fx.doc_features(lines, None, keep)
        ids, tcount = keep["tokens"]
        toks = [s.split() for s in fx._TOKEN_STRIP.sub(" ", "\n".join(lines).lower()).split("\n")]
        flat = list(chain.from_iterable(toks))
        vocab = dict(zip(dict.fromkeys(flat), count()))
        assert np.array_equal(ids, np.array([vocab[w] for w in flat], dtype=np.int64)), lines
        assert np.array_equal(tcount, [len(t) for t in toks])
