#!/usr/bin/env bash
# The main job on a fresh machine: set up, build, import the Monaco sample, then show a route.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
echo "==> building wayfinder (release)"
swift build -c release --product wayfinder 2>&1 | tail -n 1
BIN=.build/release/wayfinder
DATASET=${DATASET:-datasets/monaco}
"$BIN" import "${WAYFINDER_CACHE:-.cache}/samples/monaco.osm.pbf" --output "$DATASET"
echo "==> a car route across Monaco (Monte-Carlo Casino to Fontvieille)"
"$BIN" route "$DATASET" --from 43.73947,7.42790 --to 43.72866,7.41511
