"""Train the page-kind models: is a page an article, and if not, what kind of page it is.

    python -m newsclean.cleaners.model.train_page_kind [--text] [--devset DIR] [--out DIR] [--features FILE]
                                                       [--seed N]

Pages: the 461 article pages of shared/devset/pages.jsonl.gz and the 934 labelled non-article pages
of other-pages.jsonl.gz (service, forum, collection, product, listing, documentation), each page's
HTML read by newsclean.cleaners.extract_html.extract_html with its URL, as the pipeline reads it,
and described by the features it carries (newsclean.cleaners.page_features).

One LightGBM booster, multiclass over CLASSES (an article, or one of the PAGE_TYPES), saved in
LightGBM's text format as page_kind.lgb.txt (loading it runs no code): a seed bag of BAG members
merged into one model whose raw scores are their mean (newsclean.cleaners.model.bagging); --seed
moves the bag's seeds, to see how much the cross-validated numbers owe to them (SEED is packaged).
P(not an article) is 1 - P(article); a non-article's kind is its likeliest PAGE_TYPE. The threshold
on P(not an article) is chosen on out-of-fold predictions, cross-validated by site (folds by the
URL's registrable domain, so no site is on both sides): the lowest threshold at which at least
TARGET_PRECISION of the pages over it are non-articles, never on the training fit. page_kind.json
holds the feature names, the classes, the threshold and the cross-validated numbers.
bench/page_kind.py prints the same cross-validation.

--text trains the text path's model (page_kind_text.lgb.txt and page_kind_text.json) the same way
on the same pages, each page's full-page `text` cleaned by the text path with the packaged line
model (newsclean.cleaners.pipeline.text_page_features_steps) and described by
newsclean.cleaners.text_page_features. A page the text path finds no body in is quarantined for
that already: it is not judged (it counts as an article here) and does not train the model.
The text model's json names the line model version its rows came from (`line_model`): retrain
it after the line model changes. --line-folds DIR computes each page's features with the line
model that did not train on its site (DIR/fold0, DIR/fold1: bench/cv_folds.py's two-fold models),
to measure what the packaged line model having trained on the article pages adds.
"""
from __future__ import annotations

import argparse
import gzip
import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from newsclean.cleaners.metadata.urls import domain_from_url
from newsclean.cleaners.model.evaluate import fold_of_group
from newsclean.cleaners.page_features import FEATURE_NAMES
from newsclean.cleaners.page_kind import TEXT_MODEL, is_whole_page
from newsclean.cleaners.text_page_features import TEXT_FEATURE_NAMES
from newsclean.cleaners.text_page_features import feature as text_feature
from newsclean.cleaners.shared_data import devset_dir, require_devset

MODEL_DIR = Path(__file__).resolve().parent / "files" / "page_kind"  # apart from the line model's files
SEED = 20261128
FOLDS = 5
TARGET_PRECISION = 0.97
ARTICLE = "article"
PAGE_TYPES = ("listing", "collection", "forum", "product", "service", "documentation")
CLASSES = (ARTICLE, *PAGE_TYPES)
PARAMS = dict(
    objective="multiclass", num_class=len(CLASSES), learning_rate=0.05, num_leaves=5, min_data_in_leaf=10,
    feature_fraction=0.5, bagging_fraction=0.8, bagging_freq=1, lambda_l2=1.0, seed=SEED, deterministic=True,
    force_row_wise=True, num_threads=1, verbose=-1, max_bin=63,
)
ROUNDS = 120  # small trees, few rounds: the bag's file is ~2 MB (7 classes x 4 members x ROUNDS trees)
# Members of the seed bag: one seed's feature sampling moves the cross-validated recall at the
# target precision by about 0.02; four members' mean is steadier.
BAG = 4
BAG_SEED_STEP = 1000


@dataclass
class PageRows:
    X: np.ndarray  # (pages, names)
    kind: np.ndarray  # ARTICLE or one of PAGE_TYPES
    group: np.ndarray  # the site: the URL's registrable domain
    ids: np.ndarray
    names: tuple[str, ...] = FEATURE_NAMES  # page_features' (HTML) or text_page_features'

    @property
    def text(self) -> bool:
        return self.names == TEXT_FEATURE_NAMES

    @property
    def y(self) -> np.ndarray:
        """1 for a page that is not an article."""
        return (self.kind != ARTICLE).astype(np.int32)

    @property
    def judged(self) -> np.ndarray:
        """The pages the pipeline judges: an HTML page as a site serves it (page_kind.is_whole_page),
        a text in which the text path found a body."""
        if self.text:
            return np.array([text_feature(tuple(x), "lines") > 0 for x in self.X], dtype=bool)
        return np.array([is_whole_page(tuple(x)) for x in self.X], dtype=bool)


