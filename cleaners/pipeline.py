"""Clean one document: decode, normalise, tag, decide, infer metadata. No Prefect here.

bytes -> text (cleaners.encoding) -> normalised lines (cleaners.lines) -> rule proposals and model
scores -> decision (cleaners.decide) -> CleanDocument with metadata and provenance.
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Iterator

from cleaners.decide import NO_BODY
from cleaners.engine.scoring import RulesRequest, Steps, run_batch, run_steps
from cleaners.fixpoint import decide_stable_steps
from cleaners.encoding import decode
from cleaners.extract_html import CUE_RULES, EDGE_RULES, ENGLISH_STOP_SHARE, HtmlExtraction, extract_html
from cleaners.lines import normalise_line, normalise_lines
from cleaners.metadata.text_evidence import read_text_metadata
from cleaners.metadata.resolve import Evidence, record_evidence, record_url, resolve
from cleaners.page_kind import data_reason, interstitial_reason, notice_reason
from cleaners.rules import RULES
from cleaners.settings import Settings
from cleaners.shape import fold, has_word_char, repeat_key, stop_share, words
from cleaners.types import CleanDocument, DocumentError, Found, RawDocument, Span


def document_text(raw: RawDocument) -> str:
    if raw.text is not None:
        return raw.text
    return decode(raw.data)


def clean_text(text: str, settings: Settings, **kwargs) -> CleanDocument:
    """Clean already-decoded text (clean_text_steps, the line model scored on the spot). Raises
    DocumentError when no article body is left."""
    return run_steps(clean_text_steps(text, settings, **kwargs))


def clean_texts(texts: list[str], settings: Settings, metas: list[dict | None] | None = None) -> list[CleanDocument | BaseException]:
    """clean_text for a batch of texts, the line model scoring each decision pass of all of them in
    one call (cleaners.engine.scoring.run_batch): per text its CleanDocument or the exception
    (a DocumentError) that stopped it. The same output as clean_text on each."""
    metas = metas or [None] * len(texts)
    return run_batch([clean_text_steps(t, settings, meta=m) for t, m in zip(texts, metas)])


def clean_text_steps(text: str, settings: Settings, *, source: str = "", doc_id: str = "",
                     meta: dict | None = None, lines: list[str] | None = None, rules: tuple = RULES) -> Steps[CleanDocument]:
    """Clean already-decoded text, as steps (cleaners.engine.scoring). Raises DocumentError when no
    article body is left. `lines`: normalise_lines(text) when the caller has them already; `rules`:
    a subset of cleaners.rules.RULES."""
    if lines is None:
        lines = normalise_lines(text, settings.keep_curly_quotes)
    # the rules' first look at the lines, taken for a whole batch at once when one is cleaned
    yield RulesRequest(rules, [line for line in lines if line])
    # decide until nothing more goes: idempotent (cleaners.fixpoint)
    decision = yield from decide_stable_steps(lines, settings, rules=rules, url=record_url(meta or {}))
    spans = decision.spans
    found = read_text_metadata(spans, [(ln.number, t) for ln, t in decision.kept],
                               decision.title.number if decision.title else None)
    outlet, outlet_domain = (Found(found.outlet[0], "text"), found.outlet[1]) if found.outlet else (None, None)

    return CleanDocument(
        doc_id=doc_id,
        source=source,
        title=decision.title.text if decision.title else None,
        text="\n\n".join(t for _, t in decision.kept),
        kept_lines=tuple(ln.number for ln, _ in decision.kept),
        removed=tuple(spans),
        outlet=outlet,
        outlet_domain=outlet_domain,
        published=Found(found.published, "dateline") if found.published else None,
        author=found.author,
    )


HTML_RULES = tuple(rule for rule in RULES if rule.__name__ in CUE_RULES | EDGE_RULES)
HEADLINE_WITHIN = 3  # body lines searched for the page's headline
MIN_AS_IS_CHARS = 100  # a body with no prose line is kept as extracted when it has this many characters
FURNITURE_MAX_WORDS = 8  # a line above the headline this short is page furniture
_LIST_ITEM = re.compile(r"^(?:[-*•▪◦‣]\s|\|.*\|$|\d{1,3}[.)]\s)")


def _in_list(lines: list[str], number: int) -> bool:
    """A list item or table row that trafilatura kept, or the heading right above one."""
    if _LIST_ITEM.search(lines[number - 1]):
        return True
    following = next((line for line in lines[number:] if line), "")
    return bool(_LIST_ITEM.search(following))


ONLY_DEBRIS = "trafilatura's body holds only debris (captions, links, calls to action); check the page is an article"


def _clean_extracted(ext: HtmlExtraction, settings: Settings, source: str, doc_id: str, meta: dict) -> Steps[tuple[CleanDocument, list[str]]]:
    """The line cleaner on trafilatura's body, keeping only the removals of cue rules (CUE_RULES).

    The headline trafilatura sometimes leaves as the body's first line is dropped (it is the title).
    A page that fell back to its visible text goes through the whole text path instead."""
    if ext.fallback:
        return (yield from clean_text_steps(ext.text, settings, source=source, doc_id=doc_id, meta=meta)), []
    notes = []
    lines = normalise_lines(ext.text, settings.keep_curly_quotes)
    try:
        # only the cue rules' removals are kept, so neither the line model nor the other rules need run here
        doc = yield from clean_text_steps(ext.text, replace(settings, use_model=False), source=source, doc_id=doc_id,
                                          meta=meta, lines=lines, rules=HTML_RULES)
        english = stop_share(words(ext.text)) >= ENGLISH_STOP_SHARE
        spans = [s for s in doc.removed if s.by in CUE_RULES
                 or (s.by in EDGE_RULES and english and not _in_list(lines, s.line))]
    except DocumentError:
        if sum(len(line) - line.count(" ") for line in lines) < MIN_AS_IS_CHARS:
            raise
        doc, spans = CleanDocument(doc_id=doc_id, source=source, title=None, text="", removed=()), []
        notes.append("extract: the line cleaner found no prose line in trafilatura's body; kept it as extracted")
    whole = {s.line for s in spans if s.whole_line}
    cuts: dict[int, list[Span]] = {}
    for s in spans:
        if not s.whole_line:
            cuts.setdefault(s.line, []).append(s)
    kept: list[tuple[int, str]] = []  # (line number, text left after cue-rule cuts)
    seen: set[str] = set()
    for number, line in enumerate(lines, 1):
        if not line or number in whole:
            continue
        if number in cuts:
            pieces, pos = [], 0
            for c in sorted(cuts[number], key=lambda c: c.start):
                pieces.append(line[pos:c.start])
                pos = c.end
            pieces.append(line[pos:])
            line = " ".join(" ".join(pieces).split())
            if not has_word_char(line):
                continue
        key = repeat_key(line)
        if key is not None and number not in cuts and key in seen:
            # the same long paragraph twice: a page template's second copy (mobile/desktop, sticky box)
            spans.append(Span(number, 0, len(line), "boilerplate", line, "repeated_paragraph", whole_line=True))
            continue
        if key is not None:
            seen.add(key)
        kept.append((number, line))
    # The page's headline near the top of the body is the title, and the short lines above it are
    # page furniture (kicker, section name, reading time): drop them. Longer text above it stays.
    headlines = {fold(h) for h in ext.headlines} - {""}
    top = next((i for i, (_, line) in enumerate(kept[:HEADLINE_WITHIN]) if fold(line) in headlines), None)
    if top is not None and top + 1 < len(kept):
        furniture = {n for n, line in kept[:top] if n not in cuts and len(line.split()) <= FURNITURE_MAX_WORDS}
        spans += [Span(n, 0, len(lines[n - 1]), "navigation", lines[n - 1], "above_headline", whole_line=True) for n in sorted(furniture)]
        kept = [(n, line) for n, line in kept[:top] if n not in furniture] + kept[top + 1:]
    if not kept:
        raise DocumentError("extract", ONLY_DEBRIS)
    return replace(doc, title=None, text="\n\n".join(t for _, t in kept), kept_lines=tuple(n for n, _ in kept),
                   removed=tuple(sorted(spans, key=lambda s: (s.line, s.start)))), notes


def clean_document(raw: RawDocument, settings: Settings) -> CleanDocument:
    """Clean one RawDocument (clean_document_steps, the line model scored on the spot)."""
    return run_steps(clean_document_steps(raw, settings))


def clean_document_steps(raw: RawDocument, settings: Settings) -> Steps[CleanDocument]:
    """Clean one RawDocument and resolve its metadata (record > html > url > text), as steps
    (cleaners.engine.scoring: a batch's documents are scored together by run_batch).

    HTML: trafilatura extracts the body and metadata (cleaners.extract_html), then the same line
    cleaner removes the debris it leaves (captions, related links, calls to action, signatures).
    A page trafilatura cannot read goes through the plain-text path on its visible text, with a note.
    """
    if raw.format not in ("text", "html"):
        raise DocumentError("read", f"unsupported input format {raw.format!r}")
    meta = dict(raw.meta)
    record = record_evidence(meta)
    html, notes = None, []
    if raw.format == "html":
        ext = extract_html(raw.text if raw.text is not None else raw.data, url=record.url,
                           header=meta.get("http_content_type"))
        html = Evidence(title=ext.title, published=ext.published, outlet=ext.sitename, url=ext.url, author=ext.author)
        if ext.fallback:
            notes.append("extract: trafilatura found no article body; cleaned the page's visible text on the text path")
        elif ext.mode != "trafilatura":
            notes.append(f"extract: {ext.mode} (the default mode kept under half of the page's text)")
        with _notice_page_said(ext.text, ext.title):
            doc, more = yield from _clean_extracted(ext, settings, raw.source, raw.doc_id, meta)
        notes += more
    else:
        text = document_text(raw)
        with _notice_page_said(text):
            doc = yield from clean_text_steps(text, settings, source=raw.source, doc_id=raw.doc_id, meta=meta)

    found = resolve(
        record, html,
        text_title=doc.title,
        text_published=doc.published.value if doc.published else None,
        text_outlet=(doc.outlet.value, doc.outlet_domain) if doc.outlet else None,
        text_author=doc.author,
    )
    title = normalise_line(found.title, settings.keep_curly_quotes) if found.title else None
    reason = interstitial_reason(doc.title or title, doc.text, doc.removed)
    if reason is not None:
        raise DocumentError("decide", reason)
    return replace(doc, title=title or None, published=found.published, outlet=found.outlet,
                   outlet_domain=found.outlet_domain, url=found.url, author=found.author,
                   notes=tuple(doc.notes) + tuple(notes))


@contextmanager
def _notice_page_said(text: str, title: str | None = None) -> Iterator[None]:
    """A document left with no body because its lines were an access notice (a bot check, a
    script-less shell, an error page) or encoded data (a base64 blob saved as text) is quarantined
    with that reason (cleaners.page_kind)."""
    try:
        yield
    except DocumentError as err:
        if err.reason not in (NO_BODY, ONLY_DEBRIS):
            raise
        reason = notice_reason([title or "", *text.splitlines()]) or data_reason(text)
        if reason is None:
            raise
        raise DocumentError(err.stage, reason) from err


def input_text(raw: RawDocument) -> str:
    """The text the line cleaner saw for this document: what removed-span lines number."""
    if raw.format == "html":
        meta = dict(raw.meta)
        return extract_html(raw.text if raw.text is not None else raw.data, url=record_evidence(meta).url,
                            header=meta.get("http_content_type")).text
    return document_text(raw)


def normalised_lines_for(raw_dir: Path, source: str, settings: Settings | None = None) -> list[str]:
    """The normalised lines a document's removed-span offsets refer to (for reports and review).

    `source` is a file under raw_dir, or one record of it ("news.jsonl#L12", "crawl.warc.gz#3");
    HTML pages number the lines of the body trafilatura extracted."""
    settings = settings or Settings()
    path = Path(raw_dir) / source
    if path.suffix.lower() == ".txt" and path.is_file():
        return normalise_lines(decode(path.read_bytes()), settings.keep_curly_quotes)
    from cleaners.readers import read_source

    file = source if path.is_file() else source.rpartition("#")[0]
    for item in read_source(raw_dir, file, settings):
        if isinstance(item, RawDocument) and item.source == source:
            return normalise_lines(input_text(item), settings.keep_curly_quotes)
    raise DocumentError("read", f"{source} is not a document of {file}")
