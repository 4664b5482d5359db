"""Profile the hot path with pyinstrument and save the text reports in bench/out/ (git-ignored).

    .venv/bin/python bench/profile_hot_path.py [--pages 461] [--html 100] [--interval 0.001] [--warm-up]

- bench/out/profile-text.txt: newsclean.cleaners.pipeline.clean_texts over the dev pages' full-page text (--lockstep at a time);
- bench/out/profile-html.txt: newsclean.cleaners.pipeline.clean_document on the first --html pages' HTML;
- bench/out/profile-stages.json: CPU seconds per stage of the text path, measured without a
  profiler (normalise_lines vs the decision passes vs the rest), so the profile's proportions can
  be checked against unprofiled time; and each component's CPU seconds and share of clean_text
  (process_time around each call, garbage collection timed by gc.callbacks) on a round with the
  text caches emptied ("shares_cold": new pages, as a corpus brings them; the profile too) and on a
  warm round ("shares": every line's text-only rules cached, as a corpus's repeated templates). A
  sampling profile on a loaded machine counts wall time; these do not.

With --budget, the text cleaner and trafilatura.extract on the same pages' HTML are timed in the same
process, uninstrumented, in --budget-rounds paired rounds (one right after the other, alternating,
every cache of page content emptied before each side): the headline is the median of the rounds'
ratios of ours to the text-mode target's budget (a tenth of trafilatura's time: a rate 10x its
rate). Each component of the cold round is set against that budget too: "budget" in
profile-stages.json, and the tables it prints.
"""
from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pyinstrument import Profiler  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from html_speed import clear_library_caches  # noqa: E402

from newsclean.cleaners.lines import normalise_lines  # noqa: E402
from newsclean.cleaners.pipeline import clean_document, clean_texts  # noqa: E402
from newsclean.cleaners.settings import Settings  # noqa: E402
from newsclean.cleaners.shared_data import devset_dir  # noqa: E402
from newsclean.cleaners.types import DocumentError, RawDocument  # noqa: E402

DEVSET = devset_dir()
OUT = ROOT / "bench" / "out"


def _pages(limit: int | None) -> list[dict]:
    with gzip.open(DEVSET / "pages.jsonl.gz", "rt", encoding="utf-8") as fh:
        pages = [json.loads(line) for line in fh]
    return pages[:limit] if limit else pages


def _profile(fn, items, interval: float) -> str:
    prof = Profiler(interval=interval)
    prof.start()
    for it in items:
        try:
            fn(it)
        except DocumentError:
            pass
    prof.stop()
    return prof.output_text(unicode=True, color=False, show_all=False)


def clean_all(texts: list[str], settings: Settings) -> int:
    """The text path over `texts`, settings.lockstep_docs at a time (newsclean.cleaners.pipeline.clean_texts:
    each decision pass of a group scored in one call), as newsclean.cleaners.batch cleans a batch. Returns
    how many texts ended in a DocumentError; any other error is raised (a broken cleaner must not
    pass for a fast one)."""
    size = max(1, settings.lockstep_docs)
    failed = 0
    for i in range(0, len(texts), size):
        for outcome in clean_texts(texts[i:i + size], settings):
            if isinstance(outcome, DocumentError):
                failed += 1
            elif isinstance(outcome, BaseException):
                raise outcome
    return failed


def stages(pages: list[dict], settings: Settings) -> dict:
    texts = [p["text"] for p in pages]
    c0 = time.process_time()
    for t in texts:
        normalise_lines(t, settings.keep_curly_quotes)
    c1 = time.process_time()
    failed = clean_all(texts, settings)
    c2 = time.process_time()
    n = len(texts)
    return {"docs": n, "no_body": failed, "normalise_cpu_s": round(c1 - c0, 3), "clean_text_cpu_s": round(c2 - c1, 3),
            "rest_cpu_s": round((c2 - c1) - (c1 - c0), 3), "docs_per_cpu_s": round(n / (c2 - c1), 1),
            "ms_per_doc": round(1000 * (c2 - c1) / n, 2)}


