#!/usr/bin/env bash
# End-to-end browser tests of the web app (headless Chromium + Selenium, nothing downloaded).
#
#   tests/browser/run.sh WAYFINDER_BINARY [DATASET_DIR | FILE.osm.pbf]
#
# Builds nothing: give it a built `wayfinder` (e.g. .build/debug/wayfinder). Without a dataset it
# imports the Monaco sample (.cache/samples/monaco.osm.pbf, from scripts/setup.sh) into a temporary
# folder; a .osm.pbf file (e.g. .cache/samples/helsinki.osm.pbf) is imported the same way.
#
# On Monaco it starts `wayfinder serve` on 127.0.0.1 with a free port, runs the flows in
# tests/browser/flows.py and stops the server, then the API-key flow against a server started with
# `--api-keys` (the page opened as /?key=… works; without a key it says so). Then, on Monaco or Helsinki, the time-to-leave flow:
# a second server on a copy of the dataset's state (the dataset itself is never written), with
# `--clock-speed` (its clock runs fast, so a countdown reaches zero in seconds) and
# `--traffic-replay` (the trip's route jammed and cleared in turn, made with `wayfinder leave
# --make-replay`). Exits non-zero if any flow failed.
#
# Environment:
#   WAYFINDER_SCREENSHOTS    where screenshots go (default .build/browser-screenshots/, and a
#                            subfolder named after the dataset for datasets other than Monaco)
#   WAYFINDER_WEB            serve the web app from this folder instead of the copy built in
#                            (e.g. Sources/MapsServer/Resources/web while working on it)
#   WAYFINDER_FLOWS          all (default), main (the Monaco flows only) or ttl (time to leave only)
#   WAYFINDER_CLOCK_SPEED    the time-to-leave server's clock speed (default 30)
#   PYTHON                   Python with selenium (default .cache/venv/bin/python, from scripts/setup.sh --test)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

