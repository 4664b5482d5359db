"""HTML path against trafilatura alone: docs per CPU-second, round-robin in one process, same pages.

    .venv/bin/python bench/html_speed.py [--rounds 3] [--pages 461] [--before OLD_extract_html.py]
        [--page-body] [--score] [--out bench/out/html_speed.json]

Methods (each round runs every method over all pages; the order of the methods rotates from round
to round, so machine noise and warm-up hit all of them alike):
- ours: newsclean.cleaners.pipeline.clean_document on an html RawDocument (no URL, as bench_baselines.py);
- ours-page (with --page-body): the same with html_body = "page" (newsclean.cleaners.page_body);
- trafilatura: trafilatura.extract(html) with its defaults (the issue's comparator);
- trafilatura+metadata (with --with-metadata-baseline): trafilatura doing the same job as our path,
  body plus title, date and author: bare_extraction(include_comments=False, with_metadata=True), the
  reference of shared/devset/README.md for title and date;
- before (with --before): clean_document with an older cleaners/extract_html.py patched in, to
  show a change's effect in the same run.
Before every method's pass the functools caches of trafilatura, htmldate, courlan, dateparser and
justext, and newsclean.cleaners.shape's word memo, are emptied: each round then sees the pages as new pages, as a corpus does
(otherwise rounds 2+ of a method would find last round's per-string results cached); ours and
before each put their own metadata stand-ins (extract_html._install_shortcuts) back before their pass.
Reported per method: median over rounds of pages / CPU seconds (process_time), the per-round
values, and the ratio to trafilatura; with --score, the F1 and leak of the first round's output
(shared/tools/score-devset) and, for ours/before, title and date accuracy against the truth.
"""
from __future__ import annotations

import argparse
import functools
import inspect
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

CACHED_PACKAGES = ("trafilatura", "htmldate", "courlan", "dateparser", "justext")
# Caches keyed by an argument that is a process's resource, not page content: justext's lower-cased
# stop list of all languages (the same tuple every call: 80 ms to rebuild, paid once per process in a
# real run), the date formats dateparser has inspected, a character's printable class. They stay.
RESOURCE_CACHES = frozenset({"justext.core.define_stoplist", "dateparser.utils.strptime._inspect_format",
                             "trafilatura.utils.return_printables_and_spaces"})


def clear_library_caches() -> int:
    """Empty every functools.lru_cache/cache of the extraction libraries that memoises results per
    argument (per string, per date expression), newsclean.cleaners.shape's per-text memos (words, prose facts, folded forms), the line
    features' last token lists and last call's lines (newsclean.cleaners.engine.features.forget_lines)
    and the rules' proposals by text (newsclean.cleaners.rules.clear_caches). Caches of functions
    without arguments are resources a process loads once (htmldate's dateparser instance and its
    month names from every dateparser locale, justext's stop lists) and stay, as do those of
    RESOURCE_CACHES and cleaners' other caches (the model, the registry)."""
    from newsclean.cleaners import rules, shape
    from newsclean.cleaners.model import features

    if hasattr(shape, "clear_caches"):  # words, prose facts and folded forms by text
        shape.clear_caches()
    else:  # older code trees: the same memos, where they have them
        for memo in ("_WORDS_CACHE", "_PROSE_FACTS", "_FOLD_CACHE"):
            getattr(shape, memo, {}).clear()
    getattr(features, "_TOKENS_BY_LINE", {}).clear()  # the last page's token lists
    from newsclean.cleaners.engine import features as engine_features

    getattr(engine_features, "forget_lines", lambda: None)()  # the last call's lines (older trees keep none)
    if hasattr(rules, "clear_caches"):  # the rules' proposals by text (older code trees have none)
        rules.clear_caches()
    n = 0
    for name, mod in list(sys.modules.items()):
        if mod is None or not name.startswith(CACHED_PACKAGES):
            continue
        for attr in list(vars(mod).values()):
            clear = getattr(attr, "cache_clear", None)
            if callable(clear) and isinstance(attr, functools._lru_cache_wrapper):
                if f"{attr.__module__}.{attr.__qualname__}" in RESOURCE_CACHES:
                    continue
                try:  # a cached function of no arguments loads a resource once per process: keep it
                    if not inspect.signature(attr.__wrapped__).parameters:
                        continue
                except (TypeError, ValueError):
                    pass
                clear()
                n += 1
    return n


