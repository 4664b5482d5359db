"""Train the HTML publication-date ranker (newsclean.cleaners.metadata.date_ranker).

    python -m newsclean.cleaners.metadata.train_date_ranker [--devset DIR] [--out DIR]

Pages: the 461 article pages of shared/devset/pages.jsonl.gz (381 with a publication date, the
others with none), each read as newsclean.cleaners.extract_html reads it: one parse, htmldate's
pick from trafilatura's metadata, then date_ranker.date_candidates. Every page is read twice, with
its URL and without (a file or a record without an address), so the model learns both. One row per
distinct candidate day; its label is 1 when the day is the page's publication date.

One LightGBM binary model in LightGBM's text format (date_ranker.lgb.txt: loading it runs no
code). The threshold under which the best day is not given (the page gets no date from its HTML)
is chosen on out-of-fold scores, cross-validated by site (newsclean.cleaners.model.evaluate.fold_of:
no site on both sides): the one with the most right dates among those that give no more wrong
dates than htmldate's pick alone. date_ranker.json holds the feature names, the threshold and the
cross-validated numbers (htmldate's pick against the ranker's, on the same pages).
"""
from __future__ import annotations

import datetime as dt
import gzip
import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from newsclean.cleaners.metadata import date_ranker as dr
from newsclean.cleaners.model.evaluate import fold_of
from newsclean.cleaners.atomic import atomic_write_text
from newsclean.cleaners.shared_data import training_cli

SEED = 20261128
FOLDS = 5
# Small trees (three leaves): ~1,700 candidate days from ~230 sites; deeper trees learn sites.
PARAMS = dict(
    objective="binary", learning_rate=0.05, num_leaves=3, min_data_in_leaf=10, feature_fraction=0.7,
    bagging_fraction=0.8, bagging_freq=1, lambda_l2=1.0, seed=SEED, deterministic=True,
    force_row_wise=True, num_threads=1, verbose=-1, max_bin=63,
)
ROUNDS = 300
# A seed bag merged into one model (newsclean.cleaners.model.bagging): one seed's sampling moves the
# cross-validated exact rate by about 0.01.
BAG = 4
BAG_SEED_STEP = 1000


@dataclass
class PageDays:
    """One page read one way (with or without its URL): its candidate days and their features."""

    id: str
    with_url: bool
    fold: int
    truth: dt.date | None  # None: no publication date (or only a month)
    dated: bool  # the page has a publication date in the truth (even a month alone)
    htmldate: dt.date | None
    days: list[dt.date]
    rows: list[list[float]]


def _truth(value: str | None) -> dt.date | None:
    try:
        return dt.date.fromisoformat(value[:10]) if value and len(value) >= 10 else None
    except ValueError:
        return None


def read_pages(devset: Path, folds: int = FOLDS, log=print) -> list[PageDays]:
    """Every dev page's candidate days, with and without its URL, as the HTML path reads them."""
    from newsclean.cleaners.extract_html import decode_html, page_metadata, parse_html, repair_source_mojibake

    out = []
    t0 = time.perf_counter()
    with gzip.open(devset / "pages.jsonl.gz", "rt", encoding="utf-8") as fh:
        pages = [json.loads(line) for line in fh]
    for n, p in enumerate(pages):
        with gzip.open(devset / p["html"], "rb") as fh:
            html, _ = decode_html(fh.read(), None)
        tree = parse_html(repair_source_mojibake(html))
        if tree is None:
            continue
        for url in (p.get("url"), None):
            doc = page_metadata(tree, url)
            page_url = url or doc.url
            days, rows = dr.day_features(dr.date_candidates(tree, page_url, doc.date))
            out.append(PageDays(p["id"], url is not None, fold_of(p, folds), _truth(p.get("published")),
                                bool(p.get("published")), dr._value_date(doc.date), days, rows))
        if (n + 1) % 100 == 0:
            log(f"  {n + 1}/{len(pages)} pages read ({time.perf_counter() - t0:.0f} s)")
    return out


def _matrix(pages: list[PageDays]) -> tuple[np.ndarray, np.ndarray]:
    X = [row for p in pages for row in p.rows]
    y = [float(d == p.truth) for p in pages for d in p.days]
    return np.asarray(X, dtype=np.float64).reshape(-1, len(dr.FEATURES)), np.asarray(y)


def fit(pages: list[PageDays]):
    """The bag's members trained on the pages' candidate days, merged into one booster."""
    import lightgbm as lgb

    from newsclean.cleaners.model.bagging import average_boosters

    X, y = _matrix(pages)
    return average_boosters([lgb.train(dict(PARAMS, seed=SEED + i * BAG_SEED_STEP),
                                       lgb.Dataset(X, label=y, feature_name=list(dr.FEATURES)), num_boost_round=ROUNDS)
                             for i in range(BAG)])


