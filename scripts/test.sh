#!/usr/bin/env bash
# Sets up a fresh machine and runs every test: release-built checks on real extracts first,
# then the Swift test suite (its summary is the last thing printed).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test

echo "==> release build"
swift build -c release --product wayfinder 2>&1 | tail -n 1

echo "==> benchmark beside OSRM, quick mode (Helsinki; report in .cache/bench/quick/report.json)"
python3 bench/run.py --quick --wayfinder .build/release/wayfinder > .build/bench-quick.log 2>&1 || {
  tail -n 40 .build/bench-quick.log; echo "the quick benchmark failed" >&2; exit 1; }
tail -n 3 .build/bench-quick.log

echo "==> every extract: import and route (release)"
scripts/check-extracts.sh

echo "==> web app in headless Chromium (release binary, Monaco)"
tests/browser/run.sh .build/release/wayfinder

echo "==> client libraries from PyPI: routingpy (OSRM), geopy (Nominatim, TomTom) (release binary, Monaco)"
tests/clients/run.sh .build/release/wayfinder

echo "==> API contract (schemathesis on /openapi.json) and hostile input (release binary, Monaco)"
tests/contract/run.sh .build/release/wayfinder

echo "==> load, quick (release binary, Monaco; JSON report in .build/load-quick.json)"
bench/load/run.sh .build/release/wayfinder --quick > .build/load-quick.json

echo "==> fault scenarios (release binary, Monaco)"
tests/faults/run.sh .build/release/wayfinder

echo "==> scale-out: three replicas behind nginx, a replica killed and a re-import under load (release binary, synthetic 100k)"
tests/scaleout/run.sh .build/release/wayfinder > .build/scaleout.log 2>&1 || {
  tail -n 40 .build/scaleout.log; echo "the scale-out test failed" >&2; exit 1; }
grep -E "checks passed" .build/scaleout.log

echo "==> swift test"
swift test 2>&1 | tee .build/swift-test.log | grep -v "^\(◇\|↳\)" | tail -n 40
status=${PIPESTATUS[0]}
exit "$status"
