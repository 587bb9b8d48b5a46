// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// An LU's result on the host (factors row-major, pivots, info), a runner that factors a copy of
// row-major host data in a layout under test, and a bitwise comparison of two results (shared
// by the exgetf2 and exgetrf suites).
#ifndef EXKOKKOSTEST_LUFACTORS_HPP
#define EXKOKKOSTEST_LUFACTORS_HPP

#include "ExKokkosTest_Matrices.hpp"

#include <ExKokkosTest_Oracle.hpp>

#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace ExKokkosTest {

template <class T = double>
struct LuFactors {
  std::vector<T> lu;  // row-major m x n
  std::vector<int> piv;
  int info = 0;
};

// a (row-major m x n) copied into a ViewLayout matrix in ExecSpace's memory, factored by
// factor(A, ipiv) (which returns info), and read back.
template <class ViewLayout, class ExecSpace, class T, class Factor>
LuFactors<T> factor_lu(const std::vector<T>& a, int m, int n, const Factor& factor) {
  auto A = to_matrix<ViewLayout, ExecSpace>(a, m, n);
  Kokkos::View<int*, typename ExecSpace::memory_space> ipiv("ipiv", std::min(m, n));
  LuFactors<T> f;
  f.info = factor(A, ipiv);
  f.lu = matrix_elements(A);  // A may be strided
  f.piv = to_host(ipiv);
  return f;
}

// The same info, pivots and factors, bit for bit (a NaN equals itself, -0 differs from +0); the
// first five differing entries reported.
template <class T>
void expect_same_factors(const LuFactors<T>& want, const LuFactors<T>& got,
                         const std::string& what) {
  EXPECT_EQ(want.info, got.info) << what;
  EXPECT_EQ(want.piv, got.piv) << what;
  ASSERT_EQ(want.lu.size(), got.lu.size()) << what;
  int failures = 0;
  for (std::size_t i = 0; i < want.lu.size() && failures < 5; ++i)
    if (!same_bits(want.lu[i], got.lu[i])) {
      ++failures;
      ADD_FAILURE() << what << ": LU[" << i << "] = " << describe(got.lu[i]) << ", expected "
                    << describe(want.lu[i]);
    }
}

}  // namespace ExKokkosTest

#endif  // EXKOKKOSTEST_LUFACTORS_HPP
