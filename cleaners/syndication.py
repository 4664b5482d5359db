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
- MinHash: datasketch's MinHash (scheme affine32, NUM_PERM permutations, fixed seed), computed in
  bulk per batch of articles (MinHash.generator), over the shingles' hashes. A signature is
  NUM_PERM uint32: 512 bytes per article.
- LSH: the signature is cut into `b` bands of `r` values, each band hashed to a uint64 key.
  Articles that share a key in any band are candidates; each candidate pair is verified by its
  estimated Jaccard similarity (the share of equal signature values), and pairs at or above
  `dup_threshold` (default 0.7) are linked. Clusters are the connected components of the links
  (a union-find over arrays; a pair already in one component is not verified again).
  (b, r) is the most selective banding that still makes a pair right at the threshold a candidate
  with probability >= CANDIDATE_RECALL: every candidate is verified, so a missed pair costs more
  than a checked one. Buckets are sorted numpy arrays rather than datasketch's MinHashLSH, whose
  in-memory storage keeps a Python object per article and band (gigabytes at a million articles)
  and persists only by pickle or an external store.
- Determinism: the index is ordered by doc_id and everything is computed from the signatures, so
  the clusters do not depend on batches, workers or which run cleaned which article: an
  incremental run gives the same clusters as a full one.

Persistence (INDEX_DIR, published with the tables in the same generation, newsclean.cleaners.store):
`documents.parquet` (doc_id, source, published, dup_cluster, dup_similarity; the signature
parameters in its metadata), `signatures.npy` (uint32, one row per document, same order) and
`bands.npy` (uint64, the LSH keys, one row per band). An incremental run takes the signatures and
band keys of the articles it carries over from there; only new or changed documents are shingled
and hashed (in their cleaning batches, write_part). A deleted source's articles are simply not in
the next index, so they leave their clusters, and a cluster whose representative went elects
another. Memory: the signatures are written to and read from memory-mapped files; what the
clustering holds is one band's keys and pairs at a time and a component root per document.
"""
from __future__ import annotations

import datetime as dt
import json
import os
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
PAIRS_PER_CHUNK = 1 << 14  # pairs verified at once: two 8 MB gathers of signature rows

INDEX_DIR = "minhash"  # the index's folder in a generation (and in the staging folder)
PARTS_DIR = "minhash-parts"  # the cleaning batches' signatures, in the staging folder
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


def _identity(value: int) -> int:
    return value


@lru_cache(maxsize=1)
def _template():
    from datasketch import MinHash

    return MinHash(num_perm=NUM_PERM, seed=SEED, scheme=SCHEME, hashfunc=_identity)


def signatures(texts: Iterable[str], shingle_words: int) -> np.ndarray:
    """MinHash signatures of the texts, one uint32 row of NUM_PERM values each (datasketch's
    MinHash.generator: one set of permutations for all)."""
    from datasketch import MinHash

    template = _template()
    rows = [m.hashvalues for m in MinHash.generator(
        (shingle_hashes(t, shingle_words).tolist() for t in texts),
        num_perm=NUM_PERM, seed=SEED, scheme=SCHEME, hashfunc=_identity, permutations=template.permutations)]
    if not rows:
        return np.empty((0, NUM_PERM), dtype=np.uint32)
    return np.asarray(rows, dtype=np.uint32)


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


def _bucket_pairs(keys: np.ndarray, docs: np.ndarray):
    """Candidate pairs (i < j, rows of the index) of one band: docs that share a key; yielded in
    pieces of at most len(docs) pairs, so memory stays that of the band. `docs` ascending, keys
    aligned with them."""
    order = np.argsort(keys, kind="stable")
    sk, sd = keys[order], docs[order]  # within a bucket, docs stay ascending (stable sort)
    n = len(sk)
    if n < 2:
        return
    start = np.flatnonzero(np.r_[True, sk[1:] != sk[:-1]])
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


def components(sigs: np.ndarray, bands: np.ndarray, threshold: float) -> tuple[np.ndarray, int, int]:
    """(root of each document's component, pairs verified, pairs linked). Per band, the pairs that
    share a bucket and are not in one component yet are verified, and those at or above the
    threshold join their components (union-find over arrays). Skipping pairs that are joined
    already changes nothing in the components, so the result is the components of all verified
    links, whatever the order; memory is that of one band's pairs. Signatures of no shingle are
    never candidates."""
    n = len(sigs)
    parent = np.arange(n, dtype=np.int64)
    if n < 2:
        return parent, 0, 0
    valid = np.flatnonzero(np.concatenate([np.any(np.asarray(sigs[s:s + PAIRS_PER_CHUNK]) != EMPTY, axis=1)
                                           for s in range(0, n, PAIRS_PER_CHUNK)]))
    need = threshold * sigs.shape[1] - 1e-9
    verified = linked = 0
    for band in range(len(bands)):
        for i, j in _bucket_pairs(np.asarray(bands[band])[valid], valid):
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
        while True:  # flatten: every row points at its root
            up = parent[parent]
            if np.array_equal(up, parent):
                break
            parent = up
    return parent, verified, linked


# ----------------------------------------------------------------------------- clusters

_RECORD = re.compile(r"^(.*)#L?(\d+)$")


def first_seen_key(source: str) -> tuple[str, int]:
    """The order a run reads documents: files in path order, a file's records in file order
    ("news.jsonl#L2" before "news.jsonl#L12")."""
    m = _RECORD.match(source)
    return (m.group(1), int(m.group(2))) if m else (source, -1)


@dataclass
class Clusters:
    representative: np.ndarray  # int64: index row of each document's representative
    similarity: np.ndarray  # float64: estimated Jaccard similarity to it
    verified: int  # candidate pairs verified
    links: int  # verified pairs at or above the threshold


def cluster(sigs: np.ndarray, bands: np.ndarray, published: np.ndarray, sources: Sequence[str],
            threshold: float) -> Clusters:
    """Clusters of the index's documents (rows ordered by doc_id; `published` in days since 1970,
    NO_DATE where unknown; `sources` aligned) and each one's representative and similarity to it."""
    n = len(sigs)
    labels, verified, links = components(sigs, bands, threshold)
    rep = np.arange(n, dtype=np.int64)
    sim = np.ones(n, dtype=np.float64)
    if not links:
        return Clusters(rep, sim, verified, 0)
    counts = np.bincount(labels, minlength=n)
    members = np.flatnonzero(counts[labels] > 1)
    # earliest published (unknown last), then first seen, then the lower doc_id (= index row)
    pub = published[members].astype(np.int64)
    pub[pub == NO_DATE] = np.iinfo(np.int64).max
    seen_order = sorted(range(len(members)), key=lambda k: first_seen_key(sources[members[k]]))
    seen_rank = np.empty(len(members), dtype=np.int64)
    seen_rank[seen_order] = np.arange(len(members))
    order = np.lexsort((members, seen_rank, pub, labels[members]))
    ordered = members[order]
    first = np.r_[True, labels[ordered][1:] != labels[ordered][:-1]]
    winner = np.full(n, -1, dtype=np.int64)
    winner[labels[ordered][first]] = ordered[first]
    rep[members] = winner[labels[members]]
    others = members[rep[members] != members]
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


