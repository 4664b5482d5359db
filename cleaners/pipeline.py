"""Clean one document: decode, normalise, tag, decide, infer metadata. No Prefect here.

bytes -> text (newsclean.cleaners.encoding) -> normalised lines (newsclean.cleaners.lines) -> rule proposals and model
scores -> decision (newsclean.cleaners.decide) -> CleanDocument with metadata and provenance.

An HTML page: candidate bodies and metadata evidence (newsclean.cleaners.extract_html) -> the body chosen
(choose_body_steps: trafilatura's, the page's visible text, or with html_body = "page" the blocks
newsclean.cleaners.page_body keeps over the whole page) -> normalised lines -> the same decision under the extracted-body policy
(newsclean.cleaners.policy), or the text path when the body is the page's visible text.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path, PurePosixPath
from typing import Iterator

from newsclean.cleaners.decide import NO_BODY, Decision
from newsclean.cleaners.engine.scoring import KindRequest, LinesRequest, RulesRequest, Steps, run_batch, run_steps, with_page_rows
from newsclean.cleaners.fixpoint import decide_stable_steps
from newsclean.cleaners.encoding import decode
from newsclean.cleaners.extract_html import VISIBLE_MODE, HtmlExtraction, extract_html, nonspace_chars
from newsclean.cleaners.page_body import PAGE_MODE, page_body
from newsclean.cleaners.lines import normalise_line, normalise_lines
from newsclean.cleaners.rules.mojibake import without_damaged_words
from newsclean.cleaners.markdown import is_markdown
from newsclean.cleaners.metadata.text_evidence import read_text_metadata
from newsclean.cleaners.metadata.resolve import Evidence, record_evidence, record_url, resolve
from newsclean.cleaners.page_kind import (SHELL_MAX_CHARS, TEXT_MODEL, data_reason, interstitial_reason, kind_reason,
                                          notice_reason, text_kind_reason)
from newsclean.cleaners.policy import TEXT, Policy, extracted_body
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.text_page_features import text_page_features
from newsclean.cleaners.types import CleanDocument, DocumentError, Found, RawDocument


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
    one call (newsclean.cleaners.engine.scoring.run_batch): per text its CleanDocument or the exception
    (a DocumentError) that stopped it. The same output as clean_text on each."""
    metas = metas or [None] * len(texts)
    return run_batch([clean_text_steps(t, settings, meta=m) for t, m in zip(texts, metas)])


def clean_text_steps(text: str, settings: Settings, *, source: str = "", doc_id: str = "",
                     meta: dict | None = None, lines: list[str] | None = None,
                     page_kind: bool = True) -> Steps[CleanDocument]:
    """Clean already-decoded text, as steps (newsclean.cleaners.engine.scoring). Raises DocumentError when no
    article body is left, or, with settings.quarantine_non_articles (and `page_kind`: an HTML page's
    kind is judged from its markup instead), when the text is a page of another kind
    (newsclean.cleaners.page_kind.text_kind_reason) and holds no access notice.
    `lines`: normalise_lines(text) when the caller has them already."""
    judge = page_kind and settings.quarantine_non_articles
    lines, decision, features = yield from _text_decision_steps(text, lines, settings, meta, judge)
    if features is not None:
        kind = text_kind_reason(features, (yield KindRequest(TEXT_MODEL, features)))
        if kind is not None and notice_reason(lines) is None:
            raise DocumentError("decide", kind)
    return _document(decision, source, doc_id, lines)


def _text_decision_steps(text: str, lines: list[str] | None, settings: Settings, meta: dict | None,
                         features: bool) -> Steps[tuple[list[str], Decision, tuple[float, ...] | None]]:
    """(the lines decided, the text path's decision, its page features when asked) for `text`
    (`lines`: its normalised lines, when the caller has them)."""
    if lines is None:
        lines = yield from normalised_lines_steps(text, settings)
    decision, page = yield from _decided_text_steps(lines, settings, meta, features)
    if is_markdown("\n".join(_output_lines(decision))):
        # Its debris gone, the clean text reads as Markdown (the link lines it kept are now a larger
        # share of it): cleaning it again would render them. The text is read as Markdown from the
        # start, as cleaning the clean text will read it (idempotence).
        rendered = normalise_lines(text, settings.keep_curly_quotes, markdown=True)
        if rendered != lines:
            lines = rendered
            decision, page = yield from _decided_text_steps(lines, settings, meta, features)
    return lines, decision, page


