"""What the line pass on trafilatura's body costs, and what a cheaper one would give (a measurement
for the owners of cleaners/pipeline.py and cleaners/decide.py; it changes no code).

    .venv/bin/python bench/html_line_pass_options.py [--pages 461] [--rounds 3]

Variants of cleaners.pipeline.clean_document on the dev pages' HTML, round-robin, library caches
emptied before each pass (html_speed.clear_library_caches):
- shipped: as the code stands;
- cue_rules_only: while _clean_extracted runs on a trafilatura body (not on the visible-text
  fallback), cleaners.decide sees only the rules whose removals the HTML path keeps
  (extract_html.CUE_RULES | EDGE_RULES) instead of all of them;
- no_line_pass: trafilatura's body as extracted (with the headline fold and repeat removal of
  _clean_extracted, but no rule proposals at all): the floor of what any line pass can save.
Reported: docs per CPU-second (median of rounds), F1 and leak (shared/tools/score-devset), title
and date exact, and trafilatura.extract() defaults' rate in the same run for the ratio; with
--second N, the `with`/`without` snippet shares of shipped and cue_rules_only on trafilatura's
evaluation pages (untimed).
"""
from __future__ import annotations

import argparse
import contextlib
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
    ap.add_argument("--pages", type=int, default=None)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--second", type=int, default=0, help="also score shipped vs cue_rules_only on the first N pages "
                    "of trafilatura-pages.jsonl.gz (with/without snippets)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "html_line_pass_options.json")
    a = ap.parse_args(argv)
    import logging

    logging.disable(logging.CRITICAL)
    import trafilatura

    import cleaners.decide as decide
    import cleaners.pipeline as pipeline
    from bench_baselines import SCORER, load_pages, score
    from cleaners.extract_html import CUE_RULES, EDGE_RULES
    from cleaners.settings import Settings
    from cleaners.types import DocumentError, RawDocument
    from html_speed import _title_key, clear_library_caches

    pages = load_pages(a.pages)
    settings = Settings()
    all_rules = decide.RULES
    kept_rules = tuple(r for r in all_rules if getattr(r, "__name__", "") in CUE_RULES | EDGE_RULES)
    shipped_clean_extracted = pipeline._clean_extracted

    @contextlib.contextmanager
    def rules(subset):
        decide.RULES = subset
        try:
            yield
        finally:
            decide.RULES = all_rules

    def cue_only(ext, *args, **kwargs):
        if ext.fallback:
            return shipped_clean_extracted(ext, *args, **kwargs)
        with rules(kept_rules):
            return shipped_clean_extracted(ext, *args, **kwargs)

    def no_rules(ext, *args, **kwargs):
        if ext.fallback:
            return shipped_clean_extracted(ext, *args, **kwargs)
        with rules(()):
            return shipped_clean_extracted(ext, *args, **kwargs)

    variants = {"shipped": shipped_clean_extracted, "cue_rules_only": cue_only, "no_line_pass": no_rules}

    def run(variant, p):
        pipeline._clean_extracted = variants[variant]
        try:
            d = pipeline.clean_document(RawDocument(source=p["html"], data=p["html_bytes"], format="html"), settings)
            return d.text, d.title, (d.published.value.isoformat() if d.published else None)
        except DocumentError:
            return "", None, None
        finally:
            pipeline._clean_extracted = shipped_clean_extracted

    names = [*variants, "trafilatura"]
    for p in pages[:3]:
        for v in variants:
            run(v, p)
    cpu = {n: [] for n in names}
    outputs: dict = {n: {} for n in variants}
    for r in range(a.rounds):
        for name in names[r % len(names):] + names[: r % len(names)]:
            clear_library_caches()
            c0 = time.process_time()
            for p in pages:
                if name == "trafilatura":
                    trafilatura.extract(p["html_bytes"].decode("utf-8", errors="replace"))
                else:
                    out = run(name, p)
                    if r == 0:
                        outputs[name][p["id"]] = out
            cpu[name].append(time.process_time() - c0)
            print(f"  round {r + 1} {name:16s} {len(pages) / cpu[name][-1]:7.1f} docs/CPU-s", file=sys.stderr)
    import importlib.machinery
    import importlib.util

    loader = importlib.machinery.SourceFileLoader("score_devset", str(SCORER))
    sd = importlib.util.module_from_spec(importlib.util.spec_from_loader("score_devset", loader))
    loader.exec_module(sd)
    truth = {p["id"]: p for p in pages}
    n = len(pages)
    res: dict = {"pages": n, "rounds": a.rounds, "rules_kept": [r.__name__ for r in kept_rules]}
    traf = n / statistics.median(cpu["trafilatura"])
    res["trafilatura_docs_per_cpu_s"] = round(traf, 1)
    for name in variants:
        rate = n / statistics.median(cpu[name])
        dated = [pid for pid in outputs[name] if truth[pid].get("published")]
        res[name] = {"docs_per_cpu_s": round(rate, 1), "vs_trafilatura": round(rate / traf, 3),
                     **score({pid: o[0] for pid, o in outputs[name].items()}),
                     "title_exact": round(sum(bool(truth[pid]["title"]) and _title_key(sd, o[1]) == _title_key(sd, truth[pid]["title"])
                                              for pid, o in outputs[name].items()) / n, 3),
                     "date_exact": round(sum((outputs[name][pid][2] or "")[:10] == truth[pid]["published"][:10]
                                             for pid in dated) / max(len(dated), 1), 3)}
    if a.second:
        # trafilatura's evaluation pages (many sites and languages, no URL): share of `with`
        # snippets found (higher is better) and of `without` snippets found (lower is better)
        import gzip

        from bench_baselines import DEVSET
        with gzip.open(DEVSET / "trafilatura-pages.jsonl.gz", "rt", encoding="utf-8") as fh:
            second = [json.loads(line) for line in fh][: a.second]
        counts = {v: [0, 0, 0, 0] for v in ("shipped", "cue_rules_only")}
        for p in second:
            with gzip.open(DEVSET / p["html"], "rb") as fh:
                page = {"html": p["html"], "html_bytes": fh.read()}
            for v in counts:
                hay = " " + " ".join(sd.tokens(run(v, page)[0])) + " "
                for k, key in ((0, "with"), (2, "without")):
                    snippets = p.get(key) or []
                    counts[v][k] += sum(bool(t) and f" {t} " in hay for t in (" ".join(sd.tokens(x)) for x in snippets))
                    counts[v][k + 1] += len(snippets)
        res["second_source"] = {"pages": len(second), **{v: {"with_found": round(c[0] / max(c[1], 1), 4),
                                                             "without_found": round(c[2] / max(c[3], 1), 4)}
                                                         for v, c in counts.items()}}
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(res, indent=2) + "\n")
    print(json.dumps(res, indent=2))
    return res


if __name__ == "__main__":
    main()
