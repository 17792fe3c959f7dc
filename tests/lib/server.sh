# Shared by tests/clients/run.sh and tests/contract/run.sh (source it; bash only):
# a dataset and `wayfinder serve` on 127.0.0.1 with a free port, stopped when the script exits.
#
#   wf_init BIN NAME          checks BIN, makes $WORK (a temporary folder) and the exit trap
#   wf_dataset [DATASET_DIR]  sets $DATASET: the Monaco sample imported into $WORK, or a private
#                             view of DATASET_DIR (its data files linked, its state/ left alone, so
#                             a test that posts traffic never changes the real dataset)
#   wf_serve [SERVE_OPTION…]  starts the server, waits for /health, sets $URL and $SERVER_PID
#   wf_server_log             prints the end of the server's log, without access lines for answers
#                             below 500 (for failures)
WF_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SERVER_PID=""
WORK=""

wf_cleanup() {
  if [[ -n $SERVER_PID ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
  fi
  [[ -n $WORK ]] && rm -rf "$WORK"
  return 0
}

wf_init() {
  BIN=$1
  [[ -x "$BIN" ]] || { echo "error: $BIN is not an executable wayfinder binary (build it first)" >&2; exit 2; }
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/wayfinder-$2.XXXXXX")
  trap wf_cleanup EXIT
  trap 'exit 130' INT TERM
}

wf_dataset() {
  local given=${1:-}
  if [[ -z $given ]]; then
    local sample=$WF_ROOT/.cache/samples/monaco.osm.pbf
    [[ -s $sample ]] || { echo "error: $sample is missing; run scripts/setup.sh first" >&2; exit 2; }
    echo "==> importing the Monaco sample into $WORK/dataset"
    timeout 120 "$BIN" import "$sample" --output "$WORK/dataset" >"$WORK/import.log" 2>&1 || {
      cat "$WORK/import.log" >&2; echo "error: import failed" >&2; exit 1; }
  else
    [[ -s $given/manifest.json ]] || { echo "error: $given is not a dataset folder (no manifest.json)" >&2; exit 2; }
    given=$(cd "$given" && pwd)
    mkdir -p "$WORK/dataset"
    cp "$given/manifest.json" "$WORK/dataset/"
    local entry
    for entry in "$given"/*; do
      case ${entry##*/} in manifest.json|state) ;; *) ln -s "$entry" "$WORK/dataset/${entry##*/}" ;; esac
    done
  fi
  DATASET=$WORK/dataset
}

wf_serve() {
  "$BIN" serve "$DATASET" --host 127.0.0.1 --port 0 "$@" >"$WORK/server.log" 2>&1 &
  SERVER_PID=$!
  # `--port 0` picks a free port and prints the address: "wayfinder serving … at http://127.0.0.1:PORT/"
  URL=""
  for _ in $(seq 150); do
    URL=$(grep -so 'http://127\.0\.0\.1:[0-9]*' "$WORK/server.log" | head -1 || true)
    [[ -n $URL ]] && curl -fsS -o /dev/null "$URL/health" 2>/dev/null && break
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log" >&2; echo "error: the server exited" >&2; exit 1; }
    URL=""
    sleep 0.1
  done
  [[ -n $URL ]] || { cat "$WORK/server.log" >&2; echo "error: the server did not come up" >&2; exit 1; }
  echo "==> server at $URL ($(curl -fsS "$URL/health"))"
}

wf_server_log() {
  echo "==> end of the server log (access lines only for 5xx answers):" >&2
  grep -Ev '^127\.0\.0\.1 [A-Z]+ [^ ]+ [1-4][0-9][0-9] ' "$WORK/server.log" | tail -n 40 >&2 || true
}
