"""Train the HTML headline ranker (newsclean.cleaners.metadata.title_ranker).

    python -m newsclean.cleaners.metadata.train_title_ranker [--devset DIR] [--out FILE]

Pages: the 461 article pages of shared/devset/pages.jsonl.gz, each page's HTML read as
newsclean.cleaners.extract_html reads it with the page's URL (page_evidence), its headline
candidates and their features as title_ranker builds them. A candidate is right when it equals the
annotated title folded as titles are compared (newsclean.cleaners.corpus.fold_title); a page is
right when the headline the ranker gives (title_ranker.headline: its best candidate, a trailing label
cut) is.

One LightGBM booster, binary (is this candidate the headline), its raw score ranking a page's
candidates; saved in LightGBM's text format (loading it runs no code) with the feature names. The
printed accuracy is cross-validated by site (newsclean.cleaners.model.evaluate.fold_of: no site on
both sides), the share of pages whose top candidate is right, next to the oracle (a right candidate
exists) and trafilatura's own title. Same pages, same file: the booster is deterministic (one
thread, fixed seed).
"""
from __future__ import annotations

import gzip
import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from newsclean.cleaners.atomic import atomic_write_text
from newsclean.cleaners.metadata import title_ranker as tr
from newsclean.cleaners.corpus import fold_title
from newsclean.cleaners.shared_data import training_cli

SEED = 20261128
FOLDS = 5
PARAMS = dict(
    objective="binary", learning_rate=0.05, num_leaves=3, min_data_in_leaf=20, feature_fraction=0.7,
    bagging_fraction=0.8, bagging_freq=1, lambda_l2=1.0, seed=SEED, deterministic=True, force_row_wise=True,
    num_threads=1, verbose=-1,
)
ROUNDS = 150


@dataclass
class PageRows:
    """One dev page's candidates, their features and labels."""

    id: str
    fold: int
    cands: list[tr.Candidate]
    X: np.ndarray
    y: np.ndarray  # 1 for the candidate that is the annotated title
    trafilatura_right: bool
    truth: str  # the annotated title, folded (fold_title)
    url: str | None  # the page's URL, as the ranker reads it (a label spelling the site is cut)


def page_evidence(data: bytes, url: str | None) -> tuple[tr.PageTitles, str | None]:
    """What extract_html hands the ranker for a page (its PageTitles and the page's URL), without
    the body extraction nor the packaged ranker: the same decoding, parse and metadata."""
    from newsclean.cleaners.extract_html import decode_html, page_metadata, parse_html, repair_source_mojibake

    html, _ = decode_html(data)
    tree = parse_html(repair_source_mojibake(html))
    if tree is None:
        return tr.PageTitles(), url
    doc = page_metadata(tree, url)
    return tr.page_titles_evidence(tree, doc.title, doc.sitename, doc.hostname or None), url or doc.url


def page_rows(devset: Path, log=print) -> list[PageRows]:
    from newsclean.cleaners.model.evaluate import fold_of

    rows = []
    t0 = time.perf_counter()
    with gzip.open(devset / "pages.jsonl.gz", "rt", encoding="utf-8") as fh:
        pages = [json.loads(line) for line in fh]
    for i, p in enumerate(pages):
        with gzip.open(devset / p["html"], "rb") as fh:
            titles, url = page_evidence(fh.read(), p["url"])
        cands = tr.candidates(titles)
        truth = fold_title(p["title"])
        traf = next((t for s, t in titles.metas if s == "trafilatura"), None)
        rows.append(PageRows(p["id"], fold_of(p, FOLDS), cands, tr.features(cands, titles, url),
                             np.array([float(c.key == truth) for c in cands]), fold_title(traf) == truth,
                             truth=truth, url=url))
        if (i + 1) % 200 == 0:
            log(f"  {i + 1}/{len(pages)} pages read ({time.perf_counter() - t0:.0f} s)")
    return rows


def fit(rows: list[PageRows]):
    import lightgbm as lgb

    rows = [r for r in rows if r.y.any()]  # a page without a right candidate teaches no choice
    X = np.vstack([r.X for r in rows])
    y = np.concatenate([r.y for r in rows])
    return lgb.train(PARAMS, lgb.Dataset(X, y, feature_name=list(tr.FEATURES)), ROUNDS)


def right(booster, rows: list[PageRows]) -> int:
    """Pages whose headline as the ranker gives it (title_ranker.headline: the best candidate, its
    trailing label cut) is the annotated title."""
    return sum(fold_title(tr.headline(r.cands, r.X, booster.predict(r.X, raw_score=True), r.url)) == r.truth
               for r in rows if len(r.cands))


def cross_validate(rows: list[PageRows], log=print) -> dict:
    hits = 0
    for k in range(FOLDS):
        test = [r for r in rows if r.fold == k]
        fold_hits = right(fit([r for r in rows if r.fold != k]), test)
        hits += fold_hits
        log(f"fold {k}: {len(test)} pages, title exact {fold_hits / max(len(test), 1):.3f}")
    n = max(len(rows), 1)
    return {"pages": len(rows), "cv_title_exact": hits / n, "oracle": sum(bool(r.y.any()) for r in rows) / n,
            "trafilatura_title_exact": sum(r.trafilatura_right for r in rows) / n}


def train(devset: Path, out: Path, log=print) -> dict:
    log(f"reading the dev pages' HTML under {devset}")
    rows = page_rows(devset, log)
    report = cross_validate(rows, log)
    booster = fit(rows)
    report["in_sample_title_exact"] = right(booster, rows) / max(len(rows), 1)
    log(f"pages {report['pages']}: title exact {report['cv_title_exact']:.3f} ({FOLDS}-fold CV by site), "
        f"{report['in_sample_title_exact']:.3f} in sample; a right candidate on {report['oracle']:.3f}; "
        f"trafilatura's title {report['trafilatura_title_exact']:.3f}")
    out.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(booster.model_to_string(), out, permissions=0o644)  # readable as the package's other data files
    log(f"saved {out}")
    return report


def main(argv: list[str] | None = None) -> None:
    train(*training_cli(__doc__.split("\n")[0], tr.MODEL_FILE, argv))


if __name__ == "__main__":
    main()
