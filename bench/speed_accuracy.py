"""The text path's speed against what buys its accuracy: the line model, the rules, the later
decision passes, each timed on the same pages in one process.

    .venv/bin/python bench/speed_accuracy.py [--rounds 5] [--pages 461] [--out bench/out/speed_accuracy.json]

Variants (every round runs each over the dev pages' full-page text; the order rotates from round
to round, and every cache that remembers a line or a page is emptied before each pass, so each pass
sees the pages as new ones, as a corpus does):
- shipped: newsclean.cleaners.pipeline.clean_text as packaged (one stage 1 -> stage 2 chain distilled from a
  seed bag of four, line-model-8; line-model-6 was the bag itself);
- rules only: the same pipeline with Settings(use_model=False);
- model alone, one pass: LineModel.analyse once on each page's normalised lines, no rules and no
  later passes: what the features and trees cost by themselves;
- C4-style line filter: bench_baselines.c4_filter, the speed floor of a rule-list filter.

Prints pages per CPU-second (median over rounds, process time) and each variant's ratio to
shipped, and for the whole-pipeline variants the in-sample F1 of the first round against the truth
(the dev pages trained the packaged model, so this column is optimistic; the cross-validated F1 of
the shipped chain, of the bag and of single chains comes from bench/cv_seeds.py and is quoted in
bench/RESULTS.md).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_baselines import c4_filter  # noqa: E402
from html_speed import clear_library_caches  # noqa: E402

from newsclean.cleaners.lines import normalise_lines  # noqa: E402
from newsclean.cleaners.model import LineModel, using, warm_up  # noqa: E402
from newsclean.cleaners.model.score import score  # noqa: E402
from newsclean.cleaners.pipeline import clean_text  # noqa: E402
from newsclean.cleaners.settings import Settings  # noqa: E402
from newsclean.cleaners.shared_data import devset_dir  # noqa: E402
from newsclean.cleaners.types import DocumentError  # noqa: E402

DEVSET = devset_dir()


def pipeline(settings: Settings, model: LineModel | None):
    def run(pages: list[dict]) -> dict[str, dict]:
        out = {}
        with using(model):
            for p in pages:
                try:
                    art = clean_text(p["text"], settings)
                except DocumentError:
                    continue
                out[p["id"]] = {"text": art.text, "title": art.title}
        return out
    return run


def model_alone(model: LineModel):
    def run(pages: list[dict]) -> None:
        for p in pages:
            lines = [ln for ln in normalise_lines(p["text"]) if ln]
            if lines:
                model.analyse(lines)
    return run


def c4(pages: list[dict]) -> dict[str, dict]:
    return {p["id"]: {"text": c4_filter(p["text"]), "title": None} for p in pages}


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--pages", type=int, default=461)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "speed_accuracy.json")
    args = ap.parse_args(argv)
    import gzip

    with gzip.open(DEVSET / "pages.jsonl.gz", "rt", encoding="utf-8") as fh:
        pages = [json.loads(line) for line in fh][:args.pages]
    shipped = warm_up()  # as a worker starts: the model loaded and compiled, the heap frozen
    variants = {
        "shipped": pipeline(Settings(), shipped),
        "rules only (no model)": pipeline(Settings(use_model=False), None),
        "model alone, one pass": model_alone(shipped),
        "C4-style line filter": c4,
    }
    names = list(variants)
    cpu: dict[str, list[float]] = {name: [] for name in names}
    f1: dict[str, float] = {}
    for r in range(args.rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        for name in order:
            clear_library_caches()  # each pass sees the pages as new
            t = time.process_time()
            preds = variants[name](pages)
            cpu[name].append(time.process_time() - t)
            if preds is not None and name not in f1:
                f1[name] = score(pages, preds)["F1"]
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    rate = {name: len(pages) / statistics.median(cpu[name]) for name in names}
    base = rate[names[0]]
    result = {"pages": len(pages), "rounds": args.rounds, "variants": {
        name: {"pages_per_cpu_s": round(rate[name], 1), "ratio_to_shipped": round(rate[name] / base, 2),
               "per_round_cpu_s": [round(x, 3) for x in cpu[name]],
               "in_sample_F1": round(f1[name], 4) if name in f1 else None} for name in names}}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1), encoding="utf-8")
    print(f"{'variant':36} {'pages/CPU-s':>12} {'x shipped':>10} {'F1 (in sample)':>15}")
    for name, row in result["variants"].items():
        f = "" if row["in_sample_F1"] is None else f"{row['in_sample_F1']:.4f}"
        print(f"{name:36} {row['pages_per_cpu_s']:12.1f} {row['ratio_to_shipped']:10.2f} {f:>15}")
    return result


if __name__ == "__main__":
    main()
