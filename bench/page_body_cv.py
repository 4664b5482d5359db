"""The whole-page body (html_body = "page", newsclean.cleaners.page_body) cross-validated by site on
the dev pages' HTML, against trafilatura's body and the default HTML path.

    .venv/bin/python bench/page_body_cv.py rows              # build and cache the block rows
    .venv/bin/python bench/page_body_cv.py cv [--folds 5] [--pipeline] [--no-recall] [--drop REGEX]
                                              [--threshold 0.5] [--worst N] [--other-pages WEIGHT]
    .venv/bin/python bench/page_body_cv.py snippets [--limit N]

`rows`: for each of the 461 dev pages (shared/devset/pages.jsonl.gz) the block table
extract_html(blocks=True) gives, labelled against the page's truth as
newsclean.cleaners.model.train_page_body labels it, plus trafilatura's body and the default HTML
path's output (clean_document; "" for a page it quarantines). Cached in bench/out/page_body/
(rows.parquet, pages.jsonl).

`cv`: folds by site as `newsclean eval --cv K` makes them (newsclean.cleaners.model.evaluate.fold_of);
the packaged recipe (train_page_body.fit) trained on the other folds' blocks keeps each held-out
page's blocks at --threshold; the kept blocks, in order and joined by blank lines, are scored with
newsclean.cleaners.model.score (token P/R/F1, leak) beside trafilatura's body, the default HTML
path's output and the best body the blocks allow (those labelled article). `--pipeline`: also the
whole HTML path with html_body = "page" (clean_document, the fold's model in place of the packaged
one): the kept blocks decided by the line cleaner under the extracted-body policy, as a run cleans
them. `--drop`: an ablation (the features whose names match left out); `--worst N`: the pages
losing most F1 against the ceiling; `--other-pages W`: a non-article page's weight in training
(the recipe trains on the 934 non-article pages' blocks too, their main content as the truth, their
sites in the same folds; 0: the articles alone). Scores are on the article pages. Each system's text per page goes to bench/out/page_body/cv_texts.json (cv_texts-TAG.json with --tag TAG);
`--seed S`: LightGBM's seed in place of the recipe's.

`snippets`: pages the block model never saw, trafilatura's 990 multilingual evaluation pages
(shared/devset/trafilatura-pages.jsonl.gz, labelled by snippets): the HTML path with html_body
"trafilatura" and "page", scored as newsclean eval scores them (newsclean.cleaners.model.score.
snippet_score, and per language snippet_score_by_language).
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
from newsclean.cleaners.shared_data import devset_dir  # noqa: E402

OUT = HERE / "bench" / "out" / "page_body"


def build_rows(limit: int | None) -> None:
    import polars as pl

    from newsclean.cleaners.model.evaluate_html import clean_html_page
    from newsclean.cleaners.model.train_page_body import labelled, load_pages, page_table
    from newsclean.cleaners.settings import Settings

    pages = load_pages(devset_dir())[:limit]
    settings = Settings()
    tables, meta = [], []
    for i, page in enumerate(pages):
        ext = page_table(devset_dir(), page)
        if ext is not None and ext.blocks is not None and ext.blocks.height:
            tables.append(labelled(ext.blocks, page["truth"], i))
        meta.append({"i": i, "id": page["id"], "body": ext.text if ext is not None else "",
                     "path": clean_html_page(page, devset_dir(), settings)["text"]})
        if i % 50 == 0:
            print(f"{i} pages", flush=True)
    OUT.mkdir(parents=True, exist_ok=True)
    pl.concat(tables, how="vertical").write_parquet(OUT / "rows.parquet.tmp")
    (OUT / "rows.parquet.tmp").replace(OUT / "rows.parquet")
    with (OUT / "pages.jsonl.tmp").open("w", encoding="utf-8") as fh:
        for m in meta:
            fh.write(json.dumps(m, ensure_ascii=False) + "\n")
    (OUT / "pages.jsonl.tmp").replace(OUT / "pages.jsonl")
    print(f"{len(meta)} pages, {sum(len(t) for t in tables)} blocks")


def pipeline_text(page: dict, booster, names: list[str], threshold: float) -> str:
    """The HTML path with html_body = "page" on one page, `booster` in place of the packaged model."""
    from newsclean.cleaners.model.evaluate_html import clean_html_page
    from newsclean.cleaners.model.train_page_body import using_fold
    from newsclean.cleaners.settings import Settings

    with using_fold(booster, names, threshold):
        return clean_html_page(page, devset_dir(), Settings(html_body="page"))["text"]


def losses(pages: list[dict], systems: dict[str, dict[int, str]], n: int) -> None:
    """The `n` pages where the block model loses most F1 against the best body the blocks allow."""
    from newsclean.cleaners.model.labels import tokens
    from newsclean.cleaners.model.score import prf

    oracle, model, path = (systems["blocks labelled article (ceiling of a block picker)"], systems["block model"],
                           systems["HTML path (clean_document)"])
    rows = []
    for i, page in enumerate(pages):
        truth = tokens(page["truth"])
        p, r, f = prf(tokens(model.get(i, "")), truth)
        rows.append((prf(tokens(oracle.get(i, "")), truth)[2] - f, i, page["id"], p, r, f, prf(tokens(path[i]), truth)[2]))
    print(f"pages losing most F1 against the ceiling (sum of losses / pages {sum(r[0] for r in rows) / len(rows):.4f}):")
    for loss, i, page_id, p, r, f, path_f1 in sorted(rows, reverse=True)[:n]:
        print(f"  {loss:.3f}  page {i} {page_id}  P {p:.3f} R {r:.3f} F1 {f:.3f}  (HTML path F1 {path_f1:.3f})")


def other_rows():
    """The block rows of the non-article pages (shared/devset/other-pages.jsonl.gz, their main
    content as the truth; page ids from train_page_body.OTHER_FIRST_ID), and the pages: built once
    and cached in bench/out/page_body/other_rows.parquet."""
    import polars as pl

    from newsclean.cleaners.model.train_page_body import OTHER_FIRST_ID, block_rows, load_other_pages

    path = OUT / "other_rows.parquet"
    others = load_other_pages(devset_dir())
    if not path.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        block_rows(devset_dir(), others, first_id=OTHER_FIRST_ID).write_parquet(path.with_suffix(".tmp"))
        path.with_suffix(".tmp").replace(path)
    return pl.read_parquet(path), others


def run_cv(k: int, pipeline: bool, recall: bool, threshold: float, drop: str | None = None, worst: int = 0,
           other_weight: float | None = None, tag: str = "") -> None:
    import polars as pl

    from newsclean.cleaners.model.evaluate import fold_of
    from newsclean.cleaners.model.score import score
    from newsclean.cleaners.model.train_page_body import (LABEL_SHARE, OTHER_WEIGHT, bodies, feature_columns,
                                                          fold_models, load_pages)

    pages = load_pages(devset_dir())
    rows = pl.read_parquet(OUT / "rows.parquet")
    meta = {m["i"]: m for m in map(json.loads, (OUT / "pages.jsonl").open(encoding="utf-8"))}
    n_pages = len(meta)
    pages = pages[:n_pages]
    names = feature_columns(rows)
    if not recall:
        names = [c for c in names if "recall" not in c]
    if drop:  # an ablation: the features whose names the pattern finds left out
        names = [c for c in names if not re.search(drop, c)]
    X = rows.select(names).to_numpy().astype(np.float64)
    y = rows["truth_share"].to_numpy() >= LABEL_SHARE
    page_of = rows["page"].to_numpy()
    page_fold = np.array([fold_of(p, k) for p in pages])
    fold = page_fold[page_of]
    prob = np.zeros(len(y))
    path_page: dict[int, str] = {}
    train_rows, scale, others = rows, None, []
    other_weight = OTHER_WEIGHT if other_weight is None else other_weight
    if other_weight:  # the non-article pages' blocks train too (the recipe's), their sites in the folds as well
        extra, others = other_rows()
        train_rows = pl.concat([rows, extra.select(rows.columns)], how="vertical")
        scale = np.concatenate([np.ones(rows.height), np.full(extra.height, other_weight / OTHER_WEIGHT)])
    t0 = time.process_time()
    for f, booster in fold_models(train_rows, pages, others, k, names, scale)[1]:
        prob[fold == f] = booster.predict(X[fold == f], num_threads=1)
        if pipeline:
            for i in np.flatnonzero(page_fold == f).tolist():
                path_page[i] = pipeline_text(pages[i], booster, names, threshold)
    cpu_s = time.process_time() - t0
    ids = [p["id"] for p in pages]
    systems = {
        "trafilatura's body (extract_html text)": {i: meta[i]["body"] for i in range(n_pages)},
        "HTML path (clean_document)": {i: meta[i]["path"] for i in range(n_pages)},
        "blocks trafilatura's body holds (in_body >= 0.5)": bodies(rows, rows["in_body"].to_numpy() >= 0.5),
        "blocks labelled article (ceiling of a block picker)": bodies(rows, y),
        "block model": bodies(rows, prob >= threshold),
    }
    if pipeline:
        systems['HTML path, html_body = "page"'] = path_page
    print(f"cv{k} by site, {n_pages} pages, {len(y)} blocks, features {len(names)} (recall {'on' if recall else 'off'}), "
          f"threshold {threshold}, a non-article page's weight {other_weight}; training{' and the pipeline' if pipeline else ''} {cpu_s:.0f} CPU-s")
    for f in [None, *range(k)]:
        chosen = [i for i in range(n_pages) if f is None or page_fold[i] == f]
        print(f"== {'all folds' if f is None else f'fold {f}'} ({len(chosen)} pages)")
        for name, texts in systems.items():
            s = score([pages[i] for i in chosen], {ids[i]: {"text": texts.get(i, "")} for i in chosen})
            print(f"  {name:<52} F1 {s['F1']:.4f}  P {s['P']:.4f}  R {s['R']:.4f}  leak {s['leak']:.4f}  F1<0.5 {s['F1<0.5']}")
    texts_path = OUT / f"cv_texts{'-' + tag if tag else ''}.json"
    with texts_path.with_suffix(".tmp").open("w", encoding="utf-8") as fh:  # each system's text per page, for a closer look
        json.dump({name: {ids[i]: t for i, t in texts.items()} for name, texts in systems.items()}, fh)
    texts_path.with_suffix(".tmp").replace(texts_path)
    if worst:
        losses(pages, systems, worst)
    keep = prob >= threshold
    acc = keep == y
    print(f"block accuracy {acc.mean():.4f} (tokens weighted {np.average(acc, weights=rows['tokens'].to_numpy() + 1e-9):.4f})")


def run_snippets(limit: int | None) -> None:
    from newsclean.cleaners.model.evaluate_html import html_predictions
    from newsclean.cleaners.model.score import page_languages, snippet_score, snippet_score_by_language
    from newsclean.cleaners.model.train_page_body import load_pages
    from newsclean.cleaners.settings import Settings

    pages = load_pages(devset_dir(), "trafilatura-pages.jsonl.gz")[:limit]
    languages = page_languages(pages)
    for body in ("trafilatura", "page"):
        t0 = time.process_time()
        preds = html_predictions(pages, devset_dir(), Settings(html_body=body), use_url=False)
        cpu = time.process_time() - t0
        empty = sum(not p["text"] for p in preds.values())
        s = snippet_score(pages, preds)
        by = snippet_score_by_language(pages, preds, languages)
        print(f'html_body = "{body}": {len(pages)} pages, {empty} quarantined, {1000 * cpu / len(pages):.1f} CPU-ms a page; '
              f"snippet F1 {s['F1']:.4f} P {s['P']:.4f} R {s['R']:.4f}; with kept: English {by['english']['R']:.4f}, "
              f"other {by['not_english']['R']:.4f}; without let through: English {by['english']['let_through']:.4f}, "
              f"other {by['not_english']['let_through']:.4f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("rows", "cv", "snippets"))
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--pipeline", action="store_true", help='also the whole HTML path with html_body = "page"')
    ap.add_argument("--no-recall", action="store_true", help="leave out the recall-body features")
    ap.add_argument("--threshold", type=float, default=None, help="P(article) to keep a block (default: the recipe's)")
    ap.add_argument("--drop", default=None, help="leave out the features whose names this regular expression finds")
    ap.add_argument("--worst", type=int, default=0, help="list the pages losing most F1 against the ceiling")
    ap.add_argument("--other-pages", type=float, default=None, metavar="WEIGHT",
                    help="a non-article page's weight in training (default: the recipe's OTHER_WEIGHT; 0: articles only)")
    ap.add_argument("--seed", type=int, default=None, help="LightGBM's seed (default: the recipe's)")
    ap.add_argument("--tag", default="", help="cv_texts-TAG.json for each system's text per page (runs side by side)")
    ap.add_argument("--limit", type=int, default=None)
    a = ap.parse_args(argv)
    if a.seed is not None:  # the recipe with another seed: its PARAMS are what fit reads
        from newsclean.cleaners.model import train_page_body

        train_page_body.PARAMS["seed"] = a.seed
    if a.what == "rows":
        build_rows(a.limit)
    elif a.what == "snippets":
        run_snippets(a.limit)
    else:
        from newsclean.cleaners.model.train_page_body import THRESHOLD

        run_cv(a.folds, a.pipeline, not a.no_recall, THRESHOLD if a.threshold is None else a.threshold, a.drop, a.worst,
               a.other_pages, a.tag)
    return 0


if __name__ == "__main__":
    sys.exit(main())
