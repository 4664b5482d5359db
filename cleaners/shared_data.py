"""Where the shared development data lives (devset/, seeds/raw, tools/score-devset, tools/check-seeds).

For developers and CI the shared folder sits beside the checkout (`<repo>/../shared`); a user
whose copy lives elsewhere points the environment variable NEWSCLEAN_SHARED at it. No absolute
machine path is written anywhere else: `newsclean eval`/`train` and the benchmarks ask here.
Standard library only, so a script can load this file by path without importing `cleaners`.
"""
from __future__ import annotations

import os
from pathlib import Path

ENV_SHARED = "NEWSCLEAN_SHARED"
ENV_DEVSET = "NEWSCLEAN_DEVSET"
REPO_ROOT = Path(__file__).resolve().parents[1]


def shared_dir() -> Path:
    """$NEWSCLEAN_SHARED when set, else the folder `shared` beside the repository checkout."""
    value = os.environ.get(ENV_SHARED)
    return Path(value).expanduser() if value else REPO_ROOT.parent / "shared"


def devset_dir() -> Path:
    """The development pages (pages.jsonl.gz, trafilatura-pages.jsonl.gz, html/): $NEWSCLEAN_DEVSET
    when set, else the shared folder's devset/."""
    value = os.environ.get(ENV_DEVSET)
    return Path(value).expanduser() if value else shared_dir() / "devset"


def require_devset(devset: Path) -> Path:
    """`devset` when it holds the dev pages, else SystemExit with a message saying how to point at
    them (for `newsclean train` and `newsclean eval`, which cannot run without them)."""
    if (Path(devset) / "pages.jsonl.gz").is_file():
        return Path(devset)
    raise SystemExit(f"no dev pages at {devset} (pages.jsonl.gz): pass --devset DIR, or set {ENV_DEVSET} to that "
                     f"folder, or {ENV_SHARED} to the shared folder that holds devset/")


def training_cli(description: str, default_out: Path, argv: list[str] | None = None) -> tuple[Path, Path]:
    """(devset, out) from a trainer's command line: --devset (the dev pages, checked with
    require_devset; default devset_dir()) and --out (where the trained files go; default `default_out`)."""
    import argparse

    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--devset", type=Path, default=devset_dir())
    ap.add_argument("--out", type=Path, default=default_out)
    args = ap.parse_args(argv)
    return require_devset(args.devset), args.out