def write_part(stage_dir: Path, index: int, articles: list[dict], shingle_words: int) -> Path:
    """The signatures of a batch's article rows (those written), for the run's clustering step:
    stage/minhash-parts/part-NNNNN.npz (doc_id, source, published, signatures; plain arrays)."""
    folder = Path(stage_dir) / PARTS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"part-{index:05d}.npz"
    tmp = folder / f".part-{index:05d}.npz.tmp"
    sigs = signatures((a["text"] for a in articles), shingle_words)
    with open(tmp, "wb") as fh:
        np.savez(fh, doc_id=np.array([a["doc_id"] for a in articles], dtype="S16"),
                 source=np.array([a["source"] for a in articles], dtype=str),
                 published=np.array([_days(a.get("published")) for a in articles], dtype=np.int32),
                 signatures=sigs)
    os.replace(tmp, path)
    return path


# ----------------------------------------------------------------------------- the index

def _read_previous(previous: Path | None, expected: dict):
    """(doc_ids S16, signatures memmap, bands memmap or None) of a stored index made with the same
    signature parameters; None when there is none or it cannot be read."""
    if previous is None or not (previous / "documents.parquet").exists():
        return None
    try:
        meta = pq.read_schema(previous / "documents.parquet").metadata or {}
        stored = json.loads(meta.get(b"newsclean.minhash", b"{}"))
        if any(stored.get(k) != expected[k] for k in ("num_perm", "seed", "scheme", "shingle_words")):
            return None
        ids = pq.read_table(previous / "documents.parquet", columns=["doc_id"]).column("doc_id")
        ids = np.array(ids.to_pylist(), dtype="S16")
        sigs = np.load(previous / "signatures.npy", mmap_mode="r")
        if sigs.shape != (len(ids), NUM_PERM):
            return None
        bands = None
        if (stored.get("bands"), stored.get("rows")) == (expected["bands"], expected["rows"]):
            bands = np.load(previous / "bands.npy", mmap_mode="r")
            if bands.shape != (expected["bands"], len(ids)):
                bands = None
        return ids, sigs, bands
    except (OSError, ValueError, KeyError, pa.ArrowException):
        return None


