"""Near-duplicate clusters over the cleaned texts: which articles are copies of one another.

A wire story republished by forty outlets, each with its own headline, debris and cuts, or a story
scraped again under a new address after an update, is one cluster. Nothing is removed: every
article keeps its row, and two columns say where it belongs (articles.parquet):

- `dup_cluster`: the doc_id of the cluster's representative, the member published first (by
  `published`; members without a date come after those with one), else the one seen first (the
  order a run reads them: sources in path order, records in file order), else the lower doc_id.
  An article with no near duplicate is its own representative.
- `dup_similarity`: the estimated Jaccard similarity of its text to the representative's; 1.0 for
  the representative.

How:
- Shingles: the text lower-cased, punctuation and symbols deleted (the corpus pass's
  normalisation, newsclean.cleaners.corpus.drop_punctuation), split into words; every run of
  `dup_shingle_words` consecutive words (default 5) is one shingle, hashed to 32 bits. A text
  shorter than that is one shingle.
- MinHash: datasketch 2.0's scheme affine32 (each shingle hash pre-mixed by MurmurHash3's 32-bit
  finaliser, then NUM_PERM permutations h -> a * h + b mod 2^32 drawn from a fixed seed), computed
  over a whole batch of articles at once in numpy, bit for bit datasketch's MinHash values
  (tests/test_syndication_minhash.py). datasketch itself is not imported: its package loads scipy
  (~0.75 CPU-s in every process that signs) for index types this module does not use. A
  signature is NUM_PERM uint32: 512 bytes per article.
- LSH: the signature is cut into `b` bands of `r` values, each band hashed to a uint64 key.
  Articles that share a key in any band are candidates; each candidate pair is verified by its
  estimated Jaccard similarity (the share of equal signature values), and pairs at or above
  `dup_threshold` (default 0.7) are linked. Clusters are the connected components of the links
  (a union-find over arrays; a pair already in one component is not verified again). A bucket of
  more than BUCKET_ALL_PAIRS members is verified along a chain and a star in doc_id order.
  (b, r) is the most selective banding that still makes a pair right at the threshold a candidate
  with probability >= CANDIDATE_RECALL: every candidate is verified, so a missed pair costs more
  than a checked one.
- Determinism: a bucket's members are taken in doc_id order, and everything is computed from the
  signatures, so the clusters do not depend on batches, workers, the order documents are read or
  which run cleaned which article: an incremental run gives the same clusters as a full one.

Persistence (INDEX_DIR, published with the tables in the same generation, newsclean.cleaners.store):
`documents.parquet` (doc_id, source, published, dup_cluster, dup_similarity; the signature
parameters in its metadata) and `signatures.npy` (uint32, one row per document, same order). An
incremental run takes the signatures of the articles it carries over from there; only new or
changed documents are shingled and hashed (in their cleaning batches, write_part). A deleted
source's articles are simply not in the next index, so they leave their clusters, and a cluster
whose representative went elects another.

Memory does not grow with the corpus (build_index): every pass reads its inputs CHUNK_DOCS
documents at a time and writes as it goes. The band keys are computed from the signatures as they
are written and spread over partition files by key (Arrow files of about BAND_ROWS_PER_PARTITION
rows: a bucket is whole in one file), and the buckets' pairs are verified one file at a time, the
signatures read through a memory map (file pages, which the kernel reclaims, not the process's
memory). What is held per document is a number or two: the doc_ids (8 bytes) while the first
occurrence of each is found, then a component root (4 bytes) and its cluster's size (8 bytes). datasketch's MinHashLSH keeps a
Python object per article and band, and persists only by pickle or an external store.
"""
from __future__ import annotations

import datetime as dt
import json
import re
import shutil
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import xxhash

from newsclean.cleaners.atomic import atomic_file
from newsclean.cleaners.corpus import drop_punctuation

NUM_PERM = 128
SEED = 1
SCHEME = "affine32"
# A pair right at the threshold becomes a candidate with at least this probability (see band_params).
CANDIDATE_RECALL = 0.995
# A bucket of up to this many articles is verified pair by pair; a larger one (many copies of one
# text) against its first member and each member against the next, which links the same
# components at a cost linear in the bucket's size.
BUCKET_ALL_PAIRS = 64
PAIRS_PER_CHUNK = 1 << 13  # pairs verified at once: two 4 MB gathers of signature rows
CHUNK_DOCS = 2048  # documents read, hashed or written at once
BAND_ROWS_PER_PARTITION = 1 << 17  # band rows per partition file (~3 MB; 4,096 documents at 32 bands)