def cpu_shares(pages: list[dict], settings: Settings, rounds: int = 2, cold: bool = False) -> dict:
    """CPU seconds of each component of clean_text (nested: a component's time includes what it
    calls) on the last of `rounds` rounds over the pages, and garbage collection by generation.
    With `cold`, the text caches are emptied before each round (html_speed.clear_library_caches):
    what new pages cost.
    Without, the last round finds every line's text-only rules cached (a corpus's templates)."""
    import gc
    from collections import Counter

    import newsclean.cleaners.decide as decide_mod
    import newsclean.cleaners.engine.features as engine_fx
    import newsclean.cleaners.rules as rules_mod
    import newsclean.cleaners.model as model_mod
    import newsclean.cleaners.model.features as fx
    import newsclean.cleaners.pipeline as pipeline_mod

    acc: Counter = Counter()
    clock = time.process_time
    patched = []

    def wrap(mod, name, key):
        orig = getattr(mod, name)

        def timed(*args, **kwargs):
            t = clock()
            try:
                return orig(*args, **kwargs)
            finally:
                acc[key] += clock() - t
        setattr(mod, name, timed)
        patched.append((mod, name, orig))

    wrap(pipeline_mod, "normalise_lines", "normalise_lines")
    wrap(decide_mod, "propose_document", "rules (propose_document)")
    proposer = rules_mod._DEFAULT
    entry_before = proposer._entry

    def timed_entry(line, doc, plan=None):
        t = clock()
        try:
            return entry_before(line, doc, plan)
        finally:
            acc["  text-only rules, first sight of a text"] += clock() - t
    proposer._entry = timed_entry
    import newsclean.cleaners.engine.rule_conditions as conditions_mod

    wrap(conditions_mod, "first_look", "  rule conditions and word counts (one polars pass per group)")
    wrap(model_mod.LineModel, "analyse_many", "line model (analyse_many: a group's pass in one call)")
    wrap(engine_fx, "batch_features", "  line features (batch_features)")
    wrap(fx, "stage2_features_many", "  stage2_features_many")
    wrap(fx, "title_columns_many", "  title_columns_many (the headline features of a group)")
    wrap(fx, "title_candidates", "  title_candidates")
    wrap(pipeline_mod, "read_text_metadata", "metadata (date, author, outlet from the text)")
    model = model_mod.LineModel.default()
    predict_before = dict(model._predict)
    for name, fn in list(model._predict.items()):
        def timed_predict(X, _fn=fn):
            t = clock()
            try:
                return _fn(X)
            finally:
                acc["  tree prediction"] += clock() - t
        model._predict[name] = timed_predict
    started = [0.0]

    def on_gc(phase, info):
        if phase == "start":
            started[0] = clock()
        else:
            acc[f"garbage collection (gen {info['generation']})"] += clock() - started[0]
    gc.callbacks.append(on_gc)
    try:
        for _ in range(rounds):
            if cold:
                clear_library_caches()
            acc.clear()
            t = clock()
            clean_all([p["text"] for p in pages], settings)
            total = clock() - t
    finally:
        gc.callbacks.remove(on_gc)
        for mod, name, orig in patched:
            setattr(mod, name, orig)
        model._predict.update(predict_before)
        del proposer._entry  # back to the class's method
    # the decision passes: everything but normalisation and the metadata
    acc["decision passes (rules, model, decide)"] = total - acc["normalise_lines"] - acc["metadata (date, author, outlet from the text)"]
    out = {"caches": "emptied before each round (new pages)" if cold else "warm (every text seen before)",
           "docs": len(pages), "lockstep_docs": settings.lockstep_docs, "clean_text_cpu_s": round(total, 3), "docs_per_cpu_s": round(len(pages) / total, 1),
           "compiled_trees": all(getattr(f, "compiled", False) for f in predict_before.values())}
    out["components"] = {k: {"cpu_s": round(v, 3), "share": round(v / total, 3)} for k, v in acc.most_common()}
    return out


TARGET_MULTIPLE = 10  # the text-mode target: 10x trafilatura's rate on the same pages as HTML


def paired_budget(pages: list[dict], settings: Settings, rounds: int = 3) -> dict:
    """The text cleaner on new pages against trafilatura.extract on the same pages' HTML
    (bench_baselines.html_methods' call, as bench/html_ratio.py times it), neither instrumented, timed
    round by round one right after the other in alternating order, every cache of page content
    emptied before each side (html_speed.clear_library_caches): new pages for both. Per round, CPU-ms
    a page of each and ours against the budget (a tenth of trafilatura's time); the medians, and the
    median of the rounds' own ratios (the machine's load moves both sides of a round alike)."""
    import statistics

    from bench_baselines import html_methods, load_pages

    texts = [p["text"] for p in pages]
    html_pages = load_pages(len(pages))
    extract = html_methods()["trafilatura"]

    def ours() -> float:
        clear_library_caches()
        t = time.process_time()
        clean_all(texts, settings)
        return 1000 * (time.process_time() - t) / len(texts)

    def theirs() -> float:
        clear_library_caches()
        t = time.process_time()
        for p in html_pages:
            extract(p)
        return 1000 * (time.process_time() - t) / len(html_pages)

    per_round = []
    for r in range(rounds):
        if r % 2 == 0:
            o = ours()
            t = theirs()
        else:
            t = theirs()
            o = ours()
        per_round.append({"ours_ms_per_doc": round(o, 2), "trafilatura_ms_per_doc": round(t, 2),
                          "times_budget": round(o / (t / TARGET_MULTIPLE), 2)})
    return {"rounds": per_round,
            "ours_ms_per_doc": round(statistics.median(x["ours_ms_per_doc"] for x in per_round), 2),
            "trafilatura_ms_per_doc": round(statistics.median(x["trafilatura_ms_per_doc"] for x in per_round), 2),
            "times_budget": round(statistics.median(x["times_budget"] for x in per_round), 2)}


