"""A block model over the whole page against trafilatura's body and the HTML path, cross-validated
by site on the dev pages' HTML.

    .venv/bin/python bench/html_blocks_cv.py rows            # build and cache the block rows
    .venv/bin/python bench/html_blocks_cv.py cv [--folds 2] [--rules] [--no-recall] [--recall-below 0.5]
                                                [--drop REGEX] [--worst N]

`rows`: for each of the 461 dev pages (shared/devset/pages.jsonl.gz), newsclean.cleaners.html_blocks.page_blocks
on the page's tree with trafilatura's body (extract_html's `text`) and its recall-mode body
(html_blocks.recall_body), each block labelled against the page's truth (newsclean.cleaners.model.labels.aligned_share:
body when half its tokens align), plus the HTML path's output (clean_document; "" for a page it
quarantines). CPU-ms of page_blocks and of the recall extraction per page. Cached in
bench/out/html_blocks/ (rows.parquet, pages.jsonl).

`cv`: folds by site as `newsclean eval --cv K` makes them (newsclean.cleaners.model.evaluate.fold_of); a
LightGBM classifier (num_threads=1) trained on the other folds' blocks decides each held-out
page's blocks; its kept blocks, in order and joined by blank lines, are the page's body, scored
with newsclean.cleaners.model.score (token P/R/F1, leak) beside trafilatura's body, the HTML path's output and
the best body the blocks allow (those labelled body). `--rules`: also the extracted-body policy's
rule cleaner (newsclean.cleaners.pipeline, as on trafilatura's body) on the model's kept text.
`--drop`: an ablation (the features whose names match left out); `--worst N`: the pages losing
most F1 against the ceiling; `--recall-below S`: the recall body only where trafilatura's body
holds under S of the page's block characters (the others' recall columns repeat the body's).
"""
from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
from newsclean.cleaners.shared_data import devset_dir  # noqa: E402

OUT = HERE / "bench" / "out" / "html_blocks"  # rows with body_share's membership; html_blocks_aligned: aligned_share's
PARAMS = {"objective": "binary", "learning_rate": 0.05, "num_leaves": 31, "min_data_in_leaf": 20,
          "feature_fraction": 0.8, "bagging_fraction": 0.8, "bagging_freq": 1, "lambda_l2": 1.0,
          "num_threads": 1, "verbose": -1, "seed": 7}
ROUNDS = 400


