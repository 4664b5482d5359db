"""CV2 fold models saved to disk (trained as `newsclean eval --cv 2` trains them), then the line model alone and/or the real pipeline scored on the
held-out halves, so title or decision changes can be measured without retraining every time.

    .venv/bin/python bench/cv_folds.py TAG train model pipeline   # train folds, score both ways
    .venv/bin/python bench/cv_folds.py TAG pipeline               # re-score with the saved folds

Folds as in `newsclean eval --cv 2` (cleaners/model/evaluate.py). Models and per-page predictions
go to bench/out/cv/TAG/ (fold0, fold1, model.jsonl, pipeline.jsonl). Stage boosters are cached in
bench/out/cv/fitcache by a hash of their training data, so a title-only change retrains only the
title models. NC_TT sets the saved folds' title_threshold (default: the packaged default); NC_SEED
the training seed (LightGBM's bagging and feature sampling; default: newsclean.cleaners.model.train.SEED).
NC_STUDENT="STAGE1,STAGE2[,LEARNING_RATE[,NUM_LEAVES]]" trains a different student chain (its trees
per stage and, optionally, its learning rate and leaves; the teacher bag unchanged), and
NC_TITLE_ROUNDS="TITLE,TITLE_GATE" the headline ranker's and gate's trees per bag member: the
speed/accuracy frontier of a leaner model, measured without editing train.py.
bench/cv_seeds.py runs this over several seeds.
"""
import sys
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent))
import sys, json, time, os
from pathlib import Path
import numpy as np
from newsclean.cleaners.model import DEFAULTS, LineModel, using
from newsclean.cleaners.model import train as tr, labels as lb
from newsclean.cleaners.model.evaluate import fold_of, fold_model, corpus_of, clean_page, score, print_score, print_snippet_score
from newsclean.cleaners.model.score import snippet_score
from newsclean.cleaners.corpus import CorpusStats
from newsclean.cleaners.settings import Settings

import hashlib, lightgbm as lgb
_orig_fit = tr._fit
def _cached_fit(X, y, w, rounds, names, params=None):
    h = hashlib.sha1(X.tobytes() + y.tobytes() + w.tobytes() + repr((rounds, names, params or tr.PARAMS)).encode()).hexdigest()
    f = (Path(__file__).resolve().parent / "out" / "cv" / "fitcache")/(h + ".txt")
    if f.exists():
        return lgb.Booster(model_file=str(f))
    b = _orig_fit(X, y, w, rounds, names, params)
    f.parent.mkdir(parents=True, exist_ok=True); b.save_model(str(f))
    return b
tr._fit = _cached_fit
_orig_fit_title = tr._fit_title
def _cached_fit_title(XT, ty, keep, doc_of_row):
    # the headline models read the teacher's body map only: a student variant reuses them
    h = hashlib.sha1(XT.tobytes() + ty.tobytes() + keep.tobytes() + doc_of_row.tobytes()
                     + repr((tr.ROUNDS["title"], tr.ROUNDS["title_gate"], tr.PARAMS, tr.TITLE_PARAMS, tr.BAG)).encode()).hexdigest()
    d = (Path(__file__).resolve().parent / "out" / "cv" / "fitcache")
    files = {n: d/f"{h}-{n}.txt" for n in ("title", "title_gate")}
    if all(f.exists() for f in files.values()):
        return {n: lgb.Booster(model_file=str(f)) for n, f in files.items()}
    out = _orig_fit_title(XT, ty, keep, doc_of_row)
    d.mkdir(parents=True, exist_ok=True)
    for n, f in files.items():
        out[n].save_model(str(f))
    return out
tr._fit_title = _cached_fit_title
if os.environ.get("NC_SEED"):
    tr.PARAMS["seed"] = int(os.environ["NC_SEED"])
if os.environ.get("NC_STUDENT"):
    _s = os.environ["NC_STUDENT"].split(",")
    tr.STUDENT_ROUNDS = {"stage1": int(_s[0]), "stage2": int(_s[1])}
    # the student is the one booster fitted with the cross-entropy objective (soft targets)
    _student = {k: t(v) for (k, t), v in zip((("learning_rate", float), ("num_leaves", int)), _s[2:])}
    _fit_base = tr._fit
    def _student_fit(X, y, w, rounds, names, params=None):
        if params and params.get("objective") == "cross_entropy":
            params = dict(params, **_student)
        return _fit_base(X, y, w, rounds, names, params)
    tr._fit = _student_fit
if os.environ.get("NC_TITLE_ROUNDS"):
    _t = os.environ["NC_TITLE_ROUNDS"].split(",")
    tr.ROUNDS = dict(tr.ROUNDS, title=int(_t[0]), title_gate=int(_t[1]))
tag = sys.argv[1]; what = sys.argv[2:]  # train / model / pipeline
out = Path(__file__).resolve().parent / "out" / "cv" / tag
pages = tr.load_jsonl(tr.DEVSET/"pages.jsonl.gz")
folds = [fold_of(p, 2) for p in pages]
spages = tr.load_jsonl(tr.DEVSET/"trafilatura-pages.jsonl.gz")
sfolds = [fold_of(p, 2) for p in spages]
if "train" in what:
    page_docs, snip_docs = tr.page_docs(pages), tr.snippet_docs(spages)
    for k in range(2):
        m = fold_model(pages, page_docs, snip_docs, folds, k, 2)
        tr.save(m.parts(), out/f"fold{k}",
                dict(m.meta, title_threshold=float(os.environ.get("NC_TT", DEFAULTS["title_threshold"]))))
preds = {}; mpreds = {}; spreds = {}
for k in range(2):
    model = LineModel.load(out/f"fold{k}")
    te = [p for p, f in zip(pages, folds) if f == k]
    stats = corpus_of(te)
    if "pipeline" in what:
        ste = [p for p, f in zip(spages, sfolds) if f == k]
        sstats = corpus_of(ste)
        spreds.update({p["id"]: clean_page(p, model, sstats, "pipeline", Settings()) for p in ste})
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
if spreds:
    print_snippet_score(snippet_score(spages, spreds), f"{tag} pipeline, snippet pages")
    with open(out/"snippets.jsonl", "w") as f:  # per page, to compare two runs snippet by snippet
        for p in spages:
            f.write(json.dumps(spreds[p["id"]]) + "\n")