def _lookup(sorted_ids: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """Row of each of `ids` in `sorted_ids` (ascending), -1 where absent."""
    if not len(sorted_ids):
        return np.full(len(ids), -1, dtype=np.int64)
    pos = np.minimum(np.searchsorted(sorted_ids, ids), len(sorted_ids) - 1)
    return np.where(sorted_ids[pos] == ids, pos, -1).astype(np.int64)


def build_index(stage_dir: Path, previous: Path | None, carried: Path | None, shingle_words: int,
                threshold: float) -> dict:
    """The run's index in stage_dir/INDEX_DIR, from the articles carried over (`carried`: their
    rows, the incremental run's part-carry.parquet; signatures from the `previous` index, or from
    their text where it has none) and the cleaning batches' parts; then the clusters. Returns
    counts for run.json."""
    t0 = time.perf_counter()
    stage_dir = Path(stage_dir)
    want = params(shingle_words, threshold)
    b, r = want["bands"], want["rows"]
    target = stage_dir / INDEX_DIR
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)

    # 1. who is in the index: carried articles first, then each batch's, a doc_id once (as the
    # merged articles table keeps the first row of a doc_id)
    ids_parts, src_parts, pub_parts, origin = [], [], [], []  # origin: ("carry"|"part", path)
    if carried is not None and Path(carried).exists():
        t = pq.read_table(carried, columns=["doc_id", "source", "published"])
        ids_parts.append(np.array(t.column("doc_id").to_pylist(), dtype="S16"))
        src_parts.append(t.column("source").combine_chunks() if t.num_rows else pa.array([], pa.string()))
        days = pc.fill_null(t.column("published").cast(pa.date32()).cast(pa.int32()), NO_DATE)
        pub_parts.append(days.to_numpy().astype(np.int32))
        origin.append(("carry", Path(carried)))
    parts = sorted((stage_dir / PARTS_DIR).glob("part-*.npz")) if (stage_dir / PARTS_DIR).is_dir() else []
    for part in parts:
        with np.load(part, allow_pickle=False) as z:
            ids_parts.append(z["doc_id"].astype("S16"))
            src_parts.append(pa.array(z["source"].tolist(), pa.string()))
            pub_parts.append(z["published"].astype(np.int32))
        origin.append(("part", part))
    ids = np.concatenate(ids_parts) if ids_parts else np.empty(0, dtype="S16")
    sources = pa.concat_arrays([s.cast(pa.string()) for s in src_parts]) if src_parts else pa.array([], pa.string())
    published = np.concatenate(pub_parts) if pub_parts else np.empty(0, dtype=np.int32)
    uniq, first = np.unique(ids, return_index=True)  # sorted by doc_id: the index's order
    n = len(uniq)
    row_of = np.full(len(ids), -1, dtype=np.int64)  # gathered row -> index row (-1: a later copy)
    row_of[first] = np.arange(n)

    # 2. signatures and band keys, written straight into memory-mapped files
    sig_path, band_path = target / "signatures.npy", target / "bands.npy"
    sigs = np.lib.format.open_memmap(sig_path, mode="w+", dtype=np.uint32, shape=(n, NUM_PERM))
    bands = np.lib.format.open_memmap(band_path, mode="w+", dtype=np.uint64, shape=(b, n))
    prev = _read_previous(previous, want)
    offset, carried_reused, computed, hashed_again = 0, 0, 0, 0
    for (kind, path), part_ids in zip(origin, ids_parts):
        dest = row_of[offset:offset + len(part_ids)]
        keep = np.flatnonzero(dest >= 0)
        if kind == "part":
            with np.load(path, allow_pickle=False) as z:
                part_sigs = z["signatures"]
            sigs[dest[keep]] = part_sigs[keep]
            bands[:, dest[keep]] = band_keys(part_sigs[keep], b, r)
            computed += len(keep)
        else:
            at = _lookup(prev[0], part_ids[keep]) if prev is not None else np.full(len(keep), -1, dtype=np.int64)
            found = at >= 0
            if found.any():
                src_rows, dst_rows = at[found], dest[keep[found]]
                for s in range(0, len(src_rows), PAIRS_PER_CHUNK):
                    sl = slice(s, s + PAIRS_PER_CHUNK)
                    got = np.asarray(prev[1][src_rows[sl]])
                    sigs[dst_rows[sl]] = got
                    bands[:, dst_rows[sl]] = (np.asarray(prev[2][:, src_rows[sl]]) if prev[2] is not None
                                              else band_keys(got, b, r))
                carried_reused += int(found.sum())
            missing = keep[~found]
            if len(missing):  # no stored signature (an index lost or made otherwise): from the text
                hashed_again += _signatures_from_text(path, missing, dest[missing], sigs, bands, shingle_words, b, r)
        offset += len(part_ids)
    sigs.flush()
    bands.flush()

    # 3. clusters
    index_sources = sources.take(pa.array(first)) if n else pa.array([], pa.string())
    index_published = published[first]
    result = cluster(sigs, bands, index_published, index_sources.to_pylist(), threshold)
    id_strings = pa.array(uniq.astype(str).tolist() if n else [], pa.string())
    table = pa.table({
        "doc_id": id_strings,
        "source": index_sources,
        "published": pa.array(index_published, pa.int32(), mask=index_published == NO_DATE).cast(pa.date32()),
        "dup_cluster": id_strings.take(pa.array(result.representative)) if n else pa.array([], pa.string()),
        "dup_similarity": pa.array(result.similarity, pa.float64()),
    }, schema=DOCUMENTS_SCHEMA).replace_schema_metadata({"newsclean.minhash": json.dumps(want | {"threshold": threshold})})
    pq.write_table(table, target / "documents.parquet", compression="zstd")
    del sigs, bands
    sizes = np.bincount(result.representative, minlength=n) if n else np.zeros(0, dtype=np.int64)
    return {
        "documents": int(n),
        "clusters": int((sizes > 1).sum()),
        "documents_in_clusters": int(sizes[sizes > 1].sum()),
        "largest_cluster": int(sizes.max()) if n else 0,
        "pairs_verified": int(result.verified),
        "pairs_linked": int(result.links),
        "signatures_carried": carried_reused,
        "signatures_new": computed,
        "signatures_from_text": hashed_again,
        "threshold": threshold,
        "shingle_words": int(shingle_words),
        "bands": b,
        "rows_per_band": r,
        "seconds": round(time.perf_counter() - t0, 3),
    }


def _signatures_from_text(carried: Path, rows: np.ndarray, dest: np.ndarray, sigs, bands,
                          shingle_words: int, b: int, r: int) -> int:
    """Signatures of carried articles `rows` (positions in the carried table) from their text,
    read row group by row group."""
    pf = pq.ParquetFile(carried, pre_buffer=False)
    wanted = dict(zip(rows.tolist(), dest.tolist()))
    offset = 0
    for g in range(pf.num_row_groups):
        n = pf.metadata.row_group(g).num_rows
        hit = [k for k in range(offset, offset + n) if k in wanted]
        if hit:
            texts = pf.read_row_group(g, columns=["text"]).column("text").to_pylist()
            got = signatures((texts[k - offset] for k in hit), shingle_words)
            to = np.array([wanted[k] for k in hit], dtype=np.int64)
            sigs[to] = got
            bands[:, to] = band_keys(got, b, r)
        offset += n
    return len(wanted)


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
                     [a["source"] for a in rows], threshold)
    out: list[tuple[str, float]] = [("", 0.0)] * len(articles)
    for pos, k in enumerate(order):
        out[k] = (rows[int(result.representative[pos])]["doc_id"], float(result.similarity[pos]))
    return out

