"""The cross-validated dev score over several training seeds: its spread, and a paired comparison.

    .venv/bin/python bench/cv_seeds.py TAG [--seeds 20261121,1,2,3] [--train]

With --train, bench/cv_folds.py trains the CV2 fold models once per seed (NC_SEED) into
bench/out/cv/TAG-sSEED/ and scores the real pipeline on the held-out halves; without it, the saved
fold models of each seed are scored again with the current code (a change to the decision step,
compared on the same models). Prints each seed's F1, leak and title exact match on the 461 dev
pages and the snippet pages' F1, then the mean and range. The fold models' randomness (LightGBM's
bagging and feature sampling) moves the F1 between seeds (bench/RESULTS.md, "Accuracy"), so a
change to the model is judged on the mean over seeds.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from newsclean.cleaners.model import train as tr  # noqa: E402
from newsclean.cleaners.model.evaluate import score  # noqa: E402
from newsclean.cleaners.model.score import snippet_score  # noqa: E402

CV = ROOT / "bench" / "out" / "cv"


def _scores(tag: str, pages: list[dict], spages: list[dict]) -> dict:
    def load(name: str) -> list[dict]:
        return [json.loads(line) for line in (CV / tag / name).read_text(encoding="utf-8").splitlines()]

    s = score(pages, {p["id"]: x for p, x in zip(pages, load("pipeline.jsonl"))})
    sn = snippet_score(spages, {p["id"]: x for p, x in zip(spages, load("snippets.jsonl"))})
    return {"F1": s["F1"], "leak": s["leak"], "title": s["title"], "snippets F1": sn["F1"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tag")
    ap.add_argument("--seeds", default=f"{tr.SEED},1,2,3")
    ap.add_argument("--train", action="store_true", help="train each seed's fold models (else re-score saved ones)")
    args = ap.parse_args(argv)
    pages = tr.load_jsonl(tr.DEVSET / "pages.jsonl.gz")
    spages = tr.load_jsonl(tr.DEVSET / "trafilatura-pages.jsonl.gz")
    rows = {}
    for seed in args.seeds.split(","):
        tag = f"{args.tag}-s{seed}"
        steps = ["train", "pipeline"] if args.train else ["pipeline"]
        subprocess.run([sys.executable, str(ROOT / "bench" / "cv_folds.py"), tag, *steps], check=True,
                       env={**os.environ, "NC_SEED": seed}, stdout=subprocess.DEVNULL)
        rows[seed] = _scores(tag, pages, spages)
        print(f"seed {seed:>10}: " + "  ".join(f"{k} {v:.4f}" for k, v in rows[seed].items()), flush=True)
    for k in next(iter(rows.values())):
        vals = [r[k] for r in rows.values()]
        print(f"{k:>12}: mean {statistics.mean(vals):.4f}  range {min(vals):.4f}-{max(vals):.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
