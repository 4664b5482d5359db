#!/usr/bin/env bash
# A/B of `newsclean run` wall time between two commits, alternating old/new, ephemeral Prefect.
#
#     bench/ab_cli.sh OLD_COMMIT NEW_COMMIT RAW_DIR [REPS=3]
#
# Each commit is exported with `git archive` to a temporary folder and run from there with this
# checkout's .venv (`python -c "from newsclean.flows.cli import main; main()" run RAW OUT --full`), so both
# sides use the same libraries. Prints one line per run: wall, user and system seconds (GNU time)
# and the flow's own total from run.json. Quote medians; the machine is shared.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OLD=$1 NEW=$2 RAW="$(cd "$3" && pwd)" REPS=${4:-3}
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
export PREFECT_HOME="${PREFECT_HOME:-$ROOT/.prefect}" PREFECT_SERVER_ANALYTICS_ENABLED=false \
       PREFECT_LOGGING_LEVEL=WARNING PREFECT_SERVER_LOGGING_LEVEL=CRITICAL PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS=120
for side in old new; do
  commit=$OLD; [ "$side" = new ] && commit=$NEW
  mkdir -p "$WORK/$side"
  git -C "$ROOT" archive "$commit" | tar -x -C "$WORK/$side"
  ln -s "$ROOT/.venv" "$WORK/$side/.venv"
done
for i in $(seq "$REPS"); do
  for side in old new; do
    out="$WORK/out-$side"
    rm -rf "$out"
    (cd "$WORK/$side" && /usr/bin/time -f "$side run $i: wall %e s, user %U s, sys %S s" \
        .venv/bin/python -c "from newsclean.flows.cli import main; main()" run "$RAW" "$out" --full >/dev/null 2>"$WORK/err") \
      || { tail -5 "$WORK/err"; exit 1; }
    tail -1 "$WORK/err"
    "$ROOT/.venv/bin/python" -c "import json,sys; d=json.load(open(sys.argv[1])); print('   flow total', d['durations_s']['total'], 's,', d['docs_cleaned'], 'cleaned')" "$out/run.json"
  done
done
