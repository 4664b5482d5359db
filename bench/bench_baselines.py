"""Side by side, in one run, on the same documents: our cleaner against the tools users would pick.

    .venv/bin/python bench/bench_baselines.py [--rounds 3] [--pages 461] [--prefect-docs 2000]
        [--skip text,html,prefect] [--out bench/out/baselines.json] [--warm-up]

Text group, on the full-page `text` of the dev pages (shared/devset/pages.jsonl.gz):
- ours: newsclean.cleaners.pipeline.clean_texts, Settings.lockstep_docs texts at a time as a batch is cleaned
  (one process, one core);
- c4: a C4-style line filter (c4_filter below; Raffel et al. 2020, TFDS c4_utils): keep lines that
  end in terminal punctuation and have >= 5 words, drop lines mentioning javascript or cookie and
  policy boilerplate, drop the page on "lorem ipsum" or a curly brace or < 3 sentences;
- justext: jusText with the English stop list, on the text's blocks wrapped in <p> elements.
HTML group, on the same pages' original HTML (shared/devset/html/):
- ours: newsclean.cleaners.pipeline.clean_document_steps on html RawDocuments (trafilatura + the line cleaner),
  Settings.lockstep_docs pages at a time as a batch is cleaned (run_batch);
- trafilatura: trafilatura.extract(html) with its defaults;
- resiliparse: resiliparse.extract.html2text.extract_plain_text(html, main_content=True);
- justext: jusText on the HTML.
Methods run round-robin (`--rounds` rounds) so machine noise hits all of them alike; each
method's docs/s is the median over rounds of docs / CPU seconds of this process (process_time)
and of docs / wall seconds. Ratios are against baselines measured in the same run. Quality: the
bag-of-tokens F1 and leak of each method's output, scored by shared/tools/score-devset.

Prefect group: on a generated corpus (--prefect-docs documents), `newsclean run` (the flow) against
the same work without Prefect (`--plain-run`: discover, corpus statistics, clean_sources in a
multiprocessing pool over the same batches, validate and write the tables), each as a fresh
process measured by bench_end_to_end.measure. Overhead = 1 - plain / flow, on wall time, and
also on the flow's own duration (start-up excluded).
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from newsclean.cleaners.shared_data import devset_dir, shared_dir  # noqa: E402

DEVSET = devset_dir()
SCORER = shared_dir() / "tools" / "score-devset"

# ----------------------------------------------------------------------------- C4-style filter
_C4_TERMINAL = ('.', '!', '?', '"', "'", '”', '’')
_C4_POLICY = ("terms of use", "privacy policy", "cookie policy", "uses cookies", "use of cookies", "use cookies")
_C4_SENTENCE_END = re.compile(r"[.!?]+(?:['\"”’)\]]*)(?:\s|$)")


def c4_filter(text: str, min_words: int = 5, min_sentences: int = 3) -> str:
    """C4's line heuristics (TFDS c4_utils.clean_page without the citation and bad-word filters)."""
    kept = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        low = line.lower()
        if "lorem ipsum" in low or "{" in line:
            return ""
        if not line.endswith(_C4_TERMINAL) or len(line.split()) < min_words:
            continue
        if "javascript" in low or any(p in low for p in _C4_POLICY):
            continue
        kept.append(line)
    out = "\n".join(kept)
    if len(_C4_SENTENCE_END.findall(out)) < min_sentences:
        return ""
    return out


# ----------------------------------------------------------------------------- methods
def load_pages(limit: int | None = None) -> list[dict]:
    with gzip.open(DEVSET / "pages.jsonl.gz", "rt", encoding="utf-8") as fh:
        pages = [json.loads(line) for line in fh]
    pages = pages[:limit] if limit else pages
    for p in pages:
        with gzip.open(DEVSET / p["html"], "rb") as fh:
            p["html_bytes"] = fh.read()
    return pages


