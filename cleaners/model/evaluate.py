"""Evaluate the cleaner on the development pages' `text` (shared/devset/pages.jsonl.gz).

    python -m newsclean.cleaners.model.evaluate [--pred PRED.jsonl]     # packaged model, real pipeline
    python -m newsclean.cleaners.model.evaluate --cv 2                  # 2-fold cross-validation
    python -m newsclean.cleaners.model.evaluate --mode model            # the line model alone, no rules
(bench/eval_devset.py is the same command; `newsclean eval` should call main(argv).)

Prints pages, F1<0.5, P, R, leak, F1 exactly as shared/tools/score-devset computes them on the
written PRED.jsonl, plus the title exact-match rate (lower case, punctuation and spaces folded).
Then the second, more varied source: the snippet pages of trafilatura-pages.jsonl.gz (many sites,
years and languages), scored as trafilatura's evaluation does (newsclean.cleaners.model.score.snippet_score:
share of `with` snippets kept, of `without` snippets left out), then per language of the page
(snippet_score_by_language: English against the other languages); --no-snippet-eval skips it.
Then input kind (b), mostly clean text: each page's true body with a few of its own debris lines
inserted and, in most, its headline on top, built as training builds such texts but with a seed
training never uses (newsclean.cleaners.model.score.kind_b_score: token P/R/F1 against the body, the share of
inserted debris lines kept, of body lines lost, headline exact match); --no-kind-b-eval skips it.
In --cv mode the model is trained on one half of both sources (split by site; the kind-(b) training
texts are built from that half only) and scores the other half (kind (b) included), then the halves swap; the written
PRED.jsonl holds every page's out-of-fold prediction.
In pipeline mode it also scores the metadata the line cleaner reads from the text (the URL only
helps it find the headline): publication date exact and wrong (a date given that is not the
page's), author exact and wrong (newsclean.cleaners.model.score.metadata_score). --no-url cleans the pages
without their address, as a plain text corpus comes. --rendering text_inscriptis cleans the same
pages as another scraper rendered them (inscriptis: table cells share a line, no image alt text),
while the model still trains on `text`: how the cleaner holds up on a rendering it never learned from.
--html scores the HTML path on the pages' saved HTML instead (newsclean.cleaners.model.evaluate_html;
--html-body page with --cv K cross-validates the whole-page body's block model by site).
"""
from __future__ import annotations

import argparse
import json
import time
import zlib
from pathlib import Path

from newsclean.cleaners.corpus import CorpusStats, DocContext
from newsclean.cleaners.model import LineModel
from newsclean.cleaners.model import train as tr

from newsclean.cleaners.model.score import kind_b_score, metadata_score, score, snippet_score, snippet_score_by_language  # the metric of shared/tools/score-devset

# Kind-(b) texts for evaluation are built as training builds them (train.clean_docs), with a seed
# training never uses (it uses SEED, SEED + 1, SEED + 2), so their debris draws are new.
KIND_B_SEED = tr.SEED + 7


def print_score(s: dict, label: str = "") -> None:
    if label:
        print(f"== {label}")
    print(f"pages {s['pages']}  missing {s['missing']}  F1<0.5: {s['F1<0.5']}")
    print(f"P {s['P']:.3f}  R {s['R']:.3f}  leak {s['leak']:.3f}")
    print(f"F1 {s['F1']:.3f}")
    print(f"title exact match {s['title']:.3f}")


def print_metadata_score(s: dict, label: str = "") -> None:
    if label:
        print(f"== {label}")
    print(f"date exact {s['date_exact']:.3f}  wrong {s['date_wrong']:.3f} (of {s['dated']} dated pages)  "
          f"author exact {s['author_exact']:.3f}  wrong {s['author_wrong']:.3f} (of {s['authored']} with an author)")


def print_kind_b_score(s: dict, label: str = "") -> None:
    if label:
        print(f"== {label}")
    print(f"texts {s['texts']}  P {s['P']:.3f}  R {s['R']:.3f}  F1 {s['F1']:.3f}")
    print(f"inserted debris lines kept {s['debris_kept']:.3f} (of {s['n_debris']})  "
          f"body lines lost {s['body_lost']:.3f} (of {s['n_body']})  title exact match {s['title']:.3f} (of {s['n_titles']})")


def print_snippet_score(s: dict, label: str = "") -> None:
    if label:
        print(f"== {label}")
    print(f"pages {s['pages']}  empty {s['empty']}  with kept (R) {s['R']:.3f}  P {s['P']:.3f}  "
          f"F1 {s['F1']:.3f}  accuracy {s['accuracy']:.3f}")


def print_snippet_languages(s: dict, label: str = "", top: int = 12) -> None:
    """snippet_score_by_language's shares: English against the rest, then the largest languages."""
    if label:
        print(f"== {label}")
    for name in ("english", "not_english"):
        g = s[name]
        print(f"{name:<12} pages {g['pages']:4d}  with kept (R) {g['R']:.3f}  without let through {g['let_through']:.3f}")
    gap = s["english_gap"]
    print(f"gap (English better by)  R {gap['R']:+.3f}  let through {gap['let_through']:+.3f}")
    for lang, g in list(s["by_language"].items())[:top]:
        print(f"  {lang:<5} pages {g['pages']:4d}  R {g['R']:.3f} (of {g['with']})  let through {g['let_through']:.3f} (of {g['without']})")


