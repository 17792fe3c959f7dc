#!/usr/bin/env bash
# Real client libraries from PyPI against a live server: routingpy's OSRM client (route, table,
# errors) and geopy's Nominatim and TomTom geocoders (geocode, reverse), pointed at 127.0.0.1.
#
#   tests/clients/run.sh WAYFINDER_BINARY [DATASET_DIR]
#
# Builds nothing: give it a built `wayfinder`. Without a dataset folder it imports the Monaco
# sample (.cache/samples/monaco.osm.pbf, from scripts/setup.sh) into a temporary folder; the
# tests expect Monaco (they check that answers land inside it). Starts `wayfinder serve` on
# 127.0.0.1 with a free port, runs tests/clients/test_clients.py with pytest, stops the server
# and exits non-zero if a test failed. About 10 seconds; capped at 3 minutes.
#
# Environment:
#   PYTHON    Python with routingpy, geopy and pytest (default .cache/venv/bin/python, from scripts/setup.sh --test)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/../lib/server.sh"

[[ $# -ge 1 && $# -le 2 ]] || { echo "usage: $0 WAYFINDER_BINARY [DATASET_DIR]" >&2; exit 2; }
PYTHON=${PYTHON:-$WF_ROOT/.cache/venv/bin/python}
"$PYTHON" -c "import routingpy, geopy, pytest" 2>/dev/null || {
  echo "error: $PYTHON lacks routingpy, geopy or pytest; run scripts/setup.sh --test first" >&2; exit 2; }

wf_init "$1" clients
wf_dataset "${2:-}"
wf_serve

status=0
WAYFINDER_URL=$URL timeout --kill-after=10 180 "$PYTHON" -m pytest -q -p no:cacheprovider -o console_output_style=classic \
    "$HERE/test_clients.py" || status=$?
if [[ $status == 124 ]]; then echo "error: the client tests took longer than 3 minutes" >&2; fi
if [[ $status != 0 ]]; then wf_server_log; fi
exit $status
