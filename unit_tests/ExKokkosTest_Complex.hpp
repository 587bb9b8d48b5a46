// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The complex suites' helpers: bits and descriptions of Kokkos::complex values, complex vectors
// built from the real generators' parts, and host vectors of them in a chosen layout.
#ifndef EXKOKKOSTEST_COMPLEX_HPP
#define EXKOKKOSTEST_COMPLEX_HPP

#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_HostMatrix.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace ExKokkosTest {

template <class T>
bool same_bits(const Kokkos::complex<T>& a, const Kokkos::complex<T>& b) {
  return same_bits(a.real(), b.real()) && same_bits(a.imag(), b.imag());
}

template <class T>
std::string describe(const Kokkos::complex<T>& v) {
  return "(" + describe(v.real()) + ", " + describe(v.imag()) + ")";
}

// The first n values re[i] + i im[i] (by default as many as both parts hold), rounded to T.
template <class T>
std::vector<Kokkos::complex<T>> complexes(const std::vector<double>& re,
                                          const std::vector<double>& im, std::size_t n) {
  std::vector<Kokkos::complex<T>> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = Kokkos::complex<T>(T(re[i]), T(im[i]));
  return v;
}
template <class T>
std::vector<Kokkos::complex<T>> complexes(const std::vector<double>& re,
                                          const std::vector<double>& im) {
  return complexes<T>(re, im, std::min(re.size(), im.size()));
}

// A rank-1 host view of v in Layout (LayoutStride: every third element of a larger array).
template <class Layout, class T>
auto vector_of(const std::vector<T>& v) {
  const auto m = HostMatrix<T, Layout>::make(v.size(), 1);
  for (std::size_t i = 0; i < v.size(); ++i) m(i, 0) = v[i];
  return Kokkos::subview(m, Kokkos::ALL(), 0);
}

}  // namespace ExKokkosTest

#endif  // EXKOKKOSTEST_COMPLEX_HPP
