"""Corpus-level line repetition (the idea of CCNet's paragraph hashing).

Before cleaning, one pass over the corpus hashes every normalised line and counts in how many
documents each hash occurs, overall and within a site/outlet key where one is known. A short line
found in many documents is a template (menu, footer, share bar); a long sentence shared by two
outlets is a quote both carried, and the model sees its length next to its count.

Scale: hashes live in numpy arrays, never in a dict of strings. Each document contributes its
distinct uint64 line hashes; chunks are merged into one sorted (hash, count) table with np.unique,
so memory is bounded by the number of *distinct* lines (12 bytes each), e.g. ~120 MB for 10 million.
Site keys are folded into the hash (xxh3 of key, xor-mixed), so the per-site table is the same kind
of array.

    stats = CorpusStats.build((lines, site_key) for doc in corpus)
    ctx = stats.doc_context(lines, site_key)   # per-line document frequencies for one document
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Iterable

import numpy as np
import xxhash

_PUNCTUATION_AND_SYMBOLS = "PS"  # the first letter of the Unicode categories deleted (P*, S*)
# ASCII text takes bytes.translate, a C loop. Other text is read as an array of code points and
# looked up in _KIND: str.translate with a mapping looks every character up in a dict once a string
# holds one non-ASCII character (a single curly quote), ~4x slower on the dev pages' text.
_DROP_ASCII = bytes(cp for cp in range(0x80) if unicodedata.category(chr(cp))[0] in _PUNCTUATION_AND_SYMBOLS)
_DIGITS = re.compile(r"\d")
# What normalising does with each code point, learnt on first sight (the Unicode database is asked
# once per character a process meets; all 1.1M up front would take ~0.35 s of every start). The
# zeroed array costs no memory until its pages are written.
_UNSEEN, _KEEP, _DROP, _DIGIT = 0, 1, 2, 3
_KIND = np.zeros(0x110000, dtype=np.uint8)


def _kinds(cps: np.ndarray) -> np.ndarray:
    """_KIND of each code point of `cps` (uint32), the unseen ones classified first: a digit as
    _DIGITS matches it, punctuation and symbols as their Unicode category says."""
    kinds = _KIND[cps]
    unseen = kinds == _UNSEEN
    if unseen.any():
        for cp in np.unique(cps[unseen]).tolist():
            ch = chr(cp)
            _KIND[cp] = (_DIGIT if _DIGITS.match(ch) else
                         _DROP if unicodedata.category(ch)[0] in _PUNCTUATION_AND_SYMBOLS else _KEEP)
        kinds = _KIND[cps]
    return kinds


def _code_points(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def _text_of(cps: np.ndarray) -> str:
    return cps.tobytes().decode("utf-32-le", "surrogatepass")


_MIX = np.uint64(0x9E3779B97F4A7C15)


def normalise_for_hash(lines: list[str]) -> list[str]:
    """CCNet-style: lower case, digits to 0, punctuation and symbols deleted, spaces folded."""
    if not lines:
        return []
    cps = _code_points("\n".join(lines).lower())
    kinds = _kinds(cps)  # digits become "0" (_DIGITS.sub), then punctuation goes (drop_punctuation)
    blob = _text_of(np.where(kinds == _DIGIT, np.uint32(0x30), cps)[kinds != _DROP])
    return [" ".join(s.split()) for s in blob.split("\n")]


def drop_punctuation(text: str) -> str:
    """Every punctuation mark and symbol (Unicode categories P*, S*) deleted (see _DROP_ASCII)."""
    if text.isascii():
        return text.encode("ascii").translate(None, _DROP_ASCII).decode("ascii")
    cps = _code_points(text)
    return _text_of(cps[_kinds(cps) != _DROP])


def tokens(text: str) -> list[str]:
    """The scorer's tokens of a text (shared/tools/score-devset): NFKC, lower case, punctuation and
    symbols deleted, split on white space."""
    return _folded(text or "").split()


def _folded(text: str) -> str:
    """NFKC, lower case, punctuation and symbols deleted: tokens' text before it is split."""
    return drop_punctuation(unicodedata.normalize("NFKC", text).lower())


