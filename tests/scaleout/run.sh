#!/usr/bin/env bash
# Three replicas behind Debian's nginx, as the README's deployment section sets them up:
# throughput with 1-3 replicas, live traffic on every replica within 1 s, a replica killed under
# load, a re-import under load (see scaleout.py). Bounded: about a minute and a half.
#
#   tests/scaleout/run.sh WAYFINDER_BINARY [--nodes N] [--seconds S]
set -euo pipefail
BIN=${1:?usage: tests/scaleout/run.sh WAYFINDER_BINARY [--nodes N] [--seconds S]}
shift
cd "$(dirname "$0")/../.."
for tool in nginx wrk osmium; do
  command -v "$tool" >/dev/null || { echo "error: $tool is missing; run scripts/setup.sh --test" >&2; exit 2; }
done
WORK=$(mktemp -d "${TMPDIR:-/tmp}/wayfinder-scaleout.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
timeout 600 python3 tests/scaleout/scaleout.py "$BIN" "$WORK" "$@"