def _pages(devset: Path) -> list[dict]:
    out = []
    for name, kind in (("pages.jsonl.gz", ARTICLE), ("other-pages.jsonl.gz", None)):
        with gzip.open(devset / name, "rt", encoding="utf-8") as fh:
            for line in fh:
                p = json.loads(line)
                out.append({"id": p["id"] if kind else "other-" + p["html"].rsplit("/", 1)[-1].split(".")[0],
                            "url": p.get("url"), "html": p["html"], "kind": kind or p["page_type"]})
    return out


def page_rows(devset: Path, log=print) -> PageRows:
    """Every dev page's features as extract_html computes them (pages it cannot read are left out)."""
    from newsclean.cleaners.extract_html import extract_html
    from newsclean.cleaners.types import DocumentError

    X, kinds, groups, ids = [], [], [], []
    t0 = time.perf_counter()
    pages = _pages(devset)
    for i, p in enumerate(pages):
        with gzip.open(devset / p["html"], "rb") as fh:
            data = fh.read()
        try:
            ext = extract_html(data, url=p["url"], page_kind=True)
        except DocumentError as err:
            log(f"  {p['id']}: {err}")
            continue
        X.append(ext.page)
        kinds.append(p["kind"])
        groups.append(domain_from_url(p["url"]) or p["id"])
        ids.append(p["id"])
        if (i + 1) % 200 == 0:
            log(f"  {i + 1}/{len(pages)} pages read ({time.perf_counter() - t0:.0f} s)")
    return PageRows(np.array(X, dtype=np.float64), np.array(kinds), np.array(groups), np.array(ids))


TEXT_BATCH = 64  # texts cleaned in one run_batch (the line model scores each round of them in one call)


def text_rows(devset: Path, line_folds: Path | None = None, log=print) -> PageRows:
    """Every dev page's text_page_features as the text path computes them from its full-page
    `text` (a page with no body left: a row of zeros, not judged). With `line_folds`, each page
    is scored by the fold line model that did not train on its site (see the module docstring)."""
    from contextlib import nullcontext

    from newsclean.cleaners.engine.scoring import run_batch
    from newsclean.cleaners.model import LineModel, using
    from newsclean.cleaners.model.evaluate import fold_of
    from newsclean.cleaners.pipeline import text_page_features_steps
    from newsclean.cleaners.settings import Settings
    from newsclean.cleaners.types import DocumentError

    pages = []
    for name, kind in (("pages.jsonl.gz", ARTICLE), ("other-pages.jsonl.gz", None)):
        with gzip.open(devset / name, "rt", encoding="utf-8") as fh:
            pages += [dict(json.loads(line), kind=kind) for line in fh]
    folds = [fold_of(p, 2) if line_folds is not None else 0 for p in pages]
    settings = Settings()
    X = np.zeros((len(pages), len(TEXT_FEATURE_NAMES)))
    t0 = time.perf_counter()
    for fold in sorted(set(folds)):
        mine = [i for i, f in enumerate(folds) if f == fold]
        model = LineModel.load(line_folds / f"fold{fold}") if line_folds is not None else None
        with using(model) if model is not None else nullcontext():
            for start in range(0, len(mine), TEXT_BATCH):
                chunk = mine[start:start + TEXT_BATCH]
                out = run_batch([text_page_features_steps(pages[i]["text"], settings) for i in chunk])
                for i, f in zip(chunk, out):
                    if isinstance(f, tuple):
                        X[i] = f
                    elif not isinstance(f, DocumentError):
                        raise f
                log(f"  fold {fold}: {start + len(chunk)}/{len(mine)} texts ({time.perf_counter() - t0:.0f} s)")
    kinds = np.array([p["kind"] or p["page_type"] for p in pages])
    groups = np.array([domain_from_url(p.get("url")) or p["id"] for p in pages])
    ids = np.array([p["id"] if p["kind"] else "other-" + p["html"].rsplit("/", 1)[-1].split(".")[0] for p in pages])
    return PageRows(X, kinds, groups, ids, TEXT_FEATURE_NAMES)


def save_rows(rows: PageRows, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, X=rows.X, kind=rows.kind, group=rows.group, ids=rows.ids,
                        names=np.array(rows.names))


def load_rows(path: Path, names: tuple[str, ...] = FEATURE_NAMES) -> PageRows | None:
    """Rows saved by save_rows, or None when they were computed with other features than `names`."""
    if not path.is_file():
        return None
    z = np.load(path)
    if tuple(z["names"]) != names:
        return None
    return PageRows(z["X"], z["kind"], z["group"], z["ids"], names)


