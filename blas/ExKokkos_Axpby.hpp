// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::exaxpby and ExKokkos::exaxpy: y(i) = RN(alpha * x(i) + beta * y(i)), each element
// correctly rounded as one expression (ExKokkos_RoundedAxpby.hpp), so any partition gives the
// same bits. As in KokkosBlas/BLAS, beta == 0 does not read y (y = RN(alpha x), NaN in y is not
// propagated) and alpha == 0 does not read x. x and y: rank-1 views, or rank-2 views of one
// shape (KokkosBlas' multivectors: every column, each with the rank-1 routine's bits). alpha and
// beta: scalars, or as in KokkosBlas rank-0 views or rank-1 views of one value per column.
// Kokkos::complex values too: each part of alpha x + beta y rounded once from its exact value
// (ExKokkos_RoundedComplex.hpp), with the same rules for zero coefficients.
//
//   ExKokkos::exaxpby(space, alpha, x, beta, y);   ExKokkos::exaxpby(alpha, x, beta, y);
//   ExKokkos::exaxpy(space, alpha, x, y);          ExKokkos::exaxpy(alpha, x, y);   // beta = 1
#ifndef EXKOKKOS_AXPBY_HPP
#define EXKOKKOS_AXPBY_HPP

#include "impl/ExKokkos_Coefficients_impl.hpp"
#include "impl/ExKokkos_Elementwise_impl.hpp"

#include <ExKokkos_RoundedAxpby.hpp>
#include <ExKokkos_RoundedComplex.hpp>
#include <impl/ExKokkos_CanonicalViews_impl.hpp>

