#!/usr/bin/env bash
# The main job on a fresh machine: set up, build, import the Monaco sample, show a route and the
# places along it, then serve the API and the web app (Ctrl-C stops it).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
echo "==> building wayfinder (release)"
swift build -c release --product wayfinder 2>&1 | tail -n 1
BIN=.build/release/wayfinder
DATASET=${DATASET:-datasets/monaco}
PORT=${PORT:-8080}
"$BIN" import "${WAYFINDER_CACHE:-.cache}/samples/monaco.osm.pbf" --output "$DATASET"
echo "==> a car route across Monaco (Monte-Carlo Casino to Fontvieille)"
"$BIN" route "$DATASET" --from 43.73947,7.42790 --to 43.72866,7.41511
echo "==> restaurants within a 2-minute detour of it"
"$BIN" along-route "$DATASET" --from 43.73947,7.42790 --to 43.72866,7.41511 --category restaurant --max-detour 120 --limit 5
echo "==> serving (open the URL below; Ctrl-C stops)"
exec "$BIN" serve "$DATASET" --host 127.0.0.1 --port "$PORT"
