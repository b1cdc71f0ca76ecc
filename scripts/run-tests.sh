#!/usr/bin/env bash
# The whole test suite:
#  1. a release build (GCC) running what only it can: every conformance vector
#     set, `ksched run` and the client against real kube-apiservers (the cluster
#     tests), the micro-benchmark smoke run, the docs check;
#  2. one clang build with ASan+UBSan and libFuzzer coverage running every unit
#     test, CLI check and conformance vector set again, whose fuzz executables
#     then get a short repeatable smoke run (scripts/fuzz.sh; longer runs are
#     documented in docs/input-limits.md).
# The unit tests run once, in step 2: their code paths are the same in both
# builds, and building them twice was a third of the suite's time.
# KSCHED_SKIP_SANITIZERS=1 runs step 1 with every test instead;
# KSCHED_SKIP_FUZZ=1 skips the smoke run.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-2}

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
if [ "${KSCHED_SKIP_SANITIZERS:-0}" = "1" ]; then
  cmake --build build -j"$JOBS"
  ctest --test-dir build --output-on-failure -j"$JOBS"
  exit 0
fi
cmake --build build -j"$JOBS" --target ksched ksched_vector_tests ksched_cluster_tests ksched_microbench
ctest --test-dir build --output-on-failure -j"$JOBS" -L 'release|vectors'

# Configured exactly as scripts/fuzz.sh configures its build, so the smoke
# run below reuses it without rebuilding.
CC=clang CXX=clang++ cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DKSCHED_FUZZ=ON >/dev/null
cmake --build build-asan -j"$JOBS" --target ksched_tests framework_tests ksched_vector_tests ksched ksched_fuzzers
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j"$JOBS"

# Every target, with a fixed seed and input count so that each machine
# explores the same inputs (the time cap only guards against a slow machine).
# A scenario input schedules up to 128 objects three times over (reference,
# equivalence cache, score index): about 140 inputs/s against thousands for
# the decoders, so it gets fewer inputs to stay near a minute.
if [ "${KSCHED_SKIP_FUZZ:-0}" != "1" ]; then
  # Its logs and new corpus (tens of MB) are kept only when a target
  # crashed (set -e stops before the rm).
  FUZZ_WORK=$(mktemp -d "${TMPDIR:-/tmp}/ksched-fuzz.XXXXXX")
  FUZZ_WORK=$FUZZ_WORK FUZZ_BUILD_DIR=build-asan FUZZ_SEED=1 FUZZ_RUNS=20000 \
    FUZZ_RUNS_scenario=6000 scripts/fuzz.sh 240
  rm -rf "$FUZZ_WORK"
fi
