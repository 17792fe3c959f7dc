#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/Targets, TOOLCHAIN.md §7) with -sanitize=fuzzer,address in
# their own build path and runs each for a bounded time on its seed corpus plus every saved
# regression input. Prints one JSON line per target:
#   {"target":"pbf","seconds":60,"executions":123456,"exec_per_second":2057,"crashes":0,"crash_inputs":[],...}
# and copies every crash, hang, leak or out-of-memory input into Fuzz/regressions/<target>/,
# where FuzzRegressionTests replays it from then on. A benchmark-style command, not part of the tests.
#
# usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]      (default 60 s; targets pbf csv request parsers)
#   FUZZ_BUILD_PATH   build folder (default .build-fuzz)
#   FUZZ_SKIP_BUILD=1 reuse the binaries already built there
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(pbf csv request parsers)
build_path=${FUZZ_BUILD_PATH:-.build-fuzz}
flags=(-c release --build-path "$build_path"
       -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -DWAYFINDER_FUZZING)

# Largest input libFuzzer may make per target (the PBF seeds include a 33 KB zlib bomb).
declare -A max_len=([pbf]=65536 [csv]=4096 [request]=4096 [parsers]=512)

if [ "${FUZZ_SKIP_BUILD:-0}" != 1 ]; then
    for t in "${targets[@]}"; do
        echo "==> building fuzz-$t" >&2
        swift build "${flags[@]}" --product "fuzz-$t" 2>&1 | grep -E "error|Compiling fuzz|Build complete|Build of product" >&2 || true
        [ -x "$build_path/release/fuzz-$t" ] || { echo "fuzz-$t did not build" >&2; exit 1; }
    done
fi

# Inputs are written to files here (the PBF reader takes a path) and the request target's
# dataset lives here: in memory when /dev/shm is there; removed at the end.
scratch_root=${TMPDIR:-/tmp}
[ -d /dev/shm ] && [ -w /dev/shm ] && scratch_root=/dev/shm
scratch=$(mktemp -d "$scratch_root/wayfinder-fuzz.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

for t in "${targets[@]}"; do
    work="$build_path/fuzz-corpus/$t"          # what the fuzzer learns; kept between runs, never committed
    artifacts="$scratch/artifacts-$t"
    mkdir -p "$work" "$artifacts" "Fuzz/regressions/$t"
    log="$scratch/$t.log"
    dict=()
    [ -f "Fuzz/dictionaries/$t.dict" ] && dict=(-dict="Fuzz/dictionaries/$t.dict")
    started=$(date +%s%N)
    set +e
    # The Swift backtracer would stall every crash report; libFuzzer and ASan report instead.
    # LSan ignores Foundation's own caches (see the suppressions file), nothing of ours.
    SWIFT_BACKTRACE=enable=no WAYFINDER_FUZZ_TMP="$scratch" LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan-suppressions.txt" \
        "$build_path/release/fuzz-$t" "$work" "Fuzz/corpus/$t" "Fuzz/regressions/$t" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
        -max_len="${max_len[$t]:-4096}" "${dict[@]}" -print_final_stats=1 -artifact_prefix="$artifacts/" >"$log" 2>&1
    status=$?
    set -e
    elapsed_ms=$(( ($(date +%s%N) - started) / 1000000 ))
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -n 1)
    units=$(find "$work" -type f | wc -l)
    found=()
    for a in "$artifacts"/crash-* "$artifacts"/timeout-* "$artifacts"/leak-* "$artifacts"/oom-*; do
        [ -f "$a" ] || continue
        name=$(basename "$a")
        cp "$a" "Fuzz/regressions/$t/$name"
        cp "$log" "$build_path/fuzz-$t-$name.log"
        found+=("\"Fuzz/regressions/$t/$name\"")
    done
    reason=$(grep -m1 -E "^==[0-9]+==ERROR|^SUMMARY|fuzz harness found a problem|deadly signal|out-of-memory|timeout after" "$log" | tr -d '"\\' | cut -c1-160 || true)
    printf '{"target":"%s","seconds":%d.%d,"executions":%s,"exec_per_second":%s,"crashes":%d,"crash_inputs":[%s],"exit_status":%d,"peak_rss_mb":%s,"corpus_units":%d,"first_error":"%s"}\n' \
        "$t" $((elapsed_ms / 1000)) $((elapsed_ms % 1000 / 100)) "${executions:-0}" "$(( ${executions:-0} * 1000 / (elapsed_ms > 0 ? elapsed_ms : 1) ))" \
        "${#found[@]}" "$(IFS=,; echo "${found[*]:-}")" "$status" "${rss:-0}" "$units" "$reason"
    if [ "${#found[@]}" -gt 0 ]; then
        echo "fuzz-$t found ${#found[@]} problem input(s); log saved as $build_path/fuzz-$t-<input>.log" >&2
    fi
done
