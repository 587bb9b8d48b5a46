#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# ExKokkos against an upstream Kokkos release: builds Kokkos 4.6.01 and Kokkos Kernels 4.6.02
# (scripts/build_kokkos_release.sh, cached), then a second build of ExKokkos against them in
# $EXKOKKOS_BUILD_DIR-kokkos-release, and runs a cross-section of the suites there: the two
# executables of grouped suites at the default options (the level-1 routines, the team forms, the
# rank updates and the ports of Kokkos Kernels' tests; exgemv, extrsv, exgemm, the LU, their
# complex forms, the bad-input suite and the suites that call every routine), the host-only
# numerics of core/ (but the long accumulator's), the reducer, the CG and team-LU examples; not the
# executable that compiles every kernel variant, nor the MPI suite. scripts/test.sh runs it after
# the 3.4.01 build; the whole suite runs against 3.4.01, at -O3.
#
# This build is also the sanitizer run of CI: AddressSanitizer and UndefinedBehaviorSanitizer at
# -O1 (cmake/ExKokkosSanitize.cmake, with EXKOKKOS_SANITIZE_CI=1: the arithmetic checks of UBSan),
# so that any out-of-bounds access, leak or undefined operation in these suites fails CI.
# EXKOKKOS_RELEASE_SANITIZE=0 builds it at -O3 instead.
#   bash scripts/test_kokkos_release.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
prefixes="$(bash scripts/build_kokkos_release.sh | grep -E '^(Kokkos_ROOT|KokkosKernels_ROOT)=')"
kokkos_root="$(sed -n 's/^Kokkos_ROOT=//p' <<<"$prefixes")"
kernels_root="$(sed -n 's/^KokkosKernels_ROOT=//p' <<<"$prefixes")"
build="${EXKOKKOS_BUILD_DIR:-$root/build}-kokkos-release"
# The suites of the cross-section: the two executables of grouped suites, the host-only numerics
# of core/ and the examples (ctest's names). The long accumulator's own suites are left to the
# 3.4.01 run: the fuzzer there (scripts/fuzz.sh) already drives it under both sanitizers, and
# sanitized they would take two minutes more. So is the second port of Kokkos Kernels' tests
# (test_kokkoskernels_port_more, four minutes sanitized): its routines run here in their own
# suites (test_level1_more, the team suites, test_level2_rank_update, test_level3_trsm_trmm).
suites=(test_level1_oracle test_level1_multivector test_level1_more test_level1_complex
  test_elementwise_complex test_level1_coefficient_views test_team_level1 test_team_level1_complex
  test_team_gemv test_team_gemv_complex
  test_level2_rank_update test_level2_gemv test_level2_trsv test_backends test_level3_gemm
  test_level3_gemm_ozaki test_level3_trsm_trmm test_lapack_getf2 test_lapack_getrf test_lapack_getrs
  test_lapack_team_getf2 test_lapack_team_getrs test_bad_input test_concurrent_calls
  test_error_free_transforms test_binned_sink test_expansion test_compensated_sum
  test_exact_sum_reducer test_rounded_update_mult test_rounded_complex test_packed_accumulator
  test_level2_gemv_complex test_level3_gemm_complex test_level2_trsv_complex test_lapack_complex
  test_rank_update_complex test_kokkoskernels_port
  example_cg example_team_lu)
targets="test_level1_suites test_matrix_suites test_error_free_transforms test_binned_sink \
test_expansion test_compensated_sum test_exact_sum_reducer test_rounded_update_mult \
test_rounded_complex test_packed_accumulator exkokkos_cg exkokkos_team_lu"
build_type=(-DCMAKE_BUILD_TYPE=Release)
if [ "${EXKOKKOS_RELEASE_SANITIZE:-1}" != 0 ]; then
  source scripts/common.sh
  export EXKOKKOS_SANITIZE_CI=1
  build_type=(-C "$root/cmake/ExKokkosSanitize.cmake" -DCMAKE_BUILD_TYPE=Sanitize)
  exkokkos_sanitizer_runtime
fi
cmake -S "$root" -B "$build" -G Ninja "${build_type[@]}" -DKokkos_ROOT="$kokkos_root" \
  -DKokkosKernels_ROOT="$kernels_root" -DExKokkos_ENABLE_TESTS=ON -DExKokkos_ENABLE_EXAMPLES=ON \
  -DExKokkos_ENABLE_PERF_TESTS=OFF -DExKokkos_ENABLE_MPI=OFF ${EXKOKKOS_CMAKE_ARGS:-}
# shellcheck disable=SC2086
cmake --build "$build" -j "$(nproc)" --target $targets
pattern="^($(IFS='|'; echo "${suites[*]}"))\$"
ctest --test-dir "$build" --output-on-failure --no-tests=error -j 2 -R "$pattern"
