"""Train the whole-page block model (newsclean.cleaners.page_body): which of a page's visible text
blocks are its article.

    python -m newsclean.cleaners.model.train_page_body [--devset DIR] [--out DIR] [--cv K]

Pages: the 461 article pages of shared/devset/pages.jsonl.gz and the 934 non-article pages of
other-pages.jsonl.gz (forums, listings, product and service pages: their main content is labelled
the same way, and they show the block model more sites' markup), each page's HTML read by
newsclean.cleaners.extract_html.extract_html(blocks=True) with its URL, as the pipeline reads it
with html_body = "page". A block is labelled article (main content) when half its tokens align
with the page's true body (newsclean.cleaners.model.labels.aligned_share). Each block weighs its
share of its page's tokens, so every page weighs alike, as the macro F1 counts it; a non-article
page weighs OTHER_WEIGHT.

One LightGBM binary booster (PARAMS, ROUNDS), saved in LightGBM's text format as
page_body.lgb.txt; page_body.json holds the feature names, the threshold and, with --cv K, the
out-of-fold body F1 and leak of the kept blocks on the article pages, folds by site
(newsclean.cleaners.model.evaluate.fold_of). bench/page_body_cv.py cross-validates the same recipe
through the whole HTML path.
"""
from __future__ import annotations

import argparse
import gzip
import json
import time
from pathlib import Path

import numpy as np

from newsclean.cleaners.page_body import MODEL_DIR, MODEL_NAME
from newsclean.cleaners.shared_data import devset_dir, require_devset

PARAMS = {"objective": "binary", "learning_rate": 0.05, "num_leaves": 31, "min_data_in_leaf": 20,
          "feature_fraction": 0.8, "bagging_fraction": 0.8, "bagging_freq": 1, "lambda_l2": 1.0,
          "num_threads": 1, "verbose": -1, "seed": 7, "deterministic": True}
ROUNDS = 400
THRESHOLD = 0.5  # P(article) from which a block is kept (tuned thresholds did no better out of fold)
LABEL_SHARE = 0.5  # a block is article when this share of its tokens aligns with the true body
# A non-article page's weight against an article page's 1. Cross-validated by site (bench/
# page_body_cv.py --other-pages W): 0 F1 0.9593, leak 0.0170; 0.1 0.9622 / 0.0264; 0.3 0.9625 /
# 0.0268; 1.0 0.9621 / 0.0307 (the whole HTML path on the article pages).
OTHER_WEIGHT = 0.3
OTHER_FIRST_ID = 10_000  # the non-article pages' page ids in the rows start here


def load_pages(devset: Path, name: str = "pages.jsonl.gz") -> list[dict]:
    """The pages of one of the devset's files ([] when the folder has no such file)."""
    from newsclean.cleaners.model.train import load_jsonl

    return load_jsonl(devset / name) if (devset / name).exists() else []


def load_other_pages(devset: Path) -> list[dict]:
    return load_pages(devset, "other-pages.jsonl.gz")


def page_table(devset: Path, page: dict):
    """The page's block table as extract_html(blocks=True) gives it, or None when it cannot be read."""
    from newsclean.cleaners.extract_html import extract_html
    from newsclean.cleaners.types import DocumentError

    with gzip.open(devset / page["html"], "rb") as fh:
        data = fh.read()
    try:
        return extract_html(data, url=page.get("url"), blocks=True)
    except DocumentError:
        return None


def labelled(table, truth: str, page: int):
    """The table with its labels: `page`, `truth_share` (aligned share of each block's tokens) and
    `tokens` (its token count)."""
    import polars as pl

    from newsclean.cleaners.model.labels import aligned_share

    share, counts = aligned_share(table["text"].to_list(), truth)
    return table.with_columns(pl.lit(page).alias("page"), pl.Series("truth_share", share),
                              pl.Series("tokens", counts.astype(np.float64)))


def block_rows(devset: Path, pages: list[dict], log=print, first_id: int = 0):
    """Every page's labelled block table, one after another, page k's rows with page id first_id + k
    (pages it cannot read are left out)."""
    import polars as pl

    tables = []
    t0 = time.perf_counter()
    for i, page in enumerate(pages):
        ext = page_table(devset, page)
        if ext is not None and ext.blocks is not None and ext.blocks.height:
            tables.append(labelled(ext.blocks, page["truth"], first_id + i))
        if (i + 1) % 100 == 0:
            log(f"  {i + 1}/{len(pages)} pages read ({time.perf_counter() - t0:.0f} s)")
    return pl.concat(tables, how="vertical")


def training_rows(devset: Path, pages: list[dict], others: list[dict], log=print):
    """The article pages' block rows, then the non-article pages' (page ids from OTHER_FIRST_ID)."""
    import polars as pl

    rows = block_rows(devset, pages, log)
    return pl.concat([rows, block_rows(devset, others, log, OTHER_FIRST_ID)], how="vertical") if others else rows


def feature_columns(rows) -> list[str]:
    from newsclean.cleaners.html_blocks import feature_names

    return [c for c in feature_names(rows) if c not in ("page", "truth_share", "tokens")]


def page_weights(rows) -> np.ndarray:
    """Each block's share of its page's tokens (x 100): every page weighs alike; a non-article
    page's blocks (page id from OTHER_FIRST_ID) OTHER_WEIGHT times that."""
    tok = rows["tokens"].to_numpy()
    page = rows["page"].to_numpy()
    total = np.bincount(page, weights=tok)
    return tok / np.maximum(total[page], 1.0) * 100.0 * np.where(page >= OTHER_FIRST_ID, OTHER_WEIGHT, 1.0)