INDEX_DIR = "minhash"  # the index's folder in a generation (and in the staging folder)
PARTS_DIR = "minhash-parts"  # the cleaning batches' signatures, in the staging folder
BANDS_DIR = "minhash-bands"  # the band rows' partition files while the clusters are found (staging folder)
NO_DATE = np.iinfo(np.int32).min
EMPTY = np.iinfo(np.uint32).max  # every value of the signature of a text with no shingle
_MIX = np.uint64(0x9E3779B97F4A7C15)
_EPOCH = dt.date(1970, 1, 1)

DOCUMENTS_SCHEMA = pa.schema([
    ("doc_id", pa.string()), ("source", pa.string()), ("published", pa.date32()),
    ("dup_cluster", pa.string()), ("dup_similarity", pa.float64()),
])


# ----------------------------------------------------------------------------- signatures

def shingle_hashes(text: str, size: int) -> np.ndarray:
    """The distinct 32-bit hashes of the text's word `size`-gram shingles (see the module's doc)."""
    words = drop_punctuation(text.lower()).split()
    if not words:
        return np.empty(0, dtype=np.uint32)
    h = xxhash.xxh3_64_intdigest
    word_hashes = np.fromiter((h(w.encode("utf-8", "surrogatepass")) for w in words), dtype=np.uint64, count=len(words))
    size = min(size, len(words))
    m = len(words) - size + 1
    shingles = word_hashes[:m].copy()
    with np.errstate(over="ignore"):
        for k in range(1, size):  # order-sensitive: "a b" and "b a" are different shingles
            shingles = shingles * _MIX + word_hashes[k:k + m]
    return np.unique(((shingles >> np.uint64(32)) ^ shingles).astype(np.uint32))


# MurmurHash3's 32-bit finaliser (shift, multiplier, shift, multiplier, shift): datasketch's pre-mix
_FMIX32 = (np.uint32(16), np.uint32(0x85EBCA6B), np.uint32(13), np.uint32(0xC2B2AE35), np.uint32(16))
# shingles permuted at once: a (rows x NUM_PERM) uint32 block of 1 MB, which stays in the CPU's
# cache (0.6 against 0.85 CPU-ms a dev page for blocks of 8 MB)
PERMUTED_ROWS = 1 << 11


@lru_cache(maxsize=1)
def permutations() -> np.ndarray:
    """(2, NUM_PERM) uint32: each permutation's odd multiplier `a` and its offset `b`, drawn as
    datasketch 2.0's MinHash draws them for scheme affine32 and seed SEED."""
    gen = np.random.RandomState(SEED)
    a = gen.randint(0, 1 << 31, NUM_PERM, dtype=np.uint32) * np.uint32(2) + np.uint32(1)
    b = gen.randint(0, 1 << 32, NUM_PERM, dtype=np.uint32)
    return np.array([a, b])


def _premixed(hashes: np.ndarray) -> np.ndarray:
    s1, m1, s2, m2, s3 = _FMIX32
    h = hashes ^ (hashes >> s1)
    h = h * m1  # uint32 products wrap: arithmetic mod 2^32, as the scheme defines it
    h = h ^ (h >> s2)
    h = h * m2
    return h ^ (h >> s3)


def signatures(texts: Iterable[str], shingle_words: int) -> np.ndarray:
    """MinHash signatures of the texts, one uint32 row of NUM_PERM values each; a text with no
    shingle gets EMPTY everywhere. Every text's shingles are permuted together, PERMUTED_ROWS at a
    time, and each block's minimum taken per text (a long text spans several blocks)."""
    hashes = [shingle_hashes(t, shingle_words) for t in texts]
    counts = np.fromiter(map(len, hashes), dtype=np.int64, count=len(hashes))
    out = np.full((len(hashes), NUM_PERM), EMPTY, dtype=np.uint32)
    if not counts.sum():
        return out
    mixed = _premixed(np.concatenate(hashes))
    owner = np.repeat(np.arange(len(counts)), counts)
    a, b = permutations()
    for start in range(0, len(mixed), PERMUTED_ROWS):
        block = mixed[start:start + PERMUTED_ROWS, None] * a + b
        who = owner[start:start + PERMUTED_ROWS]
        firsts = np.flatnonzero(np.r_[True, who[1:] != who[:-1]])  # each text's first row in the block
        docs = who[firsts]
        out[docs] = np.minimum(out[docs], np.minimum.reduceat(block, firsts, axis=0))
    return out


def params(shingle_words: int, threshold: float) -> dict:
    """What a stored index was made with: signatures are comparable only under the same."""
    b, r = band_params(threshold)
    return {"num_perm": NUM_PERM, "seed": SEED, "scheme": SCHEME, "shingle_words": int(shingle_words),
            "bands": b, "rows": r}


