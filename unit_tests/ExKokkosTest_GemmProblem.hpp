// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A gemm problem on the host for the exgemm tests: matrices row-major as stored (op(A) taken by
// trans_a, op(B) by trans_b), C m x n; the MPFR oracle's C; and exgemm run on views of a layout.
#ifndef EXKOKKOSTEST_GEMMPROBLEM_HPP
#define EXKOKKOSTEST_GEMMPROBLEM_HPP

#include <ExKokkos.hpp>

#include <ExKokkosTest_GemvOracle.hpp>

#include "ExKokkosTest_Matrices.hpp"

#include <cstddef>
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

}  // namespace ExKokkosTest

#endif  // EXKOKKOSTEST_GEMMPROBLEM_HPP
