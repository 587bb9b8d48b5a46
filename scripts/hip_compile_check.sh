#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Compile-only HIP check: ExKokkos and its unit tests built (not run) against Kokkos 3.4.01's HIP
# backend, compiled with Debian 12's hipcc (ROCm 5.2.3 on Debian's clang 15). No AMD GPU is needed
# or used: nothing built here is executed. See docs/hip.md.
#
#   bash scripts/hip_compile_check.sh                 compile and link every unit test (hours on 2 cores)
#   bash scripts/hip_compile_check.sh T1 T2 ...       only these targets (e.g. test_backends)
#   bash scripts/hip_compile_check.sh --quick [T...]  minutes: the host and device front ends of
#       every unit test source (hipcc -fsyntax-only: template, overload and __host__/__device__
#       errors), and only the fast targets (or T...) compiled to AMDGPU code and linked
#
# Steps: the Debian packages (scripts/install_deps.sh, then hipcc and the ROCm pieces it pulls in);
# Kokkos 3.4.01 (Serial + HIP, C++17) from the trilinos source package that scripts/build_kokkos.sh
# caches, built with hipcc and installed into the same cache (keyed by a hash of its configuration,
# stamped after a verified install, so a second run reuses it); ExKokkos configured against it with
# the unit tests on and perf tests, examples and MPI off; the targets built; then two checks of
# the result: every test executable carries AMDGPU code (.hip_fatbin), and device code compiled
# with the flags of ExKokkos' own targets does not contract a * b + c into an fma.
#
# Environment:
#   EXKOKKOS_DEPS_DIR        cache root (default $HOME/.cache/exkokkos-deps), as for build_kokkos.sh
#   EXKOKKOS_HIP_ARCH        Kokkos_ARCH_<...> of the AMD GPU (default VEGA908 = gfx908, MI100; Kokkos
#                            3.4.01 knows VEGA900, VEGA906, VEGA908; ROCm 5.2.3 has all three)
#   EXKOKKOS_HIP_BUILD_DIR   ExKokkos build tree (default build-hip/ in the repository)
#   EXKOKKOS_JOBS            parallel jobs (default nproc)
#   EXKOKKOS_KEEP_BUILD=1    keep the Kokkos source and build tree in the cache
set -Eeuo pipefail
trap 'die "unexpected failure (exit $?) at line $LINENO: $BASH_COMMAND"' ERR

T_START=$SECONDS
log() { printf '[hip_compile_check %s +%4ss] %s\n' "$(date +%H:%M:%S)" "$((SECONDS - T_START))" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KOKKOS_VERSION=3.4.01
RECIPE_REVISION=1
HIP_ARCH=${EXKOKKOS_HIP_ARCH:-VEGA908}
DEPS_DIR=${EXKOKKOS_DEPS_DIR:-$HOME/.cache/exkokkos-deps}
BUILD=${EXKOKKOS_HIP_BUILD_DIR:-$ROOT/build-hip}
JOBS=${EXKOKKOS_JOBS:-$(nproc)}
QUICK=0
if [[ "${1:-}" == --quick ]]; then
  QUICK=1
  shift
fi
usage() { sed -n '2,/^set -Eeuo/p' "$0" | sed '$d;s/^# \{0,1\}//'; }
case "${1:-}" in
  -h | --help) usage; exit 0 ;;
  -*) usage >&2; exit 2 ;;
