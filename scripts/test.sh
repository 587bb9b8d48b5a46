#!/usr/bin/env bash
# Sets up everything on a fresh Debian 12 machine and runs the whole ExKokkos test suite:
#   bash scripts/test.sh
# Installs the Debian packages, builds Kokkos/Kokkos Kernels 3.4.01 once (cached), builds ExKokkos
# and runs ctest: the unit tests, the downstream find_package(ExKokkos) project against an
# installed copy, and a bounded fuzzing run against the MPFR oracle.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh
start=$SECONDS
exkokkos_setup_and_build
echo "[test.sh] set-up and build took $((SECONDS - start)) s; running ctest"
# ctest's summary is the last thing printed: CI reads it.
ctest --test-dir "$EXKOKKOS_BUILD_DIR" --output-on-failure -j 2 ${EXKOKKOS_CTEST_ARGS:-}
