"""batch_stage2 (newsclean.cleaners.engine.smoothing) gives, bit for bit, the smoothing features that
stage2_features_many gives each document alone, for any mix of document lengths."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from newsclean.cleaners.engine.smoothing import batch_stage2
from newsclean.cleaners.model import features as fx

N_FEATURES = len(fx.FEATURE_NAMES)
# probabilities on and around the thresholds the features test (0.2, 0.5, 0.8), and ties
PROBS = st.sampled_from([0.0, 0.1, 0.2, 0.19999999, 0.5, 0.49999999, 0.8, 0.9, 1.0]) | st.floats(0, 1)


def _alone(X1, ps, offsets):
    parts = [fx.stage2_features_many(X1[a:b], [p[a:b] for p in ps]) for a, b in zip(offsets[:-1], offsets[1:])]
    return [np.vstack([d[j] for d in parts]) for j in range(len(ps))]


def _batch(lengths, rng, probs=None):
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    n = int(offsets[-1])
    X1 = rng.normal(size=(n, N_FEATURES)).astype(np.float32)
    X1[:, fx._IDX["n_chars"]] = np.log1p(rng.integers(0, 400, size=n)).astype(np.float32)
    if probs is None:
        probs = [rng.random(n) for _ in range(3)]
    return X1, probs, offsets


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 40), min_size=1, max_size=6), st.data())
def test_a_batch_gives_each_document_its_own_smoothing(lengths, data):
    rng = np.random.default_rng(len(lengths))
    n = sum(lengths)
    probs = [np.array(data.draw(st.lists(PROBS, min_size=n, max_size=n))) for _ in range(2)]
    X1, ps, offsets = _batch(lengths, rng, probs)
    for got, want in zip(batch_stage2(X1, ps, offsets), _alone(X1, ps, offsets)):
        assert np.array_equal(got, want)


def test_long_and_short_documents_together():
    rng = np.random.default_rng(7)
    X1, ps, offsets = _batch([1, 2, 3, 500, 4, 1200, 7], rng)
    for got, want in zip(batch_stage2(X1, ps, offsets), _alone(X1, ps, offsets)):
        assert np.array_equal(got, want)


def test_every_line_confident_or_none():
    rng = np.random.default_rng(1)
    X1, _, offsets = _batch([5, 6], rng)
    for p in (np.zeros(11), np.ones(11), np.full(11, 0.5)):
        for got, want in zip(batch_stage2(X1, [p], offsets), _alone(X1, [p], offsets)):
            assert np.array_equal(got, want)


def test_documents_shorter_than_the_neighbour_shifts():
    """Batches of one to three lines in all: every shift (up to 3 rows) runs past them."""
    rng = np.random.default_rng(3)
    for lengths in ([1], [2], [3], [1, 1], [2, 1], [1, 1, 1]):
        X1, ps, offsets = _batch(lengths, rng)
        for got, want in zip(batch_stage2(X1, ps, offsets), _alone(X1, ps, offsets)):
            assert np.array_equal(got, want)


@pytest.mark.filterwarnings("error")  # an empty document's class is skipped, not averaged over nothing
def test_documents_of_many_length_classes_in_one_batch():
    """Documents of every length class (padded per class) in an order that mixes them: each still
    gets its own rows, in place."""
    rng = np.random.default_rng(11)
    X1, ps, offsets = _batch([300, 1, 17, 0, 2, 65, 3, 1000, 16, 4, 129, 1, 33], rng)
    for got, want in zip(batch_stage2(X1, ps, offsets), _alone(X1, ps, offsets)):
        assert np.array_equal(got, want)
