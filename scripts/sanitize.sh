#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds the whole unit suite with AddressSanitizer and UndefinedBehaviorSanitizer (g++, -O1:
# cmake/ExKokkosSanitize.cmake) and runs it with ctest, on Serial and OpenMP (the host backends of
# the cached Kokkos 3.4.01; CI runs the Kokkos 4.6 cross-section sanitized, scripts/test.sh):
#   bash scripts/sanitize.sh [ctest arguments, e.g. -R test_bad_input]
# Any report fails the run (scripts/common.sh: exkokkos_sanitizer_runtime). Needs what
# scripts/test.sh installs; the build goes to build-sanitize/ (or $EXKOKKOS_SANITIZE_BUILD_DIR). The MPI suite, the downstream projects and the fuzzer are left
# out: they run uninstrumented libraries (OpenMPI) or have their own script (scripts/fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh
export EXKOKKOS_BUILD_DIR="${EXKOKKOS_SANITIZE_BUILD_DIR:-$PWD/build-sanitize}"
EXKOKKOS_CMAKE_ARGS="-C $PWD/cmake/ExKokkosSanitize.cmake -DCMAKE_BUILD_TYPE=Sanitize \
-DExKokkos_ENABLE_TESTS=ON -DExKokkos_ENABLE_PERF_TESTS=OFF -DExKokkos_ENABLE_EXAMPLES=OFF \
-DExKokkos_ENABLE_MPI=OFF" exkokkos_setup_and_build
exkokkos_sanitizer_runtime
ctest --test-dir "$EXKOKKOS_BUILD_DIR" --output-on-failure -j 2 -E "downstream|fuzz" "$@"
