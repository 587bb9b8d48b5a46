#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds unit_tests/api_digest and prints the digest of the bits of a fixed set of calls across
# the whole API, per routine and host backend (OMP_NUM_THREADS=2); exits non-zero when Serial and
# OpenMP disagree. Compare two checkouts' outputs to show that a change kept every result's bits:
#   bash scripts/api_digest.sh > after.txt && diff before.txt after.txt
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh
EXKOKKOS_BUILD_TARGETS=api_digest exkokkos_setup_and_build >&2
OMP_NUM_THREADS=2 OMP_PROC_BIND=false OMP_WAIT_POLICY=passive "$EXKOKKOS_BUILD_DIR/unit_tests/api_digest"
