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
    # A route, not just an exit code: some length and time, from near the start to near the end.
    python3 - "$WORK/route.json" "$lat1" "$lon1" "$lat2" "$lon2" <<'PY' || { echo "FAIL route $name $mode: $(head -c 300 "$WORK/route.json")"; exit 1; }
import json, math, sys
doc = json.load(open(sys.argv[1])); a = tuple(map(float, sys.argv[2:4])); b = tuple(map(float, sys.argv[4:6]))
def metres(p, q):
    return math.hypot((p[0] - q[0]) * 111_320, (p[1] - q[1]) * 111_320 * math.cos(math.radians(p[0])))
route = doc["routes"][0]; s = route["summary"]
points = [(p["latitude"], p["longitude"]) for leg in route["legs"] for p in leg.get("points") or []]
problems = [m for m, bad in [("no length", s["lengthInMeters"] <= 0), ("no time", s["travelTimeInSeconds"] <= 0),
                              ("no points", len(points) < 2),
                              ("starts far from the origin", bool(points) and metres(points[0], a) > 1000),
                              ("ends far from the destination", bool(points) and metres(points[-1], b) > 1000)] if bad]
if problems: sys.exit("; ".join(problems))
PY
  done
  # Places from the CLI: the address at the car sample point, then that street found by typeahead
  # (when the extract has one there), and restaurants, cafés or fuel along the car route.
  read -r lat1 lon1 lat2 lon2 < <(python3 -c "
import json; p = json.load(open('$WORK/info.json'))['profiles']['car']['samplePoints']
print(p[0][0], p[0][1], p[1][0], p[1][1])")
  "$BIN" reverse "$ds" "$lat1,$lon1" --radius 2000 --format json > "$WORK/reverse.json" 2> "$WORK/reverse.err" || {
    echo "FAIL reverse $name: $(cat "$WORK/reverse.err")"; exit 1; }
  street=$(python3 -c "
import json; a = json.load(open('$WORK/reverse.json')).get('addresses') or [{}]
print(a[0].get('address', {}).get('streetName', ''))")
  if [[ -n $street ]]; then
    "$BIN" search "$ds" "${street:0:6}" --typeahead --near "$lat1,$lon1" --format json > "$WORK/search.json" 2> "$WORK/search.err" || {
      echo "FAIL search $name: $(cat "$WORK/search.err")"; exit 1; }
    # The typed prefix of the street the reverse lookup named finds that street.
    # The name goes in as an argument: street names carry apostrophes and quotes.
    python3 -c "
import json, sys; r = json.load(open(sys.argv[1]))['results']; street = sys.argv[2]
sys.exit(0 if any(street in json.dumps(x, ensure_ascii=False) for x in r) else 'no result names ' + street)" "$WORK/search.json" "$street" || {
      echo "FAIL search $name: typeahead ${street:0:6} does not find $street"; exit 1; }
  fi
  "$BIN" along-route "$ds" --from "$lat1,$lon1" --to "$lat2,$lon2" --category restaurant --max-detour 600 --format json \
    > "$WORK/along.json" 2> "$WORK/along.err" || { echo "FAIL along-route $name: $(cat "$WORK/along.err")"; exit 1; }
  places=$(python3 -c "import json; print(len(json.load(open('$WORK/along.json'))['results']))")
  # Isochrones (leaving now and at a time), a reachable range and a matrix (leaving now and at a time).
  "$BIN" reach "$ds" --from "$lat1,$lon1" --minutes 2,5 > "$WORK/reach.json" 2> "$WORK/reach.err" &&
    "$BIN" reach "$ds" --from "$lat1,$lon1" --minutes 5 --depart-at 08:00 > /dev/null 2>> "$WORK/reach.err" &&
    "$BIN" reach "$ds" --from "$lat1,$lon1" --km 2 --format range --mode pedestrian > /dev/null 2>> "$WORK/reach.err" &&
    "$BIN" matrix "$ds" --from "$lat1,$lon1;$lat2,$lon2" > "$WORK/matrix.json" 2>> "$WORK/reach.err" &&
    "$BIN" matrix "$ds" --from "$lat1,$lon1;$lat2,$lon2" --depart-at 08:00 > /dev/null 2>> "$WORK/reach.err" || {
    echo "FAIL reach/matrix $name: $(cat "$WORK/reach.err")"; exit 1; }
  contours=$(python3 -c "import json; print(len(json.load(open('$WORK/reach.json'))['features']))")
  cells=$(python3 -c "import json; print(json.load(open('$WORK/matrix.json'))['statistics']['successes'])")
  [[ $contours == 2 && $cells -ge 2 ]] || { echo "FAIL reach/matrix $name: $contours contours, $cells cells with a route"; exit 1; }
  printf "ok  %-28s %6.2f s  %s; %s restaurants along a route; reverse: %s; %s contours, %s matrix cells\n" "$name" "$(python3 -c "import time; print(time.time() - $start)")" "$(head -n 1 "$WORK/$name.import.txt" | sed 's/.* in //')" "$places" "${street:-none within 2 km}" "$contours" "$cells"
done
