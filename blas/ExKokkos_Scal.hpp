// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::exscal and ExKokkos::exinvscal: y(i) = RN(alpha * x(i)) and y(i) = RN(x(i) / alpha).
// One IEEE multiplication or division per element is already correctly rounded; exinvscal
// divides (it does not multiply by a rounded 1/alpha), which the LU relies on. y may alias x.
// Both take Kokkos::complex values too: each part of alpha x rounded once from its exact value
// (ExKokkos_RoundedComplex.hpp), each part of x / alpha the exact quotient of its exact
// numerator and |alpha|^2 rounded once (ExKokkos_RoundedQuotient.hpp).
// As KokkosBlas::scal does, alpha == 0 writes zeros without reading x (no NaN from 0 * inf).
// y and x: rank-1 views, or rank-2 views of one shape (every column). exscal's alpha: a scalar, or
// as in KokkosBlas a rank-0 view or a rank-1 view of one value per column.
//
//   ExKokkos::exscal(space, y, alpha, x);      ExKokkos::exscal(y, alpha, x);
//   ExKokkos::exinvscal(space, y, alpha, x);   ExKokkos::exinvscal(y, alpha, x);
#ifndef EXKOKKOS_SCAL_HPP
#define EXKOKKOS_SCAL_HPP

#include "impl/ExKokkos_Coefficients_impl.hpp"
#include "impl/ExKokkos_Elementwise_impl.hpp"

#include <ExKokkos_RoundedComplex.hpp>

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
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const {
    y(i) = rounded_quotient(T(x(i)), alpha);
  }
};

// y = RN(alpha x); complex doubles on the host in certified blocks that vectorize.
template <class ExecSpace, class YView, class XView>
void launch_scal(const ExecSpace& space, const char* label, const YView& y,
                 typename YView::non_const_value_type alpha, const XView& x) {
  using T = typename YView::non_const_value_type;
  if constexpr (is_host_space<ExecSpace>() && std::is_same<T, Kokkos::complex<double>>::value) {
    if (alpha != T(0)) {
      for_each_certified(space, label, y.extent(0),
                         ComplexCombinationOp<1, YView, XView>{y, {alpha}, x});
      return;
    }
  }
  for_each_element(space, label, y.extent(0), ScalFunctor<YView, XView>{y, x, alpha});
}

// y = x / alpha; complex doubles on the host in certified blocks that vectorize.
template <class ExecSpace, class YView, class XView>
void launch_invscal(const ExecSpace& space, const char* label, const YView& y,
                    typename YView::non_const_value_type alpha, const XView& x) {
  using T = typename YView::non_const_value_type;
  if constexpr (is_host_space<ExecSpace>() && std::is_same<T, Kokkos::complex<double>>::value) {
    for_each_certified(space, label, y.extent(0),
                       ComplexQuotientOp<YView, XView, false>{y, x, alpha});
    return;
  }
  for_each_element(space, label, y.extent(0), InvScalFunctor<YView, XView>{y, x, alpha});
}

// Every column of the canonical y and x (rank 1: one column), one launch each, with that column's
// alpha (a scalar, or HostCoefficients: ExKokkos_Coefficients_impl.hpp): exscal's ScalFunctor
// (through launch_scal) or exinvscal's InvScalFunctor (through launch_invscal).
template <template <class, class> class Functor, class ExecSpace, class YView, class Alpha,
          class XView>
void scal_columns(const ExecSpace& space, const char* label, const YView& y, const Alpha& alpha,
                  const XView& x) {
  for (std::size_t j = 0; j < num_columns(y); ++j) {
    const auto yj = write_view<ExecSpace>(column(y, j));
    const auto xj = read_view<ExecSpace>(column(x, j));
    using F = Functor<decltype(yj), decltype(xj)>;
    if constexpr (std::is_same<F, ScalFunctor<decltype(yj), decltype(xj)>>::value)
      launch_scal(space, label, yj, coefficient(alpha, j), xj);
    else
      launch_invscal(space, label, yj, coefficient(alpha, j), xj);
  }
}

}  // namespace Impl