namespace ExKokkos {
namespace Impl {

template <class XView, class YView>
struct AxpbyFunctor {
  using T = typename YView::non_const_value_type;
  XView x;
  YView y;
  T alpha, beta;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const {
    if (beta == T(0))
      y(i) = alpha == T(0) ? T(0) : mul_rn(alpha, T(x(i)));
    else if (alpha == T(0))
      y(i) = mul_rn(beta, T(y(i)));
    else
      y(i) = rounded_axpby(alpha, T(x(i)), beta, T(y(i)));
  }
};

// One element of y = RN(alpha x + beta y) for certified_block (host threads, doubles, alpha and
// beta non-zero).
template <class XView, class YView>
struct AxpbyOp {
  XView x;
  YView y;
  double alpha, beta;
  KOKKOS_FORCEINLINE_FUNCTION bool fast(const std::size_t i, double& r) const {
    return rounded_axpby_fast(alpha, x(i), beta, y(i), r);
  }
  KOKKOS_INLINE_FUNCTION double exact(const std::size_t i) const {
    return rounded_axpby_exact(alpha, x(i), beta, y(i));
  }
  KOKKOS_INLINE_FUNCTION void store(const std::size_t i, const double v) const { y(i) = v; }
};

template <class ExecSpace, class XView, class YView>
void launch_axpby(const ExecSpace& space, const char* label,
                  typename YView::non_const_value_type alpha, const XView& x,
                  typename YView::non_const_value_type beta, const YView& y) {
  using T = typename YView::non_const_value_type;
  const std::size_t n = y.extent(0);
  if constexpr (is_host_space<ExecSpace>() && std::is_same<T, double>::value) {
    if (alpha != T(0) && beta != T(0)) {
      for_each_certified(space, label, n, AxpbyOp<XView, YView>{x, y, alpha, beta});
      return;
    }
  }
  if constexpr (is_host_space<ExecSpace>() && std::is_same<T, Kokkos::complex<double>>::value) {
    if (alpha != T(0) && beta != T(0)) {
      for_each_certified(space, label, n,
                         ComplexCombinationOp<2, YView, XView, YView>{y, {alpha, beta}, x, y});
      return;
    }
  }
  for_each_element(space, label, n, AxpbyFunctor<XView, YView>{x, y, alpha, beta});
}

// Every column of the canonical x and y (rank 1: one column), one launch each, with that column's
// coefficients (scalars, or HostCoefficients: ExKokkos_Coefficients_impl.hpp).
template <class ExecSpace, class Alpha, class XView, class Beta, class YView>
void axpby_columns(const ExecSpace& space, const char* label, const Alpha& alpha, const XView& x,
                   const Beta& beta, const YView& y) {
  for (std::size_t j = 0; j < num_columns(y); ++j)
    launch_axpby(space, label, coefficient(alpha, j), read_view<ExecSpace>(column(x, j)),
                 coefficient(beta, j), write_view<ExecSpace>(column(y, j)));
}

// The forms with coefficient views: checks, then the coefficients on the host, then the columns.
template <class ExecSpace, class AV, class XView, class BV, class YView>
void axpby_with_views(const ExecSpace& space, const char* routine, const AV& a, const XView& x,
                      const BV& b, const YView& y) {
  using T = typename YView::non_const_value_type;
  require_accessible<ExecSpace, XView>();
  require_accessible<ExecSpace, YView>();
  const HostCall<ExecSpace> call(space, routine);
  check_elementwise_views(routine, y, x);
  const std::size_t columns = num_columns(y);
  const auto alpha = coefficients_on_host<T>(space, routine, "a", a, columns);
  const auto beta = coefficients_on_host<T>(space, routine, "b", b, columns);
  axpby_columns(space, routine, alpha, read_view<ExecSpace>(x), beta, write_view<ExecSpace>(y));
}

}  // namespace Impl

template <class ExecSpace, class XView, class YView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1or2_view<XView>() &&
                                      Impl::is_rank1or2_view<YView>(),
                                  int>::type = 0>
void exaxpby(const ExecSpace& space, typename YView::non_const_value_type alpha, const XView& x,
             typename YView::non_const_value_type beta, const YView& y) {
  Impl::require_accessible<ExecSpace, XView>();
  Impl::require_accessible<ExecSpace, YView>();
  const Impl::HostCall<ExecSpace> call(space, "ExKokkos::exaxpby");
  Impl::check_elementwise_views("ExKokkos::exaxpby", y, x);
  Impl::axpby_columns(space, "ExKokkos::exaxpby", alpha, Impl::read_view<ExecSpace>(x), beta,
                      Impl::write_view<ExecSpace>(y));
}

template <class XView, class YView,
          typename std::enable_if<
              Impl::is_rank1or2_view<XView>() && Impl::is_rank1or2_view<YView>(), int>::type = 0>
void exaxpby(typename YView::non_const_value_type alpha, const XView& x,
             typename YView::non_const_value_type beta, const YView& y) {
  exaxpby(typename YView::execution_space(), alpha, x, beta, y);
}

template <class ExecSpace, class XView, class YView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1or2_view<XView>() &&
                                      Impl::is_rank1or2_view<YView>(),
                                  int>::type = 0>
void exaxpy(const ExecSpace& space, typename YView::non_const_value_type alpha, const XView& x,
            const YView& y) {
  Impl::require_accessible<ExecSpace, XView>();
  Impl::require_accessible<ExecSpace, YView>();
  const Impl::HostCall<ExecSpace> call(space, "ExKokkos::exaxpy");
  Impl::check_elementwise_views("ExKokkos::exaxpy", y, x);
  Impl::axpby_columns(space, "ExKokkos::exaxpy", alpha, Impl::read_view<ExecSpace>(x), 1,
                      Impl::write_view<ExecSpace>(y));
}

template <class XView, class YView,
          typename std::enable_if<
              Impl::is_rank1or2_view<XView>() && Impl::is_rank1or2_view<YView>(), int>::type = 0>
void exaxpy(typename YView::non_const_value_type alpha, const XView& x, const YView& y) {
  exaxpy(typename YView::execution_space(), alpha, x, y);
}

// KokkosBlas' coefficient views: a and b each a scalar, a rank-0 view or a rank-1 view of one
// value per column (at least one of them a view), read on the host before the launch; each
// column then gets what the scalar form gives with its values.
template <class ExecSpace, class AV, class XView, class BV, class YView,
          typename std::enable_if<
              Impl::is_space<ExecSpace>() &&
                  (Impl::is_coefficient_view<AV>() || Impl::is_coefficient_view<BV>()) &&
                  Impl::is_rank1or2_view<XView>() && Impl::is_rank1or2_view<YView>(),
              int>::type = 0>
void exaxpby(const ExecSpace& space, const AV& a, const XView& x, const BV& b, const YView& y) {
  Impl::axpby_with_views(space, "ExKokkos::exaxpby", a, x, b, y);
}

template <
    class AV, class XView, class BV, class YView,
    typename std::enable_if<(Impl::is_coefficient_view<AV>() || Impl::is_coefficient_view<BV>()) &&
                                Impl::is_rank1or2_view<XView>() && Impl::is_rank1or2_view<YView>(),
                            int>::type = 0>
void exaxpby(const AV& a, const XView& x, const BV& b, const YView& y) {
  exaxpby(typename YView::execution_space(), a, x, b, y);
}

template <
    class ExecSpace, class AV, class XView, class YView,
    typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_coefficient_view<AV>() &&
                                Impl::is_rank1or2_view<XView>() && Impl::is_rank1or2_view<YView>(),
                            int>::type = 0>
void exaxpy(const ExecSpace& space, const AV& a, const XView& x, const YView& y) {
  Impl::axpby_with_views(space, "ExKokkos::exaxpy", a, x, typename YView::non_const_value_type(1),
                         y);
}

template <
    class AV, class XView, class YView,
    typename std::enable_if<Impl::is_coefficient_view<AV>() && Impl::is_rank1or2_view<XView>() &&
                                Impl::is_rank1or2_view<YView>(),
                            int>::type = 0>
void exaxpy(const AV& a, const XView& x, const YView& y) {
  exaxpy(typename YView::execution_space(), a, x, y);
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_AXPBY_HPP
