#!/usr/bin/env bash
# The HTTP API's contract and its behaviour under hostile input, against a live server.
#
#   tests/contract/run.sh WAYFINDER_BINARY [DATASET_DIR]
#
# Builds nothing: give it a built `wayfinder`. Without a dataset folder it imports the Monaco
# sample (.cache/samples/monaco.osm.pbf, from scripts/setup.sh) into a temporary folder; a given
# folder is served through a private view, so the traffic updates posted here never reach it.
# Starts `wayfinder serve` on 127.0.0.1 with a free port and a short idle timeout, then:
#
#   1. schemathesis (PyPI) reads the server's GET /openapi.json and sends every operation valid
#      and invalid inputs (phases examples, coverage, fuzzing; at most N cases per operation in
#      fuzzing, a fixed seed), checking not_a_server_error, status_code_conformance and
#      response_schema_conformance; prints operations, test cases and failures. The time-to-leave
#      event stream is left out: a live stream stays open until its request timeout, so each case
#      would cost 20 s (tests/browser's flow t and the Swift streaming tests cover it);
#   2. tests/contract/hostile.py sends path traversals, oversized URLs/headers/bodies, slow clients,
#      invalid UTF-8, out-of-range numbers, thousands of waypoints, a detour budget of a year…,
#      each expecting a clear 4xx, with GET /health answering 200 after each.
#
# Exits non-zero if either finds a problem, or if the server crashed or answered a 5xx. About 45
# seconds; capped at 3.5 minutes.
#
# Environment:
#   WAYFINDER_CONTRACT_EXAMPLES   fuzzing cases per operation (default 60)
#   WAYFINDER_CONTRACT_SEED       schemathesis seed (default 20261129; "random" for a new one each run)
#   WAYFINDER_CONTRACT_TIMEOUT    seconds for the schemathesis run before it is stopped (default 240)
#   PYTHON                        Python with schemathesis (default .cache/venv/bin/python, from scripts/setup.sh --test)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/../lib/server.sh"

[[ $# -ge 1 && $# -le 2 ]] || { echo "usage: $0 WAYFINDER_BINARY [DATASET_DIR]" >&2; exit 2; }
PYTHON=${PYTHON:-$WF_ROOT/.cache/venv/bin/python}
"$PYTHON" -c "import schemathesis" 2>/dev/null || {
  echo "error: $PYTHON has no schemathesis; run scripts/setup.sh --test first" >&2; exit 2; }
EXAMPLES=${WAYFINDER_CONTRACT_EXAMPLES:-60}
SEED=${WAYFINDER_CONTRACT_SEED:-20261129}
ST_TIMEOUT=${WAYFINDER_CONTRACT_TIMEOUT:-240}
IDLE=5   # `serve --timeout`: slow clients are cut off after this many idle seconds

wf_init "$1" contract
wf_dataset "${2:-}"
wf_serve --timeout "$IDLE"

# 1. schemathesis. One worker: Python 3.11's AST constructor is not thread-safe, and Hypothesis
# parses lambda sources while generating, so two workers fail at random with "AST constructor
# recursion depth mismatch" (CPython gh-106905). Stateful testing needs OpenAPI links; there are none.
seed_args=(--seed "$SEED")
[[ $SEED == random ]] && seed_args=()
echo "==> schemathesis: $URL/openapi.json, up to $EXAMPLES fuzzed cases per operation"
st_status=0
(cd "$WORK" && timeout --kill-after=10 "$ST_TIMEOUT" "$PYTHON" -m schemathesis.cli run "$URL/openapi.json" \
    --checks not_a_server_error,status_code_conformance,response_schema_conformance \
    --phases examples,coverage,fuzzing --max-examples "$EXAMPLES" "${seed_args[@]}" \
    --exclude-path-regex '/events$' \
    --workers 1 --request-timeout 20 --generation-database none --suppress-health-check all \
    --no-color >"$WORK/schemathesis.log" 2>&1) || st_status=$?

# Failures and errors in full, then the counts from schemathesis's summary.
sed -n '/^=* *\(FAILURES\|ERRORS\) *=*$/,$p' "$WORK/schemathesis.log" | head -c 20000
sed -n '/^=* *SUMMARY *=*$/,$p' "$WORK/schemathesis.log" | grep -q . || tail -n 40 "$WORK/schemathesis.log"
summary=$(sed -n '/^=* *SUMMARY *=*$/,$p' "$WORK/schemathesis.log" || true)
operations=$(grep -A3 '^API Operations:' <<<"$summary" | sed -n 's/^ *Tested: *\([0-9]*\).*/\1/p' | head -1 || true)
selected=$(grep -A3 '^API Operations:' <<<"$summary" | sed -n 's/^ *Selected: *\([0-9/]*\).*/\1/p' | head -1 || true)
cases=$(grep -A1 '^Test cases:' <<<"$summary" | sed -n 's/^ *\([0-9]*\) generated.*/\1/p' | head -1 || true)
failures=$(grep -A1 '^Test cases:' <<<"$summary" | grep -o '[0-9]* unique failure\|[0-9]* failed' | grep -o '^[0-9]*' || true)
errors=$(grep -A1 '^Test cases:' <<<"$summary" | grep -o '[0-9]* errored' | grep -o '[0-9]*' || true)
seed_used=$(sed -n 's/^Seed: *\([0-9]*\).*/\1/p' <<<"$summary" | head -1 || true)
echo "==> schemathesis: ${operations:-?} operations tested (of ${selected:-?} in the document), ${cases:-?} test cases, ${failures:-0} failures, ${errors:-0} errors (seed ${seed_used:-$SEED}, exit $st_status)"
if [[ $st_status == 124 || $st_status == 137 ]]; then echo "error: schemathesis took longer than $ST_TIMEOUT s" >&2; fi

# 2. hostile input, byte for byte.
echo "==> hostile input"
hostile_status=0
timeout --kill-after=10 90 "$PYTHON" "$HERE/hostile.py" "$URL" "$IDLE" || hostile_status=$?
if [[ $hostile_status == 124 ]]; then echo "error: the hostile-input script took longer than 90 s" >&2; fi

alive=1
kill -0 "$SERVER_PID" 2>/dev/null || { alive=0; echo "error: the server is no longer running" >&2; }
server_errors=$(grep -cE '^127\.0\.0\.1 [A-Z]+ [^ ]+ 5[0-9][0-9] ' "$WORK/server.log" || true)
echo "==> server: $( ((alive)) && echo running || echo DEAD ), ${server_errors:-0} answers with a 5xx status in its access log"
if [[ $st_status != 0 || $hostile_status != 0 || $alive == 0 || ${server_errors:-0} != 0 ]]; then
  wf_server_log
  exit 1
fi
