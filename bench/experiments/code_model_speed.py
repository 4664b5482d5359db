"""The packaged boosters under LLVM's two code models (lleaves' `fcodemodel`): the same rows, the
same bits, the time a row. The small code model is not shipped: a process that loaded the
compiled boosters under it crashed (bench/RESULTS.md, "Tried and dropped";
small-code-model.patch beside this file is the change that was tried).

    .venv/bin/python bench/experiments/code_model_speed.py [--pages 461] [--repeats 5] [--out bench/out/code-model-speed.json]

The rows are the line model's own: the text path (clean_texts, lock step groups of 32) runs over
the dev pages' text and every row matrix a booster is asked to score is kept. Each packaged model
file is then compiled twice, under "large" (lleaves' default, newsclean's) and "small", without
the cache; both score the kept rows in alternation, one thread, and the least CPU time over the
repeats is kept. The predictions must be
equal bit for bit. (The headline ranker's first-quarter screen scores from a temporary file cut
from title.lgb.txt: not compiled here.)
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from newsclean.cleaners.model import FILES  # noqa: E402
from newsclean.cleaners.settings import Settings  # noqa: E402

MODELS = ("large", "small")


def kept_rows(texts: list[str]) -> dict[str, np.ndarray]:
    """Every row matrix the packaged boosters score while the text path cleans `texts`, by model file name."""
    import lleaves

    from profile_hot_path import clean_all

    kept: dict[str, list[np.ndarray]] = {}
    real = lleaves.Model.predict

    def keeping(self, data, n_jobs=None):
        kept.setdefault(Path(self.model_file).name, []).append(np.array(data))
        return real(self, data, n_jobs)

    lleaves.Model.predict = keeping
    try:
        clean_all(texts, Settings())
    finally:
        lleaves.Model.predict = real
    packaged = {p.name for p in Path(FILES).glob("*.lgb.txt")}
    return {name: np.concatenate(arrays) for name, arrays in kept.items() if name in packaged}


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=461)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "code-model-speed.json")
    args = ap.parse_args(argv)
    import lleaves

    from bench_baselines import load_pages

    texts = [page["text"] for page in load_pages(args.pages)]
    rows = kept_rows(texts)
    out: dict = {"pages": len(texts), "boosters": {}}
    totals = dict.fromkeys(MODELS, 0.0)
    for name, X in sorted(rows.items()):
        models = {}
        for code_model in MODELS:
            model = lleaves.Model(model_file=str(Path(FILES) / name))
            model.compile(fblocksize=model.num_trees(), finline=False, fcodemodel=code_model)
            models[code_model] = model
        best = dict.fromkeys(MODELS, float("inf"))
        scores = {}
        for _ in range(args.repeats):
            for code_model, model in models.items():
                t = time.process_time()
                scores[code_model] = model.predict(X, n_jobs=1)
                best[code_model] = min(best[code_model], time.process_time() - t)
        same = all(np.array_equal(scores[MODELS[0]], scores[m]) for m in MODELS[1:])
        if not same:
            raise SystemExit(f"{name}: the code models' predictions differ")
        for m in MODELS:
            totals[m] += best[m]
        out["boosters"][name] = {"rows": len(X), **{f"{m}_us_a_row": round(best[m] / len(X) * 1e6, 3) for m in MODELS},
                                 "identical": same}
        print(f"{name:22s} {len(X):>8,} rows  " + "  ".join(f"{m} {best[m] / len(X) * 1e6:6.3f} µs a row" for m in MODELS))
    out["ms_a_page"] = {m: round(totals[m] / len(texts) * 1000, 3) for m in MODELS}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    print("all of them, CPU-ms a page:", out["ms_a_page"])
    return out


if __name__ == "__main__":
    main()
