#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/*_fuzz.cc) with clang, ASan and UBSan in
# build-fuzz/ and runs each for SECONDS (default 60), one after another.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     e.g. scripts/fuzz.sh 600 quantity scenario
#
# Seeds: tests/fuzz/corpus/<target>/, tests/fuzz/regressions/<target>/ and, for
# some targets, examples/ and ../shared/ (all read only). New inputs go to
# $FUZZ_WORK/corpus/<target>/ and crashing inputs to $FUZZ_WORK/artifacts/
# (FUZZ_WORK defaults to a fresh temporary directory, printed at the end).
# A crash is a bug: fix it and commit the input as
# tests/fuzz/regressions/<target>/<name>, which the regular test suite replays.
# FUZZ_SEED=N fixes libFuzzer's random seed and FUZZ_RUNS=N stops after N
# inputs (FUZZ_RUNS_<target>=N overrides it for one target): together they make
# a run repeatable (the test suite's smoke run uses both, so it explores the
# same inputs on every machine). A run that the time limit stops first is not
# repeatable; the script says so.
# Exit status: 0 when no target crashed, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-60}
shift || true
JOBS=${JOBS:-2}
BUILD=${FUZZ_BUILD_DIR:-build-fuzz}
WORK=${FUZZ_WORK:-$(mktemp -d "${TMPDIR:-/tmp}/ksched-fuzz.XXXXXX")}

CC=clang CXX=clang++ cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DKSCHED_FUZZ=ON >/dev/null
cmake --build "$BUILD" -j"$JOBS" --target ksched_fuzzers

if [ $# -gt 0 ]; then
  TARGETS=("$@")
else
  TARGETS=()
  for f in fuzz/*_fuzz.cc; do
    n=$(basename "$f" .cc)
    TARGETS+=("${n%_fuzz}")
  done
fi

# Read-only seed directories beyond the committed corpus.
extra_seeds() {
  case "$1" in
    scenario) echo ../shared/conformance ../shared/upstream-order ../shared/extenders ;;
    yaml_decode | json_decode) echo examples ;;
  esac
}

failed=()
for t in "${TARGETS[@]}"; do
  bin="$BUILD/${t}_fuzz"
  [ -x "$bin" ] || { echo "fuzz.sh: no target $t" >&2; exit 2; }
  mkdir -p "$WORK/corpus/$t" "$WORK/artifacts"
  dirs=("$WORK/corpus/$t" "tests/fuzz/corpus/$t")
  [ -d "tests/fuzz/regressions/$t" ] && dirs+=("tests/fuzz/regressions/$t")
  for d in $(extra_seeds "$t"); do [ -d "$d" ] && dirs+=("$d"); done
  runs_var="FUZZ_RUNS_$t"
  runs=${!runs_var:-${FUZZ_RUNS:-}}
  echo "fuzz.sh: $t for ${SECONDS_PER_TARGET}s${runs:+ or $runs inputs}"
  if ! "$bin" -max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2048 \
      ${FUZZ_SEED:+-seed="$FUZZ_SEED"} ${runs:+-runs="$runs"} \
      -print_final_stats=1 -artifact_prefix="$WORK/artifacts/$t-" "${dirs[@]}" \
      >"$WORK/$t.log" 2>&1; then
    failed+=("$t")
    tail -n 60 "$WORK/$t.log" >&2
  fi
  grep -E '^(stat::number_of_executed_units|stat::new_units_added)' "$WORK/$t.log" |
    tr '\n' ' ' | sed "s/^/fuzz.sh: $t: /;s/\$/\n/"
  if [ -n "$runs" ]; then
    done_runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$WORK/$t.log")
    if [ -n "$done_runs" ] && [ "$done_runs" -lt "$runs" ]; then
      echo "fuzz.sh: warning: $t stopped by the ${SECONDS_PER_TARGET}s limit after $done_runs of $runs inputs (this machine is slow; the run is not repeatable)" >&2
    fi
  fi
done

echo "fuzz.sh: logs, new corpus and artifacts in $WORK"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz.sh: FAILED: ${failed[*]} (crashing inputs: $WORK/artifacts/)" >&2
  exit 1
fi
echo "fuzz.sh: no crashes"
