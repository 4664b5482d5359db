"""Clean a batch of sources into table rows. Plain Python: Prefect tasks call this, so do tests.

Every document ends in exactly one place: an articles row or a quarantine row. Nothing a document
does can stop the batch: errors become quarantine rows, and a document (or a reader's next record)
that runs longer than Settings.doc_timeout_s is stopped (newsclean.cleaners.timelimit) and quarantined with
stage "timeout". A second input identical to one already seen, in its bytes and in the address or
metadata that make its doc_id (newsclean.cleaners.types.RawDocument), is quarantined as a copy, so
doc_id stays unique; the same text under another URL or outlet is an article of its own, which the
run's near-duplicate clusters (newsclean.cleaners.syndication) put with the other.
"""
from __future__ import annotations

import datetime as dt
import time
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

from newsclean.cleaners.corpus import CorpusStats
from newsclean.cleaners.corpus_context import document_context
from newsclean.cleaners.model import using
from newsclean.cleaners.engine.scoring import run_batch
from newsclean.cleaners.language import identify, identify_many
from newsclean.cleaners.pipeline import clean_document_steps
from newsclean.cleaners.readers import read_source
from newsclean.cleaners.readers.ranges import Part
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.timelimit import DocumentTimeout, time_limit
from newsclean.cleaners.types import CleanDocument, DocumentError, RawDocument


@dataclass
class BatchResult:
    articles: list[dict] = field(default_factory=list)
    removed: list[dict] = field(default_factory=list)
    quarantine: list[dict] = field(default_factory=list)
    # each article's non-empty normalised lines, which removed's (line, start, end) index
    # (Settings.audit_lines; empty when it is off)
    lines: list[dict] = field(default_factory=list)
    docs_read: int = 0
    # doc_id -> raw line numbers kept in its text (for the positional removed-line check; not written)
    kept_lines: dict[str, tuple[int, ...]] = field(default_factory=dict)

    def extend(self, other: "BatchResult") -> None:
        self.articles += other.articles
        self.removed += other.removed
        self.quarantine += other.quarantine
        self.lines += other.lines
        self.docs_read += other.docs_read
        self.kept_lines.update(other.kept_lines)


def article_row(doc: CleanDocument, settings: Settings, cleaned_at: dt.datetime,
                language: tuple[str | None, float | None] | None = None) -> dict:
    """The document's articles row. It is its own near-duplicate cluster until the run's clustering
    step (newsclean.cleaners.syndication) has seen the whole corpus. `language`: identify(doc.text),
    when the caller scored it with other texts (identify_many)."""
    language, language_score = language if language is not None else identify(doc.text)
    return {
        "doc_id": doc.doc_id,
        "source": doc.source,
        "url": doc.url,
        "title": doc.title,
        "title_source": doc.title_source,
        "text": doc.text,
        "author": doc.author,
        "author_source": doc.author_source,
        "outlet": doc.outlet.value if doc.outlet else None,
        "outlet_domain": doc.outlet_domain,
        "outlet_source": doc.outlet.source if doc.outlet else None,
        "published": doc.published.value if doc.published else None,
        "published_source": doc.published.source if doc.published else None,
        "n_words": doc.n_words,
        "n_removed": len(doc.removed),
        "language": language,
        "language_score": language_score,
        "dup_cluster": doc.doc_id,
        "dup_similarity": 1.0,
        "pipeline_version": settings.pipeline_version,
        "cleaned_at": cleaned_at,
    }


def removed_rows(doc: CleanDocument) -> list[dict]:
    return [{"doc_id": doc.doc_id, "line": s.line, "start": s.start, "end": s.end, "text": s.text, "kind": s.kind, "rule": s.by, "whole_line": s.whole_line}
            for s in sorted(doc.removed, key=lambda s: (s.line, s.start))]


def line_rows(doc: CleanDocument) -> list[dict]:
    """The lines.parquet rows of a document: its non-empty normalised lines, numbered from 1."""
    return [{"doc_id": doc.doc_id, "line": n, "text": text} for n, text in enumerate(doc.lines, 1) if text]


def duplicate_reason(source: str, first: str, doc_id: str) -> str:
    """Why a document identical to one already cleaned is left out: a second file is removed by
    its owner; a record in an archive or a record file (the same page fetched twice at one address,
    a record written twice) only needs dropping if it should not be there."""
    if "#" in source:
        return (f"same content and metadata (address, fields) as {first} (doc_id {doc_id}), which is cleaned once; this copy is left out so doc_id "
                f"stays unique (drop the record from its file if it should not be there)")
    return f"same bytes as {first} (doc_id {doc_id}), which is cleaned once; remove the duplicate file"


