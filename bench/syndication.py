"""Near-duplicate clusters: pairwise precision and recall on a generated set with known copies, and
what the clustering costs at corpus scale.

    .venv/bin/python bench/syndication.py [--bases 461] [--seed 7] [--sizes 20000,100000]
        [--skip accuracy|scale] [--out bench/out/syndication.json]

Accuracy. The base articles are the dev pages' reference texts (`truth` of shared/devset/pages.jsonl.gz)
and the five sample articles (raw/). Each base gets 0 to 5 syndicated copies
(tests/syndicated.py: another outlet's headline, menu, share bar, advertisement label, teaser link
and signature, the last paragraphs cut up to 15% of the words, three word edits). Same-topic hard
negatives: the five sample articles tell one event in different words, and for a third of the
bases a follow-up story quotes some of its paragraphs (at most a third of them) inside the first
half of another page. Every document is written as a raw .txt file and goes through the cleaner
(newsclean.cleaners.batch.clean_sources), its signatures through the run's path
(newsclean.cleaners.syndication.write_part, build_index). Truth: a copy belongs with its base;
everything else is alone. Pairwise precision = same-cluster pairs that are true / same-cluster
pairs; recall = true pairs found in one cluster / true pairs.

Scale. Documents from bench/generate_corpus.py's generator (the dev pages re-mixed: ~217 variants of
each page at 100k, paragraphs swapped with the site's other pages), each one's body paragraphs
(12+ words, roughly what the cleaner keeps) as its text. Per size: the signatures' CPU time per
document (what the cleaning batches add), then build_index in a child process, timed, with its
resident memory sampled every 20 ms (anonymous, and with file-backed pages: the signatures are
memory-mapped) and Arrow's memory pool peak. Memory is flat when the anonymous peak does not grow
with the size: the last row's `anon_growth_kb_per_doc` is the peak's growth from the first size's,
per added document (the build held ~0.6 KB per document when the index lived in memory). The cost
share is set against the CPU time of a 100k-document run from bench/RESULTS.md (59.6 ms per
document); see --run-cpu-ms.
"""
from __future__ import annotations

import argparse
import gzip
import json
import multiprocessing as mp
import os
import random
import shutil
import sys
import tempfile
import threading
import time
from collections import Counter
from math import comb
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from newsclean.cleaners import store, syndication  # noqa: E402
from newsclean.cleaners.batch import clean_sources  # noqa: E402
from newsclean.cleaners.settings import Settings  # noqa: E402
from newsclean.cleaners.shared_data import devset_dir  # noqa: E402
from tests.syndicated import OUTLETS, syndicated_copy  # noqa: E402

RUN_CPU_MS = 59.6  # CPU per document of a 100k-document run (bench/RESULTS.md, end to end)


# ----------------------------------------------------------------------------- accuracy

def _bases(n: int) -> list[dict]:
    with gzip.open(devset_dir() / "pages.jsonl.gz", "rt", encoding="utf-8") as fh:
        pages = [json.loads(line) for line in fh]
    bases = [{"id": p["id"], "title": p.get("title"), "text": p["truth"].strip()}
             for p in pages if (p.get("truth") or "").strip()][:n]
    golden = ROOT / "tests" / "golden" / "seeds_expected.jsonl"
    for line in golden.read_text(encoding="utf-8").splitlines():
        g = json.loads(line)
        bases.append({"id": "seed/" + g["source"], "title": g["title"], "text": g["text"],
                      "raw": (ROOT / "raw" / g["source"]).read_text(encoding="utf-8")})
    return bases