def text_methods():
    import justext

    from newsclean.cleaners.pipeline import clean_text, clean_texts
    from newsclean.cleaners.settings import Settings
    from newsclean.cleaners.types import DocumentError

    settings = Settings()
    stop = justext.get_stoplist("English")

    def ours(p):
        try:
            return clean_text(p["text"], settings).text
        except DocumentError:
            return ""

    def ours_batch(pages):
        """As newsclean.cleaners.batch cleans a batch: settings.lockstep_docs texts at a time, each decision
        pass of a group scored in one call (newsclean.cleaners.pipeline.clean_texts)."""
        size, outs = max(1, settings.lockstep_docs), []
        for i in range(0, len(pages), size):
            for doc in clean_texts([p["text"] for p in pages[i:i + size]], settings):
                outs.append("" if isinstance(doc, BaseException) else doc.text)
        return outs

    ours.batch = ours_batch

    def justext_text(p):
        blocks = [b.strip() for b in p["text"].split("\n\n") if b.strip()]
        html = "<html><body>" + "".join(f"<p>{_esc(b)}</p>" for b in blocks) + "</body></html>"
        return "\n".join(par.text for par in justext.justext(html, stop) if not par.is_boilerplate)

    return {"ours": ours, "c4": lambda p: c4_filter(p["text"]), "justext": justext_text}


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def html_methods():
    import justext
    import trafilatura
    from resiliparse.extract.html2text import extract_plain_text

    from newsclean.cleaners.engine.scoring import run_batch
    from newsclean.cleaners.pipeline import clean_document, clean_document_steps
    from newsclean.cleaners.settings import Settings
    from newsclean.cleaners.types import DocumentError, RawDocument

    settings = Settings()
    stop = justext.get_stoplist("English")

    def ours(p):
        try:
            return clean_document(RawDocument(source=p["html"], data=p["html_bytes"], format="html"), settings).text
        except DocumentError:
            return ""

    def ours_batch(pages):
        """As newsclean.cleaners.batch cleans a batch of HTML records: settings.lockstep_docs pages at a
        time, driven together (newsclean.cleaners.engine.scoring.run_batch), so the rules' first look
        at the bodies' lines is taken for the group at once."""
        size, outs = max(1, settings.lockstep_docs), []
        for i in range(0, len(pages), size):
            group = [RawDocument(source=p["html"], data=p["html_bytes"], format="html") for p in pages[i:i + size]]
            for doc in run_batch([clean_document_steps(raw, settings) for raw in group]):
                outs.append("" if isinstance(doc, BaseException) else doc.text)
        return outs

    ours.batch = ours_batch

    def traf(p):
        return trafilatura.extract(p["html_bytes"].decode("utf-8", errors="replace")) or ""

    def resil(p):
        return extract_plain_text(p["html_bytes"].decode("utf-8", errors="replace"), main_content=True) or ""

    def justext_html(p):
        return "\n".join(par.text for par in justext.justext(p["html_bytes"], stop) if not par.is_boilerplate)

    return {"ours": ours, "trafilatura": traf, "resiliparse": resil, "justext": justext_html}


def score(preds: dict[str, str]) -> dict:
    """F1 and leak by shared/tools/score-devset, over the pages that were run (a subset too)."""
    with tempfile.TemporaryDirectory() as tmp:
        path, pages = Path(tmp) / "pred.jsonl", Path(tmp) / "pages.jsonl.gz"
        with open(path, "w", encoding="utf-8") as fh:
            for pid, text in preds.items():
                fh.write(json.dumps({"id": pid, "text": text}) + "\n")
        with gzip.open(DEVSET / "pages.jsonl.gz", "rt", encoding="utf-8") as src, gzip.open(pages, "wt", encoding="utf-8") as dst:
            for line in src:
                if json.loads(line)["id"] in preds:
                    dst.write(line)
        out = subprocess.run([sys.executable, str(SCORER), str(path), "--pages", str(pages)],
                             capture_output=True, text=True, check=True).stdout
    f1 = re.search(r"^F1 ([\d.]+)", out, re.M)
    lk = re.search(r"leak ([\d.]+)", out)
    return {"F1": float(f1.group(1)) if f1 else None, "leak": float(lk.group(1)) if lk else None}


def race(methods: dict, pages: list[dict], rounds: int, label: str) -> dict:
    """Round-robin timing; returns per method the medians and the per-round numbers."""
    res = {name: {"cpu_s": [], "wall_s": [], "errors": 0} for name in methods}
    preds: dict[str, dict[str, str]] = {name: {} for name in methods}
    for r in range(rounds):
        for name, fn in methods.items():
            errors = 0
            c0, w0 = time.process_time(), time.perf_counter()
            if getattr(fn, "batch", None) is not None:  # a method that cleans the pages together
                outs = fn.batch(pages)
            else:
                outs = []
                for p in pages:
                    try:
                        outs.append(fn(p))
                    except Exception:  # a crashing baseline counts as an empty output
                        outs.append("")
                        errors += 1
            cpu, wall = time.process_time() - c0, time.perf_counter() - w0
            if r == 0:
                preds[name].update({p["id"]: out for p, out in zip(pages, outs)})
            res[name]["cpu_s"].append(round(cpu, 3))
            res[name]["wall_s"].append(round(wall, 3))
            res[name]["errors"] = errors
            print(f"  [{label}] round {r + 1} {name:12s} {len(pages) / cpu:8.1f} docs/CPU-s  {len(pages) / wall:8.1f} docs/s wall",
                  file=sys.stderr)
    for name in methods:
        m = res[name]
        m["docs_per_cpu_s"] = round(len(pages) / statistics.median(m["cpu_s"]), 1)
        m["docs_per_s_wall"] = round(len(pages) / statistics.median(m["wall_s"]), 1)
        m.update(score(preds[name]))
    return res