template <class ExecSpace, class YView, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1or2_view<YView>() &&
                                      Impl::is_rank1or2_view<XView>(),
                                  int>::type = 0>
void exscal(const ExecSpace& space, const YView& y, typename YView::non_const_value_type alpha,
            const XView& x) {
  Impl::require_accessible<ExecSpace, YView>();
  Impl::require_accessible<ExecSpace, XView>();
  const Impl::HostCall<ExecSpace> call(space, "ExKokkos::exscal");
  Impl::check_elementwise_views("ExKokkos::exscal", y, x);
  Impl::scal_columns<Impl::ScalFunctor>(space, "ExKokkos::exscal", Impl::write_view<ExecSpace>(y),
                                        alpha, Impl::read_view<ExecSpace>(x));
}

template <class YView, class XView,
          typename std::enable_if<
              Impl::is_rank1or2_view<YView>() && Impl::is_rank1or2_view<XView>(), int>::type = 0>
void exscal(const YView& y, typename YView::non_const_value_type alpha, const XView& x) {
  exscal(typename YView::execution_space(), y, alpha, x);
}

template <class ExecSpace, class YView, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1or2_view<YView>() &&
                                      Impl::is_rank1or2_view<XView>(),
                                  int>::type = 0>
void exinvscal(const ExecSpace& space, const YView& y, typename YView::non_const_value_type alpha,
               const XView& x) {
  Impl::require_accessible<ExecSpace, YView>();
  Impl::require_accessible<ExecSpace, XView>();
  static_assert(Impl::is_exact_value<typename YView::non_const_value_type>(),
                "ExKokkos::exinvscal: y must hold double, float or their Kokkos::complex");
  const Impl::HostCall<ExecSpace> call(space, "ExKokkos::exinvscal");
  Impl::check_elementwise_views("ExKokkos::exinvscal", y, x);
  Impl::scal_columns<Impl::InvScalFunctor>(space, "ExKokkos::exinvscal",
                                           Impl::write_view<ExecSpace>(y), alpha,
                                           Impl::read_view<ExecSpace>(x));
}

template <class YView, class XView,
          typename std::enable_if<
              Impl::is_rank1or2_view<YView>() && Impl::is_rank1or2_view<XView>(), int>::type = 0>
void exinvscal(const YView& y, typename YView::non_const_value_type alpha, const XView& x) {
  exinvscal(typename YView::execution_space(), y, alpha, x);
}

// KokkosBlas' coefficient view: a rank-0 view, or a rank-1 view of one value per column, read on
// the host before the launch; each column then gets what the scalar form gives with its value.
template <
    class ExecSpace, class YView, class AV, class XView,
    typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1or2_view<YView>() &&
                                Impl::is_coefficient_view<AV>() && Impl::is_rank1or2_view<XView>(),
                            int>::type = 0>
void exscal(const ExecSpace& space, const YView& y, const AV& a, const XView& x) {
  Impl::require_accessible<ExecSpace, YView>();
  Impl::require_accessible<ExecSpace, XView>();
  const Impl::HostCall<ExecSpace> call(space, "ExKokkos::exscal");
  Impl::check_elementwise_views("ExKokkos::exscal", y, x);
  const auto alpha = Impl::coefficients_on_host<typename YView::non_const_value_type>(
      space, "ExKokkos::exscal", "a", a, Impl::num_columns(y));
  Impl::scal_columns<Impl::ScalFunctor>(space, "ExKokkos::exscal", Impl::write_view<ExecSpace>(y),
                                        alpha, Impl::read_view<ExecSpace>(x));
}

template <
    class YView, class AV, class XView,
    typename std::enable_if<Impl::is_rank1or2_view<YView>() && Impl::is_coefficient_view<AV>() &&
                                Impl::is_rank1or2_view<XView>(),
                            int>::type = 0>
void exscal(const YView& y, const AV& a, const XView& x) {
  exscal(typename YView::execution_space(), y, a, x);
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_SCAL_HPP
