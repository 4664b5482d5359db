"""The HTML path against trafilatura alone, paired group by group, so that the machine's load moves
both sides alike.

    .venv/bin/python bench/html_ratio.py [--rounds 5] [--pages 461] [--out bench/out/html-ratio.json]

bench_baselines.py times each method over all pages in turn, and profile_html.py runs ours over
every page, then trafilatura: on a shared machine the load can change between the two halves, and
their ratio moved from 0.66 to 0.98 between two runs of the same code minutes apart. Here the dev
pages are cut into lock step groups of `lockstep_docs` (as a batch cleans them); for each group,
newsclean's HTML path (`clean_document_steps` in lock step, bench_baselines' `ours.batch`) and
trafilatura's `extract()` (its defaults) are timed one right after the other, in alternating order,
with every library cache emptied before each (html_speed.clear_library_caches: new pages). Reported:
the ratio of the summed CPU times (trafilatura's over ours: above 1.0 means ours is faster), per
round and pooled over the rounds, and the median and the 5th-95th percentiles of the per-group
ratios over all rounds.
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


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--pages", type=int, default=None)
    ap.add_argument("--warm-up", type=int, default=60, help="pages from the end of the dev set run first, untimed")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "html-ratio.json")
    a = ap.parse_args(argv)

    import logging

    logging.disable(logging.CRITICAL)
    import numpy as np

    from bench_baselines import html_methods, load_pages
    from html_speed import clear_library_caches
    from newsclean.cleaners.model import warm_up
    from newsclean.cleaners.settings import Settings

    everything = load_pages()
    pages = everything[: a.pages] if a.pages else everything
    methods = html_methods()
    ours, traf = methods["ours"], methods["trafilatura"]
    size = max(1, Settings().lockstep_docs)
    groups = [pages[i:i + size] for i in range(0, len(pages), size)]
    warm_up(freeze_gc=False)
    for p in everything[-a.warm_up:] if a.warm_up else []:
        ours(p)
        traf(p)

    def timed(run, group) -> float:
        clear_library_caches()
        t = time.process_time()
        run(group)
        return time.process_time() - t

    def traf_group(group):
        for p in group:
            traf(p)

    rounds, pairs = [], []
    for r in range(a.rounds):
        mine = theirs = 0.0
        for g, group in enumerate(groups):
            if (g + r) % 2 == 0:
                o = timed(ours.batch, group)
                t = timed(traf_group, group)
            else:
                t = timed(traf_group, group)
                o = timed(ours.batch, group)
            mine += o
            theirs += t
            pairs.append(t / o)
        rounds.append({"ours_ms_per_page": round(1000 * mine / len(pages), 2),
                       "trafilatura_ms_per_page": round(1000 * theirs / len(pages), 2),
                       "ratio": round(theirs / mine, 3)})
        print(f"round {r + 1}: ours {rounds[-1]['ours_ms_per_page']} ms/page, trafilatura "
              f"{rounds[-1]['trafilatura_ms_per_page']} ms/page, ratio {rounds[-1]['ratio']}", flush=True)
    pooled = sum(x["trafilatura_ms_per_page"] for x in rounds) / sum(x["ours_ms_per_page"] for x in rounds)
    report = {
        "pages": len(pages), "group": size, "rounds": rounds,
        "ratio_median_of_rounds": round(statistics.median(x["ratio"] for x in rounds), 3),
        "ratio_pooled": round(pooled, 3),
        "group_ratio_median": round(float(np.median(pairs)), 3),
        "group_ratio_p5_p95": [round(float(v), 3) for v in np.percentile(pairs, [5, 95])],
    }
    print(json.dumps({k: v for k, v in report.items() if k != "rounds"}))
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return report


if __name__ == "__main__":
    main()
