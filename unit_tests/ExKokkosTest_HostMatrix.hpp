// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A rows x cols host matrix in a chosen layout, for the suites that try every layout of the
// multivector forms. LayoutStride: the middle plane of a LayoutLeft 3 x rows x cols array, so
// that rows are 3 apart and columns 3 rows apart, its neighbours filled with a value that must not
// leak into any result.
#ifndef EXKOKKOSTEST_HOSTMATRIX_HPP
#define EXKOKKOSTEST_HOSTMATRIX_HPP

#include <Kokkos_Core.hpp>

#include <cstddef>

namespace ExKokkosTest {

template <class T, class Layout>
struct HostMatrix {
  using type = Kokkos::View<T**, Layout, Kokkos::HostSpace>;
  static type make(std::size_t rows, std::size_t cols) { return type("M", rows, cols); }
};
template <class T>
struct HostMatrix<T, Kokkos::LayoutStride> {
  using type = Kokkos::View<T**, Kokkos::LayoutStride, Kokkos::HostSpace>;
  static type make(std::size_t rows, std::size_t cols) {
    Kokkos::View<T***, Kokkos::LayoutLeft, Kokkos::HostSpace> whole("whole", 3, rows, cols);
    Kokkos::deep_copy(whole, T(12345));
    return Kokkos::subview(whole, 1, Kokkos::ALL(), Kokkos::ALL());
  }
};

}  // namespace ExKokkosTest

#endif  // EXKOKKOSTEST_HOSTMATRIX_HPP