def folded_tokens_many(texts: list[str]) -> list[str]:
    """" ".join(tokens(text)) for each text, normalised, lower-cased and stripped of punctuation
    as one "\\n"-joined text: none of the three steps carries across a line break (NFKC neither
    composes nor reorders across it and never makes one; Python's final-sigma rule stops at it),
    so each piece is what its text alone gives, without a call per text. A text that holds a
    line break itself is folded alone."""
    if not texts:
        return []
    if any("\n" in text for text in texts):
        return [" ".join(tokens(text)) for text in texts]
    return [" ".join(piece.split()) for piece in _folded("\n".join(texts)).split("\n")]


def fold_title(text: str | None) -> str:
    """Lower-cased, punctuation and symbols deleted, spaces folded: the form titles are compared in."""
    return " ".join(tokens(text or ""))


def line_hashes(lines: list[str]) -> np.ndarray:
    """uint64 hash per line (of its normalised form)."""
    h = xxhash.xxh3_64_intdigest
    return np.fromiter((h(s.encode()) for s in normalise_for_hash(lines)), dtype=np.uint64, count=len(lines))


def key_hash(key: str | None) -> np.uint64 | None:
    if not key:
        return None
    return np.uint64(xxhash.xxh3_64_intdigest(("site:" + key.lower()).encode()))


def _site_mix(hashes: np.ndarray, kh: np.uint64) -> np.ndarray:
    with np.errstate(over="ignore"):
        return (hashes ^ kh) * _MIX


class _Counter:
    """Sorted unique uint64 keys with int32 counts, fed in chunks."""

    def __init__(self, chunk: int = 2_000_000):
        self.keys = np.empty(0, dtype=np.uint64)
        self.counts = np.empty(0, dtype=np.int32)
        self._pending: list[np.ndarray] = []
        self._n_pending = 0
        self._chunk = chunk

    def add(self, keys: np.ndarray) -> None:
        if len(keys):
            self._pending.append(keys)
            self._n_pending += len(keys)
            if self._n_pending >= self._chunk:
                self._merge()

    def _merge(self) -> None:
        if not self._pending:
            return
        new = np.concatenate(self._pending)
        self._pending, self._n_pending = [], 0
        allk = np.concatenate([self.keys, new])
        allc = np.concatenate([self.counts, np.ones(len(new), dtype=np.int32)])
        uniq, inv = np.unique(allk, return_inverse=True)
        self.counts = np.bincount(inv, weights=allc, minlength=len(uniq)).astype(np.int32)
        self.keys = uniq

    def finish(self) -> "_Counter":
        self._merge()
        return self

    def lookup(self, keys: np.ndarray) -> np.ndarray:
        if not len(self.keys):
            return np.zeros(len(keys), dtype=np.int32)
        pos = np.searchsorted(self.keys, keys)
        pos = np.minimum(pos, len(self.keys) - 1)
        found = self.keys[pos] == keys
        return np.where(found, self.counts[pos], 0).astype(np.int32)


@dataclass(frozen=True)
class DocContext:
    """Corpus repetition for one document's lines.

    df: documents of the corpus containing each line (at least 1 once the document itself was in
    the corpus pass); df_site: the same within the document's site/outlet key (0 without a key);
    n_docs / n_site_docs: how many documents the counts are over.
    """

    df: np.ndarray
    df_site: np.ndarray
    n_docs: int
    n_site_docs: int
    url: str | None = None  # the document's URL when known (its slug helps find the headline)

    @classmethod
    def empty(cls, n_lines: int, url: str | None = None) -> "DocContext":
        """No corpus information: the document counted alone."""
        one = np.ones(n_lines, dtype=np.int32)
        return cls(df=one, df_site=one, n_docs=1, n_site_docs=1, url=url)