def _output_lines(decision: Decision) -> list[str]:
    """The lines of the clean text a decision gives: its title, then the kept lines."""
    return ([decision.title.text] if decision.title else []) + [t for _, t in decision.kept]


def normalised_lines_steps(text: str, settings: Settings) -> Steps[list[str]]:
    """normalise_lines(text), as steps: the lines' scans made for a whole batch at once when one
    is cleaned (LinesRequest), each text finished in its own step."""
    forms = yield LinesRequest(text, settings.keep_curly_quotes)
    return normalise_lines(text, settings.keep_curly_quotes, forms)


def text_page_features_steps(text: str, settings: Settings, meta: dict | None = None) -> Steps[tuple[float, ...] | None]:
    """The text path's page-kind features of a text (newsclean.cleaners.text_page_features), as
    steps, or None when no line model scores; raises DocumentError when no article body is left."""
    return (yield from _text_decision_steps(text, None, settings, meta, True))[2]


def text_kind_steps(text: str, settings: Settings, meta: dict | None = None) -> Steps[str | None]:
    """Why a text is not an article by the text path's page-kind model (text_kind_reason, with the
    text path's features and KindRequest, so a batch's texts are scored together), or None: also
    when the text path finds no article body in it, or no line model scores."""
    try:
        features = yield from text_page_features_steps(text, settings, meta)
    except DocumentError:  # no body: nothing for the model to judge
        return None
    if features is None:
        return None
    return text_kind_reason(features, (yield KindRequest(TEXT_MODEL, features)))


def _decided_text_steps(lines: list[str], settings: Settings, meta: dict | None,
                        features: bool) -> Steps[tuple[Decision, tuple[float, ...] | None]]:
    """The text path's decision and, when `features` is asked and the line model scores, the
    page's text_page_features (its rows taken from the first pass's scoring)."""
    if not features:
        return (yield from _decision_steps(lines, settings, TEXT, meta)), None
    rows: list = []
    decision = yield from with_page_rows(_decision_steps(lines, settings, TEXT, meta), rows)
    return decision, (text_page_features(rows[0], decision, lines) if rows else None)


def _decision_steps(lines: list[str], settings: Settings, policy: Policy, meta: dict | None) -> Steps[Decision]:
    """The decider on normalised lines under `policy` (newsclean.cleaners.policy), as steps."""
    # the rules' first look at the lines, taken for a whole batch at once when one is cleaned
    yield RulesRequest(policy.rules, [line for line in lines if line])
    # decide until nothing more goes: idempotent (newsclean.cleaners.fixpoint)
    return (yield from decide_stable_steps(lines, settings, policy=policy, url=record_url(meta or {})))


def _document(decision: Decision, source: str, doc_id: str, lines: list[str]) -> CleanDocument:
    """The CleanDocument of a decision on `lines`, with the metadata the text states about itself,
    read from every removal the decider found (on a given body, those the policy dropped too)."""
    found_in = decision.searched if decision.searched is not None else decision
    found = read_text_metadata(found_in.spans, [(ln.number, t) for ln, t in found_in.kept],
                               found_in.title.number if found_in.title else None)
    outlet, outlet_domain = (Found(found.outlet[0], "text"), found.outlet[1]) if found.outlet else (None, None)

    return CleanDocument(
        doc_id=doc_id,
        source=source,
        title=decision.title.text if decision.title else None,
        title_source="text" if decision.title else None,
        text="\n\n".join(t for _, t in decision.kept),
        kept_lines=tuple(ln.number for ln, _ in decision.kept),
        lines=tuple(lines),
        removed=tuple(decision.spans),
        outlet=outlet,
        outlet_domain=outlet_domain,
        published=Found(found.published, "dateline") if found.published else None,
        author=found.author,
        author_source="text" if found.author else None,
    )


