// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The shared shape of ExKokkos' elementwise routines (exscal, exinvscal, exaxpy, exaxpby, exabs,
// exreciprocal, exupdate, exmult): one independent, correctly rounded operation per element in a
// RangePolicy, so any partition gives the same bits. On rank-2 views (KokkosBlas' multivectors)
// each column is one such launch on column subviews (ExKokkos_Multivector_impl.hpp).
#ifndef EXKOKKOS_ELEMENTWISE_IMPL_HPP
#define EXKOKKOS_ELEMENTWISE_IMPL_HPP

#include "ExKokkos_Multivector_impl.hpp"
#include "ExKokkos_ReductionRoutine_impl.hpp"

#include <impl/ExKokkos_HostCall_impl.hpp>

namespace ExKokkos {
namespace Impl {

template <class ExecSpace, class Functor>
void for_each_element(const ExecSpace& space, const char* label, std::size_t n, const Functor& f) {
  Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace>(space, 0, n), f);
}

template <class YView, class XView>
void check_elementwise_views(const char* routine, const YView& y, const XView& x) {
  static_assert(is_exact_scalar<typename YView::non_const_value_type>(),
                "ExKokkos: elementwise routines take double or float views");
  static_assert(std::is_same<typename YView::non_const_value_type,
                             typename XView::non_const_value_type>::value,
                "ExKokkos: x and y must hold the same value type");
  static_assert(!std::is_const<typename YView::value_type>::value,
                "ExKokkos: the output view must not be const");
  static_assert(static_cast<int>(YView::rank) == static_cast<int>(XView::rank),
                "ExKokkos: x and y must have the same rank");
  check_same_extent(routine, x, y);
  if (YView::rank == 2) check_same_shape(routine, "y", y, "x", x);
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_ELEMENTWISE_IMPL_HPP