def quarantine_row(source: str, err: DocumentError, doc_id: str | None = None) -> dict:
    return {"source": source, "doc_id": doc_id, "stage": err.stage, "error": err.reason}


def timeout_reason(settings: Settings, what: str = "cleaning") -> str:
    return (f"{what} took longer than the doc_timeout_s limit of {settings.doc_timeout_s:g} s and was stopped "
            "(typically a pathological page: deeply nested or huge markup); check the file, or raise doc_timeout_s to retry it")


def _record(doc: CleanDocument, settings: Settings, cleaned_at: dt.datetime, out: BatchResult,
            language: tuple[str | None, float | None]) -> None:
    out.articles.append(article_row(doc, settings, cleaned_at, language))
    out.kept_lines[doc.doc_id] = doc.kept_lines
    out.removed.extend(removed_rows(doc))
    if settings.audit_lines:
        out.lines.extend(line_rows(doc))


def failure_error(outcome: BaseException, settings: Settings) -> DocumentError:
    """The DocumentError a document whose cleaning ended in `outcome` is quarantined with: a
    timeout's, its own, or, for a bug, one that says so (a bug must not sink the run)."""
    if isinstance(outcome, DocumentTimeout):
        return DocumentError("timeout", timeout_reason(settings))
    if isinstance(outcome, DocumentError):
        return outcome
    return DocumentError("clean", f"internal error {type(outcome).__name__}: {outcome}; please report it with this file")


def languages_of(outcomes: Iterable[CleanDocument | BaseException]) -> dict[int, tuple[str | None, float | None]]:
    """identify of each cleaned document's text, by id of the document: the group's texts scored
    together (identify_many). The other outcomes are left out."""
    cleaned = [doc for doc in outcomes if isinstance(doc, CleanDocument)]
    return dict(zip(map(id, cleaned), identify_many([doc.text for doc in cleaned])))


def clean_in_lock_step(raws: list[RawDocument], settings: Settings,
                       contexts: list | None = None) -> list[CleanDocument | BaseException]:
    """Clean documents in lock step (newsclean.cleaners.engine.scoring.run_batch: every decision
    pass of all of them meets the line model in one call): each one's CleanDocument, or the
    exception its cleaning ended in, in order. Each document keeps its own time limit (its steps'
    time added up: a DocumentTimeout past Settings.doc_timeout_s) and its own corpus context
    (`contexts`, one per document or None: newsclean.cleaners.corpus_context.document_context)."""
    spent = [0.0] * len(raws)

    @contextmanager
    def around(i: int) -> Iterator[None]:
        budget = settings.doc_timeout_s
        remaining = budget - spent[i] if budget and budget > 0 else None
        if remaining is not None and remaining <= 0:
            raise DocumentTimeout()
        started = time.monotonic()
        context = contexts[i] if contexts is not None else None
        try:
            with time_limit(remaining) as limit, (using(context=context) if context is not None else nullcontext()):
                yield
            if limit.fired:  # something swallowed the timeout: the result cannot be trusted
                raise DocumentTimeout()
        finally:
            spent[i] += time.monotonic() - started

    return run_batch([clean_document_steps(raw, settings) for raw in raws], around)


def _clean_group(group: list, settings: Settings, cleaned_at: dt.datetime, out: BatchResult,
                 seen: dict[str, str], corpus: "CorpusStats | None" = None) -> None:
    """Clean a group of read items in lock step (clean_in_lock_step) and record each in reading
    order. An item is (source, RawDocument or DocumentError)."""
    raws = [item for _, item in group if isinstance(item, RawDocument)]
    fresh: list[RawDocument] = []
    duplicates: dict[int, dict] = {}
    for raw in raws:
        if raw.doc_id in seen:
            duplicates[id(raw)] = quarantine_row(raw.source, DocumentError(
                "validate", duplicate_reason(raw.source, seen[raw.doc_id], raw.doc_id)), raw.doc_id)
        else:
            seen[raw.doc_id] = raw.source
            fresh.append(raw)
    # The line model reads each document's corpus counts (overall and within its site).
    contexts = [document_context(corpus, raw) for raw in fresh] if corpus is not None else None
    outcomes = dict(zip(map(id, fresh), clean_in_lock_step(fresh, settings, contexts)))
    languages = languages_of(outcomes.values())
    for source, item in group:
        if isinstance(item, DocumentError):
            out.quarantine.append(quarantine_row(getattr(item, "source", None) or source, item, getattr(item, "doc_id", None)))
        elif id(item) in duplicates:
            out.quarantine.append(duplicates[id(item)])
        elif isinstance(outcome := outcomes[id(item)], CleanDocument):
            _record(outcome, settings, cleaned_at, out, languages[id(outcome)])
        else:
            out.quarantine.append(quarantine_row(item.source, failure_error(outcome, settings), item.doc_id))