def fit(X: np.ndarray, kinds: np.ndarray, names: tuple[str, ...] = FEATURE_NAMES, seed: int = SEED):
    """The bag's members (seeds `seed`, `seed` + BAG_SEED_STEP...) trained on the pages, merged into
    one booster."""
    import lightgbm as lgb

    from newsclean.cleaners.model.bagging import average_boosters

    labels = np.array([CLASSES.index(k) for k in kinds])
    members = [lgb.train(dict(PARAMS, seed=seed + i * BAG_SEED_STEP),
                         lgb.Dataset(X, label=labels, feature_name=list(names)), num_boost_round=ROUNDS)
               for i in range(BAG)]
    return average_boosters(members)


def _fit_rows(rows: PageRows, use: np.ndarray, seed: int = SEED):
    """fit on the rows `use` marks; a text model only on the pages it judges (the others are
    quarantined with no body before it looks)."""
    if rows.text:
        use = use & rows.judged
    return fit(rows.X[use], rows.kind[use], rows.names, seed)


def choose_threshold(p: np.ndarray, y: np.ndarray, precision: float = TARGET_PRECISION) -> float:
    """The lowest threshold t such that the pages with P >= t, and those over every higher
    threshold, are non-articles (y == 1) at `precision` or more: the highest recall at that
    precision. 1.0 when no threshold reaches it."""
    order = np.argsort(-p, kind="stable")
    ps, ys = p[order], y[order]
    tp = np.cumsum(ys)
    prec = tp / np.arange(1, len(ys) + 1)
    best = 1.0
    for i in range(len(ps)):
        if i + 1 < len(ps) and ps[i + 1] == ps[i]:
            continue  # a threshold takes every page of equal P
        if prec[i] < precision:
            break
        best = float(ps[i])
    return best


def _auc(p: np.ndarray, y: np.ndarray) -> float:
    ranks = np.empty(len(p))
    order = np.argsort(p, kind="stable")
    ranks[order] = np.arange(1, len(p) + 1)
    for v in np.unique(p):  # ties share their mean rank
        tied = p == v
        ranks[tied] = ranks[tied].mean()
    pos = y == 1
    return float((ranks[pos].sum() - pos.sum() * (pos.sum() + 1) / 2) / (pos.sum() * (~pos).sum()))


def cross_validate(rows: PageRows, folds: int = FOLDS, seed: int = SEED, also: PageRows | None = None) -> dict:
    """Out-of-fold P(not an article) and kinds, folds by site; the threshold chosen on them and
    the recall, precision and per-kind recall it gives. `also`: other rows with the same features
    (pages described another way), each scored by the model of its site's fold, which trains on
    `rows` only: report["also_oof"] and ["also_kind"], not judged ones at 0."""
    fold = np.array([fold_of_group(g, folds) for g in rows.group])
    also_fold = np.array([fold_of_group(g, folds) for g in also.group]) if also is not None else None
    y = rows.y
    proba = np.zeros((len(y), len(CLASSES)))
    also_proba = np.zeros((len(also.kind) if also is not None else 0, len(CLASSES)))
    for k in range(folds):
        test, train = fold == k, fold != k
        model = _fit_rows(rows, train, seed)
        proba[test] = model.predict(rows.X[test], num_threads=1)
        if also is not None and (also_fold == k).any():
            also_proba[also_fold == k] = model.predict(also.X[also_fold == k], num_threads=1)
    # a page the pipeline does not judge (PageRows.judged) stays an article
    p = np.where(rows.judged, 1.0 - proba[:, 0], 0.0)
    kind_pred = np.array(PAGE_TYPES)[proba[:, 1:].argmax(axis=1)]
    threshold = choose_threshold(p, y)
    flagged = p >= threshold
    tp = int((flagged & (y == 1)).sum())
    report = {
        "pages": int(len(y)), "articles": int((y == 0).sum()), "non_articles": int(y.sum()), "folds": folds,
        "judged": int(rows.judged.sum()),
        "auc": round(_auc(p, y), 4), "threshold": round(threshold, 6),
        "recall": round(tp / max(1, int(y.sum())), 4),
        "precision": round(tp / max(1, int(flagged.sum())), 4),
        "articles_flagged": int((flagged & (y == 0)).sum()),
        "kind_recall": {}, "kind_named": {},
    }
    for kind in PAGE_TYPES:
        mine = rows.kind == kind
        report["kind_recall"][kind] = round(float(flagged[mine].mean()), 4)
        # of the pages of this kind that are flagged, the share whose kind is named right
        named = mine & flagged
        report["kind_named"][kind] = round(float((kind_pred[named] == kind).mean()), 4) if named.any() else None
    report["oof"] = p
    report["oof_kind"] = kind_pred
    if also is not None:
        report["also_oof"] = np.where(also.judged, 1.0 - also_proba[:, 0], 0.0)
        report["also_kind"] = np.array(PAGE_TYPES)[also_proba[:, 1:].argmax(axis=1)]
    return report


