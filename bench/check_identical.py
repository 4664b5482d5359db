"""Dump the cleaner's output on a fixed set of inputs, or compare it with an earlier dump.

Used to show that a speed change leaves outputs identical:

    .venv/bin/python bench/check_identical.py dump bench/out/identity-before.jsonl
    ... change cleaners/ ...
    .venv/bin/python bench/check_identical.py compare bench/out/identity-before.jsonl

Inputs (with --lockstep N the dev texts in groups of N, as a batch cleans them; one at a time
without): every dev page `text` (461) as is, and each again with mojibake (every paragraph read
as cp1252), no-break spaces, CRLF line ends and curly quotes kept (--keep-curly-quotes path); the
seed corpus and the sample corpus through the byte path (decode included); and the files of a
generated corpus if --corpus DIR is given. Each output row holds title, text, every removed span,
outlet, published date and author (or the DocumentError stage and reason).
"""
from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# --root DIR: import cleaners/ from a snapshot (e.g. a copy with one file reverted) instead of ROOT.
CODE_ROOT = Path(sys.argv[sys.argv.index("--root") + 1]) if "--root" in sys.argv else ROOT
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(CODE_ROOT))

from generate_corpus import mojibake, shared_data  # noqa: E402  (shared_data: this checkout's, not --root's)

from newsclean.cleaners.pipeline import clean_document, clean_text  # noqa: E402
from newsclean.cleaners.readers import discover, read_source  # noqa: E402
from newsclean.cleaners.settings import Settings  # noqa: E402
from newsclean.cleaners.types import DocumentError  # noqa: E402

DEVSET = shared_data.devset_dir() / "pages.jsonl.gz"
SEEDS = shared_data.shared_dir() / "seeds" / "raw"


def _row(key: str, fn) -> dict:
    try:
        d = fn()
    except DocumentError as err:
        return {"key": key, "error": [err.stage, err.reason]}
    return {"key": key, "title": d.title, "text": d.text,
            "removed": [[s.line, s.start, s.end, s.kind, s.text, s.by, s.whole_line] for s in d.removed],
            "outlet": d.outlet.value if d.outlet else None, "outlet_domain": d.outlet_domain,
            "published": str(d.published.value) if d.published else None, "author": d.author}


def variants(text: str):
    yield "plain", text
    yield "mojibake", "\n\n".join(mojibake(b) for b in text.split("\n\n"))
    yield "nbsp", re.sub(r"(?<=[.,]) (?=\w)|(?<=\d) (?=\w)", "\u00a0", text)
    yield "crlf", text.replace("\n", "\r\n")


def _text_rows(cases: list[tuple[str, str, Settings]], lockstep: int):
    """A row per (key, text, settings): each text cleaned alone, or with `lockstep` in groups of that
    many texts of one variant, driven together as a batch drives them (run_batch)."""
    if not lockstep:
        for key, text, settings in cases:
            yield _row(key, lambda: clean_text(text, settings))
        return
    from newsclean.cleaners.engine.scoring import run_batch
    from newsclean.cleaners.pipeline import clean_text_steps

    by_variant: dict[str, list] = {}
    for case in cases:
        by_variant.setdefault(case[0].rsplit(":", 1)[1], []).append(case)
    for group in (g[i:i + lockstep] for g in by_variant.values() for i in range(0, len(g), lockstep)):
        outcomes = run_batch([clean_text_steps(text, settings) for _, text, settings in group])
        for (key, _, _), out in zip(group, outcomes):
            yield _row(key, (lambda o=out: _raise(o)) if isinstance(out, BaseException) else (lambda o=out: o))


def _raise(exc: BaseException):
    raise exc


def rows(corpus: Path | None, lockstep: int = 0):
    s, curly = Settings(), Settings(keep_curly_quotes=True)
    with gzip.open(DEVSET, "rt", encoding="utf-8") as fh:
        pages = [json.loads(line) for line in fh]
    cases = []
    for p in pages:
        cases += [(f"{p['id']}:{name}", text, s) for name, text in variants(p["text"])]
        cases.append((f"{p['id']}:curly", p["text"], curly))
    yield from _text_rows(cases, lockstep)
    for raw_dir in [SEEDS, ROOT / "raw"] + ([corpus] if corpus else []):
        sources, _ = discover(raw_dir)
        for src in sources:
            try:
                items = list(read_source(raw_dir, src, s))
            except DocumentError as err:
                yield {"key": f"{raw_dir.name}/{src}", "error": [err.stage, err.reason]}
                continue
            for i, item in enumerate(items):
                key = f"{raw_dir.name}/{src}#{i}"
                if isinstance(item, DocumentError):
                    yield {"key": key, "error": [item.stage, item.reason]}
                else:
                    yield _row(key, lambda: clean_document(item, s))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["dump", "compare"])
    ap.add_argument("path", type=Path)
    ap.add_argument("--corpus", type=Path, help="also a generated corpus folder")
    ap.add_argument("--root", type=Path, help="import cleaners/ from this folder (a snapshot)")
    ap.add_argument("--lockstep", type=int, default=0,
                    help="clean the dev texts in groups of N of one variant, driven together as a batch is")
    a = ap.parse_args()
    if a.mode == "dump":
        a.path.parent.mkdir(parents=True, exist_ok=True)
        n = 0
        with open(a.path, "w", encoding="utf-8") as fh:
            for r in rows(a.corpus, a.lockstep):
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")
                n += 1
        print(f"dumped {n} outputs to {a.path}")
        return 0
    before = {}
    with open(a.path, encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            before[r["key"]] = r
    n, diffs = 0, 0
    for r in rows(a.corpus, a.lockstep):
        r = json.loads(json.dumps(r, ensure_ascii=False))
        n += 1
        if before.get(r["key"]) != r:
            diffs += 1
            if diffs <= 10:
                print("DIFF", r["key"])
    missing = len(before) - n
    print(f"{n} outputs compared, {diffs} differ, {max(missing, 0)} missing")
    return 1 if diffs or missing else 0


if __name__ == "__main__":
    sys.exit(main())