VISIBLE_GAIN = 2.0  # the visible text wins when the text path finds this many times trafilatura's body in it
ONLY_DEBRIS = "trafilatura's body holds only debris (captions, links, calls to action); check the page is an article"
KEPT_AS_EXTRACTED = "extract: the line cleaner found no prose line in trafilatura's body; kept it as extracted"
NO_TEXT = ("the page shows no text: its <body> holds only markup (scripts, forms, empty elements), as a page drawn by "
           "JavaScript or saved before its content loaded does; re-save it as a browser shows it, once loaded")


def choose_body_steps(ext: HtmlExtraction) -> Steps[HtmlExtraction]:
    """The page's body, one of extract_html's candidates, as steps: the blocks the page-body model
    keeps where extract_html gave the page's blocks (mode PAGE_MODE, newsclean.cleaners.page_body),
    else (or where it keeps none) trafilatura's; or the page's visible text (mode VISIBLE_MODE)
    where that wins over either (_visible_text_wins_steps). Raises DocumentError when the page is a shell (a
    frameset, a redirect) and the chosen body that short."""
    if ext.blocks is not None and (body := page_body(ext.blocks)):
        ext = replace(ext, text=body, mode=PAGE_MODE)
    if ext.visible is not None and (yield from _visible_text_wins_steps(ext)):
        ext = replace(ext, text=ext.visible, mode=VISIBLE_MODE)
    if ext.shell is not None and nonspace_chars(ext.text) < SHELL_MAX_CHARS:
        raise DocumentError("extract", ext.shell)
    return ext


def _visible_text_wins_steps(ext: HtmlExtraction) -> Steps[bool]:
    """Whether the page's visible text is its body rather than the chosen one (trafilatura's, or
    the page-body model's blocks): there is none, or the text path finds VISIBLE_GAIN times more
    article (non-space characters) in the visible text than the chosen body holds. The text path runs with default settings without
    the line model: deterministic and cheap."""
    if not ext.text:
        return True
    try:
        article = yield from clean_text_steps(ext.visible, Settings(use_model=False))
    except DocumentError:  # no article in the visible text either
        return False
    return nonspace_chars(article.text) > VISIBLE_GAIN * nonspace_chars(ext.text)


def read_html(data: bytes | str, *, url: str | None = None, header: str | None = None) -> HtmlExtraction:
    """extract_html with its body chosen (choose_body_steps, the cleaner run on the spot)."""
    return run_steps(choose_body_steps(extract_html(data, url=url, header=header)))


def _clean_extracted(ext: HtmlExtraction, settings: Settings, source: str, doc_id: str, meta: dict) -> Steps[tuple[CleanDocument, list[str]]]:
    """The line cleaner on the page's chosen body: trafilatura's is decided under the extracted-body
    policy (newsclean.cleaners.policy.extracted_body: cue rules' removals, edge rules' on an English body
    outside lists, the page's headline and the furniture above it dropped); a page that fell back
    to its visible text goes through the whole text path instead."""
    if ext.fallback:
        return (yield from clean_text_steps(ext.text, settings, source=source, doc_id=doc_id, meta=meta,
                                            page_kind=False)), []
    lines = yield from normalised_lines_steps(ext.text, settings)
    decision = yield from _decision_steps(lines, settings, extracted_body(ext.text, ext.headlines), meta)
    if not decision.kept:
        raise DocumentError("extract", ONLY_DEBRIS)
    return _document(decision, source, doc_id, lines), [KEPT_AS_EXTRACTED] if decision.kept_as_given else []


def clean_document(raw: RawDocument, settings: Settings) -> CleanDocument:
    """Clean one RawDocument (clean_document_steps, the line model scored on the spot)."""
    return run_steps(clean_document_steps(raw, settings))