def print_report(report: dict, log=print) -> None:
    log(f"pages {report['pages']} (articles {report['articles']}, non-articles {report['non_articles']}; "
        f"{report['judged']} judged), {report['folds']}-fold CV by site")
    log(f"AUC {report['auc']:.4f}; threshold {report['threshold']:.4f} (precision >= {TARGET_PRECISION}, out of fold)")
    log(f"non-articles recognised: recall {report['recall']:.4f} at precision {report['precision']:.4f} "
        f"({report['articles_flagged']} of {report['articles']} articles flagged)")
    log("kind            recall  kind named right (of those flagged)")
    for kind in PAGE_TYPES:
        named = report["kind_named"][kind]
        log(f"  {kind:14s} {report['kind_recall'][kind]:.4f}  {'-' if named is None else f'{named:.4f}'}")


def rows_for(devset: Path, text: bool, features: Path | None = None, line_folds: Path | None = None,
             log=print) -> PageRows:
    """The dev pages' rows for the HTML or the text model, reused from `features` (an .npz) when
    it holds rows of the same features, else computed (and saved there)."""
    rows = load_rows(features, TEXT_FEATURE_NAMES if text else FEATURE_NAMES) if features is not None else None
    if rows is None:
        if text:
            log(f"cleaning the dev pages' text under {devset}")
            rows = text_rows(devset, line_folds, log)
        else:
            log(f"reading the dev pages' HTML under {devset}")
            rows = page_rows(devset, log)
        if features is not None:
            save_rows(rows, features)
    return rows


def line_model_version(line_folds: Path | None = None) -> str:
    """The version of the line model whose output the text rows are: the packaged one's, or the
    two-fold models' under `line_folds` (their model.json's, which is not a packaged version)."""
    from newsclean.cleaners.model import LineModel

    if line_folds is not None:
        return f"{LineModel.load(line_folds / 'fold0').version} (two-fold models, {line_folds.name})"
    return LineModel.default().version


def train(devset: Path, out: Path, features: Path | None = None, log=print, text: bool = False,
          line_folds: Path | None = None, seed: int = SEED) -> dict:
    rows = rows_for(devset, text, features, line_folds, log)
    report = cross_validate(rows, seed=seed)
    print_report(report, log)
    model = _fit_rows(rows, np.ones(len(rows.kind), dtype=bool), seed)
    name = TEXT_MODEL if text else "page_kind"
    out.mkdir(parents=True, exist_ok=True)
    model.save_model(str(out / f"{name}.lgb.txt"))
    meta = {
        "features": list(rows.names), "classes": list(CLASSES), "threshold": report["threshold"],
        "target_precision": TARGET_PRECISION, "seed": seed,
        "cv": {k: v for k, v in report.items() if k not in ("oof", "oof_kind", "judged")},
    }
    if text:
        meta["cv"]["judged"] = report["judged"]
        # its rows are the line model's output: the version it read, so a line model of another
        # version tells that this one is stale (tests/test_train_page_kind.py)
        meta["line_model"] = line_model_version(line_folds)
    (out / f"{name}.json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    log(f"saved {name}.lgb.txt and {name}.json to {out}")
    return report


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--text", action="store_true", help="train the text path's model (page_kind_text)")
    ap.add_argument("--devset", type=Path, default=devset_dir())
    ap.add_argument("--out", type=Path, default=MODEL_DIR)
    ap.add_argument("--features", type=Path, default=None,
                    help="an .npz to reuse the pages' features from (computed and saved there when missing or when "
                         "the feature names changed; delete it after changing how a feature is computed)")
    ap.add_argument("--line-folds", type=Path, default=None,
                    help="with --text: score each page with the two-fold line model that did not train on its site")
    ap.add_argument("--seed", type=int, default=SEED, help="the bag's first seed (the packaged model's: the default)")
    args = ap.parse_args(argv)
    train(require_devset(args.devset), args.out, args.features, text=args.text, line_folds=args.line_folds,
          seed=args.seed)


if __name__ == "__main__":
    main()