def _follow_up(base: dict, other: dict, rng: random.Random) -> str:
    """Another story: some of `base`'s paragraphs (at most a third) quoted amid the first half of
    `other`'s, so that it is a copy of neither."""
    quoted = base["text"].split("\n\n")
    quoted = rng.sample(quoted, max(1, len(quoted) // 3))
    body = other["text"].split("\n\n")
    body = body[: max(1, len(body) // 2)]
    for q in quoted:
        body.insert(rng.randrange(len(body) + 1), q)
    return (other.get("title") or "Follow-up") + "\n\n" + "\n\n".join(body)


def build_set(folder: Path, bases: list[dict], seed: int) -> dict[str, str]:
    """Write the generated set under folder; returns source -> true cluster label."""
    rng = random.Random(seed)
    truth: dict[str, str] = {}
    for i, base in enumerate(bases):
        name = f"base/{i:04d}.txt"
        text = base.get("raw") or ((base["title"] + "\n\n") if base["title"] else "") + base["text"]
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
        truth[name] = base["id"]
        for k in range(rng.choice([0, 0, 1, 2, 3, 5])):
            copy = f"copy/{i:04d}-{k}.txt"
            (folder / copy).parent.mkdir(parents=True, exist_ok=True)
            (folder / copy).write_text(syndicated_copy(base["title"], base["text"], rng, outlet=OUTLETS[k % len(OUTLETS)]),
                                       encoding="utf-8")
            truth[copy] = base["id"]
        if rng.random() < 1 / 3:
            other = bases[rng.randrange(len(bases))]
            if other is not base:
                follow = f"follow/{i:04d}.txt"
                (folder / follow).parent.mkdir(parents=True, exist_ok=True)
                (folder / follow).write_text(_follow_up(base, other, rng), encoding="utf-8")
                truth[follow] = "follow/" + base["id"]
    return truth


def pairwise(pred: dict[str, str], truth: dict[str, str]) -> dict:
    """Pairwise precision and recall of clusters `pred` against `truth` (source -> label)."""
    both = Counter((pred[s], truth[s]) for s in pred)
    tp = sum(comb(n, 2) for n in both.values())
    pred_pairs = sum(comb(n, 2) for n in Counter(pred.values()).values())
    true_pairs = sum(comb(n, 2) for n in Counter(truth[s] for s in pred).values())
    return {"true_pairs": true_pairs, "predicted_pairs": pred_pairs, "correct_pairs": tp,
            "precision": tp / pred_pairs if pred_pairs else 1.0, "recall": tp / true_pairs if true_pairs else 1.0}


def accuracy(bases_n: int, seed: int, tmp: Path) -> dict:
    raw = tmp / "accuracy"
    shutil.rmtree(raw, ignore_errors=True)
    raw.mkdir(parents=True)
    truth = build_set(raw, _bases(bases_n), seed)
    settings = Settings()
    t0 = time.perf_counter()
    out = clean_sources(raw, sorted(truth), settings)
    clean_s = time.perf_counter() - t0
    stage = tmp / "accuracy-stage"
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir()
    syndication.write_part(stage, store.part_name(0), out.articles, settings.dup_shingle_words)
    counts = syndication.build_index(stage, None, None, settings.dup_shingle_words, settings.dup_threshold)
    import pyarrow.parquet as pq

    index = pq.read_table(stage / syndication.INDEX_DIR / "documents.parquet").to_pandas()
    pred = dict(zip(index["source"], index["dup_cluster"]))
    sim = dict(zip(index["source"], index["dup_similarity"]))
    scores = pairwise(pred, truth)
    label_of_base = {truth[s]: pred[s] for s in pred if s.startswith("base/")}
    missed = sorted(s for s in pred if s.startswith("copy/") and pred[s] != label_of_base.get(truth[s]))
    merged = sorted(s for s in pred if not s.startswith("copy/")
                    and sum(1 for t in pred if pred[t] == pred[s] and truth[t] != truth[s]))
    copy_sims = sorted(float(sim[s]) for s in pred if s.startswith("copy/") and s not in missed)
    return {
        "documents": len(truth), "articles": len(out.articles), "quarantined": len(out.quarantine),
        "bases": sum(1 for s in truth if s.startswith("base/")), "copies": sum(1 for s in truth if s.startswith("copy/")),
        "follow_ups": sum(1 for s in truth if s.startswith("follow/")),
        **scores, "copies_missed": missed[:20], "n_copies_missed": len(missed), "wrongly_merged": merged[:20],
        "copy_similarity_p05": copy_sims[len(copy_sims) // 20] if copy_sims else None,
        "cleaning_seconds": round(clean_s, 1), "clustering": counts,
    }


# ----------------------------------------------------------------------------- scale

def _texts(n: int, seed: int):
    from generate_corpus import Generator, _is_body

    gen = Generator(seed)
    for _, kind, _, data in gen.documents(n):
        text = data.decode("utf-8", "replace").replace("\r\n", "\n")
        body = [b for b in text.split("\n\n") if _is_body(b)]
        yield "\n\n".join(body) or text


def _write_parts(stage: Path, n: int, seed: int, batch: int = 500) -> float:
    """Signature parts of n generated documents, as the cleaning batches write them; returns the
    CPU seconds the signatures took."""
    cpu = 0.0
    rows: list[dict] = []
    index = 0

    def flush() -> None:
        nonlocal cpu, index
        t = time.process_time()
        syndication.write_part(stage, store.part_name(index), rows, 5)
        cpu += time.process_time() - t
        index += 1
        rows.clear()

    for i, text in enumerate(_texts(n, seed)):
        rows.append({"doc_id": f"{i:016x}", "source": f"{i // 1000:04d}/{i % 1000:04d}.txt", "text": text, "published": None})
        if len(rows) >= batch:
            flush()
    if rows:
        flush()
    return cpu


def _status_kb(pid: int) -> tuple[int, int]:
    """(RssAnon, RssFile) of a process, in KiB."""
    anon = file = 0
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("RssAnon:"):
                    anon = int(line.split()[1])
                elif line.startswith("RssFile:"):
                    file = int(line.split()[1])
    except OSError:
        pass
    return anon, file


def _build(stage: str, conn) -> None:
    before = _status_kb(os.getpid())
    t0, c0 = time.perf_counter(), time.process_time()
    counts = syndication.build_index(Path(stage), None, None, 5, 0.7)
    import pyarrow as pa

    conn.send({"counts": counts, "wall_s": time.perf_counter() - t0, "cpu_s": time.process_time() - c0,
               "anon_before_mb": before[0] / 1024, "arrow_pool_peak_mb": pa.default_memory_pool().max_memory() / 2**20})
    conn.close()


def scale(sizes: list[int], seed: int, tmp: Path, run_cpu_ms: float) -> list[dict]:
    rows = []
    ctx = mp.get_context("spawn")
    for n in sizes:
        stage = tmp / f"scale-{n}"
        shutil.rmtree(stage, ignore_errors=True)
        stage.mkdir(parents=True)
        sig_cpu = _write_parts(stage, n, seed)
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_build, args=(str(stage), child))
        proc.start()
        peak = [0, 0]
        stop = threading.Event()

        def sample() -> None:
            while not stop.is_set():
                anon, file = _status_kb(proc.pid)
                peak[0], peak[1] = max(peak[0], anon), max(peak[1], anon + file)
                time.sleep(0.02)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        got = parent.recv()
        proc.join()
        stop.set()
        sampler.join()
        counts = got["counts"]
        total_ms = sig_cpu * 1000 / n + got["cpu_s"] * 1000 / n
        rows.append({
            "documents": n, "signature_ms_per_doc": round(sig_cpu * 1000 / n, 3),
            "build_wall_s": round(got["wall_s"], 2), "build_cpu_s": round(got["cpu_s"], 2),
            "build_anon_peak_mb": round(peak[0] / 1024, 1), "build_rss_peak_mb": round(peak[1] / 1024, 1),
            "build_anon_before_mb": round(got["anon_before_mb"], 1), "arrow_pool_peak_mb": round(got["arrow_pool_peak_mb"], 1),
            "band_partitions": counts["band_partitions"],
            "clusters": counts["clusters"], "documents_in_clusters": counts["documents_in_clusters"],
            "largest_cluster": counts["largest_cluster"], "pairs_verified": counts["pairs_verified"],
            "pairs_linked": counts["pairs_linked"], "index_mb": round(sum(f.stat().st_size for f in (stage / syndication.INDEX_DIR).iterdir()) / 2**20, 1),
            "cpu_share_of_run": round(total_ms / run_cpu_ms, 4),
        })
        if len(rows) > 1:
            rows[-1]["anon_growth_kb_per_doc"] = round((rows[-1]["build_anon_peak_mb"] - rows[0]["build_anon_peak_mb"]) * 1024
                                                       / (n - rows[0]["documents"]), 3)
        print(json.dumps(rows[-1]), flush=True)
        shutil.rmtree(stage, ignore_errors=True)
    return rows


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bases", type=int, default=461)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--sizes", default="20000,100000")
    ap.add_argument("--skip", choices=["accuracy", "scale"], action="append", default=[])
    ap.add_argument("--run-cpu-ms", type=float, default=RUN_CPU_MS)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "syndication.json")
    args = ap.parse_args(argv)
    result: dict = {"seed": args.seed}
    with tempfile.TemporaryDirectory(prefix="newsclean-syndication-") as tmp:
        if "accuracy" not in args.skip:
            result["accuracy"] = accuracy(args.bases, args.seed, Path(tmp))
            print(json.dumps({k: v for k, v in result["accuracy"].items() if k != "clustering"}, indent=1), flush=True)
        if "scale" not in args.skip:
            result["scale"] = scale([int(s) for s in args.sizes.split(",") if s], args.seed, Path(tmp), args.run_cpu_ms)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return result


if __name__ == "__main__":
    main()
