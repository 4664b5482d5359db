"""newsclean's Python API: clean one text or page, many of them in lock step, or a whole folder as
`newsclean run` does.

`clean_text` and `clean_html` (and `clean_texts`, `clean_htmls` for many documents at once, as a
run's batches are cleaned) give what a run writes for the same input: the document is read by
the same reader as a file of that format, cleaned by the same function as a run's batches
(newsclean.cleaners.pipeline.clean_document: the decider, then metadata resolution), and turned
into fields by the same code as a row of articles.parquet and removed.parquet
(newsclean.cleaners.batch.article_row, removed_rows). One difference: a run also gives the line
model each document's corpus context (how often its lines repeat across the corpus); a single
document has none, so a line that repeats on many pages of a corpus can be decided differently.
"""
from __future__ import annotations

import datetime as dt
import io
import math
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Iterable, Mapping

from newsclean.cleaners.batch import article_row, clean_in_lock_step, failure_error, languages_of, removed_rows
from newsclean.cleaners.pipeline import clean_document
from newsclean.cleaners.readers import html as html_reader
from newsclean.cleaners.readers import text as text_reader
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.timelimit import DocumentTimeout, time_limit
from newsclean.cleaners.types import CleanDocument, DocumentError, RawDocument

__all__ = ["Article", "RemovedSpan", "clean_text", "clean_html", "clean_texts", "clean_htmls", "clean_corpus"]

TEXT_SOURCE = "<text>"  # the `source` of a document given as a string, where a run names its file
HTML_SOURCE = "<html>"
MISSING = ("no text: the document is a missing value (None, or NaN as a table's empty field reads); "
           "give its text, or leave it out")


@dataclass(frozen=True)
class RemovedSpan:
    """One removed piece of a line: a row of removed.parquet."""

    line: int  # 1-based line of the text the cleaner read (for a page: of the body trafilatura extracted)
    start: int  # offsets into that line, normalised (newsclean.cleaners.lines)
    end: int
    kind: str  # navigation, call_to_action, related_headline, tag_list, caption, ... (newsclean.cleaners.types.KINDS)
    rule: str  # the rule that removed it, or "model"
    text: str
    whole_line: bool


@dataclass(frozen=True)
class Article:
    """A cleaned document: the fields of its articles.parquet row, its removals and notes."""

    text: str  # the kept paragraphs, joined by one blank line
    title: str | None
    title_source: str | None  # where the title came from: record, html or text
    published: dt.date | None
    published_source: str | None  # where the date came from: record, html, url or dateline
    outlet: str | None
    outlet_domain: str | None
    outlet_source: str | None  # where the outlet came from: record, html, url or text
    author: str | None
    author_source: str | None  # where the author came from: record, html or text
    url: str | None
    doc_id: str  # the first 16 hex digits of the SHA-256 of the input's bytes (UTF-8 for a string)
    n_words: int
    language: str | None  # ISO 639-1, where the language model names one
    language_score: float | None
    pipeline_version: str
    removed: tuple[RemovedSpan, ...]  # in line order
    notes: tuple[str, ...] = ()  # how the body was found, when not the usual way (an HTML page's fallbacks)


_ARTICLE_COLUMNS = tuple(f.name for f in fields(Article) if f.name not in ("removed", "notes"))
_SPAN_COLUMNS = tuple(f.name for f in fields(RemovedSpan))


def clean_text(text: str | bytes, *, url: str | None = None, settings: Settings | Mapping[str, Any] | None = None) -> Article:
    """Clean a scraped text as `newsclean run` cleans a .txt file holding it (a string in UTF-8,
    bytes as they are, their encoding detected): the same reader (front matter is metadata; markup
    goes the HTML path), cleaner and metadata resolution.

    `url`: the page's address, metadata as a record's url field is (the outlet and a date in its
    path). `settings`: a Settings, a dict of its fields, or None for the defaults.
    Raises DocumentError (`.stage`, `.reason`) when the document has no article: only debris, an
    access notice, a binary file, a missing value (None, NaN), or a document over `doc_timeout_s`;
    TypeError for a value that is not a document (a number, a list)."""
    cfg = _settings(settings)
    return _clean(_text_document(_document_input(text, "clean_text"), cfg), url, cfg)


