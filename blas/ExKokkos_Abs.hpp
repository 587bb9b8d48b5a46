// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::exabs: R(i) = |X(i)| (KokkosBlas::abs), exact. R and X: rank-1 or rank-2 views of the
// same shape, any layout; R may be X.
//
//   ExKokkos::exabs(space, R, X);   ExKokkos::exabs(R, X);
#ifndef EXKOKKOS_ABS_HPP
#define EXKOKKOS_ABS_HPP

#include "impl/ExKokkos_Elementwise_impl.hpp"

namespace ExKokkos {
namespace Impl {

template <class RView, class XView>
struct AbsFunctor {
  using T = typename RView::non_const_value_type;
  RView r;
  XView x;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const {
    r(i) = compat::fabs(T(x(i)));
  }
};

// The entry point, on canonical views of rank 1 or 2.
template <class ExecSpace, class RView, class XView>
void abs_into(const ExecSpace& space, const RView& r, const XView& x) {
  for (std::size_t j = 0; j < num_columns(r); ++j) {
    const auto rj = write_view<ExecSpace>(column(r, j));
    const auto xj = read_view<ExecSpace>(column(x, j));
    for_each_element(space, "ExKokkos::exabs", rj.extent(0),
                     AbsFunctor<decltype(rj), decltype(xj)>{rj, xj});
  }
}

}  // namespace Impl

template <class ExecSpace, class RView, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1or2_view<RView>() &&
                                      Impl::is_rank1or2_view<XView>(),
                                  int>::type = 0>
void exabs(const ExecSpace& space, const RView& R, const XView& X) {
  Impl::require_accessible<ExecSpace, RView>();
  Impl::require_accessible<ExecSpace, XView>();
  const Impl::HostCall<ExecSpace> call(space, "ExKokkos::exabs");
  Impl::check_elementwise_views("ExKokkos::exabs", R, X);
  Impl::abs_into(space, Impl::write_view<ExecSpace>(R), Impl::read_view<ExecSpace>(X));
}

template <class RView, class XView,
          typename std::enable_if<
              Impl::is_rank1or2_view<RView>() && Impl::is_rank1or2_view<XView>(), int>::type = 0>
void exabs(const RView& R, const XView& X) {
  exabs(typename RView::execution_space(), R, X);
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_ABS_HPP
