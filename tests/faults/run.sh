#!/usr/bin/env bash
# Fault scenarios (issue 9, part 4): killed imports, a server killed and restarted under load with
# time-to-leave watches and their event streams, a full disk during import and traffic updates,
# and a damaged graph file. Prints each scenario's outcome and figures; exits 1 if any failed.
#
#   tests/faults/run.sh WAYFINDER_BINARY [--kills N] [--only kill-import,damaged-file,full-disk,server-restart,memory-limit]
#
# Builds nothing: give it a built `wayfinder`. Uses the Monaco sample (.cache/samples/monaco.osm.pbf,
# from scripts/setup.sh) and temporary folders only. The full-disk scenario mounts a 40 MB tmpfs
# (root only); where mounting is not permitted it is reported as skipped, never failed.
# Takes about 1-2 minutes. Environment: PYTHON (default .cache/venv/bin/python, else python3).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

usage() { echo "usage: $0 WAYFINDER_BINARY [--kills N] [--only NAME,...]" >&2; exit 2; }
[[ $# -ge 1 ]] || usage
BIN=$1; shift
[[ -x "$BIN" ]] || { echo "error: $BIN is not an executable wayfinder binary (build it first)" >&2; exit 2; }
SAMPLE=$ROOT/.cache/samples/monaco.osm.pbf
[[ -s $SAMPLE ]] || { echo "error: $SAMPLE is missing; run scripts/setup.sh first" >&2; exit 2; }
PYTHON=${PYTHON:-$ROOT/.cache/venv/bin/python}
[[ -x $PYTHON ]] || PYTHON=$(command -v python3)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/wayfinder-faults.XXXXXX")
cleanup() {
  # Every process the scenarios started, by the PIDs they recorded; then the tmpfs; then the files.
  if [[ -f $WORK/pids ]]; then
    while read -r pid; do
      kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
    done <"$WORK/pids"
  fi
  if mountpoint -q "$WORK/disk" 2>/dev/null; then umount "$WORK/disk" 2>/dev/null || umount -l "$WORK/disk" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

status=0
timeout 300 "$PYTHON" "$ROOT/tests/faults/faults.py" --bin "$BIN" --sample "$SAMPLE" --work "$WORK" "$@" || status=$?
if [[ $status == 124 ]]; then echo "error: the fault scenarios took longer than 5 minutes" >&2; fi
exit $status
