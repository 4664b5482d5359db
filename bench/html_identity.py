"""Same outputs before and after a change to the HTML path: two versions of cleaners/extract_html.py
side by side, on the same pages, with everything else (rules, decision, pipeline) the same code.

    git show <rev>:cleaners/extract_html.py > BEFORE.py
    .venv/bin/python bench/html_identity.py BEFORE.py [--pages 461] [--second 990]

For every dev page (with its URL, as a crawl record gives it, and without) and, with --second, the
pages of trafilatura's evaluation set (many sites and languages, no URL), it compares
- the extraction (newsclean.cleaners.extract_html.extract_html): text, mode, fallback, encoding, title,
  published, sitename, url, author, headline candidates;
- the cleaned document (newsclean.cleaners.pipeline.clean_document with the "before" extract_html patched in,
  then the current one): title, text, kept lines, every removed span, published, outlet, url,
  author, notes; or the DocumentError.
Prints the count of differing pages per field and the first differences, and the CPU seconds of
each version (both run in this process, alternating page by page). Exit status 1 on any difference.
"""
from __future__ import annotations

import argparse
import dataclasses
import gzip
import importlib.util
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from newsclean.cleaners.shared_data import devset_dir  # noqa: E402

DEVSET = devset_dir()

EXTRACTION_FIELDS = ("text", "mode", "fallback", "encoding", "title", "published", "sitename", "url", "author", "headlines")


def load_module(path: Path, name: str = "extract_html_before"):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def document_record(doc) -> dict:
    return {"title": doc.title, "text": doc.text, "kept_lines": list(doc.kept_lines),
            "removed": [dataclasses.astuple(s) for s in doc.removed],
            "published": repr(doc.published), "outlet": repr(doc.outlet), "outlet_domain": doc.outlet_domain,
            "url": doc.url, "author": doc.author, "notes": list(doc.notes)}


def run_version(extract_fn, data: bytes, url: str | None, settings) -> tuple[dict, dict, float]:
    import newsclean.cleaners.pipeline as pipeline
    from newsclean.cleaners.types import DocumentError, RawDocument

    c0 = time.process_time()
    try:
        ext = extract_fn(data, url=url)
        ext_rec = {f: repr(getattr(ext, f)) for f in EXTRACTION_FIELDS}
    except DocumentError as exc:
        ext_rec = {"error": f"{exc.stage}: {exc.reason}"}
    c1 = time.process_time()
    saved = pipeline.extract_html
    pipeline.extract_html = extract_fn
    try:
        meta = {"url": url} if url else {}
        doc_rec = document_record(pipeline.clean_document(RawDocument(source="page.html", data=data, format="html", meta=meta), settings))
    except DocumentError as exc:
        doc_rec = {"error": f"{exc.stage}: {exc.reason}"}
    finally:
        pipeline.extract_html = saved
    return ext_rec, doc_rec, c1 - c0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before", type=Path, help="the old cleaners/extract_html.py (e.g. from git show)")
    ap.add_argument("--pages", type=int, default=None, help="first N dev pages (default all)")
    ap.add_argument("--second", type=int, default=0, help="also the first N pages of trafilatura-pages.jsonl.gz")
    ap.add_argument("--no-url-pass", action="store_true", help="skip the second pass over dev pages without URL")
    a = ap.parse_args(argv)

    from newsclean.cleaners import extract_html as after
    from newsclean.cleaners.settings import Settings

    before = load_module(a.before)
    settings = Settings()
    with gzip.open(DEVSET / "pages.jsonl.gz", "rt", encoding="utf-8") as fh:
        dev = [json.loads(line) for line in fh]
    dev = dev[: a.pages] if a.pages else dev
    cases = [(p["id"], p["html"], p.get("url")) for p in dev]
    if not a.no_url_pass:
        cases += [(p["id"] + " (no url)", p["html"], None) for p in dev]
    if a.second:
        with gzip.open(DEVSET / "trafilatura-pages.jsonl.gz", "rt", encoding="utf-8") as fh:
            second = [json.loads(line) for line in fh][: a.second]
        cases += [("second:" + p["id"], p["html"], None) for p in second]

    differ: dict[str, list[str]] = {}
    cpu = {"before": 0.0, "after": 0.0}
    examples: list[str] = []
    for i, (cid, rel, url) in enumerate(cases):
        with gzip.open(DEVSET / rel, "rb") as fh:
            data = fh.read()
        if i % 2 == 0:  # alternate which version goes first (the second finds library caches warm)
            e0, d0, t0 = run_version(before.extract_html, data, url, settings)
            e1, d1, t1 = run_version(after.extract_html, data, url, settings)
        else:
            e1, d1, t1 = run_version(after.extract_html, data, url, settings)
            e0, d0, t0 = run_version(before.extract_html, data, url, settings)
        cpu["before"] += t0
        cpu["after"] += t1
        for kind, r0, r1 in (("extract", e0, e1), ("document", d0, d1)):
            for key in sorted(set(r0) | set(r1)):
                if r0.get(key) != r1.get(key):
                    differ.setdefault(f"{kind}.{key}", []).append(cid)
                    if len(examples) < 12:
                        examples.append(f"{cid} {kind}.{key}:\n  before {str(r0.get(key))[:300]}\n  after  {str(r1.get(key))[:300]}")
    n = len(cases)
    print(f"{n} cases ({len(dev)} dev pages" + ("" if a.no_url_pass else " with and without URL")
          + (f", {a.second} second-source pages" if a.second else "") + ")")
    print(f"extract_html CPU: before {cpu['before']:.2f} s ({n / cpu['before']:.1f} pages/CPU-s), "
          f"after {cpu['after']:.2f} s ({n / cpu['after']:.1f} pages/CPU-s)")
    if not differ:
        print("identical: every extraction field and every cleaned-document field")
        return 0
    for key, ids in sorted(differ.items()):
        print(f"DIFFER {key}: {len(ids)} cases, e.g. {ids[:5]}")
    print("\n".join(examples))
    return 1


if __name__ == "__main__":
    sys.exit(main())
