// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// KokkosBlas' coefficient arguments of the elementwise routines (axpby's a and b, scal's a): a
// scalar, a rank-0 view (one value for every column) or a rank-1 view of one value per column (or
// of one value for all). ExKokkos reads view coefficients on the host before it launches (after a
// fence of the space, copying them from device memory where they live there), and then applies
// to each column exactly what the scalar form does with that column's value, zero rules included.
#ifndef EXKOKKOS_COEFFICIENTS_IMPL_HPP
#define EXKOKKOS_COEFFICIENTS_IMPL_HPP

#include <impl/ExKokkos_ViewTraits_impl.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <sstream>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace ExKokkos {
namespace Impl {

// A coefficient argument that is a view (the forms taking scalars need no conversion).
template <class A>
constexpr bool is_coefficient_view() {
  return is_rank0_view<A>() || is_rank1_view<A>();
}

// The coefficients of every column, on the host.
template <class T>
struct HostCoefficients {
  std::vector<T> values;  // one per column, or one for all columns
  T operator()(std::size_t j) const { return values.size() == 1 ? values[0] : values[j]; }
};

// Column j's coefficient: a scalar (real or Kokkos::complex) is every column's.
template <class T,
          typename std::enable_if<std::is_arithmetic<T>::value || complex_traits<T>::is_complex,
                                  int>::type = 0>
T coefficient(T a, std::size_t) {
  return a;
}
template <class T>
T coefficient(const HostCoefficients<T>& a, std::size_t j) {
  return a(j);
}

template <class H>
typename H::non_const_value_type host_entry(const H& h, std::size_t j) {
  if constexpr (static_cast<int>(H::rank) == 0) {
    return h();
  } else {
    return h(j);
  }
}

// A scalar coefficient stays as it is.
template <class T, class ExecSpace, class A,
          typename std::enable_if<!Kokkos::is_view<A>::value, int>::type = 0>
T coefficients_on_host(const ExecSpace&, const char*, const char*, const A& a, std::size_t) {
  return static_cast<T>(a);
}

// A view's values, checked (a rank-1 view holds one value per column, or one) and copied to the
// host. Called after every extent check of the routine and before anything is written.
template <class T, class ExecSpace, class A,
          typename std::enable_if<is_coefficient_view<A>(), int>::type = 0>
HostCoefficients<T> coefficients_on_host(const ExecSpace& space, const char* routine,
                                         const char* name, const A& a, std::size_t columns) {
  static_assert(std::is_same<typename A::non_const_value_type, T>::value,
                "ExKokkos: a coefficient view must hold the value type of the vectors");
  const std::size_t n = A::rank == 0 ? 1 : a.extent(0);
  if (n != 1 && n != columns) {
    std::ostringstream msg;
    msg << routine << ": the coefficient view " << name << " must have one entry per column ("
        << columns << ") or a single entry, but " << name << ".extent(0) = " << n;
    throw std::invalid_argument(msg.str());
  }
  space.fence();  // the caller's earlier work on `space` may write the coefficients
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  HostCoefficients<T> c;
  c.values.resize(n);
  for (std::size_t j = 0; j < n; ++j) c.values[j] = host_entry(h, j);
  return c;
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_COEFFICIENTS_IMPL_HPP
