#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds the unit tests with AddressSanitizer and UndefinedBehaviorSanitizer (g++, -O1) and runs
# them with ctest, on Serial and OpenMP (the host backends of the cached Kokkos):
#   bash scripts/sanitize.sh [ctest arguments, e.g. -R test_bad_input]
# Any report fails the run: UBSan does not recover, and ASan stops at the first error. Leaks are
# reported too. Needs what scripts/test.sh installs; the build goes to build-sanitize/ (or
# $EXKOKKOS_SANITIZE_BUILD_DIR). The MPI suite, the downstream projects and the fuzzer are left
# out: they run uninstrumented libraries (OpenMPI) or have their own script (scripts/fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh
export EXKOKKOS_BUILD_DIR="${EXKOKKOS_SANITIZE_BUILD_DIR:-$PWD/build-sanitize}"
# A build type of its own (no flags of Release's), so that the optimization level below holds;
# -O1 keeps the build near Release's time while the sanitizers still see every access.
flags="-O1 -g1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
export CXXFLAGS="$flags" LDFLAGS="-fsanitize=address,undefined"
EXKOKKOS_CMAKE_ARGS="-DCMAKE_BUILD_TYPE=Sanitize -DExKokkos_ENABLE_TESTS=ON \
-DExKokkos_ENABLE_PERF_TESTS=OFF -DExKokkos_ENABLE_EXAMPLES=OFF -DExKokkos_ENABLE_MPI=OFF" \
  exkokkos_setup_and_build
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ctest --test-dir "$EXKOKKOS_BUILD_DIR" --output-on-failure -j 2 -E "downstream|fuzz" "$@"
