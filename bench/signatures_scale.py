"""The near-duplicate signatures of one very long text: CPU and peak memory, newsclean's batched
numpy MinHash against datasketch's MinHash on the same shingles (the same values).

    .venv/bin/python bench/signatures_scale.py [--words 2000000] [--out bench/out/signatures-scale.json]

Each side runs in a fresh process on the same generated text (`--words` words drawn from a
50,000-word vocabulary, seeded): newsclean.cleaners.syndication.signatures, then datasketch's
MinHash.update_batch over syndication.shingle_hashes (what the signatures were before they were
computed in numpy; datasketch is a dev dependency). Prints CPU seconds and the process's peak RSS
over what it held before signing.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, random, resource, sys, time
sys.path.insert(0, sys.argv[1])
which, n_words = sys.argv[2], int(sys.argv[3])
rng = random.Random(7)
vocabulary = [f"w{i}" for i in range(50_000)]
text = " ".join(rng.choice(vocabulary) for _ in range(n_words))
from newsclean.cleaners import syndication as sy
if which == "datasketch":
    from datasketch import MinHash
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.process_time()
if which == "newsclean":
    row = sy.signatures([text], 5)[0]
else:
    template = MinHash(num_perm=sy.NUM_PERM, seed=sy.SEED, scheme=sy.SCHEME)
    m = MinHash(num_perm=sy.NUM_PERM, seed=sy.SEED, scheme=sy.SCHEME, hashfunc=lambda v: v,
                permutations=template.permutations)
    m.update_batch(sy.shingle_hashes(text, 5).tolist())
    row = m.hashvalues
cpu = time.process_time() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"cpu_s": round(cpu, 2), "peak_rss_mb": round(peak / 1024), "before_mb": round(before / 1024),
                  "first_values": [int(v) for v in row[:4]]}))
"""


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--words", type=int, default=2_000_000)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "signatures-scale.json")
    args = ap.parse_args(argv)
    report = {"words": args.words}
    for which in ("newsclean", "datasketch"):
        done = subprocess.run([sys.executable, "-c", CHILD, str(ROOT), which, str(args.words)], cwd=ROOT,
                              check=True, capture_output=True, text=True)
        report[which] = json.loads(done.stdout.strip().splitlines()[-1])
        print(which, report[which])
    report["same_values"] = report["newsclean"]["first_values"] == report["datasketch"]["first_values"]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return report


if __name__ == "__main__":
    main()
