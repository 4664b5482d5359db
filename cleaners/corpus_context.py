"""The corpus pass of a run, between discovery and cleaning: build cleaners.corpus.CorpusStats over
every document, save it for the cleaning batches (read-only context), and fingerprint each
source's corpus context so that incremental runs know whom a corpus change affects.

Why fingerprints: corpus repetition depends on all documents, so adding one document changes
counts that other documents see. Re-cleaning everything on every change would make incremental
runs pointless; ignoring it would leave stale decisions. A source is re-cleaned when the
*quantised* context of one of its documents changed: per line, the document frequency overall
and within the site in powers of two (1, 2-3, 4-7, ...) plus whether it reaches the template
threshold (Settings.template_min_docs), and the corpus and site sizes in powers of two. A line
going from 40 to 41 documents re-cleans nobody; a line becoming a template (2 -> 3 documents)
re-cleans the documents that contain it; doubling the corpus re-cleans everything.

No Prefect here; flows/clean_corpus.py calls these from its `corpus-statistics` task.
"""
from __future__ import annotations

import pickle
from functools import lru_cache, partial
from pathlib import Path
from typing import Iterator

import numpy as np
import xxhash

from cleaners.corpus import CorpusStats, DocContext
from cleaners.lines import normalise_lines
from cleaners.metadata.resolve import record_evidence
from cleaners.metadata.urls import domain_from_url
from cleaners.readers import read_source
from cleaners.settings import Settings
from cleaners.types import DocumentError, RawDocument

STATS_FILE = "corpus-stats.pkl"


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


def build(raw_dir: Path, sources: list[str], settings: Settings) -> CorpusStats:
    return CorpusStats.build((lines, key) for _, lines, key in iter_documents(raw_dir, sources, settings))


def _pow2_bucket(x: np.ndarray) -> np.ndarray:
    return np.floor(np.log2(np.maximum(x, 1))).astype(np.int8)


def context_fingerprint(ctx: DocContext, settings: Settings) -> bytes:
    t = settings.template_min_docs
    parts = [
        _pow2_bucket(ctx.df), (ctx.df >= t).astype(np.int8),
        _pow2_bucket(ctx.df_site), (ctx.df_site >= t).astype(np.int8),
        _pow2_bucket(np.array([ctx.n_docs, ctx.n_site_docs])),
    ]
    return b"".join(p.tobytes() for p in parts)


def fingerprints(stats: CorpusStats, raw_dir: Path, sources: list[str], settings: Settings,
                 documents: list[tuple[str, list[str], str | None]] | None = None) -> dict[str, str]:
    """Per source, a 16-hex fingerprint of its documents' quantised corpus context. `documents`:
    the (source, lines, site_key) of the counting pass when they were kept; else files are read again."""
    acc: dict[str, xxhash.xxh3_64] = {s: xxhash.xxh3_64() for s in sources}
    docs = documents if documents is not None else iter_documents(raw_dir, sources, settings)
    for source, lines, key in docs:
        h = acc[source]
        h.update(context_fingerprint(stats.doc_context(lines, key), settings))
        h.update(b"\x00|doc|\x00")
    return {s: h.hexdigest() for s, h in acc.items()}


def build_and_fingerprint(raw_dir: Path, sources: list[str], settings: Settings,
                          memory_budget: int = 256 << 20) -> tuple[CorpusStats, dict[str, str], bool]:
    """build() and fingerprints() reading each file once when the corpus's lines fit in
    `memory_budget` bytes (roughly: text plus Python's per-string overhead); otherwise the
    fingerprints read the files a second time. Returns (stats, fingerprints, read_twice)."""
    kept: list[tuple[str, list[str], str | None]] = []
    used, over = 0, False

    def feed():
        nonlocal used, over
        for source, lines, key in iter_documents(raw_dir, sources, settings):
            if not over:
                used += sum(len(ln) + 64 for ln in lines) + 128
                if used > memory_budget:
                    over = True
                    kept.clear()
                else:
                    kept.append((source, lines, key))
            yield lines, key

    stats = CorpusStats.build(feed())
    prints = fingerprints(stats, raw_dir, sources, settings, documents=None if over else kept)
    return stats, prints, over


def save(stats: CorpusStats, folder: Path) -> Path:
    """Internal, per-run file in the staging folder (written and read by this code only)."""
    path = Path(folder) / STATS_FILE
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as fh:
        pickle.dump(stats, fh, protocol=pickle.HIGHEST_PROTOCOL)
    tmp.replace(path)
    return path


@lru_cache(maxsize=2)
def load(path: str) -> CorpusStats:
    """Cached per process: the batches a worker process runs share one copy."""
    with open(path, "rb") as fh:
        return pickle.load(fh)
