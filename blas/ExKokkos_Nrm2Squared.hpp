// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::exnrm2_squared: the correctly rounded sum of squares, sum x_i^2 rounded once (to +inf
// when it exceeds the range), bitwise reproducible. The squares enter the long accumulator as
// exact products (exnrm2's terms), so no square under- or overflows on the way.
//
//   double s = ExKokkos::exnrm2_squared(space, x);   ExKokkos::exnrm2_squared(space, r, x);
//   double s = ExKokkos::exnrm2_squared(x);          ExKokkos::exnrm2_squared(r, x);
//   ExKokkos::exnrm2_squared(space, R, X);   // rank-2 X: R(j) = exnrm2_squared of column j
#ifndef EXKOKKOS_NRM2SQUARED_HPP
#define EXKOKKOS_NRM2SQUARED_HPP

#include "ExKokkos_Nrm2.hpp"

namespace ExKokkos {
namespace Impl {

// The entry point, on canonical views (common/impl/ExKokkos_CanonicalViews_impl.hpp).
template <class ExecSpace, class RView, class XView>
void nrm2_squared_into(const ExecSpace& space, const RView& r, const XView& x,
                       const Options& options) {
  using T = typename XView::non_const_value_type;
  const char* routine = "ExKokkos::exnrm2_squared";
  if constexpr (is_exact_complex<T>()) {
    if (x.stride(0) == 1)  // sum re^2 + im^2: the real exnrm2_squared of the 2n reals
      nrm2_squared_into(space, r, realified_vector<ExecSpace>(x), options);
    else
      reduce_into<magnitude_t<T>>(space, r, ComplexSquareTerms<XView>{x}, 2 * x.extent(0), options,
                                  routine);
  } else
    reduce_into<T>(space, r, square_terms_t<XView>{x}, x.extent(0), options, routine);
}

struct Nrm2SquaredColumn {
  template <class ExecSpace, class RView, class XView>
  void operator()(const ExecSpace& space, const RView& r, const XView& x,
                  const Options& options) const {
    nrm2_squared_into(space, r, x, options);
  }
};

}  // namespace Impl

template <class ExecSpace, class RView, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank0_view<RView>() &&
                                      Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
void exnrm2_squared(const ExecSpace& space, const RView& r, const XView& x,
                    const Options& options = {}) {
  Impl::require_accessible<ExecSpace, RView>();
  Impl::require_accessible<ExecSpace, XView>();
  using T = typename XView::non_const_value_type;
  static_assert(Impl::is_exact_value<T>(),
                "ExKokkos::exnrm2_squared: x must hold double, float or their Kokkos::complex");
  Impl::nrm2_squared_into(space, Impl::write_view<ExecSpace>(r), Impl::read_view<ExecSpace>(x),
                          options);
}

template <class ExecSpace, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
Impl::magnitude_t<typename XView::non_const_value_type> exnrm2_squared(
    const ExecSpace& space, const XView& x, const Options& options = {}) {
  Impl::require_accessible<ExecSpace, XView>();
  const auto r =
      Impl::result_view<Impl::magnitude_t<typename XView::non_const_value_type>, ExecSpace>(
          space, "ExKokkos::exnrm2_squared");
  exnrm2_squared(space, r, x, options);
  return Impl::fetch_result(space, r);
}

template <class XView, typename std::enable_if<Impl::is_rank1_view<XView>(), int>::type = 0>
Impl::magnitude_t<typename XView::non_const_value_type> exnrm2_squared(
    const XView& x, const Options& options = {}) {
  return exnrm2_squared(typename XView::execution_space(), x, options);
}

template <class RView, class XView,
          typename std::enable_if<Impl::is_rank0_view<RView>() && Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
void exnrm2_squared(const RView& r, const XView& x, const Options& options = {}) {
  exnrm2_squared(typename XView::execution_space(), r, x, options);
}

// KokkosBlas' multivector form: R(j) = exnrm2_squared of column j of the rank-2 X.
template <class ExecSpace, class RView, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<RView>() &&
                                      Impl::is_rank2_view<XView>(),
                                  int>::type = 0>
void exnrm2_squared(const ExecSpace& space, const RView& R, const XView& X,
                    const Options& options = {}) {
  Impl::require_accessible<ExecSpace, RView>();
  Impl::require_accessible<ExecSpace, XView>();
  using T = typename XView::non_const_value_type;
  static_assert(Impl::is_exact_value<T>(),
                "ExKokkos::exnrm2_squared: X must hold double, float or their Kokkos::complex");
  static_assert(!std::is_const<typename RView::value_type>::value,
                "ExKokkos::exnrm2_squared: R must not be const");
  Impl::reduce_columns(space, "ExKokkos::exnrm2_squared", Impl::write_view<ExecSpace>(R),
                       Impl::read_view<ExecSpace>(X), options, Impl::Nrm2SquaredColumn{});
}

template <class RView, class XView,
          typename std::enable_if<Impl::is_rank1_view<RView>() && Impl::is_rank2_view<XView>(),
                                  int>::type = 0>
void exnrm2_squared(const RView& R, const XView& X, const Options& options = {}) {
  exnrm2_squared(typename XView::execution_space(), R, X, options);
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_NRM2SQUARED_HPP
