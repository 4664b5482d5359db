"""Tree prediction time of saved CV2 fold models (bench/cv_folds.py) in the real text pipeline:
CPU-ms a page spent in each booster's predict, the packaged compiled path (or LightGBM's with
NEWSCLEAN_COMPILED_MODEL=0), with the trees each booster holds. Compares a leaner student with the
baseline on the same 461 dev pages.

    .venv/bin/python bench/lean_speed.py TAG [TAG ...] [--repeats 3]

Each page runs through clean_text with its held-out fold's model, as bench/cv_folds.py scores it;
every booster's predict call is timed in thread CPU time (the machine may be busy), and the least
total over the repeats is kept.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from newsclean.cleaners.model import LineModel  # noqa: E402
from newsclean.cleaners.model import train as tr  # noqa: E402
from newsclean.cleaners.model.evaluate import clean_page, corpus_of, fold_of  # noqa: E402
from newsclean.cleaners.settings import Settings  # noqa: E402

CV = ROOT / "bench" / "out" / "cv"


def _timed(fn, name: str, spent: dict):
    def run(X):
        t = time.thread_time()
        try:
            return fn(X)
        finally:
            spent[name] = spent.get(name, 0.0) + time.thread_time() - t
    return run


def measure(tag: str, pages: list[dict], folds: list[int], repeats: int) -> tuple[dict, dict, bool]:
    """CPU seconds per booster over all pages (least over repeats), trees per booster (fold 0's), compiled or not."""
    best: dict[str, float] = {}
    trees: dict[str, int] = {}
    compiled = True
    models = [LineModel.load(CV / tag / f"fold{k}") for k in range(2)]
    for k, m in enumerate(models):
        for name in m._predict:
            compiled &= bool(getattr(m._predict[name], "compiled", False))
            if k == 0:
                trees[name] = m.booster(name).num_trees()
    tests = [[p for p, f in zip(pages, folds) if f == k] for k in range(2)]
    stats = [corpus_of(te) for te in tests]
    originals = [(dict(m._predict), m._title_first) for m in models]
    for _ in range(repeats):
        spent: dict[str, float] = {}
        for k, m in enumerate(models):
            m._predict = {n: _timed(f, n, spent) for n, f in originals[k][0].items()}
            if originals[k][1] is not None:
                m._title_first = _timed(originals[k][1], "title_first", spent)
            t = time.thread_time()
            for p in tests[k]:
                clean_page(p, m, stats[k], "pipeline", Settings())
            spent["page"] = spent.get("page", 0.0) + time.thread_time() - t
        for n, s in spent.items():
            best[n] = min(best.get(n, s), s)
    return best, trees, compiled


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tags", nargs="+")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    pages = tr.load_jsonl(tr.DEVSET / "pages.jsonl.gz")
    folds = [fold_of(p, 2) for p in pages]
    base = None
    for tag in args.tags:
        best, trees, compiled = measure(tag, pages, folds, args.repeats)
        ms = {n: 1000 * s / len(pages) for n, s in best.items()}
        page = ms.pop("page")
        student = ms.get("stage1", 0) + ms.get("stage2", 0)
        total = sum(ms.values())
        base = base or (student, total)
        print(f"{tag}: {'compiled' if compiled else 'LightGBM'}  trees " + " ".join(f"{n} {t}" for n, t in sorted(trees.items()))
              + f"\n  CPU-ms/page " + " ".join(f"{n} {v:.3f}" for n, v in sorted(ms.items()))
              + f"\n  student {student:.3f} ({student / base[0]:.2f}x)  all trees {total:.3f} ({total / base[1]:.2f}x)  whole clean_text {page:.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
