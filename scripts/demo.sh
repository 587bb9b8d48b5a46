#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Sets up everything on a fresh Debian 12 machine and runs the ExKokkos demo:
#   bash scripts/demo.sh [n]
# The demo sums and dots n doubles (default 2^22) with ordinary parallel reductions and with
# ExKokkos for 1, 2, 3 and 4 OpenMP threads, and prints the exact value from MPFR beside them.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh
EXKOKKOS_BUILD_DIR="${EXKOKKOS_BUILD_DIR:-$PWD/build-demo}"
EXKOKKOS_CMAKE_ARGS="${EXKOKKOS_CMAKE_ARGS:-} -DExKokkos_ENABLE_TESTS=OFF -DExKokkos_ENABLE_PERF_TESTS=OFF \
-DExKokkos_ENABLE_EXAMPLES=ON" \
  exkokkos_setup_and_build
"$EXKOKKOS_BUILD_DIR/examples/exkokkos_demo" "$@"
