"""CV2 fold models trained with the non-article pages' true main content added as body labels (no
headline labels), then the pipeline scored on the held-out article and snippet pages, as
bench/cv_folds.py scores its folds. Tried and dropped (bench/RESULTS.md, "Tried and dropped").

    NC_SEED=1 .venv/bin/python bench/experiments/cv_other_pages.py TAG service,forum,product,documentation
    NC_SEED=1 NC_OTHER_WEIGHT=0.3 .venv/bin/python bench/experiments/cv_other_pages.py TAG service,forum,product,documentation

NC_OTHER_WEIGHT scales the other pages' line weights (default 1: as an article page's).

Folds and models go to bench/out/cv/TAG/ (fold0, fold1, pipeline.jsonl, snippets.jsonl); the other
pages are split by site like the article pages, so a fold never trains on a site it is scored on."""
import sys, os, json
from pathlib import Path
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from dataclasses import replace
from newsclean.cleaners.model import DEFAULTS, LineModel
from newsclean.cleaners.model import train as tr
from newsclean.cleaners.model.evaluate import fold_of, fold_of_group, corpus_of, clean_page, score, print_score, print_snippet_score
from newsclean.cleaners.model.score import snippet_score
from newsclean.cleaners.settings import Settings
tag = sys.argv[1]; kinds = set(sys.argv[2].split(','))
if os.environ.get("NC_SEED"):
    tr.PARAMS["seed"] = int(os.environ["NC_SEED"])
out = ROOT / 'bench' / 'out' / 'cv' / tag
pages = tr.load_jsonl(tr.DEVSET/"pages.jsonl.gz"); folds = [fold_of(p, 2) for p in pages]
spages = tr.load_jsonl(tr.DEVSET/"trafilatura-pages.jsonl.gz"); sfolds = [fold_of(p, 2) for p in spages]
opages = [p for p in tr.load_jsonl(tr.DEVSET/"other-pages.jsonl.gz") if p.get("valid") and p.get("truth") and p["page_type"] in kinds]
ofolds = [fold_of(p, 2) for p in opages]
print(len(opages), 'other pages', flush=True)
page_docs, snip_docs = tr.page_docs(pages), tr.snippet_docs(spages)
weight = float(os.environ.get("NC_OTHER_WEIGHT", "1"))
other_docs = [replace(d, title=None, titles=(), kind="other", w=d.w * weight) for d in tr.page_docs(opages)]
for k in range(2):
    if (out/f"fold{k}").exists():
        continue
    tr_idx = [i for i, f in enumerate(folds) if f != k]
    docs = [page_docs[i] for i in tr_idx]
    snip = [d for d in snip_docs if fold_of_group(d.group, 2) != k]
    oth = [d for d, f in zip(other_docs, ofolds) if f != k]
    train_docs = docs + snip + oth + tr.snippet_clean_docs(snip, tr.SEED) + tr.clean_docs(docs, [pages[i] for i in tr_idx], tr.SEED)
    tr.attach_context(train_docs, tr.build_corpus(docs + snip + oth), tr.SEED)
    print(f"fold {k}: train {len(docs)} pages + {len(snip)} snippet pages + {len(oth)} other pages", flush=True)
    m = LineModel(tr.train_models(train_docs), {"version": "cv", "title_bag": tr.BAG})
    tr.save(m.parts(), out/f"fold{k}", dict(m.meta, title_threshold=float(DEFAULTS["title_threshold"])))
preds = {}; spreds = {}
for k in range(2):
    model = LineModel.load(out/f"fold{k}")
    te = [p for p, f in zip(pages, folds) if f == k]
    stats = corpus_of(te)
    ste = [p for p, f in zip(spages, sfolds) if f == k]
    sstats = corpus_of(ste)
    spreds.update({p["id"]: clean_page(p, model, sstats, "pipeline", Settings()) for p in ste})
    for p in te:
        preds[p["id"]] = clean_page(p, model, stats, "pipeline", Settings())
print_score(score(pages, preds), f"{tag} pipeline")
with open(out/"pipeline.jsonl", "w") as f:
    for p in pages: f.write(json.dumps(preds[p["id"]]) + "\n")
print_snippet_score(snippet_score(spages, spreds), f"{tag} pipeline, snippet pages")
with open(out/"snippets.jsonl", "w") as f:
    for p in spages: f.write(json.dumps(spreds[p["id"]]) + "\n")