def clean_html(html: bytes | str, *, url: str | None = None, settings: Settings | Mapping[str, Any] | None = None) -> Article:
    """Clean a saved page as `newsclean run` cleans an .html file: trafilatura extracts the body
    and the page's metadata, the line cleaner removes the debris left in the body. Bytes are
    decoded as the page declares (or as detected); a string is taken as decoded.

    `url` helps trafilatura and gives metadata (outlet, date in the path); `settings` as in
    clean_text. Raises DocumentError when the page holds no article (or is a missing value), TypeError
    for a value that is not a page."""
    cfg = _settings(settings)
    return _clean(_html_document(_document_input(html, "clean_html"), cfg), url, cfg)


def clean_texts(texts: Iterable[str | bytes], *, urls: Iterable[str | None] | None = None,
                settings: Settings | Mapping[str, Any] | None = None) -> list[Article | DocumentError]:
    """Clean many texts, each as clean_text cleans it, in lock step as a run's batches are cleaned:
    `lockstep_docs` documents at a time, each decision pass of them all scored by the line model in
    one call (cheaper per document than clean_text one by one). `urls`: one per text (or None).

    Returns, in order, each text's Article, or the DocumentError clean_text would raise for it, as
    a value: one document's failure never stops the others (an unexpected error inside the cleaner
    is a DocumentError of stage "clean", as a run quarantines it). A value that is not a document
    raises TypeError before any is cleaned."""
    cfg = _settings(settings)
    return _clean_many([_read(_text_document, text, cfg) for text in _document_inputs(texts, "clean_texts")], urls, cfg)


def clean_htmls(pages: Iterable[bytes | str], *, urls: Iterable[str | None] | None = None,
                settings: Settings | Mapping[str, Any] | None = None) -> list[Article | DocumentError]:
    """Clean many saved pages, each as clean_html cleans it, in lock step: as clean_texts."""
    cfg = _settings(settings)
    return _clean_many([_read(_html_document, page, cfg) for page in _document_inputs(pages, "clean_htmls")], urls, cfg)


def clean_corpus(raw: str | Path, out: str | Path, *, full: bool = False, task_runner: str = "process",
                 dask_address: str | None = None, **settings: Any) -> dict:
    """Clean the folder `raw` (or a URL of objects, s3://bucket/prefix) into `out` through the `clean-corpus` Prefect flow, as
    `newsclean run RAW OUT` does (incremental unless `full`); `settings` are Settings fields
    (keep_curly_quotes=True, batch_size=200, ...). Returns the run's summary (what run.json holds).
    Raises ValueError for a bad folder or setting, newsclean.cleaners.runlock.LockedError when
    another run is writing `out`."""
    from newsclean.flows.env import configure
    from newsclean.flows.run import check_dirs

    cfg = _settings(settings)
    check_dirs(raw, out)
    configure()  # before Prefect is imported
    from newsclean.flows.run import run_clean_corpus

    return run_clean_corpus(raw, out, cfg, task_runner=task_runner, dask_address=dask_address, full=full)


def _settings(settings: Settings | Mapping[str, Any] | None) -> Settings:
    if settings is None:
        return Settings()
    if isinstance(settings, Settings):
        return settings
    return Settings.load(None, **settings)  # unknown fields are a ValueError


def _document_input(value: Any, caller: str) -> str | bytes:
    """`value` as a document: a string, or bytes (a bytearray or memoryview copied). A missing
    value raises DocumentError (MISSING), anything else TypeError."""
    if isinstance(value, (str, bytes)):
        return value
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        raise DocumentError("read", MISSING)
    raise TypeError(f"{caller} takes a document as str or bytes, not {type(value).__name__}")


