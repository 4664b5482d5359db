"""Dump the HTML path's output for every HTML page of the shared dev data, for one code root: the
evidence that a change to the HTML path leaves its output identical.

    .venv/bin/python bench/html_outputs.py ROOT OUT.jsonl [--jobs 2] [--batch 32] [--limit N]
    git worktree add ../before <commit>
    .venv/bin/python bench/html_outputs.py ../before html-before.jsonl
    .venv/bin/python bench/html_outputs.py . html-after.jsonl --batch 32
    cmp html-before.jsonl html-after.jsonl

Cases: the 461 dev pages' HTML with their URL and again without it, and the 990 pages of
trafilatura's evaluation set (no URL: theirs are pseudo-ids). Each row: title, text, kept lines,
every removed span, published, outlet, url, author and notes of newsclean.cleaners.pipeline.clean_document,
or the DocumentError's stage and reason; rows sorted as the cases. With --batch N the documents run
in lock step groups of N (newsclean.cleaners.engine.scoring.run_batch), as newsclean.cleaners.batch cleans them; without,
one at a time. ROOT's own cleaners/ package is imported (checked).
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
from multiprocessing import Pool
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
from newsclean.cleaners.shared_data import devset_dir  # noqa: E402  (this checkout's: where the shared data is)

DEV = devset_dir()
ROOT: Path = HERE


def cases() -> list[tuple[str, str, str | None]]:
    with gzip.open(DEV / "pages.jsonl.gz", "rt", encoding="utf-8") as fh:
        dev = [json.loads(line) for line in fh]
    out = [(p["id"], p["html"], p["url"]) for p in dev]
    out += [(p["id"] + " (no url)", p["html"], None) for p in dev]
    with gzip.open(DEV / "trafilatura-pages.jsonl.gz", "rt", encoding="utf-8") as fh:
        out += [("second:" + p["id"], p["html"], None) for p in map(json.loads, fh)]
    return out


def _start(root: str) -> None:
    """Each worker imports cleaners/ from ROOT."""
    global ROOT
    ROOT = Path(root)
    sys.path.insert(0, root)
    for name in [m for m in sys.modules if m == "newsclean" or m.startswith("newsclean.")]:
        del sys.modules[name]
    os.chdir(root)
    import newsclean.cleaners
    assert Path(newsclean.cleaners.__file__).resolve().parent == ROOT / "cleaners", newsclean.cleaners.__file__


def _raw(case):
    from newsclean.cleaners.types import RawDocument

    _, rel, url = case
    with gzip.open(DEV / rel, "rb") as fh:
        data = fh.read()
    return RawDocument(source=rel, data=data, format="html", meta={"url": url} if url else {})


def _row(key: str, outcome) -> dict:
    from newsclean.cleaners.types import DocumentError

    if isinstance(outcome, DocumentError):
        return {"key": key, "error": [outcome.stage, outcome.reason]}
    if isinstance(outcome, BaseException):
        raise outcome
    d = outcome
    return {"key": key, "title": d.title, "text": d.text, "kept_lines": list(d.kept_lines),
            "removed": [[s.line, s.start, s.end, s.kind, s.by, s.whole_line, s.text] for s in d.removed],
            "published": repr(d.published), "outlet": repr(d.outlet), "outlet_domain": d.outlet_domain,
            "url": d.url, "author": repr(d.author), "notes": list(d.notes)}


def one(case) -> list[dict]:
    from newsclean.cleaners.pipeline import clean_document
    from newsclean.cleaners.settings import Settings
    from newsclean.cleaners.types import DocumentError

    try:
        return [_row(case[0], clean_document(_raw(case), Settings()))]
    except DocumentError as err:
        return [_row(case[0], err)]


def group(group_cases) -> list[dict]:
    from newsclean.cleaners.engine.scoring import run_batch
    from newsclean.cleaners.pipeline import clean_document_steps
    from newsclean.cleaners.settings import Settings

    outcomes = run_batch([clean_document_steps(_raw(c), Settings()) for c in group_cases])
    return [_row(c[0], d) for c, d in zip(group_cases, outcomes)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--batch", type=int, default=0,
                    help="lock step groups of this many documents (0: one at a time; needs a ROOT with cleaners/engine)")
    ap.add_argument("--limit", type=int, default=None, help="the first N cases only")
    a = ap.parse_args(argv)
    todo = cases()[: a.limit]
    with Pool(a.jobs, initializer=_start, initargs=(str(a.root.resolve()),)) as pool, \
            a.out.open("w", encoding="utf-8") as fh:
        if a.batch:
            parts = pool.imap(group, [todo[i:i + a.batch] for i in range(0, len(todo), a.batch)])
        else:
            parts = pool.imap(one, todo, chunksize=4)
        n = 0
        for rows in parts:
            for row in rows:
                fh.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
                n += 1
    print(f"{n} cases -> {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
