#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds and runs every ExKokkos benchmark and writes a Markdown report with plots:
#   bash scripts/perf_report.sh [--quick] [results-dir]      (default results-dir: results/)
# Sets up the machine like scripts/test.sh (Debian packages, cached Kokkos/Kokkos Kernels), builds
# the perf_tests targets only, runs every bench_* executable it finds in the build's perf_tests/
# with JSON output (<results-dir>/<bench>.json, console output with its ratio table in
# <bench>.txt), plots each (perf_tests/plot_results.py) and writes <results-dir>/REPORT.md
# (perf_tests/report.py).
#
# --quick (or EXKOKKOS_PERF_QUICK=1): each benchmark runs for at least 0.05 s instead of Google
# Benchmark's default 0.5 s, and sizes above 2^24 elements (EXKOKKOS_PERF_MAX_ELEMENTS) are
# skipped: about 10 minutes on 2 cores. EXKOKKOS_BENCH_ARGS adds arguments to every benchmark.
# OpenMP: OMP_NUM_THREADS defaults to the number of cores, threads bound to cores.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

quick="${EXKOKKOS_PERF_QUICK:-0}"
results="results"
for arg in "$@"; do
  case "$arg" in
    --quick) quick=1 ;;
    -*) echo "usage: $0 [--quick] [results-dir]" >&2; exit 2 ;;
    *) results="$arg" ;;
  esac
done
mkdir -p "$results"
results="$(cd "$results" && pwd)"

source scripts/common.sh
start=$SECONDS
EXKOKKOS_BUILD_DIR="${EXKOKKOS_BUILD_DIR:-$root/build}"
EXKOKKOS_CMAKE_ARGS="${EXKOKKOS_CMAKE_ARGS:-} -DExKokkos_ENABLE_PERF_TESTS=ON" \
  EXKOKKOS_BUILD_TARGETS=perf_tests/all exkokkos_setup_and_build
echo "[perf_report] set-up and build took $((SECONDS - start)) s"

# OpenBLAS picks its kernels from the processor's model: on a virtual machine that reports a generic
# model it takes its oldest ("Prescott", SSE3; dgemm 8.7 GFLOP/s a core on an AVX-512 Xeon
# instead of 40), and every compute-bound baseline runs several times slower than it can. Where
# it chose those, name the kernels from the processor's flags (unless the caller did).
openblas_core="$(python3 -c "import ctypes
l = ctypes.CDLL('libopenblas.so.0'); l.openblas_get_corename.restype = ctypes.c_char_p
print(l.openblas_get_corename().decode())" 2>/dev/null || true)"
if [[ -z "${OPENBLAS_CORETYPE:-}" && "$openblas_core" == Prescott ]]; then
  if grep -qw avx512f /proc/cpuinfo 2>/dev/null; then
    export OPENBLAS_CORETYPE=SkylakeX
  elif grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
    export OPENBLAS_CORETYPE=Haswell
  fi
fi
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-$(nproc)}"
export OMP_PROC_BIND="${OMP_PROC_BIND:-spread}" OMP_PLACES="${OMP_PLACES:-cores}"
mode="full (Google Benchmark's default minimum time, every size)"
max_elements="${EXKOKKOS_PERF_MAX_ELEMENTS:-0}"
common_args=()
if [[ "$quick" == 1 ]]; then
  common_args+=(--benchmark_min_time=0.05)
  max_elements="${EXKOKKOS_PERF_MAX_ELEMENTS:-16777216}"
  mode="quick (at least 0.05 s per benchmark, sizes up to $max_elements elements)"
fi
mode="$mode; OMP_NUM_THREADS=$OMP_NUM_THREADS OMP_PROC_BIND=$OMP_PROC_BIND OMP_PLACES=$OMP_PLACES"
mode="$mode${OMP_WAIT_POLICY:+ OMP_WAIT_POLICY=$OMP_WAIT_POLICY}"
mode="$mode${OPENBLAS_CORETYPE:+ OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE}"
read -r -a extra <<<"${EXKOKKOS_BENCH_ARGS:-}"

benches=()
for exe in "$EXKOKKOS_BUILD_DIR"/perf_tests/bench_*; do
  [[ -x "$exe" && -f "$exe" ]] && benches+=("$exe")
done
if ((${#benches[@]} == 0)); then
  echo "[perf_report] no bench_* executable in $EXKOKKOS_BUILD_DIR/perf_tests" >&2
  exit 1
fi

load="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)"
jsons=()
for exe in "${benches[@]}"; do
  name="$(basename "$exe")"
  args=("${common_args[@]}" "${extra[@]}")
  if ((max_elements > 0)); then
    # A filter that names every benchmark whose size (n, or the product m x n) is small enough.
    filter="$("$exe" --benchmark_list_tests=true | /usr/bin/python3 -c '
import re, sys
sys.path.insert(0, sys.argv[2])
import bench_json
names = []
for line in sys.stdin:
    parsed = bench_json.parse_name(line.strip())
    if parsed and bench_json.elements(parsed[2]) <= int(sys.argv[1]):
        names.append(re.escape(line.strip()))
print("^(" + "|".join(names) + ")$" if names else "^$")
' "$max_elements" "$root/perf_tests")"
    if [[ "$filter" == '^$' ]]; then
      echo "[perf_report] $name: no benchmark within $max_elements elements, skipped"
      continue
    fi
    args+=("--benchmark_filter=$filter")
  fi
  echo "[perf_report] $name ($mode)"
  bench_start=$SECONDS
  "$exe" "${args[@]}" --benchmark_out="$results/$name.json" --benchmark_out_format=json \
    >"$results/$name.txt" 2>&1
  echo "[perf_report]   done in $((SECONDS - bench_start)) s: $results/$name.json"
  jsons+=("$results/$name.json")
done

rm -f "$results"/bench_*.png
for json in "${jsons[@]}"; do
  /usr/bin/python3 perf_tests/plot_results.py "$json" -o "$results" >/dev/null
done
/usr/bin/python3 perf_tests/report.py "${jsons[@]}" -o "$results/REPORT.md" --mode "$mode" \
  --command "bash scripts/perf_report.sh $*" --load "$load"
echo "[perf_report] report: $results/REPORT.md ($((SECONDS - start)) s in all)"