# ----------------------------------------------------------------------------- Prefect overhead
def _plain_batch(args) -> dict:
    raw_dir, sources, settings, stage, index, cleaned_at, stats_path = args
    import datetime as dt
    import inspect

    from newsclean.cleaners import store
    from newsclean.cleaners.batch import clean_sources
    from newsclean.cleaners.settings import Settings

    extra = {}
    if stats_path and "corpus" in inspect.signature(clean_sources).parameters:
        from newsclean.cleaners import corpus_context
        extra["corpus"] = corpus_context.load(stats_path)
    result = clean_sources(Path(raw_dir), sources, Settings(**settings), dt.datetime.fromisoformat(cleaned_at), **extra)
    return store.write_part(Path(stage), index, result)


def plain_run(raw_dir: Path, out_dir: Path) -> dict:
    """The flow's work without Prefect: same steps, same batches, a multiprocessing pool."""
    import datetime as dt
    import multiprocessing as mp

    import newsclean.cleaners.batch  # noqa: F401  (imported before the fork: workers start warm)
    from newsclean.cleaners import store
    from newsclean.cleaners.readers import discover
    from newsclean.cleaners.settings import Settings

    t0 = time.perf_counter()
    cfg = Settings()
    out_dir.mkdir(parents=True, exist_ok=True)
    stage = out_dir / "_stage"
    stage.mkdir(parents=True, exist_ok=True)
    sources, _skipped = discover(raw_dir)
    t_discover = time.perf_counter()
    workers = os.cpu_count() or 1
    from newsclean.cleaners import corpus_context
    from newsclean.flows.clean_corpus import plan_batches  # the flow's own batching (no Prefect call)
    batches = plan_batches(sources, cfg.batch_size, workers)
    # the corpus pass as the flow runs it: slices hashed in parallel, statistics from the parts
    with mp.get_context("fork").Pool(workers) as pool:
        parts = pool.starmap(corpus_context.write_slice, [(raw_dir, b, cfg, stage, i) for i, b in enumerate(batches)], chunksize=1)
    stats, _prints = corpus_context.from_parts(parts, sources, cfg)
    stats_path = str(corpus_context.save(stats, stage))
    del stats
    t_corpus = time.perf_counter()
    cleaned_at = dt.datetime.now(dt.timezone.utc).isoformat()
    jobs = [(str(raw_dir), b, cfg.__dict__, str(stage), i, cleaned_at, stats_path) for i, b in enumerate(batches)]
    # fork: the workers start warm (this process has imported cleaners/) - the cheapest way to run
    # the same work without Prefect, so the overhead measured is all of Prefect's.
    with mp.get_context("fork").Pool(workers) as pool:
        counts = pool.map(_plain_batch, jobs, chunksize=1)
    t_clean = time.perf_counter()
    for name in store.TABLES:
        store.merge_parts(stage, name)
    problems = store.duplicate_keys(stage)
    store.commit(stage, out_dir)
    t_end = time.perf_counter()
    return {"docs_cleaned": sum(c["docs_cleaned"] for c in counts), "problems": problems,
            "durations_s": {"discover": round(t_discover - t0, 3), "corpus_statistics": round(t_corpus - t_discover, 3),
                            "clean": round(t_clean - t_corpus, 3), "write": round(t_end - t_clean, 3), "total": round(t_end - t0, 3)}}


