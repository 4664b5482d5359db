"""Evaluate the cleaner on the development pages' `text` (shared/devset/pages.jsonl.gz).

    .venv/bin/python bench/eval_devset.py [--pred PRED.jsonl]            # packaged model, real pipeline
    .venv/bin/python bench/eval_devset.py --cv 2                         # 2-fold cross-validation
    .venv/bin/python bench/eval_devset.py --mode model                   # model alone, no rules

Prints pages, F1<0.5, P, R, leak, F1 exactly as shared/tools/score-devset computes them on the
written PRED.jsonl, plus the title exact-match rate (lower case, punctuation and spaces folded).
In --cv mode the model is trained on one half of the pages (split by site, plus the snippet pages
and kind-(b) texts built from that half only) and scores the other half, then the halves swap;
the written PRED.jsonl holds every page's out-of-fold prediction.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
import unicodedata
import zlib
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cleaners.corpus import CorpusStats  # noqa: E402
from cleaners.model import LineModel  # noqa: E402
from cleaners.model import labels as lb  # noqa: E402
from cleaners.model import train as tr  # noqa: E402

DROP = {cp: None for cp in range(sys.maxunicode + 1) if unicodedata.category(chr(cp))[0] in "PS"}


# --- the scorer's metric, verbatim from shared/tools/score-devset
def tokens(text):
    return unicodedata.normalize("NFKC", text or "").lower().translate(DROP).split()


def prf(pred, true):
    if not pred or not true:
        return (0.0, 0.0, 0.0) if true else ((1.0, 1.0, 1.0) if not pred else (0.0, 1.0, 0.0))
    ov = sum((Counter(pred) & Counter(true)).values())
    p, r = ov / len(pred), ov / len(true)
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def leak(pred, true, snippets):
    hay, truth = " " + " ".join(pred) + " ", " " + " ".join(true) + " "
    snips = [" " + " ".join(s) + " " for s in map(tokens, snippets)]
    snips = [s for s in snips if len(s.split()) >= 3 and s not in truth]
    return sum(s in hay for s in snips) / len(snips) if snips else None


def score(pages: list[dict], preds: dict[str, dict]) -> dict:
    rows = []
    for page in pages:
        pr = preds.get(page["id"], {})
        pt, tt = tokens(pr.get("text", "")), tokens(page["truth"])
        p, r, f = prf(pt, tt)
        rows.append({"P": p, "R": r, "F1": f, "missing": page["id"] not in preds,
                     "leak": leak(pt, tt, page.get("boilerplate_snippets", [])),
                     "title": lb.fold_title(pr.get("title")) == lb.fold_title(page.get("title"))})
    n = len(rows)
    leaks = [x["leak"] for x in rows if x["leak"] is not None]
    return {"pages": n, "missing": sum(x["missing"] for x in rows),
            "F1<0.5": sum(x["F1"] < 0.5 for x in rows),
            "P": sum(x["P"] for x in rows) / n, "R": sum(x["R"] for x in rows) / n,
            "leak": sum(leaks) / len(leaks), "F1": sum(x["F1"] for x in rows) / n,
            "title": sum(x["title"] for x in rows) / n}


def print_score(s: dict, label: str = "") -> None:
    if label:
        print(f"== {label}")
    print(f"pages {s['pages']}  missing {s['missing']}  F1<0.5: {s['F1<0.5']}")
    print(f"P {s['P']:.3f}  R {s['R']:.3f}  leak {s['leak']:.3f}")
    print(f"F1 {s['F1']:.3f}")
    print(f"title exact match {s['title']:.3f}")


# --- cleaning one page
def clean_page(page: dict, model: LineModel, stats: CorpusStats | None, mode: str, settings=None) -> dict:
    key = tr.site_key(page.get("url"))
    if mode == "model":
        lines = tr.norm_lines(page["text"])
        ctx = stats.doc_context(lines, key) if stats is not None else None
        p, t = model.analyse(lines, ctx)
        keep = [s for i, (s, q) in enumerate(zip(lines, p)) if q < model.debris_threshold and i != t]
        return {"id": page["id"], "text": "\n\n".join(keep), "title": lines[t] if t is not None else None}
    from cleaners.pipeline import clean_text
    from cleaners.types import DocumentError
    try:
        doc = clean_text(page["text"], settings, source=page["id"], meta={"url": page.get("url")},
                         **_pipeline_kwargs(model, stats, key))
    except DocumentError:
        return {"id": page["id"], "text": "", "title": None}
    return {"id": page["id"], "text": doc.text, "title": doc.title}


def _pipeline_kwargs(model, stats, key) -> dict:
    """Hand the model and the corpus pass to the pipeline, if its clean_text accepts them."""
    import inspect

    from cleaners.pipeline import clean_text
    params = inspect.signature(clean_text).parameters
    kw = {}
    if "model" in params:
        kw["model"] = model
    if "corpus" in params:
        kw["corpus"] = stats
    if "site_key" in params:
        kw["site_key"] = key
    return kw


def run(pages, model, stats, mode, settings):
    return {p["id"]: clean_page(p, model, stats, mode, settings) for p in pages}


def fold_of(page: dict, k: int) -> int:
    return zlib.crc32(tr._group(page.get("url"), page["id"]).encode()) % k


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--devset", type=Path, default=tr.DEVSET)
    ap.add_argument("--pred", type=Path, default=Path("PRED.jsonl"))
    ap.add_argument("--cv", type=int, default=0, help="k-fold cross-validation (2 = halves)")
    ap.add_argument("--mode", choices=("pipeline", "model"), default="pipeline")
    ap.add_argument("--model-dir", type=Path, default=None)
    ap.add_argument("--no-corpus", action="store_true", help="skip the corpus repetition pass")
    ap.add_argument("--limit", type=int, default=0)
    a = ap.parse_args(argv)

    from cleaners.settings import Settings
    settings = Settings()
    pages = tr.load_jsonl(a.devset / "pages.jsonl.gz")
    if a.limit:
        pages = pages[: a.limit]
    t0 = time.time()
    preds: dict[str, dict] = {}
    if a.cv:
        all_docs = tr.page_docs(pages)
        snip = tr.snippet_docs(tr.load_jsonl(a.devset / "trafilatura-pages.jsonl.gz"))
        snip_clean = tr.snippet_clean_docs(snip, tr.SEED)
        folds = [fold_of(p, a.cv) for p in pages]
        for k in range(a.cv):
            tr_idx = [i for i, f in enumerate(folds) if f != k]
            te = [pages[i] for i, f in enumerate(folds) if f == k]
            docs = [all_docs[i] for i in tr_idx]
            clean = tr.clean_docs(docs, [pages[i] for i in tr_idx], tr.SEED)
            train_docs = docs + snip + snip_clean + clean
            tstats = tr.build_corpus(docs + snip)
            tr.attach_context(train_docs, tstats, tr.SEED)
            print(f"fold {k}: train {len(docs)} pages, test {len(te)}", flush=True)
            model = LineModel(tr.train_models(train_docs), {"version": "cv"})
            stats = None if a.no_corpus else CorpusStats.build((tr.norm_lines(p["text"]), tr.site_key(p.get("url"))) for p in te)
            fp = run(te, model, stats, a.mode, settings)
            print_score(score(te, fp), f"fold {k} ({len(te)} pages)")
            preds.update(fp)
    else:
        model = LineModel.load(a.model_dir) if a.model_dir else LineModel.default()
        stats = None if a.no_corpus else CorpusStats.build((tr.norm_lines(p["text"]), tr.site_key(p.get("url"))) for p in pages)
        preds = run(pages, model, stats, a.mode, settings)
    with open(a.pred, "w", encoding="utf-8") as f:
        for p in pages:
            f.write(json.dumps({"id": p["id"], "text": preds[p["id"]]["text"],
                                "title": preds[p["id"]]["title"]}, ensure_ascii=False) + "\n")
    print_score(score(pages, preds), f"{'cv%d' % a.cv if a.cv else 'in-sample'} {a.mode} ({time.time() - t0:.0f}s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
