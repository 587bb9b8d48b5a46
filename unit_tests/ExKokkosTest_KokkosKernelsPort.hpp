// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What the two ports of Kokkos Kernels' unit tests share (test_kokkoskernels_port.cpp,
// test_kokkoskernels_port_more.cpp): the value types' traits and parts, their names, the random
// values Kokkos Kernels' tests fill their operands with (here of a spread of exponents), host
// views and matrices in a chosen layout, the oracles of nrm1 and nrm2, and the checker that
// compares bits.
#ifndef EXKOKKOSTEST_KOKKOSKERNELSPORT_HPP
#define EXKOKKOSTEST_KOKKOSKERNELSPORT_HPP

#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_Complex.hpp"
#include "ExKokkosTest_HostMatrix.hpp"
#include "ExKokkosTest_Views.hpp"

#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace ExKokkosTest {
namespace KokkosKernelsTests {

template <class S>
struct RealOf {
  using type = S;
};
template <class T>
struct RealOf<Kokkos::complex<T>> {
  using type = T;
};
template <class S>
using real_t = typename RealOf<S>::type;
template <class S>
constexpr bool is_complex = !std::is_same<S, real_t<S>>::value;
inline double re(double x) {
  return x;
}
inline double re(float x) {
  return x;
}
inline double im(double) {
  return 0;
}
inline double im(float) {
  return 0;
}
template <class T>
double re(const Kokkos::complex<T>& x) {
  return x.real();
}
template <class T>
double im(const Kokkos::complex<T>& x) {
  return x.imag();
}
template <class S>
S conj_of(const S& x) {
  if constexpr (is_complex<S>)
    return S(x.real(), -x.imag());
  else
    return x;
}
template <class S>
S make(double r, double i) {
  if constexpr (is_complex<S>)
    return S(real_t<S>(r), real_t<S>(i));
  else
    return S(r);
}
template <class S>
bool is_zero(const S& x) {
  return re(x) == 0 && im(x) == 0;
}

template <class S>
std::string type_name() {
  if (std::is_same<S, double>::value) return "double";
  if (std::is_same<S, float>::value) return "float";
  if (std::is_same<S, Kokkos::complex<double>>::value) return "complex<double>";
  return "complex<float>";
}
// Kokkos Kernels fills its operands with random values of a range; here parts uniform in
// (-1, 1), scaled by 2^e with e in [-30, 30] so that sums cancel and round non-trivially.
template <class S>
std::vector<S> random_values(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_int_distribution<int> e(-30, 30);
  std::vector<S> v(n);
  for (auto& x : v) {
    const double r = std::ldexp(u(rng), e(rng));
    const double i = std::ldexp(u(rng), e(rng));
    x = make<S>(r, i);
  }
  return v;
}

// nrm1: sum |re| + |im| (BLAS' asum), a real result.
template <class S>
real_t<S> oracle_asum(const std::vector<S>& x) {
  ExKokkosTest::ExactSum s;
  for (const auto& v : x) {
    s.add(std::fabs(re(v)));
    if (is_complex<S>) s.add(std::fabs(im(v)));
  }
  return ExKokkosTest::rounded<real_t<S>>(s);
}

// nrm2: the square root of the exact sum of the squares of every part, rounded once.
template <class S>
real_t<S> oracle_nrm2(const std::vector<S>& x) {
  std::vector<real_t<S>> parts;
  for (const auto& v : x) {
    parts.push_back(real_t<S>(re(v)));
    if (is_complex<S>) parts.push_back(real_t<S>(im(v)));
  }
  return ExKokkosTest::exact_nrm2(parts);
}

// A rows x cols host matrix in Layout whose column j holds cols_data[j].
template <class Layout, class S>
auto rank2(const std::vector<std::vector<S>>& cols_data, std::size_t rows) {
  const auto m = ExKokkosTest::HostMatrix<S, Layout>::make(rows, cols_data.size());
  for (std::size_t j = 0; j < cols_data.size(); ++j)
    for (std::size_t i = 0; i < rows; ++i) m(i, j) = cols_data[j][i];
  return m;
}

template <class View>
auto read_back(const View& d) {
  return ExKokkosTest::host_copy(d);
}

template <class S>
std::vector<std::vector<S>> random_matrix(std::size_t rows, std::size_t cols, std::uint64_t seed) {
  std::vector<std::vector<S>> m(rows);
  for (std::size_t i = 0; i < rows; ++i) m[i] = random_values<S>(cols, seed + i);
  return m;
}

// A host matrix in Layout holding m[i][j].
template <class Layout, class S>
auto matrix_of(const std::vector<std::vector<S>>& m, std::size_t rows, std::size_t cols) {
  const auto h = ExKokkosTest::HostMatrix<S, Layout>::make(rows, cols);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) h(i, j) = m[i][j];
  return h;
}

template <class Layout>
std::string layout_name() {
  if (std::is_same<Layout, Kokkos::LayoutLeft>::value) return "LayoutLeft";
  if (std::is_same<Layout, Kokkos::LayoutRight>::value) return "LayoutRight";
  return "LayoutStride";
}

// Counts mismatches; the first few are reported with everything needed to reproduce them.
struct Checker {
  std::string what;
  int failures = 0;
  template <class T>
  void check(const T& got, const T& expected, const std::string& where) {
    if (same_bits(got, expected)) return;
    if (++failures <= 5)
      ADD_FAILURE() << what << " " << where << ": got " << describe(got) << ", expected "
                    << describe(expected);
  }
  void check_index(std::size_t got, std::size_t expected, const std::string& where) {
    if (got == expected) return;
    if (++failures <= 5)
      ADD_FAILURE() << what << " " << where << ": got " << got << ", expected " << expected;
  }
  ~Checker() { EXPECT_EQ(failures, 0) << what; }
};

}  // namespace KokkosKernelsTests
}  // namespace ExKokkosTest

#endif  // EXKOKKOSTEST_KOKKOSKERNELSPORT_HPP
