// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Conjugate gradients with reproducible dot products.
//
// The same CG solver (ExKokkosExample_Cg.hpp) on the same sparse system, run with 1, 2, 3 and 4
// OpenMP threads, once per dot product: a plain Kokkos parallel_reduce, KokkosBlas::dot (when
// Kokkos Kernels is available) and ExKokkos::exdot. It prints the iteration count and a digest (a
// hash of the bits) of the residual history and of the solution for every run. The ordinary dot
// products round differently for every thread count, and CG amplifies the differences; with
// exdot the whole run is the same bits every time. The time of each run is printed too (with 3
// and 4 threads on a 2-core machine the cores are oversubscribed: compare 1 and 2). The program
// checks that, and that the exdot run converged, and exits non-zero otherwise. When Kokkos' default
// execution space is a device (CUDA), every child also runs the exdot solve on the host backend,
// and the program checks that the device's and the host's runs are the same bits.
//
//   exkokkos_cg [grid]     grid x grid interior points (default 128: 16384 unknowns)
#include <ExKokkos_Dot.hpp>
#include <ExKokkos_Nrm2.hpp>

#include <ExKokkosExample_ThreadCounts.hpp>

#include "ExKokkosExample_Cg.hpp"
#include "ExKokkosExample_CrsMatrix.hpp"

#if defined(EXKOKKOS_EXAMPLE_HAVE_KOKKOSKERNELS)
#include <KokkosBlas1_dot.hpp>
#endif

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using HostSpace = Kokkos::DefaultHostExecutionSpace;
template <class S>
using VectorOn = Kokkos::View<double*, typename S::memory_space>;
template <class S>
using MatrixOn = ExKokkosExample::CrsMatrix<typename S::memory_space>;
using Vector = VectorOn<Space>;
using Matrix = MatrixOn<Space>;

// True when the default execution space is a device: the exdot solve then runs on the host
// backend too, to compare the bits across backends.
constexpr bool device_default_space = !std::is_same<Space, HostSpace>::value;

constexpr double tolerance = 1e-10;

// True when Kokkos' default execution space is OpenMP, whose thread count the children set.
constexpr bool openmp_default_space() {
#if defined(KOKKOS_ENABLE_OPENMP)
  return std::is_same<Space, Kokkos::OpenMP>::value;
#else
  return false;
#endif
}

// The dot products the solver is run with. Each is a callable dot(space, x, y).
template <class XView, class YView>
struct PlainDotFunctor {
  XView x;
  YView y;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, double& sum) const { sum += x(i) * y(i); }
};

struct ParallelReduceDot {
  template <class S, class V>
  double operator()(const S& space, const V& x, const V& y) const {
    double sum = 0.0;
    Kokkos::parallel_reduce("dot", Kokkos::RangePolicy<S>(space, 0, x.extent(0)),
                            PlainDotFunctor<V, V>{x, y}, sum);
    return sum;
  }
};

#if defined(EXKOKKOS_EXAMPLE_HAVE_KOKKOSKERNELS)
struct KokkosBlasDot {
  // Kokkos Kernels before 4.1 has no execution-space-first overload: dot runs on x's space.
  template <class S, class V>
  double operator()(const S&, const V& x, const V& y) const {
    return KokkosBlas::dot(x, y);
  }
};
#endif

struct ExactDot {
  template <class S, class V>
  double operator()(const S& space, const V& x, const V& y) const {
    return ExKokkos::exdot(space, x, y);
  }
};

const char* const variant_names[] = {"Kokkos parallel_reduce",
#if defined(EXKOKKOS_EXAMPLE_HAVE_KOKKOSKERNELS)
                                     "KokkosBlas::dot",
#endif
                                     "ExKokkos::exdot", "ExKokkos::exdot (host)"};
// The host run of exdot is the last variant, present only when the default space is a device.
constexpr int num_variants =
    sizeof variant_names / sizeof variant_names[0] - (device_default_space ? 0 : 1);
constexpr int exact_variant = sizeof variant_names / sizeof variant_names[0] - 2;
constexpr int host_exact_variant = exact_variant + 1;

// FNV-1a over the bit patterns of a sequence of doubles: equal digests mean (but for a 2^-64
// chance) equal bits.
std::uint64_t digest(const std::vector<double>& values) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (double v : values) {
    const std::uint64_t b = ExKokkosExample::bits(v);
    for (int byte = 0; byte < 8; ++byte) {
      h ^= (b >> (8 * byte)) & 0xff;
      h *= 0x100000001b3ull;
    }
  }
  return h;
}

struct RunResult {
  int threads = 0, iterations = 0, converged = 0;
  std::uint64_t history_digest = 0, solution_digest = 0;
  double true_residual = 0;  // ||b - A x|| / ||b||, computed afresh at the end
  double seconds = 0;        // the CG iterations alone
};

template <class S, class Dot>
RunResult solve(const MatrixOn<S>& A, const VectorOn<S>& b, const Dot& dot) {
  const S space;
  VectorOn<S> x("x", b.extent(0));
  Kokkos::Timer timer;
  const ExKokkosExample::CgResult cg =
      ExKokkosExample::conjugate_gradient(space, A, b, x, dot, tolerance, 20 * A.num_rows());
  space.fence();
  RunResult r;
  r.seconds = timer.seconds();
  r.threads = ExKokkos::Impl::compat::concurrency(space);
  r.iterations = cg.iterations;
  r.converged = cg.converged ? 1 : 0;
  r.history_digest = digest(cg.residual_history);
  const auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  r.solution_digest = digest(std::vector<double>(hx.data(), hx.data() + hx.extent(0)));
  VectorOn<S> residual("residual", b.extent(0));
  ExKokkosExample::spmv(space, A, x, residual);
  ExKokkosExample::axpby(space, 1.0, b, -1.0, residual);
  r.true_residual = ExKokkos::exnrm2(space, residual) / ExKokkos::exnrm2(space, b);
  return r;
}

// The system on space S: the same matrix and right-hand side on every backend.
template <class S>
void make_system(int grid, MatrixOn<S>& A, VectorOn<S>& b) {
  A = ExKokkosExample::variable_poisson_2d<typename S::memory_space>(grid, 20261123);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  b = VectorOn<S>("b", A.num_rows());
  const auto hb = Kokkos::create_mirror_view(b);
  for (std::size_t i = 0; i < hb.extent(0); ++i) hb(i) = uniform(rng);
  Kokkos::deep_copy(b, hb);
}

// The exdot solve on the host backend, when the default space is a device.
template <bool Device>
void solve_on_host(int grid, RunResult* out, std::integral_constant<bool, Device>) {
  MatrixOn<HostSpace> A;
  VectorOn<HostSpace> b;
  make_system<HostSpace>(grid, A, b);
  *out = solve<HostSpace>(A, b, ExactDot());
}
void solve_on_host(int, RunResult*, std::false_type) {}

// Child: every variant with this process' thread count, one line each.
int run_child(int grid) {
  Matrix A;
  Vector b;
  make_system<Space>(grid, A, b);

  RunResult results[num_variants] = {
    solve<Space>(A, b, ParallelReduceDot()),
#if defined(EXKOKKOS_EXAMPLE_HAVE_KOKKOSKERNELS)
    solve<Space>(A, b, KokkosBlasDot()),
#endif
    solve<Space>(A, b, ExactDot())
  };
  solve_on_host(grid, results + exact_variant + 1,
                std::integral_constant<bool, device_default_space>());
  for (int v = 0; v < num_variants; ++v) {
    const RunResult& r = results[v];
    std::printf("%d %d %d %d %016" PRIx64 " %016" PRIx64 " %016" PRIx64 " %.6f\n", v, r.threads,
                r.iterations, r.converged, r.history_digest, r.solution_digest,
                ExKokkosExample::bits(r.true_residual), r.seconds);
  }
  return 0;
}

bool parse_child(const std::string& out, RunResult (&results)[num_variants]) {
  std::istringstream lines(out);
  std::string line;
  int seen = 0;
  while (std::getline(lines, line)) {
    int v;
    RunResult r;
    std::uint64_t residual_bits;
    if (std::sscanf(line.c_str(), "%d %d %d %d %" SCNx64 " %" SCNx64 " %" SCNx64 " %lf", &v,
                    &r.threads, &r.iterations, &r.converged, &r.history_digest, &r.solution_digest,
                    &residual_bits, &r.seconds) != 8 ||
        v < 0 || v >= num_variants)
      return false;
    r.true_residual = ExKokkosExample::from_bits(residual_bits);
    results[v] = r;
    ++seen;
  }
  return seen == num_variants;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::strcmp(argv[1], "--child") == 0) {
    const int grid = std::atoi(argv[2]);
    Kokkos::ScopeGuard kokkos(argc, argv);
    return run_child(grid);
  }
  const int grid = argc >= 2 ? std::atoi(argv[1]) : 128;
  if (grid < 2) {
    std::fprintf(stderr, "usage: %s [grid >= 2]\n", argv[0]);
    return 2;
  }
  std::printf(
      "Conjugate gradients on -div(k grad u) = f, 5-point stencil, %d x %d grid (%d unknowns),\n"
      "k random in [0.1, 10], stopping at ||r|| <= %g ||b||\n\n",
      grid, grid, grid * grid, tolerance);

  const std::string self = ExKokkosExample::self_executable();
  if (self.empty()) return 1;
  const int thread_counts[] = {1, 2, 3, 4};
  std::vector<std::vector<RunResult>> runs(num_variants);  // runs[variant][thread count]
  for (int threads : thread_counts) {
    std::string out;
    RunResult results[num_variants];
    if (!ExKokkosExample::run_with_threads(self, threads, "--child " + std::to_string(grid), out) ||
        !parse_child(out, results)) {
      std::fprintf(stderr, "the run with %d threads failed\n", threads);
      return 1;
    }
    // With OpenMP as the default space the child must have run with the threads asked for, or
    // the comparison below would compare nothing.
    if (openmp_default_space() && results[0].threads != threads) {
      std::fprintf(stderr, "asked for %d threads, Kokkos ran with %d\n", threads,
                   results[0].threads);
      return 1;
    }
    for (int v = 0; v < num_variants; ++v) runs[v].push_back(results[v]);
  }

  std::printf("%-24s %-8s %-11s %-18s %-18s %-20s %s\n", "dot product", "threads", "iterations",
              "residual history", "solution", "||b - A x|| / ||b||", "seconds");
  bool exact_ok = true;
  for (int v = 0; v < num_variants; ++v) {
    bool identical = true;
    for (const RunResult& r : runs[v]) {
      std::printf("%-24s %-8d %-11d %016" PRIx64 "   %016" PRIx64 "   %-20.3e %.3f%s\n",
                  variant_names[v], r.threads, r.iterations, r.history_digest, r.solution_digest,
                  r.true_residual, r.seconds, r.converged ? "" : "  (not converged)");
      identical = identical && r.iterations == runs[v][0].iterations &&
                  r.history_digest == runs[v][0].history_digest &&
                  r.solution_digest == runs[v][0].solution_digest;
    }
    std::printf("%-24s identical bits for every thread count: %s\n\n", variant_names[v],
                identical ? "yes" : (v == exact_variant ? "NO" : "no"));
    if (v == exact_variant || v == host_exact_variant) {
      for (const RunResult& r : runs[v]) exact_ok = exact_ok && r.converged;
      exact_ok = exact_ok && identical;
    }
  }
  if (device_default_space) {
    // The device's exdot runs against the host backend's: the same bits on both.
    bool same = true;
    for (std::size_t t = 0; t < runs[exact_variant].size(); ++t) {
      const RunResult &d = runs[exact_variant][t], &h = runs[host_exact_variant][t];
      same = same && d.iterations == h.iterations && d.history_digest == h.history_digest &&
             d.solution_digest == h.solution_digest;
    }
    std::printf("ExKokkos::exdot identical bits on the device and the host backend: %s\n",
                same ? "yes" : "NO");
    exact_ok = exact_ok && same;
  }
  std::printf("ExKokkos::exdot run converged and reproducible: %s\n", exact_ok ? "yes" : "NO");
  return exact_ok ? 0 : 1;
}
