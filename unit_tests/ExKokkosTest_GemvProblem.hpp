// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The exgemv suites' shared steps (test_level2_gemv.cpp and, in the executable that compiles every
// expansion size, test_level2_gemv_schedules.cpp), on the default execution space: a problem on
// the host, the MPFR oracle's result, and exgemv run in a layout.
#ifndef EXKOKKOSTEST_GEMVPROBLEM_HPP
#define EXKOKKOSTEST_GEMVPROBLEM_HPP

#include <ExKokkos.hpp>

#include <ExKokkosTest_GemvOracle.hpp>
#include <ExKokkosTest_Generators.hpp>

#include "ExKokkosTest_ExpectBits.hpp"
#include "ExKokkosTest_Matrices.hpp"
#include "ExKokkosTest_Views.hpp"

#include <cmath>
#include <cstddef>
#include <random>
#include <string>
#include <vector>

namespace ExKokkosTest {
namespace GemvTest {

using Space = Kokkos::DefaultExecutionSpace;

// A gemv problem on the host: A row-major m x n, and x, y sized for op(A); the MPFR oracle's y.
template <class T>
struct Problem {
  std::size_t m = 0, n = 0;
  bool transposed = false;
  std::vector<T> a, x, y;
  T alpha = 1, beta = 0;

  std::size_t outputs() const { return transposed ? n : m; }
  std::vector<T> op_row(std::size_t i) const {
    const std::size_t k = transposed ? m : n;
    std::vector<T> row(k);
    for (std::size_t j = 0; j < k; ++j) row[j] = transposed ? a[j * n + i] : a[i * n + j];
    return row;
  }
  std::vector<T> expected() const {
    std::vector<T> e(outputs());
    for (std::size_t i = 0; i < e.size(); ++i)
      e[i] = exact_gemv_entry(alpha, op_row(i), x, beta, beta == T(0) ? T(0) : y[i]);
    return e;
  }
};

// A problem with entries uniform in [-1, 1).
template <class T>
Problem<T> random_problem(std::size_t m, std::size_t n, bool transposed, T alpha, T beta,
                          Rng& rng) {
  Problem<T> p;
  p.m = m;
  p.n = n;
  p.transposed = transposed;
  p.alpha = alpha;
  p.beta = beta;
  std::uniform_real_distribution<double> u(-1, 1);
  for (std::size_t i = 0; i < m * n; ++i) p.a.push_back(T(u(rng)));
  for (std::size_t i = 0; i < (transposed ? m : n); ++i) p.x.push_back(T(u(rng)));
  for (std::size_t i = 0; i < p.outputs(); ++i) p.y.push_back(T(u(rng)));
  return p;
}

// Rows whose dot products with x cancel to a tiny fraction of their terms (GenDot, condition
// number cond): row i of the 40 x 60 A is GenDot's partner of x scaled by 2^(i mod 7 - 3) with
// its last element nudged, so every row is ill-conditioned and differs from the others (but
// every fifth, a well-conditioned one, so that the blocks of the host's output_lanes mix rows
// whose compensated sums certify with rows that must take the exact path).
inline Problem<double> ill_conditioned_rows(double cond, Rng& rng) {
  const std::size_t n = 60, m = 40;
  const auto pair = gen_dot(n, cond, rng);
  Problem<double> p;
  p.m = m;
  p.n = n;
  p.x = pair.first;
  std::uniform_real_distribution<double> u(-1, 1);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double v = std::ldexp(pair.second[j], static_cast<int>(i % 7) - 3);
      if (j + 1 == n && i % 2 == 1) v = std::nextafter(v, 0.0);
      if (i % 5 == 4) v = u(rng);
      p.a.push_back(v);
    }
  for (std::size_t i = 0; i < m; ++i) p.y.push_back(u(rng) * 1e-20);
  return p;
}

// The same rows as columns of A, for "T".
template <class T>
Problem<T> as_columns(const Problem<T>& p) {
  Problem<T> q = p;
  q.m = p.n;
  q.n = p.m;
  q.transposed = true;
  for (std::size_t i = 0; i < p.m; ++i)
    for (std::size_t j = 0; j < p.n; ++j) q.a[j * p.m + i] = p.a[i * p.n + j];
  return q;
}

// f(p, q, label) for every ill-conditioned problem of the exgemv suites: the rows of
// ill_conditioned_rows for condition numbers 1e10 to 1e300 ("N", p) and the same rows as columns
// ("T", q), each with alpha and beta from a fixed set.
template <class F>
void for_each_ill_conditioned_problem(Rng& rng, const F& f) {
  for (double cond : {1e10, 1e50, 1e150, 1e300}) {
    Problem<double> p = ill_conditioned_rows(cond, rng);
    Problem<double> q = as_columns(p);
    for (double alpha : {1.0, -0.7, 3.1e5})
      for (double beta : {0.0, 1.0, 0.37}) {
        p.alpha = q.alpha = alpha;
        p.beta = q.beta = beta;
        f(p, q, "cond " + describe(cond) + " alpha " + describe(alpha) + " beta " + describe(beta));
      }
  }
}

// exgemv on the default space with views of ViewLayout; y's elements.
template <class ViewLayout, class T>
std::vector<T> run(const Problem<T>& p, const char* trans, const ExKokkos::Options& options = {}) {
  const auto A = to_matrix<ViewLayout, Space>(p.a, p.m, p.n);
  const auto x = to_vector<ViewLayout, Space>(p.x);
  const auto y = to_vector<ViewLayout, Space>(p.y);
  ExKokkos::exgemv(Space(), trans, p.alpha, A, x, p.beta, y, options);
  Space().fence();
  return to_host(y);
}

// The oracle's bits in every layout.
template <class T>
void check_all_layouts(const Problem<T>& p, const std::string& what,
                       const ExKokkos::Options& options = {}) {
  const std::vector<T> e = p.expected();
  const char* trans = p.transposed ? "T" : "N";
  expect_bits(e, run<Kokkos::LayoutLeft>(p, trans, options), what + " LayoutLeft", "y");
  expect_bits(e, run<Kokkos::LayoutRight>(p, trans, options), what + " LayoutRight", "y");
  expect_bits(e, run<Kokkos::LayoutStride>(p, trans, options), what + " LayoutStride", "y");
}

}  // namespace GemvTest
}  // namespace ExKokkosTest

#endif