# --- cleaning one page
def clean_page(page: dict, model: LineModel, stats: CorpusStats | None, mode: str, settings=None) -> dict:
    key = tr.site_key(page.get("url"))
    if mode == "model":
        lines = tr.norm_lines(page["text"])
        ctx = stats.doc_context(lines, key, page.get("url")) if stats is not None else DocContext.empty(len(lines), page.get("url"))
        p, t = model.analyse(lines, ctx)
        keep = [s for i, (s, q) in enumerate(zip(lines, p)) if q < model.debris_threshold and i != t]
        return {"id": page["id"], "text": "\n\n".join(keep), "title": lines[t] if t is not None else None}
    from newsclean.cleaners.model import using
    from newsclean.cleaners.pipeline import clean_text
    from newsclean.cleaners.types import DocumentError

    url = page.get("url")
    ctx = None if stats is None else stats.context_fn(key, url)
    try:
        with using(model, ctx):
            doc = clean_text(page["text"], settings, source=page["id"], meta={"url": url})
    except DocumentError:
        return {"id": page["id"], "text": "", "title": None}
    return {"id": page["id"], "text": doc.text, "title": doc.title, "author": doc.author,
            "published": doc.published.value.isoformat() if doc.published else None}


def kind_b_cases(pages: list[dict], page_docs: list | None = None, seed: int = KIND_B_SEED) -> tuple[list, list[dict]]:
    """Kind (b) from the dev pages: each page's true body with a few of its own debris lines
    inserted and, in most, its headline on top (train.clean_docs). Returns the cases, (lines,
    labels, headline index) for each page that has a body, and those pages."""
    keep = [i for i, p in enumerate(pages) if tr.norm_lines(p["truth"])]
    docs = tr.page_docs([pages[i] for i in keep]) if page_docs is None else [page_docs[i] for i in keep]
    built = tr.clean_docs(docs, [pages[i] for i in keep], seed)
    return [(d.lines, [int(v) for v in d.y], d.title) for d in built], [pages[i] for i in keep]


def clean_kind_b(cases: list, pages: list[dict], model: LineModel, settings) -> list[dict]:
    """The real pipeline (clean_page) on kind-(b) texts: blank lines between paragraphs, no URL,
    no corpus pass."""
    return [clean_page({"id": page["id"], "text": "\n\n".join(lines)}, model, None, "pipeline", settings)
            for (lines, _, _), page in zip(cases, pages)]


def run(pages, model, stats, mode, settings, use_url: bool = True):
    """Each page cleaned; without `use_url` as a plain text corpus gives it: no address (no
    headline label or slug from the URL, no per-site corpus counts)."""
    return {p["id"]: clean_page(p if use_url else {**p, "url": None}, model, stats, mode, settings) for p in pages}


def fold_of(page: dict, k: int) -> int:
    return fold_of_group(tr._group(page.get("url"), page["id"]), k)


def fold_of_group(group: str, k: int) -> int:
    """The fold of a CV group (a site): pages and training documents of one site share it."""
    return zlib.crc32(group.encode()) % k


def corpus_of(pages: list[dict]) -> CorpusStats:
    """The corpus pass over the pages being cleaned (the pipeline's view of them)."""
    return CorpusStats.build((tr.norm_lines(p["text"]), tr.site_key(p.get("url"))) for p in pages)


