"""Where a cleaning batch's time goes, part by part, as a worker runs it.

    .venv/bin/python bench/batch_parts.py [--docs 1000] [--batches 2] [--corpus-root bench/out/corpora]
        [--out bench/out/batch-parts.json]

A generated text corpus (bench/generate_corpus.py, seed 7, no HTML) of --docs x --batches documents;
its corpus pass (the line hashes and statistics every batch reads), then each batch of --docs
documents cleaned and written as `flows.clean_corpus.clean_batch` does it
(`batch.clean_sources_in_pieces`, then `store.write_part` per piece), in one process readied like
a worker (`model.warm_up`). CPU time of the whole batch, and of the named parts with a timer
around each (the timers cost a little): the line model's corpus counts per decision pass
(`corpus.DocumentContext`), the language column (`identify_many` over a lock-step group's texts; `identify`
per article in older code), the article rows (`batch._record`: with the removed and lines rows), and writing a piece (`store.write_part`: its Arrow tables, validation, signatures and
Parquet files). The first batch runs on a cold rules cache, the later ones on what the earlier
batches saw, as a worker's next batch does.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", type=int, default=1000, help="documents a batch")
    ap.add_argument("--batches", type=int, default=2)
    ap.add_argument("--corpus-root", type=Path, default=ROOT / "bench" / "out" / "corpora")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "batch-parts.json")
    a = ap.parse_args(argv)

    import logging

    logging.disable(logging.CRITICAL)
    from generate_corpus import Shares, ensure_corpus
    from profile_html import Timer

    from newsclean.cleaners import batch, corpus, corpus_context, store, syndication
    from newsclean.cleaners.model import warm_up
    from newsclean.cleaners.settings import Settings

    n = a.docs * a.batches
    raw = a.corpus_root / f"text-{n}"
    ensure_corpus(raw, n, 7, Shares(html=0.0))
    sources = sorted(str(p.relative_to(raw)) for p in raw.rglob("*") if p.is_file())
    cfg = Settings()
    warm_up()
    # older code hashed a document's lines again in every pass (CorpusStats.doc_context)
    counts = (corpus.DocumentContext, "__call__") if hasattr(corpus, "DocumentContext") else (corpus.CorpusStats, "doc_context")
    parts = ((*counts, "corpus counts per decision pass"), (batch, "identify_many" if hasattr(batch, "identify_many") else "identify", "language column"),
             (batch, "_record", "article, removed and lines rows (language included)"), (store, "arrow_table", "Arrow tables"),
             (store, "validate_batch", "validation"), (syndication, "signatures", "near-duplicate signatures"),
             (store, "write_part", "writing a piece (Arrow, validation, signatures, Parquet)"))
    timer = Timer()  # profile_html's timed wrapper around each part
    for owner, name, label in parts:
        timer.wrap(owner, name, label)
    report: dict = {"docs_per_batch": a.docs, "batches": []}
    with tempfile.TemporaryDirectory() as tmp:
        stage = Path(tmp)
        t = time.process_time()
        part = corpus_context.write_slice(raw, sources, cfg, stage, 0, None, "part.npz", None)
        stats, _ = corpus_context.statistics_of([str(part)], sources, cfg)
        report["corpus_pass_ms_per_doc"] = round(1000 * (time.process_time() - t) / len(sources), 3)
        for b in range(a.batches):
            timer.cpu.clear()
            timer.calls.clear()
            mine = sources[b * a.docs:(b + 1) * a.docs]
            t = time.process_time()
            pieces = batch.clean_sources_in_pieces(raw, mine, cfg, dt.datetime.now(dt.timezone.utc), corpus=stats)
            for i, result in enumerate(pieces):
                store.write_part(stage, b, result, cfg, i)
            total = time.process_time() - t
            row = {"ms_per_doc": round(1000 * total / len(mine), 3),
                   "parts_ms_per_doc": {k: round(1000 * v / len(mine), 3) for k, v in timer.cpu.items()},
                   "calls": dict(timer.calls)}
            report["batches"].append(row)
            print(f"batch {b + 1}: {row['ms_per_doc']} CPU-ms a document; "
                  + "; ".join(f"{k} {v}" for k, v in row["parts_ms_per_doc"].items()), flush=True)
    print(f"corpus pass: {report['corpus_pass_ms_per_doc']} CPU-ms a document")
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return report


if __name__ == "__main__":
    main()
