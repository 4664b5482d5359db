"""Train the HTML publication-date ranker (newsclean.cleaners.metadata.date_ranker).

    python -m newsclean.cleaners.metadata.train_date_ranker [--devset DIR] [--out DIR]

Pages: the 461 article pages of shared/devset/pages.jsonl.gz (381 with a publication date, the
others with none), each read as newsclean.cleaners.extract_html reads it: one parse, htmldate's
pick from trafilatura's metadata, then date_ranker.date_candidates. Every page is read twice, with
its URL and without (a file or a record without an address), so the model learns both. One row per
distinct candidate day; its label is 1 when the day is the page's publication date.

Two LightGBM binary models in LightGBM's text format (loading them runs no code), on the same
features: date_ranker.lgb.txt over the candidates with htmldate's pick, date_ranker_own.lgb.txt
over the page's own candidates alone (htmldate not asked). Cross-validated by site
(newsclean.cleaners.model.evaluate.fold_of: no site on both sides), on out-of-fold scores:
- the threshold under which the full model's best day is not given (the page gets no date from
  its HTML): the one with the most right dates among those that give no more wrong dates than
  htmldate's pick alone;
- `own_decides_at`, the score from which the own model's best day is the answer without htmldate
  (date_ranker.own_decides: and every other day's at most 1 - it): the lowest step of
  OWN_GATE_STEP, from OWN_GATE_LOWEST up, from which on every step loses no right date and adds no wrong one
  against the full model alone.
date_ranker.json holds the feature names, both thresholds and the cross-validated numbers
(htmldate's pick, the full model alone and the two together, on the same pages).
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
OWN_GATE_STEP = 0.05
# The lowest gate tried. Under 0.5 "best >= at, the others <= 1 - at" no longer sets the best day
# apart; from 0.5 the dev pages' out-of-fold dates are no worse, but on the 1,924 pages neither
# model saw (trafilatura's evaluation pages and the non-article pages, no date labels) the own
# model's answer differs from the full model's on 18 pages at 0.5, 15 at 0.6, 6 at 0.7, 4 at 0.8
# and 0 at 0.9 (bench/date_own_gate.py; of those checked by hand some better, some worse): it
# stands in for the full model only where its answer is nearly always the same.
OWN_GATE_LOWEST = 0.7
NEVER = 2.0  # an own_decides_at no score reaches: htmldate is always asked


@dataclass
class PageDays:
    """One page read one way (with or without its URL): its candidate days and their features."""

    id: str
    with_url: bool
    fold: int
    truth: dt.date | None  # None: no publication date (or only a month)
    dated: bool  # the page has a publication date in the truth (even a month alone)
    htmldate: dt.date | None
    days: list[dt.date]  # with htmldate's pick among the candidates
    rows: list[list[float]]
    own_days: list[dt.date]  # the page's own candidates alone
    own_rows: list[list[float]]


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
            own = dr.date_candidates(tree, page_url)
            days, rows = dr.day_features(dr.with_htmldate(own, doc.date))
            out.append(PageDays(p["id"], url is not None, fold_of(p, folds), _truth(p.get("published")),
                                bool(p.get("published")), dr._value_date(doc.date), days, rows,
                                *dr.day_features(own)))
        if (n + 1) % 100 == 0:
            log(f"  {n + 1}/{len(pages)} pages read ({time.perf_counter() - t0:.0f} s)")
    return out


def _days_rows(p: PageDays, own: bool) -> tuple[list[dt.date], list[list[float]]]:
    return (p.own_days, p.own_rows) if own else (p.days, p.rows)


def _matrix(pages: list[PageDays], own: bool = False) -> tuple[np.ndarray, np.ndarray]:
    X = [row for p in pages for row in _days_rows(p, own)[1]]
    y = [float(d == p.truth) for p in pages for d in _days_rows(p, own)[0]]
    return np.asarray(X, dtype=np.float64).reshape(-1, len(dr.FEATURES)), np.asarray(y)


def fit(pages: list[PageDays], own: bool = False):
    """The bag's members trained on the pages' candidate days (`own`: without htmldate's pick),
    merged into one booster."""
    import lightgbm as lgb

    from newsclean.cleaners.model.bagging import average_boosters

    X, y = _matrix(pages, own)
    return average_boosters([lgb.train(dict(PARAMS, seed=SEED + i * BAG_SEED_STEP),
                                       lgb.Dataset(X, label=y, feature_name=list(dr.FEATURES)), num_boost_round=ROUNDS)
                             for i in range(BAG)])


def _best(pages: list[PageDays], scores: list[np.ndarray]) -> list[tuple[dt.date | None, float]]:
    """Each page's best day by the full model and its score (None, -1 for a page without candidates)."""
    return [dr.best(p.days, s) for p, s in zip(pages, scores)]


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


def _out_of_fold(pages: list[PageDays], folds: int, own: bool) -> list[np.ndarray]:
    """Each page's candidate days' scores by the model of the folds without its site."""
    scores: list[np.ndarray] = [np.zeros(0)] * len(pages)
    for k in range(folds):
        model = fit([p for p in pages if p.fold != k], own)
        for i, p in enumerate(pages):
            rows = _days_rows(p, own)[1]
            if p.fold == k and rows:
                scores[i] = model.predict(np.asarray(rows, dtype=np.float64), num_threads=1)
    return scores


def gated(pages: list[PageDays], own_scores: list[np.ndarray], full_picks: list[dt.date | None],
          at: float) -> list[dt.date | None]:
    """The picks as published_date makes them: the own model's answer where it decides
    (date_ranker.own_decides at `at`), the full model's pick elsewhere."""
    out = []
    for p, scores, full in zip(pages, own_scores, full_picks):
        day = dr.own_decides(p.own_days, scores, at)
        out.append(full if day is None else day)
    return out


def choose_own_gate(pages: list[PageDays], own_scores: list[np.ndarray], full_picks) -> float:
    """The lowest step of OWN_GATE_STEP (OWN_GATE_LOWEST or more) from which on no step gives fewer
    right dates or more wrong ones than the full model alone (NEVER when even the top step does)."""
    alone = tally(pages, full_picks)
    at = NEVER
    for step in range(round(1 / OWN_GATE_STEP), round(OWN_GATE_LOWEST / OWN_GATE_STEP) - 1, -1):
        candidate = round(step * OWN_GATE_STEP, 6)  # the value date_ranker.json keeps, tried as such
        t = tally(pages, gated(pages, own_scores, full_picks, candidate))
        if t["date_exact"] < alone["date_exact"] or t["date_wrong"] > alone["date_wrong"]:
            break
        at = candidate
    return at


def cross_validate(pages: list[PageDays], folds: int = FOLDS) -> dict:
    """Out-of-fold best days by site folds, both thresholds chosen on them, and htmldate's pick, the
    full model alone and the two models together on each reading (with and without URL)."""
    best = _best(pages, _out_of_fold(pages, folds, own=False))
    baseline = tally(pages, [p.htmldate for p in pages])
    threshold = choose_threshold(pages, best, baseline["date_wrong"])
    full_picks = [d if s >= threshold else None for d, s in best]
    own_scores = _out_of_fold(pages, folds, own=True)
    own_decides_at = choose_own_gate(pages, own_scores, full_picks)
    picks = gated(pages, own_scores, full_picks, own_decides_at)
    decided = [dr.own_decides(p.own_days, s, own_decides_at) is not None for p, s in zip(pages, own_scores)]
    report = {"folds": folds, "threshold": round(threshold, 6), "own_decides_at": own_decides_at,
              "oracle": {}, "htmldate": {}, "full_model": {}, "ranker": {}, "own_decides": {}}
    for with_url in (True, False):
        mine = [i for i, p in enumerate(pages) if p.with_url == with_url]
        key = "with_url" if with_url else "without_url"
        sub = [pages[i] for i in mine]
        report["htmldate"][key] = tally(sub, [p.htmldate for p in sub])
        report["full_model"][key] = tally(sub, [full_picks[i] for i in mine])
        report["ranker"][key] = tally(sub, [picks[i] for i in mine])
        report["own_decides"][key] = round(sum(decided[i] for i in mine) / max(len(mine), 1), 4)
        report["oracle"][key] = round(sum(p.truth in p.days for p in sub if p.dated) / max(sum(p.dated for p in sub), 1), 4)
    report["picks"] = picks
    return report


def print_report(report: dict, log=print) -> None:
    log(f"{report['folds']}-fold CV by site; threshold {report['threshold']:.4f}, own model decides from "
        f"{report['own_decides_at']:.2f} (both chosen out of fold)")
    for key in ("with_url", "without_url"):
        h, f, r = report["htmldate"][key], report["full_model"][key], report["ranker"][key]
        log(f"  {key:11s} oracle {report['oracle'][key]:.4f}  htmldate exact {h['date_exact']:.4f} wrong {h['date_wrong']:.4f}"
            f" (undated given {h['undated_given']})  full model exact {f['date_exact']:.4f} wrong {f['date_wrong']:.4f}"
            f"  ranker exact {r['date_exact']:.4f} wrong {r['date_wrong']:.4f} (undated given {r['undated_given']};"
            f" htmldate not asked on {report['own_decides'][key]:.1%})")


def train(devset: Path, out: Path, log=print) -> dict:
    log(f"reading the dev pages' HTML under {devset}")
    pages = read_pages(devset, log=log)
    report = cross_validate(pages)
    print_report(report, log)
    out.mkdir(parents=True, exist_ok=True)
    for own, path in ((False, dr.MODEL_FILE), (True, dr.OWN_MODEL_FILE)):
        atomic_write_text(fit(pages, own).model_to_string(), out / path.name, permissions=0o644)
    meta = {"features": list(dr.FEATURES), "threshold": report["threshold"], "own_decides_at": report["own_decides_at"],
            "cv": {k: v for k, v in report.items() if k != "picks"}}
    atomic_write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", out / dr.META_FILE.name, permissions=0o644)
    log(f"saved {dr.MODEL_FILE.name}, {dr.OWN_MODEL_FILE.name} and {dr.META_FILE.name} to {out}")
    return report


def main(argv: list[str] | None = None) -> None:
    train(*training_cli(__doc__.split("\n")[0], dr.MODEL_DIR, argv))


if __name__ == "__main__":
    main()