# ----------------------------------------------------------------------------- LSH

@lru_cache(maxsize=16)
def band_params(threshold: float, num_perm: int = NUM_PERM) -> tuple[int, int]:
    """(bands, rows per band): the largest r (fewest false candidates) such that a pair of
    similarity `threshold` shares at least one of b = num_perm // r bands with probability
    >= CANDIDATE_RECALL; r = 1 when none does."""
    if not 0.0 < threshold <= 1.0:
        raise ValueError(f"dup_threshold must be in (0, 1], got {threshold}")
    best = (num_perm, 1)
    for r in range(1, num_perm + 1):
        b = num_perm // r
        if b < 1:
            break
        if 1.0 - (1.0 - threshold ** r) ** b >= CANDIDATE_RECALL:
            best = (b, r)
    return best


def band_keys(sigs: np.ndarray, bands: int, rows: int) -> np.ndarray:
    """uint64 key of each band of each signature: shape (bands, len(sigs))."""
    out = np.empty((bands, len(sigs)), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for band in range(bands):
            part = sigs[:, band * rows:(band + 1) * rows].astype(np.uint64)
            key = np.full(len(sigs), np.uint64(band + 1), dtype=np.uint64)
            for c in range(rows):
                key = (key ^ part[:, c]) * _MIX
                key ^= key >> np.uint64(29)
            out[band] = key
    return out


def _bucket_pairs(band: np.ndarray, key: np.ndarray, order: np.ndarray, docs: np.ndarray):
    """Candidate pairs (rows of the index) among band rows (band number, key, the document's
    doc_id as a number, its row): documents that share a bucket (band and key). A bucket's members
    are taken in doc_id order, so its pairs do not depend on where the rows came from. Yielded in
    pieces of at most len(docs) pairs, so memory stays that of the rows given."""
    n = len(key)
    if n < 2:
        return
    idx = np.lexsort((order, key, band))
    sb, sk, sd = band[idx], key[idx], docs[idx]
    del idx
    start = np.flatnonzero(np.r_[True, (sk[1:] != sk[:-1]) | (sb[1:] != sb[:-1])])
    del sb, sk
    size = np.diff(np.r_[start, n])
    if not (size > 1).any():
        return
    gstart, gend = np.repeat(start, size), np.repeat(start + size, size)
    gsize = gend - gstart
    pos = np.arange(n)
    small = pos[(gsize > 1) & (gsize <= BUCKET_ALL_PAIRS)]
    d = 1
    while len(small):
        small = small[small + d < gend[small]]
        yield sd[small], sd[small + d]
        d += 1
    big = pos[gsize > BUCKET_ALL_PAIRS]
    if len(big):
        chain = big[big + 1 < gend[big]]
        yield sd[chain], sd[chain + 1]
        star = big[big > gstart[big]]
        yield sd[gstart[star]], sd[star]


def band_rows(keys: np.ndarray, order: np.ndarray, docs: np.ndarray) -> tuple[np.ndarray, ...]:
    """The band rows (band, key, order, doc) of documents `docs` whose band keys are `keys`
    (shape (bands, len(docs))), one per document and band."""
    b, m = keys.shape
    return (np.repeat(np.arange(b, dtype=np.uint16), m), keys.reshape(-1), np.tile(order, b), np.tile(docs, b))


def similarity(sigs: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Estimated Jaccard similarity of signature rows i and j (pairwise), in chunks."""
    out = np.empty(len(i), dtype=np.float64)
    for s in range(0, len(i), PAIRS_PER_CHUNK):
        a, b = np.asarray(sigs[i[s:s + PAIRS_PER_CHUNK]]), np.asarray(sigs[j[s:s + PAIRS_PER_CHUNK]])
        out[s:s + PAIRS_PER_CHUNK] = np.count_nonzero(a == b, axis=1) / sigs.shape[1]
    return out


def _roots(parent: np.ndarray, x: np.ndarray) -> np.ndarray:
    r = parent[x]
    while True:
        up = parent[r]
        if np.array_equal(up, r):
            return r
        r = up


def _union(parent: np.ndarray, i: np.ndarray, j: np.ndarray) -> None:
    """Join the components of each pair (i[k], j[k]); a component's root is its lowest row."""
    while len(i):
        ri, rj = _roots(parent, i), _roots(parent, j)
        apart = ri != rj
        i, j, ri, rj = i[apart], j[apart], ri[apart], rj[apart]
        if not len(i):
            return
        # two pairs may write one root in this pass: the loop joins what the lost write left apart
        parent[np.maximum(ri, rj)] = np.minimum(ri, rj)


def _flatten(parent: np.ndarray) -> None:
    """Every row points at its root."""
    while True:
        up = parent[parent]
        if np.array_equal(up, parent):
            return
        parent[:] = up


def link(parent: np.ndarray, pairs, sigs, threshold: float) -> tuple[int, int]:
    """Verify candidate pairs (pieces of (i, j) rows) that are not in one component yet, and join
    the components of those at or above the threshold (union-find over `parent`, in place).
    Skipping pairs that are joined already changes nothing in the components, so the result is the
    components of all verified links, whatever the order. Returns (pairs verified, pairs linked)."""
    need = threshold * sigs.shape[1] - 1e-9
    verified = linked = 0
    for i, j in pairs:
        for s in range(0, len(i), PAIRS_PER_CHUNK):
            ci, cj = i[s:s + PAIRS_PER_CHUNK], j[s:s + PAIRS_PER_CHUNK]
            apart = _roots(parent, ci) != _roots(parent, cj)
            ci, cj = ci[apart], cj[apart]
            if not len(ci):
                continue
            ok = similarity(sigs, ci, cj) * sigs.shape[1] >= need
            verified += len(ci)
            linked += int(ok.sum())
            _union(parent, ci[ok], cj[ok])
    _flatten(parent)
    return verified, linked


def components(sigs: np.ndarray, bands: np.ndarray, threshold: float) -> tuple[np.ndarray, int, int]:
    """(root of each document's component, pairs verified, pairs linked) of documents held in
    memory (rows in doc_id order; `bands` as band_keys gives them): the pairs that share a bucket,
    verified and joined (link). Signatures of no shingle are never candidates."""
    n = len(sigs)
    parent = np.arange(n, dtype=np.int64)
    if n < 2:
        return parent, 0, 0
    valid = np.flatnonzero(np.any(sigs != EMPTY, axis=1))
    verified, linked = link(parent, _bucket_pairs(*band_rows(np.asarray(bands)[:, valid], valid, valid)), sigs, threshold)
    return parent, verified, linked


# ----------------------------------------------------------------------------- clusters

_RECORD = re.compile(r"^(.*)#L?(\d+)$")


def first_seen_key(source: str) -> tuple[str, int]:
    """The order a run reads documents: files in path order, a file's records in file order
    ("news.jsonl#L2" before "news.jsonl#L12")."""
    m = _RECORD.match(source)
    return (m.group(1), int(m.group(2))) if m else (source, -1)


class Representatives:
    """Each cluster's representative, from its members given in any number of pieces: the member
    published first (unknown last), then first seen, then the lower doc_id. Holds one entry per
    cluster of two or more documents, nothing per document."""

    def __init__(self, sizes: np.ndarray):
        self.sizes = sizes  # documents per component root
        self.best: dict[int, tuple] = {}  # root -> (key, row, doc_id)
        self._roots = self._rows = None
        self._ids: pa.Array | None = None

    def add(self, labels: np.ndarray, rows: np.ndarray, published: np.ndarray, sources: Sequence[str],
            doc_ids: Sequence[str]) -> None:
        """A piece of documents: their roots, index rows, published (days, NO_DATE where unknown),
        sources and doc_ids."""
        best = self.best
        for k in np.flatnonzero(self.sizes[labels] > 1).tolist():
            pub = int(published[k])
            key = (pub if pub != NO_DATE else np.iinfo(np.int64).max, first_seen_key(sources[k]), doc_ids[k])
            root = int(labels[k])
            if root not in best or key < best[root][0]:
                best[root] = (key, int(rows[k]), doc_ids[k])

    def _settle(self) -> None:
        if self._roots is None:
            roots = sorted(self.best)
            self._roots = np.array(roots, dtype=np.int64)
            self._rows = np.array([self.best[x][1] for x in roots], dtype=np.int64)
            self._ids = pa.array([self.best[x][2] for x in roots], pa.string())

    def of(self, labels: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(representative's row, its position among the clusters or -1 when the document is alone)
        for documents of roots `labels` and rows `rows`, and a mask of those that are members."""
        self._settle()
        pos = np.searchsorted(self._roots, labels)
        hit = pos < len(self._roots)
        hit[hit] = self._roots[pos[hit]] == labels[hit]
        pos = np.where(hit, pos, -1)
        return np.where(hit, self._rows[np.maximum(pos, 0)] if len(self._rows) else rows, rows), pos, hit

    def cluster_ids(self, pos: np.ndarray, doc_ids: pa.Array) -> pa.Array:
        """dup_cluster of documents at cluster positions `pos` (-1: their own doc_id)."""
        self._settle()
        if not len(self._ids):
            return doc_ids
        taken = self._ids.take(pa.array(np.maximum(pos, 0)))
        return pc.if_else(pa.array(pos >= 0), taken, doc_ids)


@dataclass
class Clusters:
    representative: np.ndarray  # int64: index row of each document's representative
    similarity: np.ndarray  # float64: estimated Jaccard similarity to it
    verified: int  # candidate pairs verified
    links: int  # verified pairs at or above the threshold


def cluster(sigs: np.ndarray, bands: np.ndarray, published: np.ndarray, sources: Sequence[str],
            threshold: float, doc_ids: Sequence[str] | None = None) -> Clusters:
    """Clusters of documents held in memory (rows ordered by doc_id; `published` in days since
    1970, NO_DATE where unknown; `sources` and `doc_ids` aligned; doc_ids default to the rows'
    order) and each one's representative and similarity to it."""
    n = len(sigs)
    labels, verified, links = components(sigs, bands, threshold)
    rows = np.arange(n, dtype=np.int64)
    reps = Representatives(np.bincount(labels, minlength=n))
    reps.add(labels, rows, published, sources, doc_ids if doc_ids is not None else [f"{k:016x}" for k in range(n)])
    rep, _, member = reps.of(labels, rows)
    sim = np.ones(n, dtype=np.float64)
    others = np.flatnonzero(member & (rep != rows))
    sim[others] = similarity(sigs, others, rep[others])
    return Clusters(rep, sim, verified, links)


# ----------------------------------------------------------------------------- batch parts

def _days(value) -> int:
    if value is None or (not isinstance(value, dt.date) and not isinstance(value, str)):
        return NO_DATE
    if isinstance(value, str):
        try:
            value = dt.date.fromisoformat(value[:10])
        except ValueError:
            return NO_DATE
    if isinstance(value, dt.datetime):
        value = value.date()
    return (value - _EPOCH).days


def write_part(stage_dir: Path, part: str, articles: list[dict], shingle_words: int) -> Path:
    """The signatures of a batch's article rows (those written), for the run's clustering step:
    stage/minhash-parts/<part>.npz (doc_id, source, published, signatures; plain arrays). `part`:
    the tables' part name (newsclean.cleaners.store.part_name), "part-" first."""
    folder = Path(stage_dir) / PARTS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{part}.npz"
    sigs = signatures((a["text"] for a in articles), shingle_words)
    with atomic_file(path, fsync=False) as fh:
        np.savez(fh, doc_id=np.array([a["doc_id"] for a in articles], dtype="S16"),
                 source=np.array([a["source"] for a in articles], dtype=str),
                 published=np.array([_days(a.get("published")) for a in articles], dtype=np.int32),
                 signatures=sigs)
    return path


# ----------------------------------------------------------------------------- the index

def id_numbers(doc_ids) -> np.ndarray:
    """doc_ids (16 hex digits, str or bytes) as uint64: the same order as the strings'."""
    return np.fromiter((int(x, 16) for x in doc_ids), dtype=np.uint64, count=len(doc_ids))


def _first_occurrences(ids: np.ndarray) -> np.ndarray:
    """Mask of the first occurrence of each id, in the given order."""
    first = np.ones(len(ids), dtype=bool)
    if len(ids) > 1:
        order = np.argsort(ids, kind="stable")  # equal ids keep their order: the first comes first
        ordered = ids[order]
        first[order[1:][ordered[1:] == ordered[:-1]]] = False
    return first


class _Previous:
    """A stored index made with the same signature parameters: the row of a doc_id in it, and its
    signatures."""

    def __init__(self, folder: Path):
        ids = id_numbers(pq.read_table(folder / "documents.parquet", columns=["doc_id"]).column("doc_id").to_pylist())
        self.order = np.argsort(ids, kind="stable")
        self.ids = ids[self.order]
        self.signatures = np.load(folder / "signatures.npy", mmap_mode="r")
        if self.signatures.shape != (len(ids), NUM_PERM):
            raise ValueError("signatures do not match the documents")

    @classmethod
    def open(cls, folder: Path | None, expected: dict) -> "_Previous | None":
        if folder is None or not (folder / "documents.parquet").exists():
            return None
        try:
            meta = pq.read_schema(folder / "documents.parquet").metadata or {}
            stored = json.loads(meta.get(b"newsclean.minhash", b"{}"))
            if any(stored.get(k) != expected[k] for k in ("num_perm", "seed", "scheme", "shingle_words")):
                return None
            return cls(folder)
        except (OSError, ValueError, KeyError, pa.ArrowException):
            return None

    def rows(self, ids: np.ndarray) -> np.ndarray:
        """Row of each of `ids` (uint64) in the stored index, -1 where absent."""
        if not len(self.ids):
            return np.full(len(ids), -1, dtype=np.int64)
        pos = np.minimum(np.searchsorted(self.ids, ids), len(self.ids) - 1)
        return np.where(self.ids[pos] == ids, self.order[pos], -1).astype(np.int64)


_META = pa.schema([("doc_id", pa.string()), ("source", pa.string()), ("published", pa.int32())])


def _inputs(stage_dir: Path, carried: Path | None) -> list[tuple[str, Path]]:
    """Where the index's documents come from, in the order a doc_id's first row is kept (as the
    merged articles table keeps it): the carried-over articles, then each batch's part."""
    found = [("carry", Path(carried))] if carried is not None and Path(carried).exists() else []
    parts = stage_dir / PARTS_DIR
    return found + [("part", p) for p in (sorted(parts.glob("part-*.npz")) if parts.is_dir() else [])]


def _input_ids(kind: str, path: Path) -> np.ndarray:
    if kind == "part":
        with np.load(path, allow_pickle=False) as z:
            return id_numbers(z["doc_id"])
    pf = pq.ParquetFile(path, pre_buffer=False)
    return np.concatenate([id_numbers(batch.column(0).to_pylist())
                           for batch in pf.iter_batches(batch_size=CHUNK_DOCS, columns=["doc_id"])] or [np.empty(0, np.uint64)])


def _input_chunks(kind: str, path: Path, with_text: bool):
    """(doc_ids, sources, published days, signatures or None, texts or None) of an input, CHUNK_DOCS
    documents at a time (a part is one chunk: one cleaning batch)."""
    if kind == "part":
        with np.load(path, allow_pickle=False) as z:
            yield (z["doc_id"].astype(str).tolist(), z["source"].tolist(), z["published"].astype(np.int32),
                   z["signatures"], None)
        return
    pf = pq.ParquetFile(path, pre_buffer=False)
    columns = ["doc_id", "source", "published"] + (["text"] if with_text else [])
    for batch in pf.iter_batches(batch_size=CHUNK_DOCS, columns=columns):
        days = pc.fill_null(batch.column(2).cast(pa.date32()).cast(pa.int32()), NO_DATE)
        yield (batch.column(0).to_pylist(), batch.column(1).to_pylist(), days.to_numpy(zero_copy_only=False).astype(np.int32),
               None, batch.column(3).to_pylist() if with_text else None)


class _BandPartitions:
    """The band rows of the index's documents (band, key, doc_id number, row), spread over
    `count` Arrow files by key: a bucket's rows are all in one file, and a file holds about
    BAND_ROWS_PER_PARTITION rows however large the corpus."""

    SCHEMA = pa.schema([("band", pa.uint16()), ("key", pa.uint64()), ("order", pa.uint64()), ("row", pa.int64())])

    def __init__(self, folder: Path, count: int):
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        self.paths = [folder / f"bands-{p:05d}.arrow" for p in range(count)]
        self.writers = [pa.ipc.new_file(str(p), self.SCHEMA) for p in self.paths]
        self.pending: list[tuple[np.ndarray, ...]] = []
        self.held = 0

    def add(self, rows: tuple[np.ndarray, ...]) -> None:
        self.pending.append(rows)
        self.held += len(rows[0])
        if self.held >= BAND_ROWS_PER_PARTITION:
            self.flush()

    def flush(self) -> None:
        if not self.pending:
            return
        cols = [np.concatenate(c) for c in zip(*self.pending)]
        self.pending, self.held = [], 0
        which = (cols[1] >> np.uint64(40)) % np.uint64(len(self.paths))
        for p, writer in enumerate(self.writers):
            sel = which == p
            if sel.any():
                writer.write_batch(pa.record_batch([pa.array(c[sel]) for c in cols], schema=self.SCHEMA))

    def close(self) -> None:
        self.flush()
        for writer in self.writers:
            writer.close()

    def __iter__(self):
        """Each file's rows (band, key, order, row as numpy arrays), the file removed once read."""
        for path in self.paths:
            with pa.memory_map(str(path)) as source:  # read in place, copied once into numpy
                table = pa.ipc.open_file(source).read_all()
                cols = tuple(np.array(table.column(k).to_numpy()) for k in range(4))
                del table
            path.unlink()
            yield cols


def build_index(stage_dir: Path, previous: Path | None, carried: Path | None, shingle_words: int,
                threshold: float) -> dict:
    """The run's index in stage_dir/INDEX_DIR, from the articles carried over (`carried`: their
    rows, the incremental run's part-carry.parquet; signatures from the `previous` index, or from
    their text where it has none) and the cleaning batches' parts; then the clusters. Every pass
    reads its inputs in chunks and writes its outputs as it goes; what it holds per document is a
    number or two (the doc_ids while deciding which occurrence is kept, then a component root).
    Returns counts for run.json."""
    t0 = time.perf_counter()
    stage_dir = Path(stage_dir)
    want = params(shingle_words, threshold)
    b, r = want["bands"], want["rows"]
    target = stage_dir / INDEX_DIR
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    inputs = _inputs(stage_dir, carried)
    prev = _Previous.open(previous, want)

    # 1. who is in the index: each doc_id once, at its first occurrence (the merged articles table
    # keeps the first row of a doc_id); carried articles the stored index lacks are hashed from text
    ids = [_input_ids(kind, path) for kind, path in inputs]
    from_text = [kind == "carry" and (prev is None or bool((prev.rows(x) < 0).any())) for (kind, _), x in zip(inputs, ids)]
    first = _first_occurrences(np.concatenate(ids) if ids else np.empty(0, np.uint64))
    del ids
    n = int(first.sum())

    # 2. signatures (appended to signatures.npy in index order), the documents' columns, and their
    # band rows, spread over partition files
    sig_path, meta_path = target / "signatures.npy", stage_dir / f"{INDEX_DIR}-documents.parquet"
    partitions = _BandPartitions(stage_dir / BANDS_DIR, max(1, -(-n * b // BAND_ROWS_PER_PARTITION)))
    carried_reused = computed = hashed_again = 0
    offset = row = 0
    with open(sig_path, "wb") as sig_out, pq.ParquetWriter(meta_path, _META) as meta_out:
        np.lib.format.write_array_header_1_0(sig_out, {"descr": np.lib.format.dtype_to_descr(np.dtype(np.uint32)),
                                                       "fortran_order": False, "shape": (n, NUM_PERM)})
        for (kind, path), text in zip(inputs, from_text):
            for doc_ids, sources, published, sigs, texts in _input_chunks(kind, path, text):
                keep = np.flatnonzero(first[offset:offset + len(doc_ids)])
                offset += len(doc_ids)
                if not len(keep):
                    continue
                doc_ids, sources = [doc_ids[k] for k in keep], [sources[k] for k in keep]
                numbers = id_numbers(doc_ids)
                if sigs is not None:
                    sigs = sigs[keep]
                    computed += len(keep)
                else:
                    sigs = np.empty((len(keep), NUM_PERM), dtype=np.uint32)
                    at = prev.rows(numbers) if prev is not None else np.full(len(keep), -1, dtype=np.int64)
                    found = at >= 0
                    if found.any():
                        sigs[found] = prev.signatures[at[found]]
                        carried_reused += int(found.sum())
                    if not found.all():  # no stored signature (an index lost or made otherwise): from the text
                        missing = np.flatnonzero(~found)
                        sigs[missing] = signatures((texts[keep[k]] for k in missing), shingle_words)
                        hashed_again += len(missing)
                sig_out.write(np.ascontiguousarray(sigs, dtype=np.uint32).tobytes())
                meta_out.write_table(pa.table({"doc_id": pa.array(doc_ids, pa.string()), "source": pa.array(sources, pa.string()),
                                               "published": pa.array(published[keep], pa.int32())}, schema=_META))
                rows = np.arange(row, row + len(keep), dtype=np.int64)
                row += len(keep)
                valid = np.flatnonzero(np.any(sigs != EMPTY, axis=1))  # a text of no shingle is never a candidate
                partitions.add(band_rows(band_keys(sigs[valid], b, r), numbers[valid], rows[valid]))
    partitions.close()
    del first, prev

    # 3. components: per partition file, its buckets' pairs verified against the signatures read
    # from the file, a chunk at a time
    sig_file = np.load(sig_path, mmap_mode="r")  # file pages: the page cache's, not the process's
    parent = np.arange(n, dtype=np.int64 if n > np.iinfo(np.int32).max else np.int32)
    verified = links = 0
    for band, key, order, docs in partitions:
        v, k = link(parent, _bucket_pairs(band, key, order, docs), sig_file, threshold)
        del band, key, order, docs
        verified, links = verified + v, links + k
    shutil.rmtree(stage_dir / BANDS_DIR, ignore_errors=True)

    # 4. representatives (one pass over the documents), then documents.parquet with each one's
    # cluster and similarity (another)
    sizes_of = np.bincount(parent, minlength=n) if n else np.zeros(0, dtype=np.int64)
    reps = Representatives(sizes_of)
    meta = pq.ParquetFile(meta_path, pre_buffer=False)
    start = 0
    for batch in meta.iter_batches(batch_size=CHUNK_DOCS):
        rows = np.arange(start, start + batch.num_rows, dtype=np.int64)
        start += batch.num_rows
        reps.add(parent[rows], rows, batch.column(2).to_numpy(zero_copy_only=False), batch.column(1).to_pylist(),
                 batch.column(0).to_pylist())
    stored = DOCUMENTS_SCHEMA.with_metadata({"newsclean.minhash": json.dumps(want | {"threshold": threshold})})
    start = 0
    with pq.ParquetWriter(target / "documents.parquet", stored, compression="zstd") as out:
        for batch in meta.iter_batches(batch_size=CHUNK_DOCS):
            rows = np.arange(start, start + batch.num_rows, dtype=np.int64)
            start += batch.num_rows
            rep, pos, member = reps.of(parent[rows].astype(np.int64), rows)
            sim = np.ones(len(rows), dtype=np.float64)
            others = np.flatnonzero(member & (rep != rows))
            sim[others] = similarity(sig_file, rows[others], rep[others])
            days = batch.column(2)
            out.write_table(pa.table({
                "doc_id": batch.column(0), "source": batch.column(1),
                "published": pc.if_else(pc.equal(days, NO_DATE), pa.scalar(None, pa.int32()), days).cast(pa.date32()),
                "dup_cluster": reps.cluster_ids(pos, batch.column(0)),
                "dup_similarity": pa.array(sim, pa.float64()),
            }, schema=stored))
    del meta
    meta_path.unlink()
    big = sizes_of[sizes_of > 1]
    return {
        "documents": int(n),
        "clusters": int(len(big)),
        "documents_in_clusters": int(big.sum()),
        "largest_cluster": int(sizes_of.max()) if n else 0,
        "pairs_verified": int(verified),
        "pairs_linked": int(links),
        "signatures_carried": carried_reused,
        "signatures_new": computed,
        "signatures_from_text": hashed_again,
        "threshold": threshold,
        "shingle_words": int(shingle_words),
        "bands": b,
        "rows_per_band": r,
        "band_partitions": len(partitions.paths),
        "seconds": round(time.perf_counter() - t0, 3),
    }


# ----------------------------------------------------------------------------- the articles' columns

class ClusterColumns:
    """doc_id -> (dup_cluster, dup_similarity) of a built index, to fill the articles' columns
    row group by row group as the table is merged."""

    def __init__(self, doc_ids: pa.Array, dup_cluster: pa.Array, dup_similarity: pa.Array):
        self.doc_ids, self.dup_cluster, self.dup_similarity = doc_ids, dup_cluster, dup_similarity

    @classmethod
    def load(cls, folder: Path) -> "ClusterColumns | None":
        path = Path(folder) / "documents.parquet"
        if not path.exists():
            return None
        t = pq.read_table(path, columns=["doc_id", "dup_cluster", "dup_similarity"])
        return cls(*(t.column(c).combine_chunks() for c in ("doc_id", "dup_cluster", "dup_similarity")))

    def fill(self, table: pa.Table) -> pa.Table:
        """`table` (articles rows) with dup_cluster and dup_similarity from the index; a row the
        index does not hold stays its own cluster."""
        ids = table.column("doc_id")
        at = pc.index_in(ids, value_set=self.doc_ids)
        cluster = pc.coalesce(pc.take(self.dup_cluster, at), ids)
        sim = pc.coalesce(pc.take(self.dup_similarity, at), pa.scalar(1.0, pa.float64()))
        for name, col in (("dup_cluster", cluster), ("dup_similarity", sim)):
            table = table.set_column(table.schema.get_field_index(name), name, col)
        return table


def cluster_rows(articles: list[dict], shingle_words: int = 5, threshold: float = 0.7) -> list[tuple[str, float]]:
    """(dup_cluster, dup_similarity) of each of a few article rows (dicts with doc_id, source,
    text and published), clustered among themselves: the run's clustering without its files,
    for tests and small uses."""
    b, r = band_params(threshold)
    order = sorted(range(len(articles)), key=lambda k: articles[k]["doc_id"])
    rows = [articles[k] for k in order]
    sigs = signatures((a["text"] for a in rows), shingle_words)
    result = cluster(sigs, band_keys(sigs, b, r), np.array([_days(a.get("published")) for a in rows], dtype=np.int32),
                     [a["source"] for a in rows], threshold, [a["doc_id"] for a in rows])
    out: list[tuple[str, float]] = [("", 0.0)] * len(articles)
    for pos, k in enumerate(order):
        out[k] = (rows[int(result.representative[pos])]["doc_id"], float(result.similarity[pos]))
    return out

