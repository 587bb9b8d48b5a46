#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# ExKokkos against an upstream Kokkos release: builds Kokkos 4.6.01 and Kokkos Kernels 4.6.02
# (scripts/build_kokkos_release.sh, cached), then a second build of ExKokkos against them in
# $EXKOKKOS_BUILD_DIR-kokkos-release, and runs a cross-section of the suites there: the two
# executables of grouped suites (the level-1 routines and the team forms; exgemm, the LU and the
# suites that call every routine), the reducer, the exponent bins, the CG and team-LU examples. scripts/test.sh runs
# it after the 3.4.01 build; the whole suite runs against 3.4.01.
#   bash scripts/test_kokkos_release.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
prefixes="$(bash scripts/build_kokkos_release.sh | grep -E '^(Kokkos_ROOT|KokkosKernels_ROOT)=')"
kokkos_root="$(sed -n 's/^Kokkos_ROOT=//p' <<<"$prefixes")"
kernels_root="$(sed -n 's/^KokkosKernels_ROOT=//p' <<<"$prefixes")"
build="${EXKOKKOS_BUILD_DIR:-$root/build}-kokkos-release"
targets="test_level1_suites test_matrix_suites test_exact_sum_reducer test_binned_sink exkokkos_cg exkokkos_team_lu"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$kokkos_root" \
  -DKokkosKernels_ROOT="$kernels_root" -DExKokkos_ENABLE_TESTS=ON -DExKokkos_ENABLE_EXAMPLES=ON \
  -DExKokkos_ENABLE_PERF_TESTS=OFF -DExKokkos_ENABLE_MPI=OFF ${EXKOKKOS_CMAKE_ARGS:-}
# shellcheck disable=SC2086
cmake --build "$build" -j "$(nproc)" --target $targets
ctest --test-dir "$build" --output-on-failure --no-tests=error -j 2 \
  -R '^(test_level1_(oracle|multivector|more|complex|coefficient_views)|test_team_(level1|gemv)|test_level2_(gemv|trsv|rank_update)|test_backends|test_level3_(gemm(_ozaki)?|trsm_trmm)|test_lapack_(team_)?(getf2|getrs)|test_bad_input|test_concurrent_calls|test_exact_sum_reducer|test_binned_sink|example_cg|example_team_lu)$'
