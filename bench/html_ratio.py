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

--gc as-run: each side under the garbage collector settings it runs with. newsclean's workers call
newsclean.cleaners.model.warm_up() before their first document (everything loaded so far frozen,
the young generation's threshold raised); a caller of trafilatura runs under Python's defaults.
Each group is then timed three times, in turn: ours under warm_up's thresholds, trafilatura under
Python's defaults (`ratio`), and trafilatura under warm_up's thresholds too (`ratio_same_settings`).
The default, --gc same, times both under Python's defaults with nothing frozen.
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
    ap.add_argument("--gc", choices=("same", "as-run"), default="same",
                    help="as-run: ours under warm_up()'s garbage collector settings, trafilatura under Python's "
                         "defaults and, for the same-settings ratio of the same run, under ours")
    a = ap.parse_args(argv)

    import gc
    import logging

    logging.disable(logging.CRITICAL)
    import numpy as np

    from bench_baselines import html_methods, load_pages
    from html_speed import clear_library_caches
    from newsclean.cleaners.model import warm_up
    from newsclean.cleaners.settings import Settings

    python_default = gc.get_threshold()
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

    def traf_group(group):
        for p in group:
            traf(p)

    # (name, run, gc thresholds): trafilatura's time over ours' is each named ratio
    runs = [("ours", ours.batch, python_default), ("trafilatura", traf_group, python_default)]
    if a.gc == "as-run":
        warm_up()  # as a worker does: what is alive now frozen, the young generation's threshold raised
        workers = gc.get_threshold()
        runs = [("ours", ours.batch, workers), ("trafilatura", traf_group, python_default),
                ("trafilatura_same_settings", traf_group, workers)]

    def timed(run, group, threshold) -> float:
        gc.set_threshold(*threshold)
        clear_library_caches()
        t = time.process_time()
        run(group)
        return time.process_time() - t

    rounds, pairs = [], {name: [] for name, _, _ in runs[1:]}
    # each ratio's key suffix: "ratio" for trafilatura as it runs, "ratio_same_settings" for the other
    suffix = {name: "" if name == "trafilatura" else "_" + name.removeprefix("trafilatura_") for name in pairs}
    for r in range(a.rounds):
        total = dict.fromkeys((name for name, _, _ in runs), 0.0)
        for g, group in enumerate(groups):
            k = (g + r) % len(runs)  # each side first in turn
            spent = {name: timed(run, group, th) for name, run, th in runs[k:] + runs[:k]}
            for name, v in spent.items():
                total[name] += v
            for name in pairs:
                pairs[name].append(spent[name] / spent["ours"])
        row = {f"{name}_ms_per_page": round(1000 * v / len(pages), 2) for name, v in total.items()}
        row.update({f"ratio{suffix[name]}": round(total[name] / total["ours"], 3) for name in pairs})
        rounds.append(row)
        print(f"round {r + 1}: " + ", ".join(f"{k} {v}" for k, v in row.items()), flush=True)
    gc.set_threshold(*python_default)
    ours_ms = sum(x["ours_ms_per_page"] for x in rounds)
    report = {"pages": len(pages), "group": size, "gc": a.gc, "rounds": rounds,
              "ratio_median_of_rounds": round(statistics.median(x["ratio"] for x in rounds), 3)}
    for name, values in pairs.items():
        key = suffix[name]
        report[f"ratio{key}_pooled"] = round(sum(x[f"{name}_ms_per_page"] for x in rounds) / ours_ms, 3)
        report[f"group_ratio{key}_median"] = round(float(np.median(values)), 3)
        report[f"group_ratio{key}_p5_p95"] = [round(float(v), 3) for v in np.percentile(values, [5, 95])]
    print(json.dumps({k: v for k, v in report.items() if k != "rounds"}))
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return report


if __name__ == "__main__":
    main()