def clean_document_steps(raw: RawDocument, settings: Settings) -> Steps[CleanDocument]:
    """Clean one RawDocument and resolve its metadata (record > html > url > text), as steps
    (newsclean.cleaners.engine.scoring: a batch's documents are scored together by run_batch).

    HTML: trafilatura extracts the candidate bodies and metadata (newsclean.cleaners.extract_html), the
    cleaner chooses the body (choose_body_steps), then the same decider removes the debris
    trafilatura's body holds (captions, related links, calls to action, signatures) under the
    extracted-body policy (newsclean.cleaners.policy). A page trafilatura cannot read goes through the
    plain-text path on its visible text, with a note.
    """
    if raw.format not in ("text", "html"):
        raise DocumentError("read", f"unsupported input format {raw.format!r}")
    meta = dict(raw.meta)
    record = record_evidence(meta)
    html, notes, kind = None, [], None
    if raw.format == "html":
        ext = extract_html(raw.text if raw.text is not None else raw.data, url=record.url,
                           header=meta.get("http_content_type"), page_kind=settings.quarantine_non_articles,
                           blocks=settings.html_body == "page")
        ext = yield from choose_body_steps(ext)
        html = Evidence(title=ext.title, published=ext.published, outlet=ext.sitename, url=ext.url, author=ext.author)
        if ext.fallback:
            notes.append("extract: trafilatura found no article body; cleaned the page's visible text on the text path")
        elif ext.mode not in ("trafilatura", PAGE_MODE):
            notes.append(f"extract: {ext.mode} (the default mode kept under half of the page's text)")
        # a page that is not an article (newsclean.cleaners.page_kind.kind_reason; a fragment, which
        # the HTML model does not judge, by its visible text on the text path's model) is
        # quarantined with its kind before it is cleaned; one with an access notice is cleaned
        # first, so that a notice page (a bot check, an error page) keeps its own reason
        kind = kind_reason(ext.page) if settings.quarantine_non_articles else None
        if kind is None and settings.quarantine_non_articles and ext.fragment_text is not None:
            kind = yield from text_kind_steps(ext.fragment_text, settings, meta)
        if kind is not None and notice_reason([ext.title or "", *ext.text.splitlines()]) is None:
            raise DocumentError("decide", kind)
        if not ext.text.strip():  # neither trafilatura nor the visible text found any
            raise DocumentError("extract", NO_TEXT)
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
    title = (without_damaged_words(normalise_line(found.title.value, settings.keep_curly_quotes)) or None) if found.title else None
    reason = interstitial_reason(doc.title or title, doc.text, doc.removed) or kind
    if reason is not None:
        raise DocumentError("decide", reason)
    return replace(doc, title=title, title_source=found.title.source if title else None,
                   published=found.published, outlet=found.outlet, outlet_domain=found.outlet_domain, url=found.url,
                   author=found.author.value if found.author else None,
                   author_source=found.author.source if found.author else None,
                   notes=tuple(doc.notes) + tuple(notes))


@contextmanager
def _notice_page_said(text: str, title: str | None = None) -> Iterator[None]:
    """A document left with no body because its lines were an access notice (a bot check, a
    script-less shell, an error page) or encoded data (a base64 blob saved as text) is quarantined
    with that reason (newsclean.cleaners.page_kind)."""
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
        return read_html(raw.text if raw.text is not None else raw.data, url=record_evidence(meta).url,
                         header=meta.get("http_content_type")).text
    return document_text(raw)


def normalised_lines_for(raw_dir: str | Path, source: str, settings: Settings | None = None) -> list[str]:
    """The normalised lines a document's removed-span offsets refer to (for reports and review).

    `source` is a file under raw_dir, or one record of it ("news.jsonl#L12", "crawl.warc.gz#3");
    HTML pages number the lines of the body trafilatura extracted."""
    from newsclean.cleaners.readers import read_source, storage

    settings = settings or Settings()
    is_file = storage.is_file(raw_dir, source)
    if PurePosixPath(source).suffix.lower() == ".txt" and is_file:
        with storage.open_bytes(raw_dir, source) as stream:
            return normalise_lines(decode(stream.read()), settings.keep_curly_quotes)

    file = source if is_file else source.rpartition("#")[0]
    for item in read_source(raw_dir, file, settings):
        if isinstance(item, RawDocument) and item.source == source:
            return normalise_lines(input_text(item), settings.keep_curly_quotes)
    raise DocumentError("read", f"{source} is not a document of {file}")
