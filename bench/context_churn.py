"""How many unchanged documents an incremental run re-cleans because their corpus context moved.

    .venv/bin/python bench/context_churn.py CORPUS [--share 0.01] [--seed 99] [--workers 2]
        [--out bench/out/context_churn.json]

CORPUS is a text corpus from bench/generate_corpus.py. The script hashes every document's lines
(newsclean.cleaners.corpus_context.hash_slice, in --workers processes), then rewrites --share of the files
in memory exactly as bench_end_to_end.py's 1% re-run does on disk (touch_share: a new remix of a
random base page), and counts the unchanged sources whose context fingerprint differs between the
two corpus states: those an incremental run cleans again ("context_changed" in run.json).

It does this for the shipped fingerprint (newsclean.cleaners.corpus_context.context_fingerprint) and for
the same quantisation with the per-line document frequencies capped at several values, to show
where the re-cleaning comes from. With --verify N it then cleans N documents that a cap would
skip but the uncapped fingerprint re-cleans, once with each corpus state's statistics, and counts
how many outputs differ: the price of skipping them (an incremental run keeps the old output where
a full run would give the new one). Nothing on disk changes.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import random
import sys
import time
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from newsclean.cleaners import corpus_context  # noqa: E402
from newsclean.cleaners.corpus import CorpusStats, key_hash, line_hashes  # noqa: E402
from newsclean.cleaners.settings import Settings  # noqa: E402
from newsclean.cleaners.types import RawDocument  # noqa: E402


def _hash(args):
    raw_dir, sources = args
    return corpus_context.hash_slice(Path(raw_dir), sources, Settings())


def rewritten(corpus: Path, share: float, seed: int) -> dict[str, bytes]:
    """touch_share's new bytes per source, without writing them."""
    from generate_corpus import Generator

    files = sorted(corpus.rglob("*.txt"))
    rng = random.Random(seed)
    picked = rng.sample(files, max(1, int(len(files) * share)))
    gen = Generator(seed=seed)
    out = {}
    for i, path in enumerate(picked):
        page = gen.pages[rng.randrange(len(gen.pages))]
        text = "\n\n".join(gen.remix(page, random.Random(f"touch:{seed}:{i}")))
        out[path.relative_to(corpus).as_posix()] = text.encode("utf-8") + f"\n\nUpdated {i}".encode()
    return out


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--share", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=99)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--caps", default="none,64,16,8,4")
    ap.add_argument("--verify", type=int, default=0, help="documents to clean under both states, per cap")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "context_churn.json")
    a = ap.parse_args(argv)
    settings = Settings()
    t0 = time.perf_counter()
    sources = sorted(p.relative_to(a.corpus).as_posix() for p in a.corpus.rglob("*.txt"))
    step = -(-len(sources) // (a.workers * 8))
    with mp.get_context("fork").Pool(a.workers) as pool:
        parts = pool.map(_hash, [(str(a.corpus), sources[i:i + step]) for i in range(0, len(sources), step)])
    before = {s: (h, kh) for part in parts for s, h, kh in part.documents()}
    new_bytes = rewritten(a.corpus, a.share, a.seed)
    after = dict(before)
    for source, data in new_bytes.items():
        lines = corpus_context.document_lines(RawDocument(source=source, data=data), settings)
        after[source] = (line_hashes(lines), key_hash(None))
    t_hash = time.perf_counter() - t0
    stats_before = CorpusStats.from_hashes(before.values())
    stats_after = CorpusStats.from_hashes(after.values())
    unchanged = [s for s in sources if s not in new_bytes and s in before]
    results = {"corpus": str(a.corpus), "documents": len(sources), "rewritten": len(new_bytes),
               "hash_seconds": round(t_hash, 1), "by_cap": {}}
    moved_by_cap: dict[str, set[str]] = {}
    for cap_name in a.caps.split(","):
        cap = None if cap_name == "none" else int(cap_name)
        moved = set()
        for s in unchanged:
            h, kh = before[s]
            fa = corpus_context.context_fingerprint(stats_before.context_of(h, kh), settings, cap)
            fb = corpus_context.context_fingerprint(stats_after.context_of(h, kh), settings, cap)
            if fa != fb:
                moved.add(s)
        moved_by_cap[cap_name] = moved
        results["by_cap"][cap_name] = {"context_changed": len(moved), "share_of_unchanged": round(len(moved) / max(len(unchanged), 1), 4)}
        print(f"cap {cap_name:>4}: {len(moved):,} of {len(unchanged):,} unchanged documents re-cleaned "
              f"({100 * len(moved) / max(len(unchanged), 1):.1f}%)", flush=True)
    if a.verify:
        from newsclean.cleaners.batch import clean_sources
        for cap_name, moved in moved_by_cap.items():
            skipped = sorted(moved_by_cap.get("none", set()) - moved)
            if cap_name == "none" or not skipped:
                continue
            sample = random.Random(1).sample(skipped, min(a.verify, len(skipped)))
            outputs = []
            for stats in (stats_before, stats_after):
                res = clean_sources(a.corpus, sample, settings, corpus=stats)
                outputs.append({r["source"]: (r["title"], r["text"]) for r in res.articles})
            differ = sum(outputs[0].get(s) != outputs[1].get(s) for s in sample)
            results["by_cap"][cap_name]["skipped_checked"] = len(sample)
            results["by_cap"][cap_name]["skipped_output_differs"] = differ
            print(f"cap {cap_name:>4}: of {len(sample)} documents it skips, {differ} would get another output "
                  f"from a full run ({100 * differ / len(sample):.1f}%)", flush=True)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(results, indent=2))
    return results


if __name__ == "__main__":
    main()
