#!/usr/bin/env bash
# Proof that the suite does not race the clock: runs `npm test` RUNS times (3 unless given)
# while another process keeps every core busy, and reports each run's result and duration.
# The burner is Debian's stress-ng (`apt-get install stress-ng`) when installed, otherwise a
# busy loop per core in Node. Extra arguments go to npm test's environment unchanged, e.g.
#   TEST_POSTGRES_URL=... TEST_REDIS_URL=... test/stress/run-under-load.sh
# Exit status: 0 when every run passed.
set -u
cd "$(dirname "$0")/../.."

RUNS="${RUNS:-3}"
CORES="$(nproc)"
LOG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/tributary-under-load.XXXXXX")"

if command -v stress-ng >/dev/null 2>&1; then
  stress-ng --cpu "$CORES" --timeout 0 --quiet &
  BURNER_PID=$!
  BURNER="stress-ng --cpu $CORES"
else
  ./node_modules/.bin/node -e "
    const { Worker } = require('node:worker_threads');
    for (let i = 1; i < $CORES; i++) new Worker('for (;;) {}', { eval: true });
    for (;;) {}
  " &
  BURNER_PID=$!
  BURNER="a Node busy loop on $CORES threads"
fi
# Only the burner this script started is stopped.
trap 'kill "$BURNER_PID" 2>/dev/null; wait "$BURNER_PID" 2>/dev/null' EXIT
echo "CPU burner: $BURNER (pid $BURNER_PID); logs in $LOG_DIR"

failed=0
for run in $(seq 1 "$RUNS"); do
  started=$(date +%s)
  if npm test >"$LOG_DIR/run-$run.log" 2>&1; then result=pass; else result=FAIL; failed=1; fi
  elapsed=$(($(date +%s) - started))
  echo "run $run: $result in ${elapsed} s ($LOG_DIR/run-$run.log)"
  if [ "$result" = FAIL ]; then grep -E '^not ok|✖' "$LOG_DIR/run-$run.log" | head -20; fi
done
exit "$failed"
