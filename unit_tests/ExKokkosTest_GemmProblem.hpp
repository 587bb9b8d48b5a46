// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A gemm problem on the host for the exgemm tests: matrices row-major as stored (op(A) taken by
// trans_a, op(B) by trans_b), C m x n; the MPFR oracle's C; exgemm run on views of a layout; and
// the steps the exgemm suites share.
#ifndef EXKOKKOSTEST_GEMMPROBLEM_HPP
#define EXKOKKOSTEST_GEMMPROBLEM_HPP

#include <ExKokkos.hpp>

#include <ExKokkosTest_GemvOracle.hpp>

#include "ExKokkosTest_ExpectBits.hpp"
#include "ExKokkosTest_Matrices.hpp"

#include <ExKokkosTest_Generators.hpp>

#include <cmath>
#include <cstddef>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace ExKokkosTest {

template <class T>
struct GemmProblem {
  std::size_t m = 0, n = 0, k = 0;
  bool trans_a = false, trans_b = false;
  std::vector<T> a, b, c;
  T alpha = 1, beta = 0;

  std::size_t a_rows() const { return trans_a ? k : m; }
  std::size_t a_cols() const { return trans_a ? m : k; }
  std::size_t b_rows() const { return trans_b ? n : k; }
  std::size_t b_cols() const { return trans_b ? k : n; }
  T op_a(std::size_t i, std::size_t l) const { return trans_a ? a[l * m + i] : a[i * k + l]; }
  T op_b(std::size_t l, std::size_t j) const { return trans_b ? b[j * k + l] : b[l * n + j]; }
  const char* ta() const { return trans_a ? "T" : "N"; }
  const char* tb() const { return trans_b ? "T" : "N"; }

  // The oracle's C, row-major: every entry RN(alpha op(A)_i. op(B)_.j + beta c_ij), rounded once.
  std::vector<T> expected() const {
    std::vector<T> e(m * n);
    std::vector<T> row(k), col(k);
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        for (std::size_t l = 0; l < k; ++l) {
          row[l] = op_a(i, l);
          col[l] = op_b(l, j);
        }
        e[i * n + j] = exact_gemv_entry(alpha, row, col, beta, beta == T(0) ? T(0) : c[i * n + j]);
      }
    return e;
  }
};

// exgemm(ta, tb) on views of ViewLayout in Space's memory holding the problem; C's elements,
// row-major. ta and tb are passed as given (the tests spell them in every case LAPACK accepts).
template <class ViewLayout, class Space, class T>
std::vector<T> run_exgemm(const GemmProblem<T>& p, const char* ta, const char* tb,
                          const ExKokkos::Options& options = {}) {
  const auto A = to_matrix<ViewLayout, Space>(p.a, p.a_rows(), p.a_cols());
  const auto B = to_matrix<ViewLayout, Space>(p.b, p.b_rows(), p.b_cols());
  const auto C = to_matrix<ViewLayout, Space>(p.c, p.m, p.n);
  ExKokkos::exgemm(Space(), ta, tb, p.alpha, A, B, p.beta, C, options);
  Space().fence();
  return matrix_elements(C);
}

// The exgemm suites' shared steps (test_level3_gemm.cpp and, in the executable that compiles every
// expansion size, test_level3_gemm_schedules.cpp), on the default execution space.
namespace GemmTest {

using Space = Kokkos::DefaultExecutionSpace;
template <class T>
using Problem = GemmProblem<T>;

// Draws one entry of A or B.
using Generator = std::function<double(Rng&)>;

// A problem whose A and B entries come from gen_a and gen_b, C's uniform in [-1, 1).
template <class T>
Problem<T> random_problem(std::size_t m, std::size_t n, std::size_t k, bool ta, bool tb, T alpha,
                          T beta, Rng& rng, const Generator& gen_a, const Generator& gen_b) {
  Problem<T> p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.trans_a = ta;
  p.trans_b = tb;
  p.alpha = alpha;
  p.beta = beta;
  std::uniform_real_distribution<double> u(-1, 1);
  for (std::size_t i = 0; i < m * k; ++i) p.a.push_back(T(gen_a(rng)));
  for (std::size_t i = 0; i < k * n; ++i) p.b.push_back(T(gen_b(rng)));
  for (std::size_t i = 0; i < m * n; ++i) p.c.push_back(T(u(rng)));
  return p;
}

// A problem with entries uniform in [-1, 1).
template <class T>
Problem<T> random_problem(std::size_t m, std::size_t n, std::size_t k, bool ta, bool tb, T alpha,
                          T beta, Rng& rng) {
  const Generator uniform = [](Rng& r) { return std::uniform_real_distribution<double>(-1, 1)(r); };
  return random_problem(m, n, k, ta, tb, alpha, beta, rng, uniform, uniform);
}

// exgemm on the default space with the problem's transpositions in the given layout.
template <class ViewLayout, class T>
std::vector<T> run(const Problem<T>& p, const char* ta, const char* tb,
                   const ExKokkos::Options& options = {}) {
  return run_exgemm<ViewLayout, Space>(p, ta, tb, options);
}

template <class T>
std::vector<T> run_any(Layout layout, const Problem<T>& p, const ExKokkos::Options& options = {}) {
  const char *ta = p.ta(), *tb = p.tb();
  switch (layout) {
    case Layout::left:
      return run<Kokkos::LayoutLeft>(p, ta, tb, options);
    case Layout::right:
      return run<Kokkos::LayoutRight>(p, ta, tb, options);
    default:
      return run<Kokkos::LayoutStride>(p, ta, tb, options);
  }
}

// The bits of C against e in every layout.
template <class T>
void check_layouts(const Problem<T>& p, const std::vector<T>& e, const std::string& what,
                   const ExKokkos::Options& options = {}) {
  for (auto layout : {Layout::left, Layout::right, Layout::stride})
    expect_bits(e, run_any(layout, p, options), what + " " + name(layout), "C");
}

inline std::string shape_name(std::size_t m, std::size_t n, std::size_t k, bool ta, bool tb) {
  return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) + " " +
         (ta ? "T" : "N") + (tb ? "T" : "N");
}

// The expected C when op(A) may hold NaN or inf (op(B) finite): rows with a special value give
// the IEEE result of their sum (NaN for NaN or inf * 0, otherwise the infinity with the sign of
// the product), which alpha and beta then carry; other rows the oracle's value.
template <class T>
std::vector<T> expected_with_specials(const Problem<T>& p) {
  Problem<T> finite = p;
  std::vector<bool> special_row(p.m, false);
  for (std::size_t i = 0; i < p.m; ++i)
    for (std::size_t l = 0; l < p.k; ++l)
      if (!std::isfinite(p.op_a(i, l))) special_row[i] = true;
  for (auto& v : finite.a)
    if (!std::isfinite(v)) v = 0;
  std::vector<T> e = finite.expected();
  for (std::size_t i = 0; i < p.m; ++i)
    if (special_row[i])
      for (std::size_t j = 0; j < p.n; ++j) {
        T s = 0;
        for (std::size_t l = 0; l < p.k; ++l)
          if (!std::isfinite(p.op_a(i, l))) s += p.op_a(i, l) * p.op_b(l, j);
        e[i * p.n + j] = p.alpha * s + p.beta * p.c[i * p.n + j];
      }
  return e;
}

}  // namespace GemmTest

}  // namespace ExKokkosTest

#endif  // EXKOKKOSTEST_GEMMPROBLEM_HPP
