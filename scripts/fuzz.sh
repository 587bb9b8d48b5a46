#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds the libFuzzer targets with Debian's clang and runs each for a bounded time:
#   bash scripts/fuzz.sh [seconds per target, default 60]
# Needs Kokkos_ROOT (scripts/common.sh sets it). A mismatch with the MPFR oracle aborts and leaves
# the input in $EXKOKKOS_BUILD_DIR/fuzz/crash-*.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
build="${EXKOKKOS_BUILD_DIR:-$PWD/build}/fuzz"
# Kokkos_ROOT from the environment, else the one the main build found.
CXX="${CXX:-clang++-14}" cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DKokkos_ROOT="${Kokkos_ROOT:?set Kokkos_ROOT}" -DExKokkos_ENABLE_TESTS=OFF \
  -DExKokkos_ENABLE_PERF_TESTS=OFF -DExKokkos_ENABLE_EXAMPLES=OFF -DExKokkos_ENABLE_FUZZ=ON \
  -DExKokkos_ENABLE_MPI=OFF >/dev/null
cmake --build "$build"
mkdir -p "$build/corpus"
cd "$build"
# The fuzzer's whole output goes to a log; a run passes only when the fuzzer exited with status 0
# and its final statistics report executed inputs, so that a fuzzer that did not start (missing
# or unrunnable binary, failed initialization, no input run) fails instead of passing silently.
log="$build/fuzz_long_accumulator.log"
status=0
./unit_tests/fuzz/fuzz_long_accumulator -max_total_time="$seconds" -max_len=512 \
  -print_final_stats=1 corpus >"$log" 2>&1 || status=$?
grep -E "^(Done|stat::number_of_executed_units|stat::new_units)|ERROR|round" "$log" || true
fail() {
  echo "[fuzz.sh] $*; the last lines of $log:" >&2
  tail -n 20 "$log" >&2
  exit 1
}
test -z "$(ls crash-* 2>/dev/null)" || fail "the fuzzer found a mismatch"
[[ $status -eq 0 ]] || fail "fuzz_long_accumulator exited with status $status"
runs="$(sed -n 's/^stat::number_of_executed_units: *\([0-9][0-9]*\).*/\1/p' "$log" | tail -n 1)"
[[ -n $runs && $runs -gt 0 ]] || fail "fuzz_long_accumulator reported no executed inputs"
echo "[fuzz.sh] fuzz_long_accumulator: ${seconds} s, ${runs} inputs, no mismatch with the MPFR oracle"
