#!/usr/bin/env bash
# Bounded load test of `wayfinder serve` (issue 9, part 3): a mixed closed-loop workload (route,
# typeahead, reverse, along-route, tiles; one wrk per type) on loopback, then the same while a live
# traffic update is applied every second, then with updates back to back. Prints one JSON report;
# exits 1 if a verdict fails.
#
#   bench/load/run.sh WAYFINDER_BINARY [DATASET_DIR] [--seconds N] [--warmup N] [--workers N] [--quick]
#
# Without DATASET_DIR it imports the Monaco sample into a temporary folder. With one, the server
# runs on a private view of it (the data folder linked, a fresh empty state/), so the live updates
# of phases 2-3 and the tile cache never touch the dataset's own state/.
# Defaults: 20 s per phase after a 5 s warm-up. --quick: 5 s per phase, 3 s warm-up (scripts/test.sh).
# --workers is passed to `wayfinder serve` (default: its own, one per core).
#
# Verdicts (see load.py): no failed request of any kind; resident memory at the end of phases 1-2
# within max(16 MiB, 10 %) of its first sample; open descriptors back to their idle count (a
# pooled read-only connection to the places index may stay open, never a socket);
# every route across the live corridor consistent with exactly one applied update; an applied
# update visible to the next query (and still served a second after the last one).
#
# Environment: PYTHON (default .cache/venv/bin/python, else python3; standard library only).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

usage() { echo "usage: $0 WAYFINDER_BINARY [DATASET_DIR] [--seconds N] [--warmup N] [--workers N] [--quick]" >&2; exit 2; }
BIN=""; DATASET=""; SECONDS_PER_PHASE=20; WARMUP=5; WORKERS=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --seconds) [[ $# -ge 2 ]] || usage; SECONDS_PER_PHASE=$2; shift 2 ;;
    --warmup) [[ $# -ge 2 ]] || usage; WARMUP=$2; shift 2 ;;
    --workers) [[ $# -ge 2 ]] || usage; WORKERS=$2; shift 2 ;;
    --quick) SECONDS_PER_PHASE=5; WARMUP=3; shift ;;
    -*) usage ;;
    *) if [[ -z $BIN ]]; then BIN=$1; elif [[ -z $DATASET ]]; then DATASET=$1; else usage; fi; shift ;;
  esac
done
[[ -n $BIN ]] || usage
[[ $SECONDS_PER_PHASE =~ ^[0-9]+$ && $SECONDS_PER_PHASE -ge 1 && $SECONDS_PER_PHASE -le 600 ]] || { echo "error: --seconds must be 1...600" >&2; exit 2; }
[[ $WARMUP =~ ^[0-9]+$ && $WARMUP -ge 1 && $WARMUP -le 120 ]] || { echo "error: --warmup must be 1...120" >&2; exit 2; }
[[ -x "$BIN" ]] || { echo "error: $BIN is not an executable wayfinder binary (build it first)" >&2; exit 2; }
command -v wrk >/dev/null || { echo "error: wrk is missing; run scripts/setup.sh --test first" >&2; exit 2; }
PYTHON=${PYTHON:-$ROOT/.cache/venv/bin/python}
[[ -x $PYTHON ]] || PYTHON=$(command -v python3)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/wayfinder-load.XXXXXX")
SERVER_PID=""
cleanup() {
  if [[ -n $SERVER_PID ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

if [[ -z $DATASET ]]; then
  SAMPLE=$ROOT/.cache/samples/monaco.osm.pbf
  [[ -s $SAMPLE ]] || { echo "error: $SAMPLE is missing; run scripts/setup.sh first" >&2; exit 2; }
  echo "==> importing the Monaco sample" >&2
  timeout 300 "$BIN" import "$SAMPLE" --output "$WORK/dataset" >"$WORK/import.log" 2>&1 || {
    cat "$WORK/import.log" >&2; echo "error: import failed" >&2; exit 1; }
  SERVE_DIR=$WORK/dataset
else
  [[ -f $DATASET/manifest.json ]] || { echo "error: $DATASET has no manifest.json" >&2; exit 2; }
  DATASET=$(cd "$DATASET" && pwd)
  # A private view: the manifest copied, its data folder linked, an empty state/.
  SERVE_DIR=$WORK/view
  mkdir -p "$SERVE_DIR/state"
  cp "$DATASET/manifest.json" "$SERVE_DIR/"
  id=$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$DATASET/manifest.json")
  ln -s "$DATASET/data-$id" "$SERVE_DIR/data-$id"
fi

serve_args=(serve "$SERVE_DIR" --host 127.0.0.1 --port 0 --quiet)
[[ -n $WORKERS ]] && serve_args+=(--workers "$WORKERS")
"$BIN" "${serve_args[@]}" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
URL=""
for _ in $(seq 300); do
  URL=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$WORK/server.log" 2>/dev/null | head -1 || true)
  [[ -n $URL ]] && curl -fsS -o /dev/null "$URL/health" 2>/dev/null && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log" >&2; echo "error: the server exited" >&2; exit 1; }
  URL=""
  sleep 0.1
done
[[ -n $URL ]] || { cat "$WORK/server.log" >&2; echo "error: the server did not come up" >&2; exit 1; }
echo "==> server at $URL (pid $SERVER_PID); $SECONDS_PER_PHASE s per phase after a $WARMUP s warm-up" >&2

status=0
# Bounded: request lists (~1 min at most), warm-up, three phases, and slack.
timeout $((240 + WARMUP + 3 * SECONDS_PER_PHASE)) "$PYTHON" "$ROOT/bench/load/load.py" --url "$URL" --pid "$SERVER_PID" \
  --dataset "$SERVE_DIR" --work "$WORK" --seconds "$SECONDS_PER_PHASE" --warmup "$WARMUP" --workers "$WORKERS" || status=$?
if [[ $status == 124 ]]; then echo "error: the load test ran over its time limit" >&2; fi
if ! kill -0 "$SERVER_PID" 2>/dev/null; then
  echo "error: the server died during the load test" >&2; status=1
fi
if [[ $status != 0 ]]; then
  echo "==> last lines of the server log:" >&2
  tail -n 20 "$WORK/server.log" >&2
fi
exit $status