class CorpusStats:
    """Document frequencies of normalised lines, overall and per site key."""

    def __init__(self, overall: _Counter, site: _Counter, site_docs: _Counter, n_docs: int):
        self._overall = overall
        self._site = site
        self._site_docs = site_docs
        self.n_docs = n_docs

    @classmethod
    def build(cls, docs: Iterable[tuple[list[str], str | None]]) -> "CorpusStats":
        """One pass over (lines, site_key) pairs; site_key may be None."""
        return cls.from_hashes((line_hashes(lines), key_hash(key)) for lines, key in docs)

    @classmethod
    def from_hashes(cls, docs: Iterable[tuple[np.ndarray, np.uint64 | None]]) -> "CorpusStats":
        """The same from each document's line hashes (line_hashes) and site key hash (or None)."""
        overall, site, site_docs = _Counter(), _Counter(), _Counter()
        n = 0
        for hashes, kh in docs:
            n += 1
            h = np.unique(hashes)
            overall.add(h)
            if kh is not None:
                site.add(_site_mix(h, kh))
                site_docs.add(np.array([kh], dtype=np.uint64))
        return cls(overall.finish(), site.finish(), site_docs.finish(), n)

    def save(self, path) -> None:
        """Plain arrays (numpy .npz, no pickle), written to `path` (a file name or an open file)."""
        arrays = {f"{name}_{part}": getattr(getattr(self, "_" + name), part)
                  for name in ("overall", "site", "site_docs") for part in ("keys", "counts")}
        np.savez(path, n_docs=np.array([self.n_docs], dtype=np.int64), **arrays)

    @classmethod
    def load(cls, path) -> "CorpusStats":
        with np.load(path, allow_pickle=False) as z:
            counters = []
            for name in ("overall", "site", "site_docs"):
                c = _Counter()
                c.keys, c.counts = z[f"{name}_keys"], z[f"{name}_counts"]
                counters.append(c)
            return cls(*counters, int(z["n_docs"][0]))

    @property
    def n_distinct_lines(self) -> int:
        return len(self._overall.keys)

    def doc_context(self, lines: list[str], key: str | None = None, url: str | None = None) -> DocContext:
        """Per-line document frequencies for one document (normally one that was in the pass)."""
        return self.context_of(line_hashes(lines), key_hash(key), url)

    def context_fn(self, key: str | None = None, url: str | None = None) -> "DocumentContext":
        """doc_context for one document as the cleaner asks it, once per decision pass: a callable
        lines -> DocContext (DocumentContext)."""
        return DocumentContext(self, key, url)

    def context_of(self, h: np.ndarray, kh: np.uint64 | None, url: str | None = None) -> DocContext:
        """doc_context from the document's line hashes and site key hash."""
        df = np.maximum(self._overall.lookup(h), 1)
        if kh is None:
            return DocContext(df=df, df_site=np.ones(len(h), dtype=np.int32),
                              n_docs=max(self.n_docs, 1), n_site_docs=1, url=url)
        df_site = np.maximum(self._site.lookup(_site_mix(h, kh)), 1)
        n_site = int(self._site_docs.lookup(np.array([kh], dtype=np.uint64))[0])
        return DocContext(df=df, df_site=df_site, n_docs=max(self.n_docs, 1),
                          n_site_docs=max(n_site, 1), url=url)


class DocumentContext:
    """`stats.doc_context(lines, key, url)` for the lines of one document, as a callable that each
    decision pass of the document asks (newsclean.cleaners.model.using). A line's hash is computed
    once: the passes after the first see the lines the first kept, so they only look the counts up.
    A line's hash depends on its text alone (normalise_for_hash works line by line: lower case
    does not look across a line break), so the frequencies are doc_context's."""

    __slots__ = ("stats", "site", "url", "_hashes")

    def __init__(self, stats: CorpusStats, key: str | None = None, url: str | None = None):
        self.stats, self.site, self.url = stats, key_hash(key), url
        self._hashes: dict[str, int] = {}

    def __call__(self, lines: list[str]) -> DocContext:
        known = self._hashes
        new = [t for t in dict.fromkeys(lines) if t not in known]
        if new:
            known.update(zip(new, line_hashes(new).tolist()))
        h = np.fromiter(map(known.__getitem__, lines), dtype=np.uint64, count=len(lines))
        return self.stats.context_of(h, self.site, self.url)