usage() { echo "usage: $0 WAYFINDER_BINARY [DATASET_DIR | FILE.osm.pbf]" >&2; exit 2; }
[[ $# -ge 1 && $# -le 2 ]] || usage
BIN=$1
[[ -x "$BIN" ]] || { echo "error: $BIN is not an executable wayfinder binary (build it first)" >&2; exit 2; }
PYTHON=${PYTHON:-$ROOT/.cache/venv/bin/python}
"$PYTHON" -c "import selenium" 2>/dev/null || {
  echo "error: $PYTHON has no selenium; run scripts/setup.sh --test first" >&2; exit 2; }
for tool in /usr/bin/chromium /usr/bin/chromedriver; do
  [[ -x $tool ]] || { echo "error: $tool is missing; run scripts/setup.sh --test first" >&2; exit 2; }
done
FLOWS=${WAYFINDER_FLOWS:-all}
[[ $FLOWS == all || $FLOWS == main || $FLOWS == ttl ]] || { echo "error: WAYFINDER_FLOWS must be all, main or ttl" >&2; exit 2; }
CLOCK_SPEED=${WAYFINDER_CLOCK_SPEED:-30}
FLOWS_PY=$ROOT/tests/browser/flows.py

WORK=$(mktemp -d "${TMPDIR:-/tmp}/wayfinder-browser.XXXXXX")
SERVER_PID=""
stop_server() {
  if [[ -n $SERVER_PID ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=""
}
cleanup() {
  stop_server
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

import_sample() { # FILE.osm.pbf -> $WORK/dataset
  echo "==> importing $(basename "$1") into $WORK/dataset"
  timeout 300 "$BIN" import "$1" --output "$WORK/dataset" >"$WORK/import.log" 2>&1 || {
    cat "$WORK/import.log" >&2; echo "error: import failed" >&2; exit 1; }
  DATASET=$WORK/dataset
}

DATASET=${2:-}
if [[ -z $DATASET ]]; then
  SAMPLE=$ROOT/.cache/samples/monaco.osm.pbf
  [[ -s $SAMPLE ]] || { echo "error: $SAMPLE is missing; run scripts/setup.sh first" >&2; exit 2; }
  import_sample "$SAMPLE"
elif [[ -f $DATASET && $DATASET == *.pbf ]]; then
  import_sample "$DATASET"
fi
[[ -f $DATASET/manifest.json ]] || { echo "error: $DATASET is not a dataset folder (no manifest.json)" >&2; exit 2; }
SOURCE=$("$PYTHON" -c 'import json, sys; print(json.load(open(sys.argv[1]))["source"]["name"])' "$DATASET/manifest.json")
NAME=${SOURCE%%.*}
MONACO=0
[[ ${NAME,,} == *monaco* ]] && MONACO=1

SHOTS=${WAYFINDER_SCREENSHOTS:-$ROOT/.build/browser-screenshots}
[[ $MONACO == 1 || -n ${WAYFINDER_SCREENSHOTS:-} ]] || SHOTS=$SHOTS/$NAME
mkdir -p "$SHOTS"
if [[ $FLOWS == all || ($FLOWS == main && $MONACO == 1) ]]; then
  rm -f "$SHOTS"/*.png
else
  rm -f "$SHOTS"/t[0-9]-*.png "$SHOTS"/FAILED-t.png
fi

# start_server DATASET [serve options…]: sets URL and SERVER_PID; the log is $WORK/server.log
start_server() {
  local dataset=$1; shift
  local args=(serve "$dataset" --host 127.0.0.1 --port 0 "$@")
  [[ -n ${WAYFINDER_WEB:-} ]] && args+=(--web "$WAYFINDER_WEB")
  "$BIN" "${args[@]}" >"$WORK/server.log" 2>&1 &
  SERVER_PID=$!
  # `--port 0` picks a free port and prints the address: "wayfinder serving … at http://127.0.0.1:PORT/"
  URL=""
  for _ in $(seq 150); do
    URL=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$WORK/server.log" | head -1 || true)
    [[ -n $URL ]] && curl -fsS -o /dev/null "$URL/health" 2>/dev/null && break
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log" >&2; echo "error: the server exited" >&2; exit 1; }
    URL=""
    sleep 0.1
  done
  [[ -n $URL ]] || { cat "$WORK/server.log" >&2; echo "error: the server did not come up" >&2; exit 1; }
  echo "==> server at $URL ($(curl -fsS "$URL/health"))"
}

report_failure() {
  echo "==> last lines of the server log:" >&2
  tail -n 20 "$WORK/server.log" >&2
}

status=0

# ---- the Monaco flows ----------------------------------------------------------------------------
if [[ $FLOWS != ttl ]]; then
  if [[ $MONACO == 1 ]]; then
    start_server "$DATASET"
    s=0
    timeout 300 "$PYTHON" "$FLOWS_PY" "$URL" "$SHOTS" || s=$?
    [[ $s == 124 ]] && echo "error: the browser flows took longer than 5 minutes" >&2
    [[ $s != 0 ]] && { report_failure; status=$s; }
    stop_server
  else
    echo "==> $SOURCE is not the Monaco sample: the Monaco flows (a–i) are skipped, time to leave runs"
  fi
fi

# ---- API keys: the page opened as /?key=… carries its key; without one it says what is missing ----
if [[ $FLOWS != ttl && $MONACO == 1 ]]; then
  printf 'browser-test-key 600\n' >"$WORK/api-keys.txt"
  start_server "$DATASET" --api-keys "$WORK/api-keys.txt"
  s=0
  WAYFINDER_API_KEY=browser-test-key timeout 120 "$PYTHON" "$FLOWS_PY" "$URL" "$SHOTS" --flows keys || s=$?
  [[ $s == 124 ]] && echo "error: the API-key flow took longer than 2 minutes" >&2
  [[ $s != 0 ]] && { report_failure; status=$s; }
  stop_server
fi

# ---- time to leave: a fast clock and a replay that jams the trip's route -------------------------
if [[ $FLOWS != main ]]; then
  TRIP=$("$PYTHON" "$FLOWS_PY" --ttl-trip "$SOURCE") || exit 2
  read -r FROM TO MODE TYPE <<<"$TRIP"
  # The dataset's data, a state folder of its own: the replay's traffic and the watches stay here.
  TTL=$WORK/ttl-dataset
  mkdir -p "$TTL/state"
  cp "$DATASET/manifest.json" "$TTL/"
  for data in "$DATASET"/data-*; do ln -s "$(cd "$data" && pwd)" "$TTL/$(basename "$data")"; done
  "$BIN" leave "$TTL" --from "$FROM" --to "$TO" --mode "$MODE" --type "$TYPE" --arrive-at +40m --once \
    --make-replay "$WORK/jam.csv" >"$WORK/leave.log" 2>&1 || { cat "$WORK/leave.log" >&2; echo "error: wayfinder leave failed" >&2; exit 1; }
  echo "==> trip $FROM -> $TO ($MODE, $TYPE): $(head -2 "$WORK/leave.log" | tail -1)"
  echo "==> replay: $("$PYTHON" "$FLOWS_PY" --ttl-replay "$WORK/jam.csv" "$WORK/jam-cycles.csv")"
  start_server "$TTL" --traffic-replay "$WORK/jam-cycles.csv" --clock-speed "$CLOCK_SPEED"
  s=0
  WAYFINDER_CLOCK_SPEED=$CLOCK_SPEED timeout 180 "$PYTHON" "$FLOWS_PY" "$URL" "$SHOTS" --flows ttl || s=$?
  [[ $s == 124 ]] && echo "error: the time-to-leave flow took longer than 3 minutes" >&2
  [[ $s != 0 ]] && { report_failure; status=$s; }
  stop_server
fi
exit $status
