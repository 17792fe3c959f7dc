#!/usr/bin/env bash
# End-to-end browser tests of the web app (headless Chromium + Selenium, nothing downloaded).
#
#   tests/browser/run.sh WAYFINDER_BINARY [DATASET_DIR]
#
# Builds nothing: give it a built `wayfinder` (e.g. .build/debug/wayfinder). Without a dataset folder
# it imports the Monaco sample (.cache/samples/monaco.osm.pbf, from scripts/setup.sh) into a
# temporary folder. Starts `wayfinder serve` on 127.0.0.1 with a free port, runs the flows in
# tests/browser/flows.py, stops the server and exits non-zero if any flow failed.
#
# Environment:
#   WAYFINDER_SCREENSHOTS    where screenshots go (default .build/browser-screenshots/)
#   WAYFINDER_WEB            serve the web app from this folder instead of the copy built in
#                            (e.g. Sources/MapsServer/Resources/web while working on it)
#   WAYFINDER_REQUIRE_SEARCH=1  fail (instead of XFAIL) when the search endpoints answer 404
#   PYTHON                   Python with selenium (default .cache/venv/bin/python, from scripts/setup.sh --test)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

usage() { echo "usage: $0 WAYFINDER_BINARY [DATASET_DIR]" >&2; exit 2; }
[[ $# -ge 1 && $# -le 2 ]] || usage
BIN=$1
[[ -x "$BIN" ]] || { echo "error: $BIN is not an executable wayfinder binary (build it first)" >&2; exit 2; }
PYTHON=${PYTHON:-$ROOT/.cache/venv/bin/python}
"$PYTHON" -c "import selenium" 2>/dev/null || {
  echo "error: $PYTHON has no selenium; run scripts/setup.sh --test first" >&2; exit 2; }
for tool in /usr/bin/chromium /usr/bin/chromedriver; do
  [[ -x $tool ]] || { echo "error: $tool is missing; run scripts/setup.sh --test first" >&2; exit 2; }
done

SHOTS=${WAYFINDER_SCREENSHOTS:-$ROOT/.build/browser-screenshots}
mkdir -p "$SHOTS"
rm -f "$SHOTS"/*.png

WORK=$(mktemp -d "${TMPDIR:-/tmp}/wayfinder-browser.XXXXXX")
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

DATASET=${2:-}
if [[ -z $DATASET ]]; then
  SAMPLE=$ROOT/.cache/samples/monaco.osm.pbf
  [[ -s $SAMPLE ]] || { echo "error: $SAMPLE is missing; run scripts/setup.sh first" >&2; exit 2; }
  echo "==> importing the Monaco sample into $WORK/dataset"
  timeout 120 "$BIN" import "$SAMPLE" --output "$WORK/dataset" >"$WORK/import.log" 2>&1 || {
    cat "$WORK/import.log" >&2; echo "error: import failed" >&2; exit 1; }
  DATASET=$WORK/dataset
fi

serve_args=(serve "$DATASET" --host 127.0.0.1 --port 0)
[[ -n ${WAYFINDER_WEB:-} ]] && serve_args+=(--web "$WAYFINDER_WEB")
"$BIN" "${serve_args[@]}" >"$WORK/server.log" 2>&1 &
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

status=0
timeout 300 "$PYTHON" "$ROOT/tests/browser/flows.py" "$URL" "$SHOTS" || status=$?
if [[ $status == 124 ]]; then echo "error: the browser flows took longer than 5 minutes" >&2; fi
if [[ $status != 0 ]]; then
  echo "==> last lines of the server log:" >&2
  tail -n 20 "$WORK/server.log" >&2
fi
exit $status
