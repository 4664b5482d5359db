"""The accuracy gate's pages scored with line models retrained over several seeds: how far a
retrain's in-sample F1 and headline count lie from the packaged model's, to which the gate's floors
(tests/test_accuracy_gate.py) are pinned.

    .venv/bin/python bench/gate_seeds.py [--seeds 20261121,1,2] [--root TREE] [--out bench/out/gate-seeds]

The default seeds are TREE's packaged model's (its model.json), 1 and 2.

For each seed, `python -m newsclean.cleaners.model.train` trains the whole line model (the lexicon,
the distilled chain, the headline ranker and its gate; ~2 CPU-minutes) with LightGBM's seed set to
it, into OUT/TREE-NAME/sSEED (kept: a second run scores the saved model again). The gate's 93 pages
(TREE's tests/data/devset_subset) are then cleaned as the gate cleans them (the text pipeline, no
URL) with that model, and with TREE's packaged model, each in a fresh process that imports TREE's
cleaners/ (`--root`: a `git worktree` of another commit, so a retrain can be compared with the
packaged model at the commit that trained it). Prints each model's F1, leak and headlines found.
A tree whose line features were changed (an experiment's patch applied) has no packaged model that
reads them: only its retrains are scored (give --out a folder of its own, so that the models saved
for the unchanged tree are not read as its).

The gate is in sample (the line model trains on these pages): it guards the packaged model against
regressions and is no estimate of accuracy on unseen pages (bench/cv_seeds.py gives that).
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GATE_PAGES = Path("tests") / "data" / "devset_subset" / "pages.jsonl.gz"
PACKAGED_META = Path("cleaners") / "model" / "files" / "model.json"  # a tree's packaged line model: its seed


def _train(seed: int, out: Path) -> None:
    """(In TREE's process.) The whole line model trained with LightGBM's seed `seed`."""
    from newsclean.cleaners.model import train as tr

    tr.SEED = seed
    tr.PARAMS = dict(tr.PARAMS, seed=seed)
    tr.main(["--out", str(out)])


def _score(model_dir: str) -> dict:
    """(In TREE's process.) The gate's pages cleaned as the gate cleans them, with the model in
    `model_dir` ("packaged": TREE's own): F1, leak and headline exact match."""
    from newsclean.cleaners.model import LineModel
    from newsclean.cleaners.model.evaluate import clean_page
    from newsclean.cleaners.model.score import score
    from newsclean.cleaners.settings import Settings

    with gzip.open(GATE_PAGES, "rt", encoding="utf-8") as f:
        pages = [json.loads(line) for line in f]
    model = LineModel.default() if model_dir == "packaged" else LineModel.load(Path(model_dir))
    preds = {p["id"]: clean_page(dict(p, url=None), model, None, "pipeline", Settings()) for p in pages}
    s = score(pages, preds)
    return {"F1": s["F1"], "leak": s["leak"], "title": s["title"], "headlines": round(s["title"] * s["pages"]), "pages": s["pages"]}


def _in_tree(tree: Path, *args: str, quiet: bool = False) -> str:
    """This script's worker mode run in a fresh process that imports `tree`'s cleaners/ (`quiet`:
    its error output dropped)."""
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", str(tree), *args],
                          cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)}, check=True,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL if quiet else None, text=True)
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:
        tree, what, arg = Path(argv[1]), argv[2], argv[3]
        sys.path.insert(0, str(tree))
        if what == "train":
            _train(int(arg), Path(argv[4]))
        else:
            print(json.dumps(_score(arg)))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", help="comma-separated (default: the tree's packaged model's seed, 1, 2)")
    ap.add_argument("--root", type=Path, default=ROOT, help="the code tree to train and score with (default: this one)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "gate-seeds")
    a = ap.parse_args(argv)
    tree = a.root.resolve()
    seeds = a.seeds or f"{json.loads((tree / PACKAGED_META).read_text(encoding='utf-8'))['seed']},1,2"
    rows = {}
    try:
        rows["packaged"] = json.loads(_in_tree(tree, "score", "packaged", quiet=True))
    except subprocess.CalledProcessError:  # a tree whose line features changed: its packaged files no longer fit them
        print("packaged: not scored (its boosters do not read this tree's features)", flush=True)
    for seed in seeds.split(","):
        out = (a.out / tree.name / f"s{seed}").resolve()
        if not (out / "model.json").is_file():
            _in_tree(tree, "train", seed, str(out))
        rows[f"seed {seed}"] = json.loads(_in_tree(tree, "score", str(out)))
    for name, r in rows.items():
        print(f"{name:>16}: F1 {r['F1']:.4f}  leak {r['leak']:.4f}  headlines {r['headlines']} of {r['pages']} ({r['title']:.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
