"""CPU seconds inside named functions during a cold lock step run of the dev pages, for one code tree:
the A/B of a change to a few parts, which the whole run's noise hides.

    .venv/bin/python bench/part_times.py ROOT [--wrap MODULE:FUNCTION ...] [--pages 461] [--devset PAGES] [--html] [--warm-up]

ROOT holds a newsclean package (a `git worktree` of the commit to compare; its own code is imported,
checked). The process cleans 64 pages to load its models, empties every per-text cache
(html_speed.clear_library_caches: new pages, as a corpus brings them), then cleans --pages pages in
lock step groups (profile_hot_path.clean_all: a broken cleaner fails the run) with a process-time
timer around each wrapped function (looked up as a module attribute at call time: calls from other
modules through `module.function` are timed, calls by a name imported into another module are not).
Prints one JSON line: the run's CPU seconds and each part's. Run each tree several times,
alternating, and compare the medians. With --html the pages' HTML goes through the HTML path instead
(newsclean.cleaners.batch.clean_in_lock_step, in the same lock step groups). With --warm-up the process
first calls newsclean.cleaners.model.warm_up(), as a worker does (the garbage collector's settings
of a worker: its parts' shares as a worker pays them; without it, Python's defaults).
"""
from __future__ import annotations

import argparse
import gzip
import importlib
import json
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
DEFAULT_WRAP = ["newsclean.cleaners.engine.rule_conditions:first_look",
                "newsclean.cleaners.shape:is_sentence_like", "newsclean.cleaners.shape:fold"]


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", type=Path)
    ap.add_argument("--wrap", nargs="+", default=DEFAULT_WRAP, help="MODULE:FUNCTION to time")
    ap.add_argument("--pages", type=int, default=461)
    ap.add_argument("--devset", type=Path, help="pages.jsonl.gz (default: the shared dev pages)")
    ap.add_argument("--html", action="store_true", help="the HTML path over the pages' HTML")
    ap.add_argument("--warm-up", action="store_true", help="call newsclean.cleaners.model.warm_up() first, as a worker does")
    args = ap.parse_args(argv)
    root = args.root.resolve()
    sys.path.insert(0, str(root))
    import newsclean.cleaners.pipeline  # noqa: F401  (ROOT's, checked below)
    from newsclean.cleaners.settings import Settings

    if not Path(sys.modules["newsclean.cleaners.pipeline"].__file__).resolve().is_relative_to(root):
        raise SystemExit(f"imported {sys.modules['newsclean.cleaners.pipeline'].__file__}, not {root}'s code")
    sys.path.insert(1, str(BENCH))
    from html_speed import clear_library_caches
    from profile_hot_path import clean_all

    if args.devset is None:
        from newsclean.cleaners.shared_data import devset_dir

        args.devset = devset_dir() / "pages.jsonl.gz"
    with gzip.open(args.devset, "rt", encoding="utf-8") as fh:
        pages = [json.loads(line) for line in fh][:args.pages]
    # with --html each page's HTML file, beside the pages file
    texts = [_read_gz(args.devset.parent / p["html"]) if args.html else p["text"] for p in pages]
    settings = Settings()
    if args.html:
        clean_all = _clean_all_html
    if args.warm_up:
        from newsclean.cleaners.model import warm_up

        warm_up()
    clean_all(texts[:64], settings)
    spent: dict[str, float] = {}
    for spec in args.wrap:
        module_name, name = spec.split(":")
        module = importlib.import_module(module_name)
        setattr(module, name, _timed(getattr(module, name), spec, spent))
    clear_library_caches()
    start = time.process_time()
    clean_all(texts, settings)
    result = {"root": str(root), "cpu_s": round(time.process_time() - start, 3),
              "parts": {k: round(v, 3) for k, v in spent.items()}}
    print(json.dumps(result))
    return result


def _read_gz(path: Path) -> bytes:
    with gzip.open(path, "rb") as fh:
        return fh.read()


def _clean_all_html(pages: list[bytes], settings) -> None:
    """The HTML path over `pages` (HTML), settings.lockstep_docs at a time, as a batch cleans them
    (newsclean.cleaners.batch.clean_in_lock_step); any error but a DocumentError is raised."""
    from newsclean.cleaners.batch import clean_in_lock_step
    from newsclean.cleaners.types import DocumentError, RawDocument

    size = max(1, settings.lockstep_docs)
    for i in range(0, len(pages), size):
        group = [RawDocument(source=f"page-{k}.html", data=html, format="html") for k, html in enumerate(pages[i:i + size], i)]
        for outcome in clean_in_lock_step(group, settings):
            if isinstance(outcome, BaseException) and not isinstance(outcome, DocumentError):
                raise outcome


def _timed(fn, key: str, spent: dict[str, float]):
    def timed(*args, **kwargs):
        start = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[key] = spent.get(key, 0.0) + time.process_time() - start
    return timed


if __name__ == "__main__":
    main()
