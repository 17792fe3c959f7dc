#!/usr/bin/env bash
# Imports every extract (the samples, and ../shared/data when it is beside the checkout) with the
# release binary and routes across each one, so import and route are checked on real data
# without slowing the debug test suite. Fails on the first extract that does not work.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.build/release/wayfinder
CACHE=${WAYFINDER_CACHE:-$PWD/.cache}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
extracts=("$CACHE/samples/monaco.osm.pbf" "$CACHE/samples/helsinki.osm.pbf")
if [[ -d ../shared/data ]]; then
  while IFS= read -r f; do extracts+=("$f"); done < <(ls -S -r ../shared/data/*.osm.pbf)
else
  echo "(../shared/data is absent: checking the two samples only)"
fi
for extract in "${extracts[@]}"; do
  name=$(basename "$extract" .osm.pbf)
  ds="$WORK/$name"
  start=$(date +%s.%N)
  "$BIN" import "$extract" --output "$ds" > "$WORK/$name.import.txt" 2> "$WORK/$name.progress.txt" || {
    echo "FAIL import $name"; cat "$WORK/$name.import.txt" "$WORK/$name.progress.txt"; exit 1; }
  # Route between two sample points of each profile's main network.
  "$BIN" info "$ds" > "$WORK/info.json"
  for mode in car taxi bicycle pedestrian; do
    read -r lat1 lon1 lat2 lon2 < <(python3 -c "
import json; p = json.load(open('$WORK/info.json'))['profiles']['$mode']['samplePoints']
print(p[0][0], p[0][1], p[1][0], p[1][1])")
    "$BIN" route "$ds" --from "$lat1,$lon1" --to "$lat2,$lon2" --mode "$mode" --format json > "$WORK/route.json" 2> "$WORK/route.err" || {
      echo "FAIL route $name $mode: $(cat "$WORK/route.err")"; exit 1; }
  done
  printf "ok  %-28s %6.2f s  %s\n" "$name" "$(echo "$(date +%s.%N) - $start" | bc)" "$(head -n 1 "$WORK/$name.import.txt" | sed 's/.* in //')"
done
