#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Install the Debian 12 (bookworm) packages ExKokkos needs to build, test, fuzz and benchmark.
#
#   bash scripts/install_deps.sh
#
# Idempotent and non-interactive: when every package is already installed (checked with dpkg-query) it
# touches nothing and returns in well under a second, so CI can call it on every run. Otherwise it
# installs the missing packages with --no-install-recommends, running `apt-get update` only when the
# package lists are absent, do not know a missing package, or turn out to be stale.
# Runs as root; as another user it goes through sudo (non-interactive) when available.
#
# Kokkos and Kokkos Kernels themselves are not installed here: Debian's libtrilinos-kokkos-dev is
# Serial-only and C++14, so scripts/build_kokkos.sh builds them from Debian's trilinos source package.
set -Eeuo pipefail

log() { printf '[install_deps %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
trap 'die "unexpected failure (exit $?) at line $LINENO: $BASH_COMMAND"' ERR

PACKAGES=(
  # toolchain and build tools (dpkg-dev: apt-get source / dpkg-architecture; xz-utils: source tarballs; curl: upstream Kokkos releases)
  g++ cmake make ninja-build pkg-config git ca-certificates dpkg-dev xz-utils curl
  # unit tests and benchmarks
  libgtest-dev googletest libgmock-dev libbenchmark-dev
  # exact oracles (MPFR, GMP rationals)
  libmpfr-dev libgmp-dev
  # MPI reproducibility tests
  libopenmpi-dev openmpi-bin
  # BLAS/LAPACK: the Kokkos Kernels BLAS TPL and a LAPACK reference (OpenBLAS provides both;
  # liblapacke-dev gives the C interface for reference computations in tests)
  libopenblas-dev liblapack-dev liblapacke-dev
  # clang for libFuzzer and sanitizers (runtime in libclang-rt-14-dev; libomp for Kokkos' -fopenmp),
  # and formatting
  clang-14 libclang-rt-14-dev libomp-14-dev clang-format
  # plot script for the performance results
  python3 python3-matplotlib
)

# Packages whose dpkg status is not "install ok installed" (absent, removed, config-files, half-installed).
missing_packages() {
  local p status
  for p in "${PACKAGES[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || printf '%s\n' "$p"
  done
}

mapfile -t MISSING < <(missing_packages)
if ((${#MISSING[@]} == 0)); then
  log "all ${#PACKAGES[@]} packages already installed; nothing to do"
  exit 0
fi
log "missing packages: ${MISSING[*]}"

# Root runs apt directly; anyone else needs non-interactive sudo.
SUDO=()
if ((EUID != 0)); then
  command -v sudo >/dev/null 2>&1 || die "not root and sudo is not available; run as root"
  SUDO=(sudo -n)
fi
APT=("${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -y -q -o Dpkg::Use-Pty=0)

# The lists need refreshing only when apt has no candidate for a missing package (e.g. lists never
# downloaded, as on a fresh container image). apt-cache reads the lists without root.
# (The output is captured first: `apt-cache ... | grep -q` would die of SIGPIPE under pipefail.)
needs_update=0
for p in "${MISSING[@]}"; do
  policy=$(apt-cache policy "$p" 2>/dev/null || true)
  if ! grep -q '^  Candidate: [^(]' <<<"$policy"; then
    log "apt has no candidate for $p"
    needs_update=1
    break
  fi
done

t0=$SECONDS
if ((needs_update)); then
  log "apt-get update"
  "${APT[@]}" update
fi

install() { "${APT[@]}" install --no-install-recommends "${MISSING[@]}"; }
if ! install; then
  # Lists that are present but older than the mirror give 404s on download: refresh once and retry.
  ((needs_update)) && die "apt-get install failed"
  log "apt-get install failed; refreshing the package lists and retrying once"
  "${APT[@]}" update
  install || die "apt-get install failed after apt-get update"
fi

mapfile -t STILL_MISSING < <(missing_packages)
((${#STILL_MISSING[@]} == 0)) || die "still not installed: ${STILL_MISSING[*]}"
log "installed ${#MISSING[@]} package(s) in $((SECONDS - t0)) s"
