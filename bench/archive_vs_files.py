"""One crawl archive against the same pages as separate files: rate and peak memory of `newsclean run`.

    .venv/bin/python bench/archive_vs_files.py [--docs 20000] [--seed 7] [--work bench/out/archive]
        [--out bench/out/archive_vs_files.json] [--corpus DIR] [--archive-only]

Generates (bench/generate_corpus.py, --html-share 1) DOCS HTML pages as separate `.html` files, and
packs the same bytes as HTTP response records into one `crawl.warc.gz` (gzipped record by record,
as CC-NEWS ships). Then runs `newsclean run RAW OUT --full` on each in a fresh process (all cores,
the default process pool) and reports, per input: wall seconds, CPU seconds of the whole process
tree, documents per wall second, the highest RSS any one process of the tree reached (sampled every
0.2 s), and the archive's rate as a share of the files' rate (the issue's target: >= 0.9).

The archive's records carry a WARC-Target-URI built from the file's path (`https://bench.invalid/<path>`),
the files have none: the URL's outlet and date lookups are the only extra work on the archive side.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

import psutil
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

ROOT = Path(__file__).resolve().parent.parent


def generate(corpus: Path, docs: int, seed: int, html_share: float = 1.0) -> None:
    """bench/generate_corpus.py into `corpus`, unless it is there already."""
    if corpus.exists():
        return
    subprocess.run([sys.executable, str(ROOT / "bench" / "generate_corpus.py"), str(corpus), "--docs", str(docs),
                    "--seed", str(seed), "--html-share", str(html_share)], check=True)


def pack(corpus: Path, archive: Path) -> int:
    """Every .html file under `corpus` as a response record of one .warc.gz; returns the count."""
    archive.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with archive.open("wb") as fh:
        writer = WARCWriter(fh, gzip=True)
        for path in sorted(corpus.rglob("*.html")):
            body = path.read_bytes()
            http = StatusAndHeaders("200 OK", [("Content-Type", "text/html"), ("Content-Length", str(len(body)))],
                                    protocol="HTTP/1.1")
            url = f"https://bench.invalid/{path.relative_to(corpus).as_posix()}"
            writer.write_record(writer.create_warc_record(url, "response", payload=io.BytesIO(body), http_headers=http))
            n += 1
    return n


def run(raw: Path | str, out: Path, env: dict | None = None) -> dict:
    """`newsclean run RAW OUT --full` in a fresh process tree: wall, CPU, peak RSS per process, and
    the run's own stage durations."""
    shutil.rmtree(out, ignore_errors=True)
    before = os.times()
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "newsclean.flows.cli", "run", str(raw), str(out), "--full"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    peak, peak_tree = 0, 0
    root = psutil.Process(proc.pid)
    while proc.poll() is None:
        try:
            tree = [root, *root.children(recursive=True)]
            rss = [p.memory_info().rss for p in tree]
            peak, peak_tree = max(peak, max(rss)), max(peak_tree, sum(rss))
        except psutil.Error:
            pass
        time.sleep(0.2)
    wall = time.perf_counter() - t0
    after = os.times()
    err = proc.stderr.read()
    if proc.returncode:
        raise SystemExit(f"newsclean run {raw} failed ({proc.returncode}): {err[-2000:]}")
    summary = json.loads((out / "run.json").read_text())
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return {"wall_s": round(wall, 1), "cpu_s": round(cpu, 1), "docs_read": summary["docs_read"],
            "docs_cleaned": summary["docs_cleaned"], "docs_per_wall_s": round(summary["docs_read"] / wall, 2),
            "peak_rss_one_process_mb": round(peak / 2**20), "peak_rss_tree_mb": round(peak_tree / 2**20),
            "durations_s": summary["durations_s"]}


def machine() -> str:
    return f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores"


def save(result: dict, out: Path) -> dict:
    """The result as JSON in `out`, and printed."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))
    return result


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--work", type=Path, default=ROOT / "bench" / "out" / "archive")
    ap.add_argument("--corpus", type=Path, help="an existing generated HTML corpus (default: generated under --work)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "archive_vs_files.json")
    ap.add_argument("--archive-only", action="store_true",
                    help="run the archive alone (a large archive's completion and peak memory, without the files' run)")
    args = ap.parse_args(argv)
    corpus = args.corpus or args.work / f"files-{args.docs}-{args.seed}"
    generate(corpus, args.docs, args.seed)
    archive = args.work / f"warc-{args.docs}-{args.seed}" / "crawl.warc.gz"
    records = pack(corpus, archive) if not archive.exists() else None
    result = {"docs": args.docs, "records": records, "archive_mb": round(archive.stat().st_size / 2**20, 1),
              "machine": machine()}
    if not args.archive_only:
        result["files"] = run(corpus, args.work / "out-files")
    result["archive"] = run(archive.parent, args.work / "out-archive")
    if not args.archive_only:
        result["archive_rate_over_files"] = round(result["archive"]["docs_per_wall_s"] / result["files"]["docs_per_wall_s"], 3)
    return save(result, args.out)


if __name__ == "__main__":
    main()