def _items(raw_dir: str | Path, source: str, settings: Settings, part: Part | None = None,
           spool: str | Path | None = None):
    """read_source's items, each fetched under the time limit (a reader can hang on a record too)."""
    items = read_source(raw_dir, source, settings, part, spool)
    try:
        while True:
            with time_limit(settings.doc_timeout_s) as limit:
                item = next(items, None)
            if limit.fired:
                raise DocumentTimeout()
            if item is None:
                return
            yield item
    finally:
        close = getattr(items, "close", None)
        if close:
            try:
                close()
            except Exception:
                pass


def clean_sources(raw_dir: str | Path, sources: Iterable[str | Part], settings: Settings,
                  cleaned_at: dt.datetime | None = None, corpus: "CorpusStats | None" = None,
                  spool: str | Path | None = None) -> BatchResult:
    """Clean every document of `sources`: files, or parts of big files (newsclean.cleaners.readers.ranges).
    `corpus` is the corpus pass's line statistics, if any. `spool`: the run's folder of fetched
    objects (newsclean.cleaners.readers.storage.open_object). The rows of all of them in one result:
    clean_sources_in_pieces gives them a piece at a time."""
    out = BatchResult()
    for piece in clean_sources_in_pieces(raw_dir, sources, settings, cleaned_at, corpus, spool):
        out.extend(piece)
    return out


class BatchStopped(Exception):
    """The caller asked a batch to stop (clean_sources_in_pieces' `stop`): the run was interrupted."""


def clean_sources_in_pieces(raw_dir: str | Path, sources: Iterable[str | Part], settings: Settings,
                           cleaned_at: dt.datetime | None = None, corpus: "CorpusStats | None" = None,
                           spool: str | Path | None = None, stop: Callable[[], bool] | None = None) -> Iterator[BatchResult]:
    """clean_sources a piece at a time: a BatchResult for about every Settings.piece_docs documents
    read (at the end of a lock-step group), then one for the rest. A caller that writes each piece
    (newsclean.cleaners.store.write_part) and lets it go holds at most one piece's rows, so a
    worker's memory does not follow its batch's size. A document's rows are all in one piece; a
    copy of a document in an earlier piece is still quarantined as one. `stop`, when given, is
    asked before each lock-step group: true raises BatchStopped (a batch cleaning in a thread of an
    interrupted run, which cannot be killed, ends within a group's time)."""
    cleaned_at = cleaned_at or dt.datetime.now(dt.timezone.utc)
    out = BatchResult()
    seen: dict[str, str] = {}
    group: list = []  # read items waiting to be cleaned together
    size = max(1, settings.lockstep_docs)
    piece_docs = max(size, settings.piece_docs)
    pieces = 0

    def flush() -> None:
        if stop is not None and stop():
            raise BatchStopped("the run was interrupted")
        _clean_group(group, settings, cleaned_at, out, seen, corpus)
        group.clear()

    for unit in sources:
        part = unit if isinstance(unit, Part) and not unit.whole else None
        source = unit.source if isinstance(unit, Part) else unit
        # a part that fails as a whole is quarantined at its first record, saying which it held
        where, held = (source, "") if part is None else (f"{source}#{part.start}", f" (the part of the file from record {part.start}: {part})")
        n_items = 0
        try:
            for item in _items(raw_dir, source, settings, part, spool):
                n_items += 1
                out.docs_read += 1
                group.append((where, item))
                if len(group) >= size:
                    flush()
                    if out.docs_read >= piece_docs:
                        yield out
                        pieces += 1
                        out = BatchResult()
        except BatchStopped:
            raise
        except DocumentTimeout:
            out.docs_read += 1
            what = "reading the file" if not n_items else f"reading the file after {n_items} records"
            flush()
            out.quarantine.append(quarantine_row(where, DocumentError("timeout", timeout_reason(settings, what) + held)))
        except DocumentError as err:
            out.docs_read += 1
            flush()
            out.quarantine.append(quarantine_row(where, DocumentError(err.stage, err.reason + held)))
        except Exception as exc:
            out.docs_read += 1
            flush()
            out.quarantine.append(quarantine_row(where, DocumentError("read", f"internal error {type(exc).__name__}: {exc}; please report it with this file{held}")))
    flush()
    if out.docs_read or not pieces:  # no empty piece after a full one; at least one piece
        yield out
