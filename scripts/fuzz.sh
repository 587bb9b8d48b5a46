#!/usr/bin/env bash
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
./unit_tests/fuzz/fuzz_long_accumulator -max_total_time="$seconds" -max_len=512 \
  -print_final_stats=1 corpus 2>&1 | grep -E "^(Done|stat::number_of_executed_units|stat::new_units)|ERROR|round" || true
test -z "$(ls crash-* 2>/dev/null)" || { echo "[fuzz.sh] the fuzzer found a mismatch" >&2; exit 1; }
echo "[fuzz.sh] fuzz_long_accumulator: ${seconds} s, no mismatch with the MPFR oracle"