def fold_model(pages: list[dict], page_docs: list, snip_docs: list, folds: list[int], k: int, cv: int,
               log=print) -> LineModel:
    """The model trained on everything outside fold k: the WCXB pages and snippet pages of the
    other folds, and kind-(b) texts built from them (what `python -m newsclean.cleaners.model.train` does
    with all of them)."""
    tr_idx = [i for i, f in enumerate(folds) if f != k]
    docs = [page_docs[i] for i in tr_idx]
    snip = [d for d in snip_docs if fold_of_group(d.group, cv) != k]
    train_docs = docs + snip + tr.snippet_clean_docs(snip, tr.SEED) + tr.clean_docs(docs, [pages[i] for i in tr_idx], tr.SEED)
    tr.attach_context(train_docs, tr.build_corpus(docs + snip), tr.SEED)
    log(f"fold {k}: train {len(docs)} pages + {len(snip)} snippet pages")
    return LineModel(tr.train_models(train_docs, log=log), {"version": "cv", "title_bag": tr.BAG})


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="newsclean eval", description=__doc__.split("\n")[0])
    ap.add_argument("--devset", type=Path, default=tr.DEVSET)
    ap.add_argument("--pred", type=Path, default=Path("PRED.jsonl"))
    ap.add_argument("--cv", type=int, default=0, help="k-fold cross-validation (2 = halves)")
    ap.add_argument("--mode", choices=("pipeline", "model"), default="pipeline")
    ap.add_argument("--model-dir", type=Path, default=None)
    ap.add_argument("--no-corpus", action="store_true", help="skip the corpus repetition pass")
    ap.add_argument("--no-url", action="store_true",
                    help="clean the dev pages without their address, as a plain text corpus comes (metadata from the text alone)")
    ap.add_argument("--no-snippet-eval", action="store_true", help="skip the snippet pages' score")
    ap.add_argument("--no-kind-b-eval", action="store_true",
                    help="skip the kind-(b) score (the pages' true bodies with some of their debris inserted)")
    ap.add_argument("--rendering", choices=("text", "text_inscriptis"), default="text",
                    help="which scraper's rendering of the dev pages to clean: `text`, or inscriptis's (table "
                         "cells share a line, no image alt text); the model always trains on `text`")
    ap.add_argument("--html", action="store_true",
                    help="score the HTML path on the pages' saved HTML instead (newsclean.cleaners.model.evaluate_html)")
    ap.add_argument("--html-body", choices=("trafilatura", "page"), default="trafilatura",
                    help="with --html: the html_body setting (page: the body chosen over the whole page; with --cv "
                         "its block model is cross-validated by site)")
    ap.add_argument("--limit", type=int, default=0)
    a = ap.parse_args(argv)
    from newsclean.cleaners.shared_data import require_devset

    require_devset(a.devset)
    if a.html:
        from newsclean.cleaners.model.evaluate_html import main as html_main

        return html_main(a)
    from newsclean.cleaners.settings import Settings
    settings = Settings()
    pages = tr.load_jsonl(a.devset / "pages.jsonl.gz")
    snippet_rows = tr.load_jsonl(a.devset / "trafilatura-pages.jsonl.gz") if a.cv or not a.no_snippet_eval else []
    spages = [] if a.no_snippet_eval else snippet_rows
    if a.limit:
        pages, spages = pages[: a.limit], spages[: a.limit]
    # the pages as the chosen scraper rendered them: what is cleaned and counted by the corpus pass
    shown = pages if a.rendering == "text" else [{**p, "text": p.get(a.rendering) or ""} for p in pages]
    t0 = time.time()
    preds: dict[str, dict] = {}
    spreds: dict[str, dict] = {}
    kb_cases: list = []
    kb_out: list[dict] = []
    if a.cv:
        page_docs = tr.page_docs(pages)
        snip_docs = tr.snippet_docs(snippet_rows, a.devset)  # every snippet page trains the folds it is not in
        folds = [fold_of(p, a.cv) for p in pages]
        sfolds = [fold_of(p, a.cv) for p in spages]
        for k in range(a.cv):
            model = fold_model(pages, page_docs, snip_docs, folds, k, a.cv)
            te = [p for p, f in zip(shown, folds) if f == k]
            ste = [p for p, f in zip(spages, sfolds) if f == k]
            fp = run(te, model, None if a.no_corpus else corpus_of(te), a.mode, settings, not a.no_url)
            print_score(score(te, fp), f"fold {k} ({len(te)} pages)")
            preds.update(fp)
            if ste:
                spreds.update(run(ste, model, None if a.no_corpus else corpus_of(ste), a.mode, settings))
            if not a.no_kind_b_eval:
                cases, kpages = kind_b_cases(te, [page_docs[i] for i, f in enumerate(folds) if f == k])
                kb_cases += cases
                kb_out += clean_kind_b(cases, kpages, model, settings)
    else:
        model = LineModel.load(a.model_dir) if a.model_dir else LineModel.default()
        preds = run(shown, model, None if a.no_corpus else corpus_of(shown), a.mode, settings, not a.no_url)
        if spages:
            spreds = run(spages, model, None if a.no_corpus else corpus_of(spages), a.mode, settings)
        if not a.no_kind_b_eval:
            kb_cases, kpages = kind_b_cases(pages)
            kb_out = clean_kind_b(kb_cases, kpages, model, settings)
    with open(a.pred, "w", encoding="utf-8") as f:
        for p in pages:
            f.write(json.dumps({"id": p["id"], "text": preds[p["id"]]["text"],
                                "title": preds[p["id"]]["title"]}, ensure_ascii=False) + "\n")
    how = f"{'cv%d' % a.cv if a.cv else 'in-sample'} {a.mode}{'' if a.rendering == 'text' else ', ' + a.rendering}"
    print_score(score(pages, preds), f"{how} ({time.time() - t0:.0f}s)")
    if a.mode == "pipeline":
        print_metadata_score(metadata_score(pages, preds),
                             f"{how}, metadata read from the text{' (no URL)' if a.no_url else ''}")
    if spreds:
        print_snippet_score(snippet_score(spages, spreds), f"{how}, snippet pages (trafilatura-pages.jsonl.gz)")
        print_snippet_languages(snippet_score_by_language(spages, spreds), f"{how}, snippet pages by language")
    if kb_cases:
        print_kind_b_score(kind_b_score(kb_cases, kb_out), f"{how}, kind (b): the pages' true bodies with some of their debris inserted")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