def _document_inputs(values: Iterable[Any], caller: str) -> list[str | bytes | DocumentError]:
    """_document_input of each value, a missing one's DocumentError as a value (TypeError raised)."""
    out: list[str | bytes | DocumentError] = []
    for value in values:
        try:
            out.append(_document_input(value, caller))
        except DocumentError as err:
            out.append(err)
    return out


def _text_document(text: str | bytes, settings: Settings) -> RawDocument:
    """A string as the text reader reads a .txt file holding it in UTF-8; bytes as a .txt file
    holding them."""
    data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    (raw,) = text_reader.read(Path(TEXT_SOURCE), TEXT_SOURCE, io.BytesIO(data), settings)
    return raw


def _html_document(html: bytes | str, settings: Settings) -> RawDocument:
    """Bytes as the HTML reader reads an .html file; a string as a page already decoded."""
    if isinstance(html, str):
        return RawDocument(source=HTML_SOURCE, data=html.encode("utf-8", "surrogatepass"), format="html", text=html)
    (raw,) = html_reader.read(Path(HTML_SOURCE), HTML_SOURCE, io.BytesIO(bytes(html)), settings)
    return raw


def _read(reader, data, settings: Settings) -> RawDocument | DocumentError:
    """The document `reader` reads from `data`, or the DocumentError a run would quarantine it with
    (`data` may be one already)."""
    if isinstance(data, DocumentError):
        return data
    try:
        return reader(data, settings)
    except Exception as exc:  # noqa: BLE001 (a run quarantines a reading error, never stops on it)
        return failure_error(exc, settings)


def _with_url(raw: RawDocument, url: str | None) -> RawDocument:
    if url is None:
        return raw
    return RawDocument(source=raw.source, data=raw.data, format=raw.format, text=raw.text, meta={**raw.meta, "url": url})


def _clean(raw: RawDocument, url: str | None, settings: Settings) -> Article:
    raw = _with_url(raw, url)
    try:
        with time_limit(settings.doc_timeout_s) as limit:
            doc = clean_document(raw, settings)
        if limit.fired:  # something swallowed the timeout: the result cannot be trusted
            raise DocumentTimeout()
    except DocumentTimeout as timeout:
        raise failure_error(timeout, settings) from None
    return _article(doc, settings)


def _clean_many(read: list[RawDocument | DocumentError], urls: Iterable[str | None] | None,
                settings: Settings) -> list[Article | DocumentError]:
    """The read documents cleaned in lock-step groups of settings.lockstep_docs (a reading error
    stays as it is), in order."""
    urls = [None] * len(read) if urls is None else list(urls)
    if len(urls) != len(read):
        raise ValueError(f"{len(urls)} urls for {len(read)} documents: give one url (or None) per document")
    out: list[Article | DocumentError] = [r for r in read]  # the reading errors stay; the documents are replaced
    todo = [(i, _with_url(raw, url)) for i, (raw, url) in enumerate(zip(read, urls)) if isinstance(raw, RawDocument)]
    size = max(1, settings.lockstep_docs)
    for start in range(0, len(todo), size):
        group = todo[start:start + size]
        outcomes = clean_in_lock_step([raw for _, raw in group], settings)
        languages = languages_of(outcomes)
        for (i, _), outcome in zip(group, outcomes):
            out[i] = _article(outcome, settings, languages[id(outcome)]) if isinstance(outcome, CleanDocument) else failure_error(outcome, settings)
    return out


def _article(doc: CleanDocument, settings: Settings, language: tuple[str | None, float | None] | None = None) -> Article:
    row = article_row(doc, settings, dt.datetime.now(dt.timezone.utc), language)
    return Article(**{name: row[name] for name in _ARTICLE_COLUMNS},
                   removed=tuple(RemovedSpan(**{name: r[name] for name in _SPAN_COLUMNS}) for r in removed_rows(doc)),
                   notes=tuple(doc.notes))
