"""The corpus pass of a run, between discovery and cleaning: build cleaners.corpus.CorpusStats over
every document, save it for the cleaning batches (read-only context), and fingerprint each
source's corpus context so that incremental runs know whom a corpus change affects.

Why fingerprints: corpus repetition depends on all documents, so adding one document changes
counts that other documents see. Re-cleaning everything on every change would make incremental
runs pointless; ignoring it would leave stale decisions. A source is re-cleaned when the
*quantised* context of one of its documents changed: per line, the document frequency overall
and within the site in powers of two (1, 2-3, 4-7, ...) plus whether it reaches the template
threshold (Settings.template_min_docs), and the corpus and site sizes in powers of two. Counts
of DF_CAP documents and more are one bucket: past a few copies a line is a template whatever its
count, and the boundaries at 16, 32, 64... were what re-cleaned most documents after a small
edit (bench/context_churn.py). A line going from 40 to 41 (or 20 to 400) documents re-cleans
nobody; a line becoming a template (2 -> 3 documents) re-cleans the documents that contain it;
doubling the corpus re-cleans everything.

The pass is split so that its costly part runs in parallel and each file is read once: every
worker hashes the lines of a slice of the sources (decode, normalise, hash) into a part file of
plain arrays (hash_slice); the flow then builds the statistics and the fingerprints from the
parts alone (from_parts), never from the text again. Memory stays bounded by one part's arrays
plus the distinct-line tables.

No Prefect here; flows/clean_corpus.py calls these from its `hash-lines` and `corpus-statistics` tasks.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache, partial
from pathlib import Path
from typing import Iterable, Iterator

import numpy as np
import xxhash

from cleaners.corpus import CorpusStats, DocContext, key_hash, line_hashes
from cleaners.lines import normalise_lines
from cleaners.metadata.resolve import record_evidence
from cleaners.metadata.urls import domain_from_url
from cleaners.readers import read_source
from cleaners.settings import Settings
from cleaners.types import DocumentError, RawDocument

STATS_FILE = "corpus-stats.npz"
HASHES_FILE = "line-hashes-{:05d}.npz"


def document_lines(raw: RawDocument, settings: Settings) -> list[str]:
    """The non-empty normalised lines the line cleaner will see for this document."""
    from cleaners.pipeline import input_text

    return [ln for ln in normalise_lines(input_text(raw), settings.keep_curly_quotes) if ln]


def site_key(raw: RawDocument) -> str | None:
    """The site a document belongs to, when a record or archive says so (its URL's domain, else its outlet)."""
    evidence = record_evidence(raw.meta)
    if evidence.url:
        dom = domain_from_url(evidence.url)
        if dom:
            return dom
    return evidence.outlet


def document_context(stats: CorpusStats, raw: RawDocument):
    """The line-model context of one document: `context(lines)` with its corpus counts, site and URL."""
    return partial(stats.doc_context, key=site_key(raw), url=record_evidence(raw.meta).url)


def iter_documents(raw_dir: Path, sources: list[str], settings: Settings) -> Iterator[tuple[str, list[str], str | None]]:
    """(source, lines, site_key) per readable document; unreadable ones are skipped here (the
    cleaning step quarantines them with the reader's reason)."""
    for source in sources:
        try:
            for item in read_source(raw_dir, source, settings):
                # HTML pages are cleaned by cue rules on trafilatura's body with the line model off,
                # so their lines would cost a second trafilatura run per page and be read by nobody.
                if isinstance(item, DocumentError) or item.format == "html":
                    continue
                try:
                    yield source, document_lines(item, settings), site_key(item)
                except Exception:  # noqa: BLE001 - undecodable: quarantined by the cleaning step
                    continue
        except Exception:  # noqa: BLE001
            continue


@dataclass
class LineHashes:
    """The line hashes of a slice of the corpus: document i came from sources[i], has the site key
    hash keys[i] (when has_key[i]) and the lines hashes[offsets[i]:offsets[i + 1]]."""

    sources: np.ndarray  # str
    has_key: np.ndarray  # bool
    keys: np.ndarray  # uint64
    offsets: np.ndarray  # int64, one more than documents
    hashes: np.ndarray  # uint64

    def documents(self) -> Iterator[tuple[str, np.ndarray, np.uint64 | None]]:
        for i, source in enumerate(self.sources.tolist()):
            yield source, self.hashes[self.offsets[i]:self.offsets[i + 1]], self.keys[i] if self.has_key[i] else None


def hash_slice(raw_dir: Path, sources: list[str], settings: Settings) -> LineHashes:
    """Read, normalise and hash the lines of every readable document of `sources`."""
    names, has_key, keys, offsets, chunks = [], [], [], [0], []
    for source, lines, key in iter_documents(raw_dir, sources, settings):
        h = line_hashes(lines)
        kh = key_hash(key)
        names.append(source)
        has_key.append(kh is not None)
        keys.append(kh if kh is not None else 0)
        chunks.append(h)
        offsets.append(offsets[-1] + len(h))
    return LineHashes(np.array(names, dtype=str), np.array(has_key, dtype=bool), np.array(keys, dtype=np.uint64),
                      np.array(offsets, dtype=np.int64),
                      np.concatenate(chunks) if chunks else np.empty(0, dtype=np.uint64))


def write_slice(raw_dir: Path, sources: list[str], settings: Settings, folder: Path, index: int) -> Path:
    """hash_slice saved as part `index` in `folder` (numpy .npz: plain arrays, no pickle)."""
    part = hash_slice(raw_dir, sources, settings)
    path = Path(folder) / HASHES_FILE.format(index)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as fh:
        np.savez(fh, **part.__dict__)
    tmp.replace(path)
    return path


def read_slice(path: Path) -> LineHashes:
    with np.load(path, allow_pickle=False) as z:
        return LineHashes(**{name: z[name] for name in z.files})


def from_parts(parts: Iterable[LineHashes] | list[Path], sources: list[str], settings: Settings) -> tuple[CorpusStats, dict[str, str]]:
    """The statistics over every part, then each source's context fingerprint (parts are read
    twice, one at a time, when given as paths)."""
    parts = list(parts)

    def each() -> Iterator[LineHashes]:
        for part in parts:
            yield read_slice(part) if isinstance(part, (str, Path)) else part

    stats = CorpusStats.from_hashes((h, kh) for part in each() for _, h, kh in part.documents())
    return stats, fingerprints_of(stats, each(), sources, settings)


def build(raw_dir: Path, sources: list[str], settings: Settings) -> CorpusStats:
    """The statistics of one slice, in memory (tests, benchmarks)."""
    return from_parts([hash_slice(raw_dir, sources, settings)], sources, settings)[0]


def _pow2_bucket(x: np.ndarray) -> np.ndarray:
    return np.floor(np.log2(np.maximum(x, 1))).astype(np.int8)


# 1% of a 10k generated corpus rewritten: uncapped, 69.8% of the unchanged documents were re-cleaned;
# capped at 16, 32.4%, and none of 400 documents the cap skips got another output when cleaned with
# the new counts (capped at 8: 0.5%, but 6 of 150 skipped documents would change).
DF_CAP = 16


def context_fingerprint(ctx: DocContext, settings: Settings, cap: int | None = DF_CAP) -> bytes:
    """`cap`: counts from this many documents up are one bucket (None: no cap; bench/context_churn.py)."""
    t = settings.template_min_docs
    df, df_site = (ctx.df, ctx.df_site) if cap is None else (np.minimum(ctx.df, cap), np.minimum(ctx.df_site, cap))
    parts = [
        _pow2_bucket(df), (df >= t).astype(np.int8),
        _pow2_bucket(df_site), (df_site >= t).astype(np.int8),
        _pow2_bucket(np.array([ctx.n_docs, ctx.n_site_docs])),
    ]
    return b"".join(p.tobytes() for p in parts)


def fingerprints_of(stats: CorpusStats, parts: Iterable[LineHashes], sources: list[str], settings: Settings) -> dict[str, str]:
    """Per source, a 16-hex fingerprint of its documents' quantised corpus context (a source with
    no readable document gets the fingerprint of none)."""
    acc: dict[str, xxhash.xxh3_64] = {s: xxhash.xxh3_64() for s in sources}
    for part in parts:
        for source, h, kh in part.documents():
            d = acc[source]
            d.update(context_fingerprint(stats.context_of(h, kh), settings))
            d.update(b"\x00|doc|\x00")
    return {s: d.hexdigest() for s, d in acc.items()}


def fingerprints(stats: CorpusStats, raw_dir: Path, sources: list[str], settings: Settings) -> dict[str, str]:
    """fingerprints_of for sources read now (tests, benchmarks)."""
    return fingerprints_of(stats, [hash_slice(raw_dir, sources, settings)], sources, settings)


def save(stats: CorpusStats, folder: Path) -> Path:
    """Internal, per-run file in the staging folder: numpy arrays, no pickle."""
    path = Path(folder) / STATS_FILE
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as fh:
        stats.save(fh)
    tmp.replace(path)
    return path


@lru_cache(maxsize=2)
def load(path: str) -> CorpusStats:
    """Cached per process: the batches a worker process runs share one copy."""
    return CorpusStats.load(path)
