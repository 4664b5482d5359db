"""Write the fixture pages and expected extractions of tests/test_html_speed_identity.py.

    git show 02a00c6:cleaners/extract_html.py > BEFORE.py
    .venv/bin/python bench/html_fixtures.py BEFORE.py [--ids id1,id2,...]

Copies the chosen dev pages' HTML (gzipped, WCXB v1.0, CC-BY-4.0) to tests/data/html_pages/ and
records, with the given (older) extract_html, the extraction of each page with its URL and
without: the expected values the current code must reproduce.
"""
from __future__ import annotations

import argparse
import gzip
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from newsclean.cleaners.shared_data import devset_dir  # noqa: E402

DEVSET = devset_dir()
OUT = ROOT / "tests" / "data" / "html_pages"
FIELDS = ("text", "mode", "fallback", "encoding", "title", "published", "sitename", "url", "author", "headlines")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("--ids", required=True, help="comma-separated dev page ids")
    a = ap.parse_args(argv)
    from html_identity import load_module

    before = load_module(a.before)
    wanted = a.ids.split(",")
    with gzip.open(DEVSET / "pages.jsonl.gz", "rt", encoding="utf-8") as fh:
        pages = {p["id"]: p for p in map(json.loads, fh) if p["id"] in wanted}
    OUT.mkdir(parents=True, exist_ok=True)
    rows = []
    for pid in wanted:
        p = pages[pid]
        name = Path(p["html"]).name
        shutil.copyfile(DEVSET / p["html"], OUT / name)
        data = gzip.open(OUT / name).read()
        for url in (p["url"], None):
            ext = before.extract_html(data, url=url)
            rows.append({"id": pid, "file": name, "url": url, "extraction": {f: repr(getattr(ext, f)) for f in FIELDS}})
    (OUT / "expected.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(f"{len(rows)} expected extractions of {len(wanted)} pages in {OUT}")


if __name__ == "__main__":
    main()