def budget(cold_shares: dict, trafilatura_ms: float) -> dict:
    """Each component's CPU milliseconds per document on new pages, and how many times the whole
    per-document budget of the text-mode target it takes by itself."""
    def ms_per_doc(cpu_s: float) -> float:
        return 1000 * cpu_s / cold_shares["docs"]

    per_doc_ms = ms_per_doc(cold_shares["clean_text_cpu_s"])
    allowed_ms = trafilatura_ms / TARGET_MULTIPLE
    parts = {name: {"ms_per_doc": round(ms_per_doc(v["cpu_s"]), 2),
                    "times_budget": round(ms_per_doc(v["cpu_s"]) / allowed_ms, 2)}
             for name, v in cold_shares["components"].items()}
    return {"trafilatura_ms_per_doc": round(trafilatura_ms, 2), "target_multiple": TARGET_MULTIPLE,
            "budget_ms_per_doc": round(allowed_ms, 2), "clean_text_ms_per_doc": round(per_doc_ms, 2),
            "clean_text_times_budget": round(per_doc_ms / allowed_ms, 2), "components": parts}


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=int, default=None)
    ap.add_argument("--html", type=int, default=100)
    ap.add_argument("--interval", type=float, default=0.001)
    ap.add_argument("--warm-up", action="store_true",
                    help="first call newsclean.cleaners.model.warm_up() as a worker does (model load, gc.freeze, gc threshold)")
    ap.add_argument("--lockstep", type=int, default=Settings().lockstep_docs,
                    help="documents cleaned in lock step, their passes scored in one call (Settings.lockstep_docs; 1: one at a time)")
    ap.add_argument("--budget", action="store_true",
                    help="time trafilatura on the same pages' HTML and set each component against the "
                         "text-mode target's budget per document (10x trafilatura's rate)")
    ap.add_argument("--budget-rounds", type=int, default=3,
                    help="with --budget: paired rounds of ours and trafilatura, uninstrumented (the headline ratio is their median)")
    a = ap.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    settings = Settings(lockstep_docs=a.lockstep)
    pages = _pages(a.pages)
    if a.warm_up:
        import newsclean.cleaners.model

        newsclean.cleaners.model.warm_up()
    st = stages(pages, settings)
    st["warm_up"] = a.warm_up
    st["shares_cold"] = cpu_shares(pages, settings, cold=True)
    st["shares"] = cpu_shares(pages, settings)
    if a.budget:
        paired = paired_budget(pages, settings, a.budget_rounds)
        st["budget"] = budget(st["shares_cold"], paired["trafilatura_ms_per_doc"])
        st["budget"]["paired"] = paired
    (OUT / "profile-stages.json").write_text(json.dumps(st, indent=2) + "\n")
    clear_library_caches()  # profile new pages, as a corpus brings them
    report = _profile(lambda group: clean_all(group, settings),
                      [[p["text"] for p in pages[i:i + a.lockstep]] for i in range(0, len(pages), a.lockstep)], a.interval)
    (OUT / "profile-text.txt").write_text(report)
    print(f"text path: {st['docs_per_cpu_s']} docs/CPU-s ({st['ms_per_doc']} ms/doc; {st['no_body']} with no body), normalise {st['normalise_cpu_s']} s "
          f"of {st['clean_text_cpu_s']} s; profile in {OUT / 'profile-text.txt'}")
    for key, label in (("shares_cold", "cold round (text caches emptied)"), ("shares", "warm round")):
        sh = st[key]
        print(f"{label}: {sh['docs_per_cpu_s']} docs/CPU-s; CPU shares of clean_text:")
        for name, v in sh["components"].items():
            print(f"  {name:42s} {v['cpu_s']:7.3f} s  {100 * v['share']:5.1f}%")
    if a.budget:
        b = st["budget"]
        print(f"budget: trafilatura {b['trafilatura_ms_per_doc']} CPU-ms per page, so {TARGET_MULTIPLE}x its rate "
              f"leaves {b['budget_ms_per_doc']} ms a document; clean_text on new pages takes "
              f"{b['clean_text_ms_per_doc']} ms ({b['clean_text_times_budget']}x the budget); by itself:")
        for name, v in b["components"].items():
            print(f"  {name:42s} {v['ms_per_doc']:7.2f} ms  {v['times_budget']:5.2f}x the budget")
        pb = b["paired"]
        print(f"paired, uninstrumented (median of {len(pb['rounds'])} rounds): ours {pb['ours_ms_per_doc']} against "
              f"trafilatura {pb['trafilatura_ms_per_doc']} CPU-ms a page: {pb['times_budget']}x the budget "
              f"(rounds {', '.join(str(x['times_budget']) for x in pb['rounds'])})")
    if a.html:
        def html(p):
            with gzip.open(DEVSET / p["html"], "rb") as fh:
                data = fh.read()
            return clean_document(RawDocument(source=p["html"], data=data, format="html"), settings)
        (OUT / "profile-html.txt").write_text(_profile(html, pages[:a.html], a.interval))
        print(f"html path: profile in {OUT / 'profile-html.txt'}")
    return st


if __name__ == "__main__":
    main()
