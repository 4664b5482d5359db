"""A batch cleaned in a worker thread (the thread task runner, a Dask worker), as the per-document
time limit is set: now against an older cleaners/timelimit.py.

    .venv/bin/python bench/thread_time_limit.py --before OLD_timelimit.py [--rounds 5]
        [--pages 461] [--batch 25] [--busy]

Outside a process's main thread the limit cannot use a signal (newsclean.cleaners.timelimit), and
batch.clean_in_lock_step enters a limit around every step of every document. Writes the dev pages'
texts (or, with --pages 0, the crash-safety test's small documents) to a temporary raw folder and
cleans them with newsclean.cleaners.batch.clean_sources, --batch documents a call, in one worker
thread, the two versions of the limit alternating round by round in one warmed process. --busy adds
a thread that wakes every millisecond, as Prefect's event loop and the progress display do in a
run. Reports the median wall seconds of each version and their ratio.
"""
from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import newsclean.cleaners.batch as batch  # noqa: E402
from newsclean.cleaners import timelimit  # noqa: E402
from newsclean.cleaners.model import warm_up  # noqa: E402
from newsclean.cleaners.settings import Settings  # noqa: E402
from newsclean.cleaners.shared_data import devset_dir  # noqa: E402


def load_module(path: Path):
    spec = importlib.util.spec_from_file_location("timelimit_before", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def write_raw(raw: Path, pages: int) -> list[str]:
    if pages:
        texts = [json.loads(line)["text"] for line in gzip.open(devset_dir() / "pages.jsonl.gz", "rt")][:pages]
        for i, text in enumerate(texts):
            (raw / f"{i:04d}.txt").write_text(text, encoding="utf-8")
    else:
        from tests.test_crash_safety import write_doc

        for i in range(200):
            write_doc(raw, i)
    return sorted(str(p.relative_to(raw)) for p in raw.rglob("*.txt"))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", type=Path, required=True, help="an older cleaners/timelimit.py")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--pages", type=int, default=461, help="dev pages; 0: the crash-safety test's documents")
    ap.add_argument("--batch", type=int, default=25)
    ap.add_argument("--busy", action="store_true")
    a = ap.parse_args()
    versions = {"before": load_module(a.before).time_limit, "now": timelimit.time_limit}
    warm_up()
    busy = [a.busy]

    def background() -> None:
        while busy[0]:
            sum(range(20_000))
            time.sleep(0.001)

    threading.Thread(target=background, daemon=True).start()
    walls: dict[str, list[float]] = {name: [] for name in versions}
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp)
        names = write_raw(raw, a.pages)
        for r in range(a.rounds):
            order = list(versions) if r % 2 == 0 else list(versions)[::-1]
            for name in order:
                batch.time_limit = versions[name]
                took = {}

                def work() -> None:
                    t0 = time.perf_counter()
                    for i in range(0, len(names), a.batch):
                        batch.clean_sources(raw, names[i:i + a.batch], Settings())
                    took["wall"] = time.perf_counter() - t0

                worker = threading.Thread(target=work)
                worker.start()
                worker.join()
                walls[name].append(took["wall"])
    busy[0] = False
    medians = {name: statistics.median(v) for name, v in walls.items()}
    print(json.dumps({"documents": len(names), "batch": a.batch, "busy": a.busy,
                      "median_wall_s": {k: round(v, 3) for k, v in medians.items()},
                      "rounds": {k: [round(x, 3) for x in v] for k, v in walls.items()},
                      "before_over_now": round(medians["before"] / medians["now"], 3)}))


if __name__ == "__main__":
    main()