def prefect_overhead(n_docs: int, rounds: int) -> dict:
    import shutil

    from bench_end_to_end import bench_env, measure, newsclean_run
    from generate_corpus import ensure_corpus

    env = bench_env()
    corpus = ROOT / "bench" / "out" / "corpora" / f"text-{n_docs}"
    manifest = ensure_corpus(corpus, n_docs)
    work = ROOT / "bench" / "out" / "prefect-overhead"
    newsclean_run(corpus, work / "warm", env)  # the Prefect database exists before the timed runs
    flow_runs, plain_runs = [], []
    for r in range(rounds):
        flow_runs.append(newsclean_run(corpus, work / "flow", env, ["--full"]))
        out = work / "plain"
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        m = measure([sys.executable, str(Path(__file__).resolve()), "--plain-run", str(corpus), str(out)], env,
                    log=work / "plain.log")
        if m["returncode"] != 0:
            raise RuntimeError("plain run failed: " + (work / "plain.log").read_text()[-2000:])
        m["inner"] = json.loads((out / "plain.json").read_text())
        plain_runs.append(m)
        print(f"  [prefect] round {r + 1}: flow wall {flow_runs[-1]['wall_s']:.1f} s (in flow {flow_runs[-1]['flow_s']:.1f} s), "
              f"plain wall {m['wall_s']:.1f} s (inner {m['inner']['durations_s']['total']:.1f} s)", file=sys.stderr)
    fw = statistics.median(r["wall_s"] for r in flow_runs)
    ff = statistics.median(r["flow_s"] for r in flow_runs)
    pw = statistics.median(r["wall_s"] for r in plain_runs)
    pi = statistics.median(r["inner"]["durations_s"]["total"] for r in plain_runs)
    return {"docs": n_docs, "bytes": manifest["bytes"], "flow_runs": flow_runs, "plain_runs": plain_runs,
            "median_flow_wall_s": fw, "median_flow_inner_s": ff, "median_plain_wall_s": pw, "median_plain_inner_s": pi,
            "overhead_s_wall": round(fw - pw, 2), "overhead_share_wall": round(1 - pw / fw, 3),
            "overhead_share_in_flow": round(1 - pi / ff, 3)}


def main(argv: list[str] | None = None) -> dict:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--plain-run":
        out = Path(argv[2])
        res = plain_run(Path(argv[1]), out)
        (out / "plain.json").write_text(json.dumps(res, indent=2))
        return res
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--pages", type=int, default=None, help="use only the first N dev pages")
    ap.add_argument("--prefect-docs", type=int, default=2000)
    ap.add_argument("--prefect-rounds", type=int, default=2)
    ap.add_argument("--skip", default="", help="comma list of groups to skip: text, html, prefect")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "baselines.json")
    ap.add_argument("--warm-up", action="store_true",
                    help="first call newsclean.cleaners.model.warm_up() as a worker does (model load, gc.freeze, gc threshold)")
    a = ap.parse_args(argv)
    if a.warm_up:
        import newsclean.cleaners.model

        newsclean.cleaners.model.warm_up()
        results_warm = True
    else:
        results_warm = False
    skip = set(filter(None, a.skip.split(",")))
    results: dict = {"rounds": a.rounds, "warm_up": results_warm}
    pages = load_pages(a.pages) if {"text", "html"} - skip else []
    if pages:
        results["pages"] = len(pages)
        results["mean_text_bytes"] = round(sum(len(p["text"].encode()) for p in pages) / len(pages))
        results["mean_html_bytes"] = round(sum(len(p["html_bytes"]) for p in pages) / len(pages))
    if "text" not in skip:
        t = race(text_methods(), pages, a.rounds, "text")
        t["ratios_cpu"] = {f"ours/{k}": round(t["ours"]["docs_per_cpu_s"] / t[k]["docs_per_cpu_s"], 3) for k in t if k != "ours"}
        results["text"] = t
    if "html" not in skip:
        h = race(html_methods(), pages, a.rounds, "html")
        h["ratios_cpu"] = {f"ours/{k}": round(h["ours"]["docs_per_cpu_s"] / h[k]["docs_per_cpu_s"], 3) for k in h if k != "ours"}
        results["html"] = h
    if "text" in results and "html" in results:
        results["text_vs_trafilatura_cpu"] = round(results["text"]["ours"]["docs_per_cpu_s"] / results["html"]["trafilatura"]["docs_per_cpu_s"], 2)
    if "prefect" not in skip:
        results["prefect"] = prefect_overhead(a.prefect_docs, a.prefect_rounds)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(results, indent=2) + "\n")
    brief = {g: {k: (v if not isinstance(v, dict) else {kk: vv for kk, vv in v.items() if kk not in ("cpu_s", "wall_s")})
                 for k, v in results[g].items()} for g in ("text", "html") if g in results}
    print(json.dumps(brief | {k: v for k, v in results.items() if k not in ("text", "html", "prefect")}, indent=2))
    if "prefect" in results:
        print(json.dumps({k: v for k, v in results["prefect"].items() if not k.endswith("_runs")}, indent=2))
    return results


if __name__ == "__main__":
    main()
