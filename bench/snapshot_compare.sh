#!/usr/bin/env bash
# Show that a speed change in cleaners/ leaves every output identical, while others keep editing:
# snapshot the working tree twice at the same moment, once with the given files restored from
# ORIG_DIR (their pre-change copies), dump both, compare.
#   bench/snapshot_compare.sh ORIG_DIR [--corpus DIR]     (ORIG_DIR mirrors cleaners/ paths)
set -euo pipefail
cd "$(dirname "$0")/.."
orig=$1; shift
snap=$(mktemp -d -t nc-snap.XXXXXX)
mkdir -p "$snap/before" "$snap/after"
cp -r cleaners "$snap/before/" && cp -r cleaners "$snap/after/"
(cd "$orig" && find . -name '*.py' -print) | while read -r f; do cp "$orig/$f" "$snap/before/cleaners/$f"; done
find "$snap" -name __pycache__ -prune -exec rm -rf {} +
.venv/bin/python bench/check_identical.py dump "$snap/before.jsonl" --root "$snap/before" "$@"
.venv/bin/python bench/check_identical.py compare "$snap/before.jsonl" --root "$snap/after" "$@"
