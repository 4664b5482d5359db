"""newsclean.cleaners.syndication's MinHash signatures are datasketch's, bit for bit.

The signatures are computed over a whole batch at once in numpy instead of datasketch's MinHash
(whose package import loads scipy in every process). They must stay exactly the values datasketch's
MinHash gives with scheme affine32, NUM_PERM permutations and seed SEED: an index stored by an
earlier version, or by a run on another machine, is compared against them. This test fails loudly
if datasketch changes how that scheme draws its permutations or permutes a hash.
"""
from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from datasketch import MinHash
from hypothesis import given, settings
from hypothesis import strategies as st

from newsclean.cleaners import syndication


def datasketch_signatures(texts: list[str], shingle_words: int) -> np.ndarray:
    template = MinHash(num_perm=syndication.NUM_PERM, seed=syndication.SEED, scheme=syndication.SCHEME)
    rows = []
    for text in texts:
        m = MinHash(num_perm=syndication.NUM_PERM, seed=syndication.SEED, scheme=syndication.SCHEME,
                    hashfunc=lambda value: value, permutations=template.permutations)
        m.update_batch(syndication.shingle_hashes(text, shingle_words).tolist())
        rows.append(m.hashvalues)
    return np.asarray(rows, dtype=np.uint32).reshape(len(texts), syndication.NUM_PERM)


def test_the_permutations_are_datasketchs():
    template = MinHash(num_perm=syndication.NUM_PERM, seed=syndication.SEED, scheme=syndication.SCHEME)
    assert template.permutations.dtype == np.uint32
    assert np.array_equal(syndication.permutations(), template.permutations)


TEXTS = [
    "The tram line to the harbour opens on Monday after three years of works, the city said.",
    "",  # no shingle: EMPTY everywhere
    "three short words",  # shorter than a shingle: one shingle
    "!!! ... ???",
    "Der Stadtrat hat am Dienstag den Haushalt beschlossen, nach einer langen Debatte im Saal.",
    " ".join(f"word{i % 97}" for i in range(3000)),  # more shingles than one block of rows
    "市议会周二投票决定扩大市中心的公交网络 这是 一个 很长 的 句子 用来 测试",
]


@pytest.mark.parametrize("rows", [syndication.PERMUTED_ROWS, 7, 1])
def test_signatures_are_datasketchs_whatever_the_block_of_rows(rows, monkeypatch):
    # small blocks: texts straddle block boundaries, and a block may start inside a text
    monkeypatch.setattr(syndication, "PERMUTED_ROWS", rows)
    assert np.array_equal(syndication.signatures(TEXTS, 5), datasketch_signatures(TEXTS, 5))


def test_no_texts_give_no_rows_and_texts_without_shingles_are_empty():
    assert syndication.signatures([], 5).shape == (0, syndication.NUM_PERM)
    empty = syndication.signatures(["", "?!"], 5)
    assert empty.dtype == np.uint32 and (empty == syndication.EMPTY).all()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from(list("ab cd,é\n")), max_size=60), max_size=6),
       st.integers(1, 6), st.sampled_from([1, 3, 2048]))
def test_signatures_equal_datasketchs_on_any_texts(texts, shingle_words, rows):
    before = syndication.PERMUTED_ROWS
    syndication.PERMUTED_ROWS = rows
    try:
        assert np.array_equal(syndication.signatures(texts, shingle_words), datasketch_signatures(texts, shingle_words))
    finally:
        syndication.PERMUTED_ROWS = before


def test_signing_loads_neither_datasketch_nor_scipy():
    # datasketch's package imports its LSH indexes, and with them scipy: ~0.75 CPU-s in every process
    code = ("import sys, json; from newsclean.cleaners import syndication; syndication.signatures(['a b c d e f g'], 5); "
            "print(json.dumps(sorted(m for m in ('datasketch', 'scipy') if m in sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == []
