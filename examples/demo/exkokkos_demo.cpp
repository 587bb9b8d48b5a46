// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The ExKokkos demo: the same sum and dot product computed with ordinary parallel reductions and
// with ExKokkos, for several OpenMP thread counts, next to the exact value from MPFR.
//
// The ordinary results change with the thread count (floating-point addition is not
// associative, and every thread count splits the work differently); ExKokkos returns the same
// bits every time, and they are the correctly rounded exact value.
//
// Kokkos fixes its thread count at initialization, so the demo runs itself once per thread count
// (as a child process, examples/common/ExKokkosExample_ThreadCounts.hpp) and prints the children's
// results in one table.
#include <ExKokkos.hpp>
#include <ExKokkos_Dot.hpp>
#include <ExKokkos_Sum.hpp>

#include <ExKokkosTest_Oracle.hpp>

#include <ExKokkosExample_ThreadCounts.hpp>

#if defined(EXKOKKOS_EXAMPLE_HAVE_KOKKOSKERNELS)
#include <KokkosBlas1_dot.hpp>
#endif

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using ExKokkosExample::bits;
using ExKokkosExample::from_bits;

// Data whose sum and dot product suffer heavy cancellation: values spread over 2^-40..2^40, each
// paired with a nearly equal value of the other sign. The exact results are small against the
// terms, so the rounding errors of an ordinary sum show in its leading digits.
struct DemoData {
  std::vector<double> x, y;
};

DemoData make_data(std::size_t n) {
  std::mt19937_64 rng(6151);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_int_distribution<int> exponent(-40, 40);
  DemoData d;
  d.x.resize(n);
  d.y.resize(n);
  for (std::size_t i = 0; i + 1 < n; i += 2) {
    const double a = std::ldexp(normal(rng), exponent(rng));
    const double b = std::ldexp(normal(rng), exponent(rng));
    d.x[i] = a;
    d.x[i + 1] = -a * (1.0 + 0x1p-40 * normal(rng));
    d.y[i] = b;
    d.y[i + 1] = b * (1.0 + 0x1p-40 * normal(rng));
  }
  // One permutation for both vectors, so that the cancelling products stay paired.
  std::vector<std::size_t> perm(n);
  for (std::size_t i = 0; i < n; ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  DemoData shuffled;
  shuffled.x.resize(n);
  shuffled.y.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    shuffled.x[i] = d.x[perm[i]];
    shuffled.y[i] = d.y[perm[i]];
  }
  return shuffled;
}

std::string hex(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

// Child: compute everything on Kokkos' default execution space with this process' thread count
// and print one line of raw bits: threads, plain sum, plain dot, KokkosBlas dot, exsum, exdot.
int run_child(std::size_t n) {
  const DemoData d = make_data(n);
  using Space = Kokkos::DefaultExecutionSpace;
  Kokkos::View<double*, Space::memory_space> x("x", n), y("y", n);
  Kokkos::deep_copy(
      x, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
             d.x.data(), n));
  Kokkos::deep_copy(
      y, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
             d.y.data(), n));
  double plain_sum = 0, plain_dot = 0;
  Kokkos::parallel_reduce(
      "plain_sum", Kokkos::RangePolicy<Space>(0, n),
      KOKKOS_LAMBDA(const std::size_t i, double& s) { s += x(i); }, plain_sum);
  Kokkos::parallel_reduce(
      "plain_dot", Kokkos::RangePolicy<Space>(0, n),
      KOKKOS_LAMBDA(const std::size_t i, double& s) { s += x(i) * y(i); }, plain_dot);
  double blas_dot = std::nan("");
#if defined(EXKOKKOS_EXAMPLE_HAVE_KOKKOSKERNELS)
  blas_dot = KokkosBlas::dot(x, y);
#endif
  const double ex_sum = ExKokkos::exsum(Space(), x);
  const double ex_dot = ExKokkos::exdot(Space(), x, y);
  std::printf("%d %" PRIx64 " %" PRIx64 " %" PRIx64 " %" PRIx64 " %" PRIx64 "\n",
              ExKokkos::Impl::compat::concurrency(Space()), bits(plain_sum), bits(plain_dot),
              bits(blas_dot), bits(ex_sum), bits(ex_dot));
  return 0;
}

struct ChildResult {
  int threads = 0;
  double plain_sum, plain_dot, blas_dot, ex_sum, ex_dot;
};

bool run_parent_child(const std::string& self, int threads, std::size_t n, ChildResult& r) {
  std::string out;
  if (!ExKokkosExample::run_with_threads(self, threads, "--child " + std::to_string(n), out))
    return false;
  std::uint64_t b[5];
  const int got =
      std::sscanf(out.c_str(), "%d %" SCNx64 " %" SCNx64 " %" SCNx64 " %" SCNx64 " %" SCNx64,
                  &r.threads, &b[0], &b[1], &b[2], &b[3], &b[4]);
  if (got != 6) return false;
  r.plain_sum = from_bits(b[0]);
  r.plain_dot = from_bits(b[1]);
  r.blas_dot = from_bits(b[2]);
  r.ex_sum = from_bits(b[3]);
  r.ex_dot = from_bits(b[4]);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t n = std::size_t(1) << 22;
  if (argc >= 3 && std::strcmp(argv[1], "--child") == 0) {
    n = std::strtoull(argv[2], nullptr, 10);
    Kokkos::ScopeGuard kokkos(argc, argv);
    return run_child(n);
  }
  if (argc >= 2) n = std::strtoull(argv[1], nullptr, 10);

  std::printf("ExKokkos demo: sum and dot product of %zu doubles with heavy cancellation\n\n", n);
  const std::string self = ExKokkosExample::self_executable();
  if (self.empty()) return 1;
  std::vector<ChildResult> results;
  for (int threads : {1, 2, 3, 4}) {
    ChildResult r;
    if (!run_parent_child(self, threads, n, r)) {
      std::fprintf(stderr, "the run with %d threads failed\n", threads);
      return 1;
    }
    results.push_back(r);
  }

  const DemoData d = make_data(n);
  ExKokkosTest::ExactSum exact_sum, exact_dot;
  for (std::size_t i = 0; i < n; ++i) {
    exact_sum.add(d.x[i]);
    exact_dot.add_product(d.x[i], d.y[i]);
  }
  const double oracle_sum = exact_sum.round_double(), oracle_dot = exact_dot.round_double();

  std::printf("%-8s %-26s %-26s\n", "threads", "Kokkos parallel_reduce sum", "ExKokkos::exsum");
  for (const ChildResult& r : results)
    std::printf("%-8d %-26.17g %-26.17g %s\n", r.threads, r.plain_sum, r.ex_sum,
                hex(r.ex_sum).c_str());
  std::printf("%-8s %-26s %-26.17g %s\n\n", "MPFR", "(exact, rounded once)", oracle_sum,
              hex(oracle_sum).c_str());

  std::printf("%-8s %-26s %-26s %-26s\n", "threads", "parallel_reduce dot", "KokkosBlas::dot",
              "ExKokkos::exdot");
  for (const ChildResult& r : results)
    std::printf("%-8d %-26.17g %-26.17g %-26.17g %s\n", r.threads, r.plain_dot, r.blas_dot,
                r.ex_dot, hex(r.ex_dot).c_str());
  std::printf("%-8s %-26s %-26s %-26.17g %s\n\n", "MPFR", "", "(exact, rounded once)", oracle_dot,
              hex(oracle_dot).c_str());

  bool reproducible = true, exact = true, ordinary_varies = false;
  for (const ChildResult& r : results) {
    reproducible = reproducible && bits(r.ex_sum) == bits(results[0].ex_sum) &&
                   bits(r.ex_dot) == bits(results[0].ex_dot);
    exact = exact && bits(r.ex_sum) == bits(oracle_sum) && bits(r.ex_dot) == bits(oracle_dot);
    ordinary_varies = ordinary_varies || bits(r.plain_sum) != bits(results[0].plain_sum) ||
                      bits(r.plain_dot) != bits(results[0].plain_dot) ||
                      bits(r.blas_dot) != bits(results[0].blas_dot);
  }
  std::printf("ordinary results change with the thread count: %s\n",
              ordinary_varies ? "yes" : "no");
  std::printf("ExKokkos results identical for every thread count: %s\n",
              reproducible ? "yes" : "NO");
  std::printf("ExKokkos results equal the correctly rounded exact values: %s\n",
              exact ? "yes" : "NO");
  return reproducible && exact ? 0 : 1;
}
