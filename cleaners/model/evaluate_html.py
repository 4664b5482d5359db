"""`newsclean eval --html`: the HTML path on the development pages' HTML (shared/devset/html/).

    newsclean eval --html [--html-body page] [--cv 5] [--no-url] [--no-snippet-eval] [--pred PRED.jsonl]

Each page's saved HTML is cleaned as a run cleans an `.html` file (newsclean.cleaners.pipeline.
clean_document, with the page's URL as a crawl record gives it unless --no-url), and scored as
`newsclean eval` scores the text path: P/R/F1, pages under 0.5, leak, title exact, then the
publication date and author against the pages' (newsclean.cleaners.model.score). Then the snippet
pages' HTML (trafilatura's evaluation set), overall and per language.

--html-body page chooses the body over the whole page (newsclean.cleaners.page_body). With --cv K
its block model is cross-validated by site: for each fold, trained as
newsclean.cleaners.model.train_page_body trains it on the other folds' article pages (and the
non-article pages of other sites), then the fold's pages are cleaned with it. The headline and date
rankers are the packaged ones either way (their own cross-validation: `python -m
newsclean.cleaners.metadata.train_title_ranker` and `train_date_ranker`); the snippet pages are never
in the block model's training, so they are scored with the packaged model.
"""
from __future__ import annotations

import gzip
import json
import time
from pathlib import Path
from typing import Callable

from newsclean.cleaners.model.score import metadata_score, score, snippet_score, snippet_score_by_language
from newsclean.cleaners.settings import Settings


def clean_html_page(page: dict, devset: Path, settings: Settings, use_url: bool = True) -> dict:
    """One page's HTML cleaned: {"text", "title", "published", "author"} ("" and None where it is
    quarantined)."""
    from newsclean.cleaners.pipeline import clean_document
    from newsclean.cleaners.types import DocumentError, RawDocument

    url = page.get("url") if use_url and str(page.get("url") or "").startswith("http") else None
    with gzip.open(devset / page["html"], "rb") as fh:
        raw = RawDocument(source=page["html"], data=fh.read(), format="html", meta={"url": url} if url else {})
    try:
        doc = clean_document(raw, settings)
    except DocumentError:
        return {"text": "", "title": None, "published": None, "author": None}
    return {"text": doc.text, "title": doc.title, "author": doc.author,
            "published": doc.published.value.isoformat() if doc.published else None}


def html_predictions(pages: list[dict], devset: Path, settings: Settings, use_url: bool = True) -> dict[str, dict]:
    return {p["id"]: clean_html_page(p, devset, settings, use_url) for p in pages}


def page_body_cv(pages: list[dict], devset: Path, settings: Settings, k: int, use_url: bool = True,
                 log: Callable[[str], None] = print) -> dict[str, dict]:
    """Every page cleaned with the block model of the folds its site is not in (see the module)."""
    from newsclean.cleaners.model import train_page_body as tpb
    from newsclean.cleaners.model.evaluate import fold_of

    others = tpb.load_other_pages(devset)
    log(f"reading the block tables of {len(pages)} pages and {len(others)} non-article pages")
    rows = tpb.training_rows(devset, pages, others, log)
    names = tpb.feature_columns(rows)
    _, models = tpb.fold_models(rows, pages, others, k, names)
    preds: dict[str, dict] = {}
    for f, booster in models:
        held_out = [p for p in pages if fold_of(p, k) == f]
        with tpb.using_fold(booster, names):
            fold_preds = html_predictions(held_out, devset, settings, use_url)
        s = score(held_out, fold_preds)
        log(f"fold {f} ({len(held_out)} pages): F1 {s['F1']:.4f}, leak {s['leak']:.4f}")
        preds.update(fold_preds)
    return preds


def main(args) -> int:
    """`newsclean eval --html` (args: newsclean.cleaners.model.evaluate's parsed arguments)."""
    from newsclean.cleaners.model.train_page_body import load_pages
    from newsclean.cleaners.model.evaluate import print_metadata_score, print_score, print_snippet_languages, \
        print_snippet_score

    settings = Settings(html_body=args.html_body)
    pages = load_pages(args.devset)
    spages = [] if args.no_snippet_eval else load_pages(args.devset, "trafilatura-pages.jsonl.gz")
    if args.limit:
        pages, spages = pages[: args.limit], spages[: args.limit]
    t0 = time.time()
    use_url = not args.no_url
    if args.cv and args.html_body == "page":
        preds = page_body_cv(pages, args.devset, settings, args.cv, use_url)
        how = f"html, page body cv{args.cv}"
    else:
        preds = html_predictions(pages, args.devset, settings, use_url)
        how = f"html, {args.html_body} body, in-sample models"
    with open(args.pred, "w", encoding="utf-8") as fh:
        for p in pages:
            fh.write(json.dumps({"id": p["id"], "text": preds[p["id"]]["text"], "title": preds[p["id"]]["title"]},
                                ensure_ascii=False) + "\n")
    print_score(score(pages, preds), f"{how} ({time.time() - t0:.0f}s)")
    print_metadata_score(metadata_score(pages, preds), f"{how}, metadata read from the HTML{' (no URL)' if args.no_url else ''}")
    if spages:
        spreds = html_predictions(spages, args.devset, settings, use_url=False)
        print_snippet_score(snippet_score(spages, spreds), f"{how}, snippet pages (trafilatura-pages.jsonl.gz)")
        print_snippet_languages(snippet_score_by_language(spages, spreds), f"{how}, snippet pages by language")
    return 0
