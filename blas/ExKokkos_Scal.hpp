// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::exscal and ExKokkos::exinvscal: y(i) = RN(alpha * x(i)) and y(i) = RN(x(i) / alpha).
// One IEEE multiplication or division per element is already correctly rounded; exinvscal
// divides (it does not multiply by a rounded 1/alpha), which the LU relies on. y may alias x.
// As KokkosBlas::scal does, alpha == 0 writes zeros without reading x (no NaN from 0 * inf).
//
//   ExKokkos::exscal(space, y, alpha, x);      ExKokkos::exscal(y, alpha, x);
//   ExKokkos::exinvscal(space, y, alpha, x);   ExKokkos::exinvscal(y, alpha, x);
#ifndef EXKOKKOS_SCAL_HPP
#define EXKOKKOS_SCAL_HPP

#include "impl/ExKokkos_Elementwise_impl.hpp"

namespace ExKokkos {
namespace Impl {

template <class YView, class XView>
struct ScalFunctor {
  using T = typename YView::non_const_value_type;
  YView y;
  XView x;
  T alpha;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const {
    y(i) = alpha == T(0) ? T(0) : mul_rn(alpha, T(x(i)));
  }
};

template <class YView, class XView>
struct InvScalFunctor {
  using T = typename YView::non_const_value_type;
  YView y;
  XView x;
  T alpha;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const { y(i) = T(x(i)) / alpha; }
};

}  // namespace Impl

template <class ExecSpace, class YView, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<YView>() &&
                                      Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
void exscal(const ExecSpace& space, const YView& y, typename YView::non_const_value_type alpha,
            const XView& x) {
  Impl::require_accessible<ExecSpace, YView>();
  Impl::require_accessible<ExecSpace, XView>();
  const Impl::HostCall<ExecSpace> call(space, "ExKokkos::exscal");
  Impl::check_elementwise_views("ExKokkos::exscal", y, x);
  Impl::for_each_element(space, "ExKokkos::exscal", y.extent(0),
                         Impl::ScalFunctor<YView, XView>{y, x, alpha});
}

template <class YView, class XView,
          typename std::enable_if<Impl::is_rank1_view<YView>() && Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
void exscal(const YView& y, typename YView::non_const_value_type alpha, const XView& x) {
  exscal(typename YView::execution_space(), y, alpha, x);
}

template <class ExecSpace, class YView, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<YView>() &&
                                      Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
void exinvscal(const ExecSpace& space, const YView& y, typename YView::non_const_value_type alpha,
               const XView& x) {
  Impl::require_accessible<ExecSpace, YView>();
  Impl::require_accessible<ExecSpace, XView>();
  const Impl::HostCall<ExecSpace> call(space, "ExKokkos::exinvscal");
  Impl::check_elementwise_views("ExKokkos::exinvscal", y, x);
  Impl::for_each_element(space, "ExKokkos::exinvscal", y.extent(0),
                         Impl::InvScalFunctor<YView, XView>{y, x, alpha});
}

template <class YView, class XView,
          typename std::enable_if<Impl::is_rank1_view<YView>() && Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
void exinvscal(const YView& y, typename YView::non_const_value_type alpha, const XView& x) {
  exinvscal(typename YView::execution_space(), y, alpha, x);
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_SCAL_HPP
