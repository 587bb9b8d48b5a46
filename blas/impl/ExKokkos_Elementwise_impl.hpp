// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The shared shape of ExKokkos' elementwise routines (exscal, exinvscal, exaxpy, exaxpby): one
// independent, correctly rounded operation per element in a RangePolicy, so any partition gives
// the same bits.
#ifndef EXKOKKOS_ELEMENTWISE_IMPL_HPP
#define EXKOKKOS_ELEMENTWISE_IMPL_HPP

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
  check_same_extent(routine, x, y);
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_ELEMENTWISE_IMPL_HPP
