#!/usr/bin/env bash
# The whole test suite: a release build and an ASan+UBSan build, each running
# every CTest test (unit tests, conformance vectors, CLI checks), then a short
# smoke run of every libFuzzer target (scripts/fuzz.sh; longer runs are
# documented in docs/input-limits.md).
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-2}

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$JOBS"
ctest --test-dir build --output-on-failure -j"$JOBS"

if [ "${KSCHED_SKIP_SANITIZERS:-0}" != "1" ]; then
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DKSCHED_SANITIZE=ON >/dev/null
  cmake --build build-asan -j"$JOBS" --target ksched_tests ksched
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan --output-on-failure -j"$JOBS"
fi

# Every target, with a fixed seed and input count so that each machine explores
# the same inputs (the time cap only guards against a slow machine).
if [ "${KSCHED_SKIP_FUZZ:-0}" != "1" ]; then
  FUZZ_SEED=1 FUZZ_RUNS=20000 scripts/fuzz.sh 60
fi