def fit(rows, use: np.ndarray | None = None, names: list[str] | None = None, scale: np.ndarray | None = None):
    """The block model trained on `rows` (those of `use`), each block weighing page_weights times
    `scale` (per row; None: 1; bench/page_body_cv.py tries other weights with it)."""
    import lightgbm as lgb

    names = names or feature_columns(rows)
    use = np.ones(rows.height, dtype=bool) if use is None else use
    X = rows.select(names).to_numpy().astype(np.float64)[use]
    y = (rows["truth_share"].to_numpy() >= LABEL_SHARE).astype(np.int8)[use]
    w = page_weights(rows) * (1.0 if scale is None else scale)
    return lgb.train(PARAMS, lgb.Dataset(X, y, weight=w[use], feature_name=names), ROUNDS)


def bodies(rows, keep: np.ndarray) -> dict[int, str]:
    """Per page, its kept blocks written as page_body.page_body writes them."""
    from newsclean.cleaners.page_body import written_blocks

    page = rows["page"].to_numpy()
    starts = np.flatnonzero(np.r_[True, page[1:] != page[:-1]]).tolist() + [len(page)]  # a page's rows are contiguous
    return {int(page[a]): "\n\n".join(written_blocks(rows[a:b], keep[a:b])) for a, b in zip(starts[:-1], starts[1:])}


def site_folds(rows, pages: list[dict], others: list[dict], folds: int) -> np.ndarray:
    """Each row's fold by its page's site (newsclean.cleaners.model.evaluate.fold_of)."""
    from newsclean.cleaners.model.evaluate import fold_of

    page = rows["page"].to_numpy()
    of_page = np.array([fold_of(p, folds) for p in pages], dtype=np.int64)
    of_other = np.array([fold_of(p, folds) for p in others] or [0], dtype=np.int64)
    return np.where(page >= OTHER_FIRST_ID, of_other[np.maximum(page - OTHER_FIRST_ID, 0)],
                    of_page[np.minimum(page, len(pages) - 1)])


def fold_models(rows, pages: list[dict], others: list[dict], folds: int, names: list[str] | None = None,
                scale: np.ndarray | None = None):
    """(each row's fold by site, and for each fold in turn (fold, the model trained on the other
    folds' rows), each trained when it is reached)."""
    fold = site_folds(rows, pages, others, folds)
    return fold, ((f, fit(rows, fold != f, names, scale)) for f in range(folds))


def using_fold(booster, names: list[str], threshold: float = THRESHOLD):
    """newsclean.cleaners.page_body.using with a fold's booster (its feature `names`) in place of the
    packaged model: the whole HTML path cleans a held-out page as a run would with it."""
    from newsclean.cleaners.page_body import using

    return using({"features": names, "threshold": threshold}, lambda X: booster.predict(X, num_threads=1))


def cross_validate(rows, pages: list[dict], others: list[dict], folds: int) -> dict:
    """Out-of-fold P(article) of every block (folds by site, the non-article pages' sites too) and
    the kept blocks' body of the article pages scored against their truth (newsclean.cleaners.model.score)."""
    from newsclean.cleaners.model.score import score

    names = feature_columns(rows)
    fold, models = fold_models(rows, pages, others, folds, names)
    X = rows.select(names).to_numpy().astype(np.float64)
    prob = np.zeros(rows.height)
    for f, booster in models:
        prob[fold == f] = booster.predict(X[fold == f], num_threads=1)
    articles = rows["page"].to_numpy() < OTHER_FIRST_ID
    kept = bodies(rows.filter(articles), prob[articles] >= THRESHOLD)
    s = score([pages[i] for i in kept], {pages[i]["id"]: {"text": t} for i, t in kept.items()})
    return {"folds": folds, "pages": s["pages"], "F1": round(s["F1"], 4), "P": round(s["P"], 4),
            "R": round(s["R"], 4), "leak": round(s["leak"], 4), "oof": prob}


def train(devset: Path, out: Path, folds: int = 0, log=print) -> dict:
    pages, others = load_pages(devset), load_other_pages(devset)
    rows = training_rows(devset, pages, others, log)
    report = {}
    if folds:
        report = cross_validate(rows, pages, others, folds)
        log(f"out of fold ({folds} folds by site), the kept blocks as the body: F1 {report['F1']} "
            f"P {report['P']} R {report['R']} leak {report['leak']}")
    booster = fit(rows)
    out.mkdir(parents=True, exist_ok=True)
    booster.save_model(str(out / f"{MODEL_NAME}.lgb.txt"))
    meta = {"features": feature_columns(rows), "threshold": THRESHOLD, "label_share": LABEL_SHARE,
            "rounds": ROUNDS, "pages": len(pages), "other_pages": len(others), "other_weight": OTHER_WEIGHT,
            "blocks": rows.height,
            "cv": {k: v for k, v in report.items() if k != "oof"}}
    (out / f"{MODEL_NAME}.json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    log(f"saved {MODEL_NAME}.lgb.txt and {MODEL_NAME}.json to {out}")
    return report


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--devset", type=Path, default=devset_dir())
    ap.add_argument("--out", type=Path, default=MODEL_DIR)
    ap.add_argument("--cv", type=int, default=0, help="also cross-validate by site with this many folds (0: no)")
    args = ap.parse_args(argv)
    train(require_devset(args.devset), args.out, args.cv)


if __name__ == "__main__":
    main()