esac
TARGETS=("$@")
# The quick mode's full builds: the unit tests that compile to AMDGPU code in seconds.
if ((QUICK && ${#TARGETS[@]} == 0)); then
  TARGETS=(test_error_free_transforms test_exact_sum_reducer test_expansion test_packed_accumulator)
fi

# --- 1. Packages ----------------------------------------------------------------------------------
bash "$ROOT/scripts/install_deps.sh"
# hipcc depends on clang-15, lld-15, rocm-device-libs (the gfx bitcode libraries), libamdhip64-dev
# (the HIP headers and runtime) and rocminfo; listed here as well so that a missing one is named.
HIP_PACKAGES=(hipcc clang-15 lld-15 rocm-device-libs libamdhip64-dev libhsa-runtime-dev rocminfo)
missing=()
for p in "${HIP_PACKAGES[@]}"; do
  [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" == "install ok installed" ]] || missing+=("$p")
done
if ((${#missing[@]})); then
  log "installing ${missing[*]}"
  SUDO=()
  ((EUID == 0)) || SUDO=(sudo -n)
  APT=("${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -y -q -o Dpkg::Use-Pty=0)
  "${APT[@]}" install --no-install-recommends "${missing[@]}" ||
    { "${APT[@]}" update && "${APT[@]}" install --no-install-recommends "${missing[@]}"; } ||
    die "apt-get install ${missing[*]} failed"
fi
HIPCC=$(command -v hipcc) || die "hipcc not found after installing it"
case "$HIP_ARCH" in
  VEGA900) GFX=gfx900 ;;
  VEGA906) GFX=gfx906 ;;
  VEGA908) GFX=gfx908 ;;
  *) die "EXKOKKOS_HIP_ARCH=$HIP_ARCH: Kokkos 3.4.01 knows VEGA900, VEGA906 and VEGA908" ;;
esac
# hipcc compiles every .cpp as HIP. Without an --offload-arch on its command line (CMake's compiler
# checks; ExKokkos' test support library, which does not link Kokkos and so lacks Kokkos'
# --amdgpu-target) it asks rocm_agent_enumerator for the machine's GPUs, which prints a Python
# traceback without /sys/class/kfd and leaves clang's default target. HCC_AMDGPU_TARGET names the
# target for those commands instead; commands that name one are not affected.
export HCC_AMDGPU_TARGET=$GFX
HIPCC_ID=$("$HIPCC" --version | grep -E '^(HIP version|.*clang version)' | tr '\n' ' ')
[[ "$HIPCC_ID" == *"HIP version"* ]] || die "hipcc --version does not name a HIP version: $HIPCC_ID"
log "hipcc: $HIPCC_ID"
log "packages: $(dpkg-query -W -f='${Package} ${Version}, ' "${HIP_PACKAGES[@]}")"

# --- 2. Kokkos 3.4.01 with HIP ----------------------------------------------------------------------
# The source: the verified trilinos source package that build_kokkos.sh downloads and caches.
ORIG=$(env -u CXX bash "$ROOT/scripts/build_kokkos.sh" --fetch-source | sed -n 's/^TRILINOS_ORIG=//p')
[[ -f "$ORIG" ]] || die "scripts/build_kokkos.sh --fetch-source gave no source tarball"

command -v ninja >/dev/null 2>&1 || die "ninja not found (scripts/install_deps.sh installs it)"
GENERATOR=Ninja # the device-code probe below reads the compile commands with ninja -t commands
KOKKOS_OPTS=(
  -DCMAKE_BUILD_TYPE=Release
  -DCMAKE_CXX_COMPILER="$HIPCC"
  -DCMAKE_CXX_STANDARD=17
  -DCMAKE_CXX_EXTENSIONS=OFF
  -DBUILD_SHARED_LIBS=OFF
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON
  -DCMAKE_INSTALL_LIBDIR=lib
  -DKokkos_CXX_STANDARD=17
  -DKokkos_ENABLE_SERIAL=ON
  -DKokkos_ENABLE_HIP=ON
  "-DKokkos_ARCH_$HIP_ARCH=ON"
  -DKokkos_ENABLE_TESTS=OFF
  -DKokkos_ENABLE_EXAMPLES=OFF
)
HASH=$(printf '%s\n' "rev=$RECIPE_REVISION" "src=$(basename "$ORIG")" "cxx=$HIPCC_ID" "${KOKKOS_OPTS[@]}" |
  sha256sum | cut -c1-10)
ARCH_LC=$(tr '[:upper:]' '[:lower:]' <<<"$HIP_ARCH")
NAME=kokkos-$KOKKOS_VERSION-hip-$ARCH_LC-serial-cxx17-$HASH
PREFIX=$DEPS_DIR/$NAME
STAMP=.exkokkos-installed

run_logged() { # log-name command...
  local logf=$DEPS_DIR/logs/$1.log t0=$SECONDS
  shift
  log "  $(basename "$logf") ..."
  if ! "$@" >"$logf" 2>&1; then
    grep -E -m 20 'error|Error' "$logf" >&2 || true
    tail -n 40 "$logf" >&2 || true
    die "failed after $((SECONDS - t0)) s: $*  (full log: $logf)"
  fi
  log "  ... done in $((SECONDS - t0)) s"
}

if [[ -f "$PREFIX/$STAMP" ]]; then
  log "kokkos: cached at $PREFIX"
else
  mkdir -p "$DEPS_DIR"/{logs,work}
  exec 9>"$DEPS_DIR/.lock" # the lock build_kokkos.sh takes: one builder per cache
  flock -n 9 || { log "waiting for $DEPS_DIR/.lock"; flock 9; }
fi
if [[ ! -f "$PREFIX/$STAMP" ]]; then
  t0=$SECONDS
  WORK=$DEPS_DIR/work/$NAME
  rm -rf "$WORK" "$PREFIX"
  mkdir -p "$WORK/src"
  log "kokkos: extracting packages/kokkos from $(basename "$ORIG")"
  tar -xf "$ORIG" -C "$WORK/src" --strip-components=1 --wildcards '*/packages/kokkos/*'
  grep -q 'set(Kokkos_VERSION_PATCH 01)' "$WORK/src/packages/kokkos/CMakeLists.txt" ||
    die "$(basename "$ORIG") does not contain Kokkos $KOKKOS_VERSION"
  cmd=(cmake -S "$WORK/src/packages/kokkos" -B "$WORK/build" -G "$GENERATOR"
    -DCMAKE_INSTALL_PREFIX="$PREFIX" "${KOKKOS_OPTS[@]}")
  printf '%q ' "${cmd[@]}" >"$DEPS_DIR/logs/$NAME.cmake-command.txt"
  echo >>"$DEPS_DIR/logs/$NAME.cmake-command.txt"
  log "kokkos: configure, build (-j$JOBS), install into $PREFIX"
  run_logged "$NAME.configure" "${cmd[@]}"
  run_logged "$NAME.build" cmake --build "$WORK/build" --parallel "$JOBS"
  run_logged "$NAME.install" cmake --install "$WORK/build"
  for m in KOKKOS_ENABLE_HIP KOKKOS_ENABLE_SERIAL KOKKOS_ENABLE_CXX17; do
    grep -qE "^#define $m( |$)" "$PREFIX/include/KokkosCore_config.h" || die "$m not defined in the installed Kokkos"
  done
  printf 'built %s by scripts/hip_compile_check.sh (recipe %s) from %s with %s\n' \
    "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$RECIPE_REVISION" "$(basename "$ORIG")" "$HIPCC_ID" >"$PREFIX/$STAMP"
  [[ "${EXKOKKOS_KEEP_BUILD:-0}" == 1 ]] || rm -rf "$WORK"
  log "kokkos: installed in $((SECONDS - t0)) s"
fi
exec 9>&-

# --- 3. ExKokkos with its unit tests, compiled only ------------------------------------------------
t0=$SECONDS
log "exkokkos: configure in $BUILD"
mkdir -p "$BUILD"
# Kokkos Kernels is not built for HIP here: keep find_package from picking up the host build.
# --quick parses the grouped test suites as their unity sources (the same code, each kernel's
# instantiations parsed once a group); a full build compiles their files side by side, the
# default for HIP.
UNITY=OFF
if ((QUICK)); then UNITY=ON; fi
cmake -S "$ROOT" -B "$BUILD" -G "$GENERATOR" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$HIPCC" \
  -DKokkos_ROOT="$PREFIX" -DCMAKE_DISABLE_FIND_PACKAGE_KokkosKernels=ON \
  -DExKokkos_ENABLE_TESTS=ON -DExKokkos_ENABLE_PERF_TESTS=OFF -DExKokkos_ENABLE_EXAMPLES=OFF \
  -DExKokkos_ENABLE_MPI=OFF -DExKokkos_ENABLE_FUZZ=OFF -DExKokkos_TEST_UNITY_BUILD=$UNITY \
  >"$BUILD/exkokkos-configure.log" 2>&1 ||
  { tail -n 40 "$BUILD/exkokkos-configure.log" >&2; die "ExKokkos configure failed (log: $BUILD/exkokkos-configure.log)"; }
grep -q 'devices: .*HIP' "$BUILD/exkokkos-configure.log" || die "ExKokkos did not find a HIP-enabled Kokkos"
log "exkokkos: build ${TARGETS[*]:-all targets} (-j$JOBS)"
build_cmd=(cmake --build "$BUILD" --parallel "$JOBS")
((${#TARGETS[@]} == 0)) || build_cmd+=(--target "${TARGETS[@]}")
"${build_cmd[@]}" || die "ExKokkos build failed"
log "exkokkos: built in $((SECONDS - t0)) s"

# --- 4. Checks of what was built ---------------------------------------------------------------------
# Every unit test object must carry an AMDGPU code object for $GFX (hipcc compiles every .cpp as HIP;
# a host-only compile would pass silently), and those that launch ExKokkos kernels on the default
# (HIP) space must name them: kernel symbols mentioning ExKokkos inside the .hip_fatbin section.
mapfile -t OBJS < <(find "$BUILD/unit_tests/CMakeFiles" -path '*/test_*.dir/*.o' | sort)
((${#OBJS[@]})) || die "no unit test objects under $BUILD/unit_tests"
with_kernels=0
for obj in "${OBJS[@]}"; do
  objcopy -O binary --only-section=.hip_fatbin "$obj" "$BUILD/fatbin.tmp"
  grep -aq "amdgcn-amd-amdhsa--$GFX" "$BUILD/fatbin.tmp" || die "$obj has no $GFX code object"
  if grep -aq '_Z[A-Za-z0-9_]*ExKokkos' "$BUILD/fatbin.tmp"; then with_kernels=$((with_kernels + 1)); fi
done
rm -f "$BUILD/fatbin.tmp"
((with_kernels > 0)) || die "no unit test object holds a GPU kernel of ExKokkos"
log "check: ${#OBJS[@]} test objects with $GFX code, $with_kernels of them with ExKokkos GPU kernels"

# --quick: every unit test source through the host and the device front end, with its own compile
# command (-fsyntax-only instead of -c: clang parses and instantiates for x86_64 and for the GPU,
# and reports what device code may not do, but generates no code). A unity build's source (.cxx,
# generated in the build tree) stands for the test sources it includes.
if ((QUICK)); then
  t0=$SECONDS
  mapfile -t CMDS < <(cd "$BUILD" && ninja -t commands all | grep -E -- ' -c [^ ]*/unit_tests/[^ ]*\.(cpp|cxx)$' | sort -u)
  ((${#CMDS[@]})) || die "no unit test compile commands found"
  log "syntax: ${#CMDS[@]} sources, host + device front ends (-j$JOBS)"
  # shellcheck disable=SC2016 # the inner script's $1, $cmd, $src are its own
  printf '%s\n' "${CMDS[@]}" | (cd "$BUILD" && xargs -d '\n' -P "$JOBS" -I{} bash -c '
    cmd=$1; src=${cmd##* -c }; read -r -a flags <<<"${cmd%% -MD *}"
    "${flags[@]}" -Wno-unused-command-line-argument -fsyntax-only "$src" ||
      { echo "FAILED: ${src##*/}" >&2; exit 255; }' _ {}) || die "front-end errors (above)"
  log "syntax: ${#CMDS[@]} sources without errors in $((SECONDS - t0)) s"
fi

# Device code under the flags of ExKokkos' own targets must not contract: compile a probe kernel with
# exactly the compile command of a unit test (its flags, hipcc's defaults and Kokkos' HIP options,
# device side only) and look for a fused multiply-add in the AMDGPU assembly. The same probe with
# -ffp-contract=fast appended must fuse, or the probe proves nothing.
PROBE_DIR=$BUILD/hip_contraction_probe
mkdir -p "$PROBE_DIR"
cat >"$PROBE_DIR/probe.cpp" <<'EOF'
#include <hip/hip_runtime.h>
__global__ void exkokkos_probe(double* r, const double* x, const double* y, const double* z) {
  r[0] = x[0] * y[0] + z[0];
}
EOF
# The commands first, then grep: grep -m1 closing the pipe early would kill ninja with SIGPIPE,
# and pipefail would count that as a failure, at random.
all_cmds=$(cd "$BUILD" && ninja -t commands unit_tests/test_error_free_transforms 2>/dev/null) ||
  die "ninja -t commands failed for test_error_free_transforms"
obj_cmd=$(grep -m1 -- '-c .*test_error_free_transforms\.cpp' <<<"$all_cmds") ||
  die "no compile command for test_error_free_transforms"
read -r -a flags <<<"${obj_cmd%% -MD *}"
[[ "${flags[0]}" == *hipcc ]] || die "unexpected compile command: ${flags[*]:0:3}"
fma_count() { grep -cE '^\s*v_fmac?_f64' "$1" || true; }
(cd "$BUILD" && "${flags[@]}" --cuda-device-only -S -o "$PROBE_DIR/probe.s" "$PROBE_DIR/probe.cpp" 2>"$PROBE_DIR/probe.log") ||
  { cat "$PROBE_DIR/probe.log" >&2; die "probe compile failed"; }
(cd "$BUILD" && "${flags[@]}" -ffp-contract=fast --cuda-device-only -S -o "$PROBE_DIR/probe_fast.s" "$PROBE_DIR/probe.cpp" 2>>"$PROBE_DIR/probe.log") ||
  { cat "$PROBE_DIR/probe.log" >&2; die "probe compile (contract=fast) failed"; }
[[ "$(fma_count "$PROBE_DIR/probe.s")" == 0 ]] ||
  die "device code of ExKokkos' targets contracts a*b+c into v_fma_f64 ($PROBE_DIR/probe.s)"
[[ "$(fma_count "$PROBE_DIR/probe_fast.s")" != 0 ]] ||
  die "the probe found no v_fma_f64 even with -ffp-contract=fast: the check is broken"
log "check: no contraction in device code under ExKokkos' flags (-ffp-contract=fast control fuses)"
log "done in $((SECONDS - T_START)) s"
