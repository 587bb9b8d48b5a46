// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::exreciprocal: R(i) = RN(1 / X(i)) (KokkosBlas::reciprocal): one IEEE division, which
// is correctly rounded (1/0 = inf with 0's sign, 1/inf = 0, NaN stays NaN). Kokkos::complex
// values: each part of (1 + 0i) / X(i) the exact quotient of its exact numerator and |X(i)|^2
// rounded once (ExKokkos_RoundedQuotient.hpp). R and X: rank-1 or rank-2 views of the same shape,
// any layout; R may be X.
//
//   ExKokkos::exreciprocal(space, R, X);   ExKokkos::exreciprocal(R, X);
#ifndef EXKOKKOS_RECIPROCAL_HPP
#define EXKOKKOS_RECIPROCAL_HPP

#include "impl/ExKokkos_Elementwise_impl.hpp"

namespace ExKokkos {
namespace Impl {

template <class RView, class XView>
struct ReciprocalFunctor {
  using T = typename RView::non_const_value_type;
  RView r;
  XView x;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const {
    r(i) = rounded_quotient(T(1), T(x(i)));
  }
};

// The entry point, on canonical views of rank 1 or 2.
template <class ExecSpace, class RView, class XView>
void reciprocal_into(const ExecSpace& space, const RView& r, const XView& x) {
  for (std::size_t j = 0; j < num_columns(r); ++j) {
    const auto rj = write_view<ExecSpace>(column(r, j));
    const auto xj = read_view<ExecSpace>(column(x, j));
    using T = typename RView::non_const_value_type;
    if constexpr (is_host_space<ExecSpace>() && std::is_same<T, Kokkos::complex<double>>::value) {
      for_each_certified(space, "ExKokkos::exreciprocal", rj.extent(0),
                         ComplexQuotientOp<decltype(rj), decltype(xj), true>{rj, xj, T(0)});
      continue;
    }
    for_each_element(space, "ExKokkos::exreciprocal", rj.extent(0),
                     ReciprocalFunctor<decltype(rj), decltype(xj)>{rj, xj});
  }
}

}  // namespace Impl

template <class ExecSpace, class RView, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1or2_view<RView>() &&
                                      Impl::is_rank1or2_view<XView>(),
                                  int>::type = 0>
void exreciprocal(const ExecSpace& space, const RView& R, const XView& X) {
  Impl::require_accessible<ExecSpace, RView>();
  Impl::require_accessible<ExecSpace, XView>();
  const Impl::HostCall<ExecSpace> call(space, "ExKokkos::exreciprocal");
  static_assert(Impl::is_exact_value<typename RView::non_const_value_type>(),
                "ExKokkos::exreciprocal: R must hold double, float or their Kokkos::complex");
  Impl::check_elementwise_views("ExKokkos::exreciprocal", R, X);
  Impl::reciprocal_into(space, Impl::write_view<ExecSpace>(R), Impl::read_view<ExecSpace>(X));
}

template <class RView, class XView,
          typename std::enable_if<
              Impl::is_rank1or2_view<RView>() && Impl::is_rank1or2_view<XView>(), int>::type = 0>
void exreciprocal(const RView& R, const XView& X) {
  exreciprocal(typename RView::execution_space(), R, X);
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_RECIPROCAL_HPP
