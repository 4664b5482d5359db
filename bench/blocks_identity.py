"""Dump the whole-page block tables (newsclean.cleaners.html_blocks.page_blocks, html_body = "page")
of every dev page's HTML, or compare two dumps: the proof that a change to the block features leaves
every value as it was.

    .venv/bin/python bench/blocks_identity.py dump ROOT OUT.parquet [--limit N] [--rounds R]
    .venv/bin/python bench/blocks_identity.py compare BEFORE.parquet AFTER.parquet

ROOT holds a newsclean package (a `git worktree` of the commit to compare, or `.`); its own code is
imported, checked. The pages are the three dev sets' (articles, trafilatura's evaluation pages,
non-articles: 2,385 with HTML), each extracted as the HTML path extracts it, its recall-mode body
given where the recall mode won. `dump` also times page_blocks alone over the extracted pages, R
rounds (each after shape.clear_caches: new pages), and prints each round's CPU-ms a page; time a
change by running each tree's dump several times, alternating (`--limit 461`: the article pages).
`compare` exits 1 when a column differs and prints the first pages where it does.
"""
from __future__ import annotations

import argparse
import gzip
import json
import logging
import statistics
import sys
import time
from pathlib import Path

DEV_SETS = ("pages.jsonl.gz", "trafilatura-pages.jsonl.gz", "other-pages.jsonl.gz")


def dump(root: Path, out: Path, limit: int | None, rounds_wanted: int = 1) -> None:
    sys.path.insert(0, str(root))
    logging.disable(logging.CRITICAL)  # trafilatura's warnings on odd markup
    import polars as pl

    import newsclean.cleaners.html_blocks as html_blocks
    from newsclean.cleaners import extract_html as eh
    from newsclean.cleaners import shape
    from newsclean.cleaners.shared_data import devset_dir

    if not Path(html_blocks.__file__).resolve().is_relative_to(root):
        raise SystemExit(f"imported {html_blocks.__file__}, not {root}'s code")
    folder = devset_dir()
    pages = [json.loads(line) for name in DEV_SETS for line in gzip.open(folder / name, "rt", encoding="utf-8")][:limit]
    inputs = []
    for page in pages:
        data = gzip.open(folder / page["html"], "rb").read()
        try:
            extracted = eh.extract_html(data)
        except Exception:  # noqa: BLE001 (a page the HTML path quarantines has no block table)
            continue
        tree, _ = eh.page_tree(data)
        recall = eh.recall_mode_body(tree, None) if extracted.mode != "trafilatura" else None
        inputs.append((page["id"], tree, extracted.text, recall))
    rounds = []
    for _ in range(max(rounds_wanted, 1)):
        getattr(shape, "clear_caches", lambda: None)()  # (a tree from before it has none)
        start = time.process_time()
        tables = [html_blocks.page_blocks(tree, body, recall) for _, tree, body, recall in inputs]
        rounds.append(1000 * (time.process_time() - start) / max(len(inputs), 1))
    frames = [table.with_columns(pl.lit(page_id).alias("page_id")) for (page_id, *_), table in zip(inputs, tables)]
    out.parent.mkdir(parents=True, exist_ok=True)
    pl.concat(frames, how="vertical").write_parquet(out)
    print(f"{len(frames)} pages, {sum(f.height for f in frames)} blocks: page_blocks "
          f"{', '.join(f'{r:.2f}' for r in rounds)} CPU-ms a page by round (median {statistics.median(rounds):.2f})")


def compare(before: Path, after: Path) -> int:
    import polars as pl

    a, b = pl.read_parquet(before), pl.read_parquet(after)
    if a.columns != b.columns or a.shape != b.shape:
        print(f"the tables differ in shape: {a.shape} {a.columns[:3]}... against {b.shape} {b.columns[:3]}...")
        return 1
    differ = [c for c in a.columns if not a[c].equals(b[c])]
    print(f"{a.height} blocks of {a['page_id'].n_unique()} pages: " + (f"{len(differ)} columns differ" if differ else "identical"))
    for column in differ[:5]:
        rows = ~((a[column] == b[column]) | (a[column].is_null() & b[column].is_null()))
        pages = a.filter(rows)["page_id"].unique(maintain_order=True).to_list()
        print(f"  {column}: {int(rows.sum())} blocks, first pages {pages[:3]}")
    return 1 if differ else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump")
    d.add_argument("root", type=Path)
    d.add_argument("out", type=Path)
    d.add_argument("--limit", type=int, help="the first N pages (the 461 articles come first)")
    d.add_argument("--rounds", type=int, default=1, help="rounds of page_blocks timed (the last one dumped)")
    c = sub.add_parser("compare")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = ap.parse_args(argv)
    if args.command == "dump":
        dump(args.root.resolve(), args.out, args.limit, args.rounds)
        return 0
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
