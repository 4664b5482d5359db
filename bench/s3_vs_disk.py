"""RAW_DIR in object storage against the same files on local disk: rate of `newsclean run`.

    .venv/bin/python bench/s3_vs_disk.py [--docs 2000] [--seed 7] [--html-share 0.5]
        [--work bench/out/s3] [--out bench/out/s3_vs_disk.json]

Generates a corpus (bench/generate_corpus.py: `--html-share` of it HTML pages, the rest full-page
text), starts moto's S3 server on 127.0.0.1 (a real S3 API, the one the tests use), uploads the
corpus under s3://bench/raw/, and runs `newsclean run RAW OUT --full` (all cores, the default
process pool) once on the local folder and once on the bucket prefix, each in a fresh process.
Reports wall seconds and documents per wall second of each, and the bucket's rate as a share of
the disk's (the target: >= 0.8). moto serves from memory in one Python process on this machine, so
it competes with the run for the cores; a real object store does not.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from archive_vs_files import generate, machine, run, save  # noqa: E402

from newsclean.flows.prefect_api import free_port  # noqa: E402


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--html-share", type=float, default=0.5)
    ap.add_argument("--work", type=Path, default=ROOT / "bench" / "out" / "s3")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "s3_vs_disk.json")
    args = ap.parse_args(argv)
    corpus = args.work / f"corpus-{args.docs}-{args.seed}-{args.html_share}"
    generate(corpus, args.docs, args.seed, args.html_share)

    import s3fs
    from moto.server import ThreadedMotoServer

    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    env = {**os.environ, "AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench",
           "AWS_DEFAULT_REGION": "us-east-1", "AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}"}
    try:
        fs = s3fs.S3FileSystem(key="bench", secret="bench", client_kwargs={"endpoint_url": env["AWS_ENDPOINT_URL"]})
        fs.mkdir("bench")
        t0 = time.perf_counter()
        fs.put(str(corpus) + "/", "bench/raw/", recursive=True)
        upload = time.perf_counter() - t0
        result = {"docs": args.docs, "html_share": args.html_share, "upload_s": round(upload, 1),
                  "machine": machine(),
                  "disk": run(str(corpus), args.work / "out-disk", env),
                  "s3": run("s3://bench/raw", args.work / "out-s3", env)}
    finally:
        server.stop()
    result["s3_rate_over_disk"] = round(result["s3"]["docs_per_wall_s"] / result["disk"]["docs_per_wall_s"], 3)
    return save(result, args.out)


if __name__ == "__main__":
    main()