def _best(pages: list[PageDays], scores: list[np.ndarray]) -> list[tuple[dt.date | None, float]]:
    """Each page's best day and its score (None, -1 for a page without candidates)."""
    out = []
    for p, s in zip(pages, scores):
        if not p.days:
            out.append((None, -1.0))
            continue
        i = max(range(len(p.days)), key=lambda j: (s[j], -j))
        out.append((p.days[i], float(s[i])))
    return out


def tally(pages: list[PageDays], picks: list[dt.date | None]) -> dict:
    """date_exact and date_wrong over the dated pages (newsclean.cleaners.model.score.metadata_score),
    and the dates given to pages that have none."""
    dated = [(p, d) for p, d in zip(pages, picks) if p.dated]
    right = sum(d is not None and d == p.truth for p, d in dated)
    given = sum(d is not None for _, d in dated)
    return {"dated": len(dated), "date_exact": round(right / max(len(dated), 1), 4),
            "date_wrong": round((given - right) / max(len(dated), 1), 4),
            "undated_given": sum(d is not None for p, d in zip(pages, picks) if not p.dated)}


def choose_threshold(pages: list[PageDays], best: list[tuple[dt.date | None, float]], max_wrong: float) -> float:
    """The threshold with the most right dates among those whose wrong dates stay at or under
    `max_wrong` (ties: the higher threshold, fewer dates given)."""
    candidates = sorted({s for _, s in best if s >= 0} | {0.0})
    chosen, chosen_right = 1.0, -1.0
    for t in candidates:
        t_stats = tally(pages, [d if s >= t else None for d, s in best])
        if t_stats["date_wrong"] <= max_wrong and t_stats["date_exact"] >= chosen_right:
            chosen, chosen_right = t, t_stats["date_exact"]
    return float(chosen)


def cross_validate(pages: list[PageDays], folds: int = FOLDS) -> dict:
    """Out-of-fold best days by site folds, the threshold chosen on them, and htmldate's pick
    against the ranker's on each reading (with and without URL)."""
    scores: list[np.ndarray] = [np.zeros(0)] * len(pages)
    for k in range(folds):
        model = fit([p for p in pages if p.fold != k])
        for i, p in enumerate(pages):
            if p.fold == k and p.rows:
                scores[i] = model.predict(np.asarray(p.rows, dtype=np.float64), num_threads=1)
    best = _best(pages, scores)
    baseline = tally(pages, [p.htmldate for p in pages])
    threshold = choose_threshold(pages, best, baseline["date_wrong"])
    picks = [d if s >= threshold else None for d, s in best]
    report = {"folds": folds, "threshold": round(threshold, 6), "oracle": {}, "htmldate": {}, "ranker": {}}
    for with_url in (True, False):
        mine = [i for i, p in enumerate(pages) if p.with_url == with_url]
        key = "with_url" if with_url else "without_url"
        sub = [pages[i] for i in mine]
        report["htmldate"][key] = tally(sub, [p.htmldate for p in sub])
        report["ranker"][key] = tally(sub, [picks[i] for i in mine])
        report["oracle"][key] = round(sum(p.truth in p.days for p in sub if p.dated) / max(sum(p.dated for p in sub), 1), 4)
    report["picks"] = picks
    return report


def print_report(report: dict, log=print) -> None:
    log(f"{report['folds']}-fold CV by site; threshold {report['threshold']:.4f} (chosen out of fold)")
    for key in ("with_url", "without_url"):
        h, r = report["htmldate"][key], report["ranker"][key]
        log(f"  {key:11s} oracle {report['oracle'][key]:.4f}  htmldate exact {h['date_exact']:.4f} wrong {h['date_wrong']:.4f}"
            f" (undated given {h['undated_given']})  ranker exact {r['date_exact']:.4f} wrong {r['date_wrong']:.4f}"
            f" (undated given {r['undated_given']})")


def train(devset: Path, out: Path, log=print) -> dict:
    log(f"reading the dev pages' HTML under {devset}")
    pages = read_pages(devset, log=log)
    report = cross_validate(pages)
    print_report(report, log)
    model = fit(pages)
    out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(model.model_to_string(), out / dr.MODEL_FILE.name, permissions=0o644)
    meta = {"features": list(dr.FEATURES), "threshold": report["threshold"],
            "cv": {k: v for k, v in report.items() if k != "picks"}}
    atomic_write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", out / dr.META_FILE.name, permissions=0o644)
    log(f"saved {dr.MODEL_FILE.name} and {dr.META_FILE.name} to {out}")
    return report


def main(argv: list[str] | None = None) -> None:
    train(*training_cli(__doc__.split("\n")[0], dr.MODEL_DIR, argv))


if __name__ == "__main__":
    main()