def load_pages() -> list[dict]:
    with gzip.open(devset_dir() / "pages.jsonl.gz", "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def build_rows(limit: int | None, aligned: bool) -> None:
    import polars as pl

    from newsclean.cleaners.extract_html import extract_html, page_tree
    from newsclean.cleaners.html_blocks import page_blocks, recall_body
    from newsclean.cleaners.model.labels import aligned_share
    from newsclean.cleaners.pipeline import clean_document
    from newsclean.cleaners.settings import Settings
    from newsclean.cleaners.types import DocumentError, RawDocument

    pages = load_pages()[:limit]
    settings = Settings()
    tables, meta = [], []
    for i, page in enumerate(pages):
        with gzip.open(devset_dir() / page["html"], "rb") as fh:
            data = fh.read()
        ext = extract_html(data, url=page["url"])
        tree, _ = page_tree(data)
        t0 = time.process_time()
        recall = recall_body(tree, page["url"])
        t1 = time.process_time()
        table = page_blocks(tree, ext.text, recall, aligned=aligned)
        t2 = time.process_time()
        share, counts = aligned_share(table["text"].to_list(), page["truth"])
        try:
            path_text = clean_document(RawDocument(source=page["html"], data=data, format="html",
                                                   meta={"url": page["url"]}), settings).text
        except DocumentError:
            path_text = ""
        tables.append(table.with_columns(pl.lit(i).alias("page"), pl.Series("truth_share", share),
                                         pl.Series("tokens", counts.astype(np.float64))))
        meta.append({"i": i, "id": page["id"], "body": ext.text, "mode": ext.mode, "recall": recall,
                     "path": path_text, "blocks_ms": 1000 * (t2 - t1), "recall_ms": 1000 * (t1 - t0)})
        if i % 50 == 0:
            print(f"{i} pages", flush=True)
    OUT.mkdir(parents=True, exist_ok=True)
    pl.concat(tables, how="vertical").write_parquet(OUT / "rows.parquet.tmp")
    (OUT / "rows.parquet.tmp").replace(OUT / "rows.parquet")
    with (OUT / "pages.jsonl.tmp").open("w", encoding="utf-8") as fh:
        for m in meta:
            fh.write(json.dumps(m, ensure_ascii=False) + "\n")
    (OUT / "pages.jsonl.tmp").replace(OUT / "pages.jsonl")
    ms = np.array([m["blocks_ms"] for m in meta])
    rec = np.array([m["recall_ms"] for m in meta])
    print(f"{len(meta)} pages, {sum(len(t) for t in tables)} blocks; page_blocks CPU-ms median {np.median(ms):.1f} "
          f"(p90 {np.percentile(ms, 90):.1f}); recall extraction median {np.median(rec):.1f}")


def weights(rows, how: str) -> np.ndarray:
    """Training weights: every block alike, by its tokens, or by its tokens' share of its page
    (each page weighs alike, as the macro F1 counts it)."""
    tok = rows["tokens"].to_numpy()
    if how == "block":
        return (tok > 0).astype(np.float64)
    if how == "tokens":
        return np.sqrt(tok)
    page = rows["page"].to_numpy()
    total = np.bincount(page, weights=tok)
    return tok / np.maximum(total[page], 1.0) * 100.0


def assemble(rows, keep: np.ndarray) -> dict[int, str]:
    """Per page, its kept blocks in order, joined by blank lines."""
    out: dict[int, list[str]] = {}
    for page, text, k in zip(rows["page"].to_list(), rows["text"].to_list(), keep):
        out.setdefault(page, [])
        if k:
            out[page].append(text)
    return {p: "\n\n".join(ts) for p, ts in out.items()}


def with_rules(page: dict, kept: str) -> str:
    """The HTML path's rule cleaner (the extracted-body policy, as on trafilatura's body) on `kept`."""
    from newsclean.cleaners.engine.scoring import run_steps
    from newsclean.cleaners.extract_html import extract_html
    from newsclean.cleaners.pipeline import _clean_extracted
    from newsclean.cleaners.settings import Settings
    from newsclean.cleaners.types import DocumentError

    if not kept.strip():
        return ""
    with gzip.open(devset_dir() / page["html"], "rb") as fh:
        ext = extract_html(fh.read(), url=page["url"])
    ext = replace(ext, text=kept, mode="trafilatura", visible=None)
    try:
        doc, _ = run_steps(_clean_extracted(ext, Settings(), page["html"], page["id"], {"url": page["url"]}))
    except DocumentError:
        return ""
    return doc.text


def recall_where_short(rows, below: float):
    """The rows as page_blocks gives them without a recall body (its recall columns repeating the
    body's) on the pages where trafilatura's body holds at least `below` of the blocks' characters:
    the recall extraction asked for only where the body is short, as extract_html asks for it."""
    import polars as pl

    long_body = pl.col("page_body_share") >= below
    return rows.with_columns(pl.when(long_body).then(pl.col("in_body")).otherwise(pl.col("in_recall")).alias("in_recall"),
                             pl.when(long_body).then(pl.col("inside_body_span")).otherwise(pl.col("inside_recall_span"))
                             .alias("inside_recall_span"))


def losses(pages: list[dict], systems: dict[str, dict[int, str]], n: int) -> None:
    """The `n` pages where the block model loses most F1 against the best body the blocks allow."""
    from newsclean.cleaners.model.labels import tokens
    from newsclean.cleaners.model.score import prf

    oracle, model, path = (systems["blocks labelled body (ceiling of a block picker)"], systems["block model"],
                           systems["HTML path (clean_document)"])
    rows = []
    for i, page in enumerate(pages):
        truth = tokens(page["truth"])
        p, r, f = prf(tokens(model.get(i, "")), truth)
        rows.append((prf(tokens(oracle.get(i, "")), truth)[2] - f, i, page["id"], p, r, f, prf(tokens(path[i]), truth)[2]))
    print(f"pages losing most F1 against the ceiling (sum of losses / pages {sum(r[0] for r in rows) / len(rows):.4f}):")
    for loss, i, page_id, p, r, f, path_f1 in sorted(rows, reverse=True)[:n]:
        print(f"  {loss:.3f}  page {i} {page_id}  P {p:.3f} R {r:.3f} F1 {f:.3f}  (HTML path F1 {path_f1:.3f})")


GRID = [(a, b) for a in (0.3, 0.4, 0.5) for b in (0.5, 0.6, 0.7, 0.8, 0.9)]


def tune_thresholds(X, y, w, names, tr, page_of, pages, rows, member) -> tuple[float, float]:
    """(threshold for a block trafilatura's body holds, threshold for one it left out) of GRID with
    the best macro F1 over the pages of `tr`, their probabilities out of two inner folds by site."""
    import lightgbm as lgb

    from newsclean.cleaners.model.evaluate import fold_of
    from newsclean.cleaners.model.labels import tokens
    from newsclean.cleaners.model.score import prf

    # sites in four groups, two to a half (with two outer folds, each holds two of the four)
    inner = np.array([fold_of(page, 4) for page in pages])[page_of]
    prob = np.zeros(len(y))
    idx = np.flatnonzero(tr)
    halves = [idx[np.isin(inner[idx], (0, 1))], idx[np.isin(inner[idx], (2, 3))]]
    for a, b in ((0, 1), (1, 0)):
        booster = lgb.train(PARAMS, lgb.Dataset(X[halves[a]], y[halves[a]], weight=w[halves[a]], feature_name=names), ROUNDS)
        prob[halves[b]] = booster.predict(X[halves[b]])
    texts = rows["text"].to_list()
    block_tokens = {i: tokens(texts[i]) for i in idx}
    truth = {p: tokens(pages[p]["truth"]) for p in np.unique(page_of[idx])}
    best, best_f1 = GRID[0], -1.0
    for pair in GRID:
        kept = np.where(member, prob >= pair[0], prob >= pair[1])
        out: dict[int, list[str]] = {p: [] for p in truth}
        for i in idx:
            if kept[i]:
                out[page_of[i]].extend(block_tokens[i])
        f1 = float(np.mean([prf(out[p], truth[p])[2] for p in truth]))
        if f1 > best_f1:
            best, best_f1 = pair, f1
    return best


def run_cv(k: int, rules: bool, recall: bool, how: str, threshold: float, tune: bool = False,
           drop: str | None = None, worst: int = 0, recall_below: float | None = None) -> None:
    import lightgbm as lgb
    import polars as pl

    from newsclean.cleaners.html_blocks import feature_names
    from newsclean.cleaners.model.evaluate import fold_of
    from newsclean.cleaners.model.score import score

    pages = load_pages()
    rows = pl.read_parquet(OUT / "rows.parquet")
    meta = {m["i"]: m for m in map(json.loads, (OUT / "pages.jsonl").open(encoding="utf-8"))}
    n_pages = len(meta)
    pages = pages[:n_pages]
    names = [c for c in feature_names(rows) if c not in ("page", "truth_share", "tokens")]
    if not recall:
        names = [c for c in names if "recall" not in c]
    if drop:  # an ablation: the features whose names the pattern finds left out
        names = [c for c in names if not re.search(drop, c)]
    if recall_below is not None:
        rows = recall_where_short(rows, recall_below)
    X = rows.select(names).to_numpy().astype(np.float64)
    y = (rows["truth_share"].to_numpy() >= 0.5).astype(np.int8)
    w = weights(rows, how)
    page_of = rows["page"].to_numpy()
    page_fold = np.array([fold_of(p, k) for p in pages])
    fold = page_fold[page_of]
    prob = np.zeros(len(y))
    keep = np.zeros(len(y), dtype=bool)
    member = rows["in_body"].to_numpy() >= 0.5
    chosen_thresholds = []
    t0 = time.process_time()
    for f in range(k):
        tr, te = fold != f, fold == f
        booster = lgb.train(PARAMS, lgb.Dataset(X[tr], y[tr], weight=w[tr], feature_name=names), ROUNDS)
        prob[te] = booster.predict(X[te])
        pair = (threshold, threshold)
        if tune:  # the two thresholds chosen on the training folds alone (their own inner folds by site)
            pair = tune_thresholds(X, y, w, names, tr, page_of, pages, rows, member)
        chosen_thresholds.append(pair)
        keep[te] = np.where(member[te], prob[te] >= pair[0], prob[te] >= pair[1])
    train_s = time.process_time() - t0
    model_text = assemble(rows, keep)
    oracle_text = assemble(rows, y.astype(bool))
    member_text = assemble(rows, rows["in_body"].to_numpy() >= 0.5)
    ids = [p["id"] for p in pages]
    systems = {
        "trafilatura's body (extract_html text)": {i: meta[i]["body"] for i in range(n_pages)},
        "HTML path (clean_document)": {i: meta[i]["path"] for i in range(n_pages)},
        "blocks trafilatura's body holds (in_body >= 0.5)": member_text,
        "blocks labelled body (ceiling of a block picker)": oracle_text,
        "block model": model_text,
    }
    if rules:
        systems["block model + extracted-body rules"] = {i: with_rules(pages[i], model_text.get(i, "")) for i in range(n_pages)}
    print(f"cv{k} by site, {n_pages} pages, {len(y)} blocks, features {len(names)} (recall {'on' if recall else 'off'}), "
          f"weights {how}, thresholds (in body, outside) per fold {chosen_thresholds}; training {train_s:.0f} CPU-s")
    for f in [None, *range(k)]:
        chosen = [i for i in range(n_pages) if f is None or page_fold[i] == f]
        label = "all folds" if f is None else f"fold {f}"
        print(f"== {label} ({len(chosen)} pages)")
        for name, texts in systems.items():
            s = score([pages[i] for i in chosen], {ids[i]: {"text": texts.get(i, "")} for i in chosen})
            print(f"  {name:<52} F1 {s['F1']:.4f}  P {s['P']:.4f}  R {s['R']:.4f}  leak {s['leak']:.4f}  F1<0.5 {s['F1<0.5']}")
    if worst:
        losses(pages, systems, worst)
    acc = (keep == y)
    print(f"block accuracy {acc.mean():.4f} (tokens weighted {np.average(acc, weights=rows['tokens'].to_numpy() + 1e-9):.4f})")
    if not rules:
        booster = lgb.train(PARAMS, lgb.Dataset(X, y, weight=w, feature_name=names), ROUNDS)
        gain = sorted(zip(booster.feature_importance("gain"), names), reverse=True)[:15]
        print("top features by gain (all pages):", ", ".join(f"{n} {g / sum(x for x, _ in gain):.2f}" for g, n in gain))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("rows", "cv"))
    ap.add_argument("--folds", type=int, default=2)
    ap.add_argument("--rules", action="store_true", help="also the extracted-body rules on the model's kept text")
    ap.add_argument("--no-recall", action="store_true", help="leave out the recall-body features")
    ap.add_argument("--weights", choices=("block", "tokens", "page"), default="page")
    ap.add_argument("--threshold", type=float, default=0.5)
    ap.add_argument("--tune", action="store_true",
                    help="per fold, thresholds for blocks in and out of trafilatura's body chosen on the training folds")
    ap.add_argument("--drop", default=None, help="leave out the features whose names this regular expression finds")
    ap.add_argument("--worst", type=int, default=0, help="list the pages losing most F1 against the ceiling")
    ap.add_argument("--recall-below", type=float, default=None,
                    help="recall body only on pages whose trafilatura body holds under this share of the characters")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--aligned", action="store_true",
                    help="membership in trafilatura's bodies by token alignment (page_blocks(aligned=True))")
    a = ap.parse_args(argv)
    if a.aligned:
        global OUT
        OUT = OUT.with_name("html_blocks_aligned")
    if a.what == "rows":
        build_rows(a.limit, a.aligned)
    else:
        run_cv(a.folds, a.rules, not a.no_recall, a.weights, a.threshold, a.tune, a.drop, a.worst, a.recall_below)
    return 0


if __name__ == "__main__":
    sys.exit(main())
