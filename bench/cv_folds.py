"""CV2 fold models saved to disk, then the line model alone and/or the real pipeline scored on the
held-out halves, so title or decision changes can be measured without retraining every time.

    .venv/bin/python bench/cv_folds.py TAG train model pipeline   # train folds, score both ways
    .venv/bin/python bench/cv_folds.py TAG pipeline               # re-score with the saved folds

Folds as in `newsclean eval --cv 2` (cleaners/model/evaluate.py). Models and per-page predictions
go to bench/out/cv/TAG/ (fold0, fold1, model.jsonl, pipeline.jsonl). Stage boosters are cached in
bench/out/cv/fitcache by a hash of their training data, so a title-only change retrains only the
title models. NC_TT sets the saved folds' title_threshold (default: the packaged default).
"""
import sys
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent))
import sys, json, time, os
from pathlib import Path
import numpy as np
from cleaners.model import DEFAULTS, LineModel, using
from cleaners.model import train as tr, labels as lb
from cleaners.model.evaluate import fold_of, clean_page, score, print_score
from cleaners.corpus import CorpusStats
from cleaners.settings import Settings

import hashlib, lightgbm as lgb
_orig_fit = tr._fit
def _cached_fit(X, y, w, rounds, names):
    h = hashlib.sha1(X.tobytes() + y.tobytes() + w.tobytes() + repr((rounds, names, tr.PARAMS)).encode()).hexdigest()
    f = (Path(__file__).resolve().parent / "out" / "cv" / "fitcache")/(h + ".txt")
    if f.exists():
        return lgb.Booster(model_file=str(f))
    b = _orig_fit(X, y, w, rounds, names)
    f.parent.mkdir(parents=True, exist_ok=True); b.save_model(str(f))
    return b
tr._fit = _cached_fit
tag = sys.argv[1]; what = sys.argv[2:]  # train / model / pipeline
out = Path(__file__).resolve().parent / "out" / "cv" / tag
pages = tr.load_jsonl(tr.DEVSET/"pages.jsonl.gz")
folds = [fold_of(p, 2) for p in pages]
if "train" in what:
    all_docs = tr.page_docs(pages)
    snip = tr.snippet_docs(tr.load_jsonl(tr.DEVSET/"trafilatura-pages.jsonl.gz"))
    snip_clean = tr.snippet_clean_docs(snip, tr.SEED)
    for k in range(2):
        tr_idx = [i for i, f in enumerate(folds) if f != k]
        docs = [all_docs[i] for i in tr_idx]
        clean = tr.clean_docs(docs, [pages[i] for i in tr_idx], tr.SEED)
        train_docs = docs + snip + snip_clean + clean
        tstats = tr.build_corpus(docs + snip)
        tr.attach_context(train_docs, tstats, tr.SEED)
        m = tr.train_models(train_docs)
        tr.save(m, out/f"fold{k}", {"version": "cv", "title_threshold": float(os.environ.get("NC_TT", DEFAULTS["title_threshold"]))})
preds = {}; mpreds = {}
for k in range(2):
    model = LineModel.load(out/f"fold{k}")
    te = [p for p, f in zip(pages, folds) if f == k]
    stats = CorpusStats.build((tr.norm_lines(p["text"]), tr.site_key(p.get("url"))) for p in te)
    for p in te:
        if "model" in what:
            mpreds[p["id"]] = clean_page(p, model, stats, "model")
        if "pipeline" in what:
            preds[p["id"]] = clean_page(p, model, stats, "pipeline", Settings())
for name, pr in (("model", mpreds), ("pipeline", preds)):
    if pr:
        print_score(score(pages, pr), f"{tag} {name}")
        with open(out/f"{name}.jsonl", "w") as f:
            for p in pages:
                f.write(json.dumps(pr[p["id"]]) + "\n")