def _title_key(sd, text) -> str:
    return " ".join(sd.tokens(text or ""))


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--pages", type=int, default=None)
    ap.add_argument("--before", type=Path, help="an older cleaners/extract_html.py to time alongside")
    ap.add_argument("--with-metadata-baseline", action="store_true",
                    help="also time trafilatura doing our job: bare_extraction(include_comments=False, with_metadata=True)")
    ap.add_argument("--score", action="store_true", help="score the first round's outputs (F1, leak, title, date)")
    ap.add_argument("--page-body", action="store_true",
                    help='also time the HTML path with html_body = "page" (the body chosen over the whole page) as "ours-page"')
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "html_speed.json")
    a = ap.parse_args(argv)

    import logging

    logging.disable(logging.CRITICAL)
    import trafilatura

    import newsclean.cleaners.pipeline as pipeline
    from bench_baselines import load_pages, score
    from newsclean.cleaners.settings import Settings
    from newsclean.cleaners.types import DocumentError, RawDocument

    pages = load_pages(a.pages)
    settings = Settings()
    current = pipeline.extract_html
    methods: dict = {}

    def ours_with(extract_fn, settings=settings):
        module = sys.modules[extract_fn.__module__]

        def run(p):
            pipeline.extract_html = extract_fn
            try:
                d = pipeline.clean_document(RawDocument(source=p["html"], data=p["html_bytes"], format="html"), settings)
                return d.text, d.title, (d.published.value.isoformat() if d.published else None)
            except DocumentError:
                return "", None, None
            finally:
                pipeline.extract_html = current

        def own_stand_ins():
            # each copy of extract_html puts its own metadata stand-ins in trafilatura's and
            # htmldate's modules, and they act inside that copy's shortcuts only: the copy about to
            # run puts its own back (else the copy installed last would run both copies' pages)
            if hasattr(module, "_install_shortcuts"):
                module._shortcuts_installed = False
                module._install_shortcuts()

        run.before_pass = own_stand_ins
        return run

    methods["ours"] = ours_with(current)
    if a.page_body:
        methods["ours-page"] = ours_with(current, Settings(html_body="page"))
    methods["trafilatura"] = lambda p: (trafilatura.extract(p["html_bytes"].decode("utf-8", errors="replace")) or "", None, None)
    if a.with_metadata_baseline:
        def traf_meta(p):
            d = trafilatura.bare_extraction(p["html_bytes"].decode("utf-8", errors="replace"), include_comments=False, with_metadata=True)
            return ((d.text or "", d.title, d.date) if d is not None else ("", None, None))
        methods["trafilatura+metadata"] = traf_meta
    if a.before:
        from html_identity import load_module
        methods["before"] = ours_with(load_module(a.before).extract_html)

    # warm-up outside the timed passes: imports, lazy tables, compiled patterns
    for fn in methods.values():
        if hasattr(fn, "before_pass"):
            fn.before_pass()
        for p in pages[:3]:
            fn(p)

    names = list(methods)
    cpu = {n: [] for n in names}
    outputs: dict[str, dict] = {n: {} for n in names}
    for r in range(a.rounds):
        order = names[r % len(names):] + names[: r % len(names)]
        for name in order:
            clear_library_caches()
            fn = methods[name]
            if hasattr(fn, "before_pass"):
                fn.before_pass()
            c0 = time.process_time()
            for p in pages:
                out = fn(p)
                if r == 0:
                    outputs[name][p["id"]] = out
            cpu[name].append(time.process_time() - c0)
            print(f"  round {r + 1} {name:12s} {len(pages) / cpu[name][-1]:7.1f} docs/CPU-s", file=sys.stderr)
    n = len(pages)
    res: dict = {"pages": n, "rounds": a.rounds, "date_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime())}
    for name in names:
        res[name] = {"docs_per_cpu_s": round(n / statistics.median(cpu[name]), 1),
                     "rounds_docs_per_cpu_s": [round(n / c, 1) for c in cpu[name]]}
    for name in names:
        if name != "trafilatura":
            res[name]["vs_trafilatura"] = round(res[name]["docs_per_cpu_s"] / res["trafilatura"]["docs_per_cpu_s"], 3)
    if a.score:
        import importlib.machinery
        import importlib.util

        from bench_baselines import SCORER

        loader = importlib.machinery.SourceFileLoader("score_devset", str(SCORER))
        sd = importlib.util.module_from_spec(importlib.util.spec_from_loader("score_devset", loader))
        loader.exec_module(sd)
        truth = {p["id"]: p for p in pages}
        for name in names:
            res[name].update(score({pid: o[0] for pid, o in outputs[name].items()}))
            if name == "trafilatura":
                continue
            dated = [pid for pid in outputs[name] if truth[pid].get("published")]
            res[name]["title_exact"] = round(sum(bool(truth[pid]["title"]) and _title_key(sd, o[1]) == _title_key(sd, truth[pid]["title"])
                                                 for pid, o in outputs[name].items()) / n, 3)
            res[name]["date_exact"] = round(sum((outputs[name][pid][2] or "")[:10] == truth[pid]["published"][:10]
                                                for pid in dated) / max(len(dated), 1), 3)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(res, indent=2) + "\n")
    print(json.dumps(res, indent=2))
    return res


if __name__ == "__main__":
    main()
