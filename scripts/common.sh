# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Shared by scripts/test.sh, scripts/demo.sh and scripts/perf_report.sh: install the Debian
# packages, build (or reuse) Kokkos and Kokkos Kernels, and configure and build ExKokkos in
# $EXKOKKOS_BUILD_DIR (default: build/).
# Sourced, not run.
exkokkos_setup_and_build() {
  local root
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  bash "$root/scripts/install_deps.sh"
  # build_kokkos.sh prints Kokkos_ROOT=... and KokkosKernels_ROOT=... (and builds nothing when
  # both are already set in the environment or cached).
  local prefixes
  prefixes="$(bash "$root/scripts/build_kokkos.sh" | grep -E '^(Kokkos_ROOT|KokkosKernels_ROOT)=')"
  export Kokkos_ROOT KokkosKernels_ROOT
  Kokkos_ROOT="$(sed -n 's/^Kokkos_ROOT=//p' <<<"$prefixes")"
  KokkosKernels_ROOT="$(sed -n 's/^KokkosKernels_ROOT=//p' <<<"$prefixes")"
  EXKOKKOS_BUILD_DIR="${EXKOKKOS_BUILD_DIR:-$root/build}"
  local jobs
  jobs="$(nproc)"
  cmake -S "$root" -B "$EXKOKKOS_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DKokkos_ROOT="$Kokkos_ROOT" -DKokkosKernels_ROOT="$KokkosKernels_ROOT" \
    -DCMAKE_INSTALL_PREFIX="$EXKOKKOS_BUILD_DIR/install" ${EXKOKKOS_CMAKE_ARGS:-}
  # EXKOKKOS_BUILD_TARGETS: build only these targets (default: everything).
  cmake --build "$EXKOKKOS_BUILD_DIR" -j "$jobs" ${EXKOKKOS_BUILD_TARGETS:+--target $EXKOKKOS_BUILD_TARGETS}
}

# The run-time options of the sanitizer builds (cmake/ExKokkosSanitize.cmake): any report fails
# the run (UBSan does not recover, ASan stops at the first error), leaks included.
exkokkos_sanitizer_runtime() {
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
}
