#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Build and cache an upstream release of Kokkos and Kokkos Kernels (Serial + OpenMP, C++17,
# Kernels with the OpenBLAS BLAS/LAPACK TPLs), the 4.x line users run, beside the 3.4.01 of
# scripts/build_kokkos.sh (Debian 12's own, the oldest ExKokkos supports).
#
#   bash scripts/build_kokkos_release.sh     build if needed, then print the two prefixes
#
# Output (last two lines of stdout, exactly):
#   Kokkos_ROOT=<prefix>
#   KokkosKernels_ROOT=<prefix>
#
# Sources: the release archives (`git archive` of the release tags) from the directory
# $EXKOKKOS_RELEASE_SOURCES (default: ../shared/deps beside the project, where CI keeps them),
# else downloaded from the projects' GitHub tag archives. Either way their SHA-256 must match the
# table below.
#
# Environment:
#   EXKOKKOS_DEPS_DIR        cache root (default $HOME/.cache/exkokkos-deps)
#   EXKOKKOS_RELEASE_SOURCES directory holding kokkos-<v>.tar.gz and kokkos-kernels-<v>.tar.gz
#   CXX                      C++ compiler (default g++); part of the cache key
#   EXKOKKOS_JOBS            parallel build jobs (default: nproc)
set -Eeuo pipefail
trap 'echo "[build_kokkos_release] ERROR: exit $? at line $LINENO: $BASH_COMMAND" >&2' ERR

KOKKOS_VERSION=4.6.01
KERNELS_VERSION=4.6.02
KOKKOS_SHA256=b9d70e4653b87a06dbb48d63291bf248058c7c7db4bd91979676ad5609bb1a3a
KERNELS_SHA256=a953f445660ed5aaab10e18fc4a90c4c178291e9d9d97d20abd4e6027f1193ec
RECIPE_REVISION=1

root="$(cd "$(dirname "$0")/.." && pwd)"
DEPS_DIR=${EXKOKKOS_DEPS_DIR:-$HOME/.cache/exkokkos-deps}
SOURCES=${EXKOKKOS_RELEASE_SOURCES:-$root/../shared/deps}
JOBS=${EXKOKKOS_JOBS:-$(nproc)}
CXX=${CXX:-g++}
log() { printf '[build_kokkos_release %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

KOKKOS_ARGS=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 -DKokkos_ENABLE_SERIAL=ON
  -DKokkos_ENABLE_OPENMP=ON)
# BLAS and BATCHED only, and no explicit instantiations: ExKokkos' tests and benchmarks call
# KokkosBlas' dot, nrm2, gemv, gemm (OpenBLAS behind them) and KokkosBatched's LU, which need none.
KERNELS_ARGS=(-DCMAKE_BUILD_TYPE=Release -DKokkosKernels_ENABLE_TPL_BLAS=ON
  -DKokkosKernels_ENABLE_TPL_LAPACK=ON "-DKokkosKernels_ENABLE_COMPONENTS=BLAS;BATCHED"
  -DKokkosKernels_INST_DOUBLE=OFF -DKokkosKernels_INST_FLOAT=OFF -DKokkosKernels_INST_LAYOUTLEFT=OFF
  -DKokkosKernels_INST_OFFSET_SIZE_T=OFF -DKokkosKernels_INST_ORDINAL_INT=OFF)
key="$( { "$CXX" --version | head -1; echo "${KOKKOS_ARGS[*]} ${KERNELS_ARGS[*]} $RECIPE_REVISION"; } |
  sha256sum | cut -c1-10)"
kokkos_prefix=$DEPS_DIR/kokkos-$KOKKOS_VERSION-serial-openmp-cxx17-$key
kernels_prefix=$DEPS_DIR/kokkoskernels-$KERNELS_VERSION-serial-openmp-cxx17-openblas-$key

# fetch <name> <version> <sha256> <upstream repository>: prints the path of a verified archive.
fetch() {
  local name=$1 version=$2 sha=$3 repo=$4 file
  file=$SOURCES/$name-$version.tar.gz
  if [ ! -f "$file" ]; then
    file=$DEPS_DIR/downloads/$name-$version.tar.gz
    mkdir -p "$DEPS_DIR/downloads"
    if [ ! -f "$file" ]; then
      log "downloading $repo $version"
      curl -fsSL -o "$file.part" "https://github.com/$repo/archive/refs/tags/$version.tar.gz" ||
        { log "ERROR: no $name-$version.tar.gz in $SOURCES and the download failed"; exit 1; }
      mv "$file.part" "$file"
    fi
  fi
  if [ "$(sha256sum "$file" | cut -d' ' -f1)" != "$sha" ]; then
    log "ERROR: $file does not have the SHA-256 of the $name $version release ($sha)"
    exit 1
  fi
  echo "$file"
}

# build <archive> <prefix> <cmake arguments...>
build() {
  local archive=$1 prefix=$2 work
  shift 2
  work=$(mktemp -d "$DEPS_DIR/work/release.XXXXXX")
  tar xzf "$archive" -C "$work" --strip-components=1
  log "building $(basename "$archive") into $prefix"
  cmake -S "$work" -B "$work/build" -G Ninja -DCMAKE_CXX_COMPILER="$CXX" \
    -DCMAKE_INSTALL_PREFIX="$prefix" "$@" >"$DEPS_DIR/logs/$(basename "$prefix").log" 2>&1
  cmake --build "$work/build" -j "$JOBS" --target install >>"$DEPS_DIR/logs/$(basename "$prefix").log" 2>&1
  touch "$prefix/.exkokkos-installed"
  rm -rf "$work"
}

mkdir -p "$DEPS_DIR/work" "$DEPS_DIR/logs"
if [ ! -f "$kokkos_prefix/.exkokkos-installed" ]; then
  archive="$(fetch kokkos "$KOKKOS_VERSION" "$KOKKOS_SHA256" kokkos/kokkos)"
  build "$archive" "$kokkos_prefix" "${KOKKOS_ARGS[@]}"
fi
if [ ! -f "$kernels_prefix/.exkokkos-installed" ]; then
  archive="$(fetch kokkos-kernels "$KERNELS_VERSION" "$KERNELS_SHA256" kokkos/kokkos-kernels)"
  build "$archive" "$kernels_prefix" -DKokkos_ROOT="$kokkos_prefix" "${KERNELS_ARGS[@]}"
fi
echo "Kokkos_ROOT=$kokkos_prefix"
echo "KokkosKernels_ROOT=$kernels_prefix"
