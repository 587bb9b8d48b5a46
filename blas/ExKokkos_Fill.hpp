// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::exfill: X(i) = val for every element (KokkosBlas::fill), exact. X: a rank-1 or rank-2
// view of any layout (strided subviews too), of double, float or Kokkos::complex of them.
//
//   ExKokkos::exfill(space, X, val);   ExKokkos::exfill(X, val);
#ifndef EXKOKKOS_FILL_HPP
#define EXKOKKOS_FILL_HPP

#include "impl/ExKokkos_Elementwise_impl.hpp"

namespace ExKokkos {
namespace Impl {

template <class XView>
struct FillFunctor {
  XView x;
  typename XView::non_const_value_type value;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const { x(i) = value; }
};

// The entry point, on a canonical view of rank 1 or 2 (Kokkos 3's deep_copy of a value cannot
// fill a rank-2 LayoutStride view).
template <class ExecSpace, class XView>
void fill_into(const ExecSpace& space, const XView& x, typename XView::non_const_value_type value) {
  for (std::size_t j = 0; j < num_columns(x); ++j) {
    const auto xj = write_view<ExecSpace>(column(x, j));
    for_each_element(space, "ExKokkos::exfill", xj.extent(0), FillFunctor<decltype(xj)>{xj, value});
  }
}

}  // namespace Impl

template <class ExecSpace, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1or2_view<XView>(),
                                  int>::type = 0>
void exfill(const ExecSpace& space, const XView& X, typename XView::non_const_value_type val) {
  Impl::require_accessible<ExecSpace, XView>();
  static_assert(Impl::is_exact_value<typename XView::non_const_value_type>(),
                "ExKokkos::exfill: X must hold double, float or Kokkos::complex of them");
  static_assert(!std::is_const<typename XView::value_type>::value,
                "ExKokkos::exfill: X must not be const");
  const Impl::HostCall<ExecSpace> call(space, "ExKokkos::exfill");
  Impl::fill_into(space, Impl::write_view<ExecSpace>(X), val);
}

template <class XView, typename std::enable_if<Impl::is_rank1or2_view<XView>(), int>::type = 0>
void exfill(const XView& X, typename XView::non_const_value_type val) {
  exfill(typename XView::execution_space(), X, val);
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_FILL_HPP
