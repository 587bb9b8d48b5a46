// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::exmult: Y(i) = RN(gamma Y(i) + alpha A(i) X(i)) (KokkosBlas::mult), each element the
// exact value of the whole expression, the triple product included, rounded once
// (ExKokkos_RoundedMult.hpp), so any partition gives the same bits. As KokkosBlas does, a zero
// coefficient drops its term and its views are not read: gamma = 0 gives RN(alpha A(i) X(i)),
// alpha = 0 gives RN(gamma Y(i)), both +0. A: rank-1 view of Y's rows; X and Y: rank-1 views, or
// rank-2 views of one shape (each column of X multiplied by A); any layout. Kokkos::complex values:
// each part of each element its exact value rounded once (ExKokkos_RoundedComplexMult.hpp).
//
//   ExKokkos::exmult(space, gamma, Y, alpha, A, X);   ExKokkos::exmult(gamma, Y, alpha, A, X);
#ifndef EXKOKKOS_MULT_HPP
#define EXKOKKOS_MULT_HPP

#include "impl/ExKokkos_Elementwise_impl.hpp"

#include <ExKokkos_RoundedComplexMult.hpp>
#include <ExKokkos_RoundedMult.hpp>

#include <sstream>

namespace ExKokkos {
namespace Impl {

template <class YView, class AView, class XView>
struct MultFunctor {
  using T = typename YView::non_const_value_type;
  YView y;
  AView a;
  XView x;
  T gamma, alpha;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const {
    if (alpha == T(0))
      y(i) = gamma == T(0) ? T(0) : mul_rn(gamma, T(y(i)));
    else if (gamma == T(0))
      y(i) = rounded_triple_product(alpha, T(a(i)), T(x(i)));
    else
      y(i) = rounded_mult(gamma, T(y(i)), alpha, T(a(i)), T(x(i)));
  }
};

// One element of y = RN(gamma y + alpha a x) for certified_block (host threads, doubles, gamma
// and alpha non-zero).
template <class YView, class AView, class XView>
struct MultOp {
  YView y;
  AView a;
  XView x;
  double gamma, alpha;
  KOKKOS_FORCEINLINE_FUNCTION bool fast(const std::size_t i, double& r) const {
    return rounded_mult_fast(gamma, y(i), alpha, a(i), x(i), r);
  }
  KOKKOS_INLINE_FUNCTION double exact(const std::size_t i) const {
    return rounded_mult_exact(gamma, y(i), true, alpha, a(i), x(i));
  }
  KOKKOS_INLINE_FUNCTION void store(const std::size_t i, const double v) const { y(i) = v; }
};

// The same for complex doubles: each part of y = RN(gamma y + alpha a x), the values' parts
// loaded as plain doubles.
template <class YView, class AView, class XView>
struct ComplexMultOp {
  using C = Kokkos::complex<double>;
  YView y;
  AView a;
  XView x;
  C gamma, alpha;
  KOKKOS_FORCEINLINE_FUNCTION bool fast(const std::size_t i, double& re, double& im) const {
    const double yr = y(i).real(), yi = y(i).imag(), ar = a(i).real(), ai = a(i).imag();
    const double xr = x(i).real(), xi = x(i).imag();
    return rounded_complex_mult_fast(gamma, yr, yi, true, alpha, ar, ai, xr, xi, re, im);
  }
  KOKKOS_INLINE_FUNCTION C exact(const std::size_t i) const {
    return rounded_complex_mult_exact(gamma, C(y(i)), true, alpha, C(a(i)), C(x(i)));
  }
  KOKKOS_INLINE_FUNCTION void store(const std::size_t i, const C& v) const { y(i) = v; }
};

// The entry point, on canonical views (a rank 1, x and y rank 1 or 2).
template <class ExecSpace, class YView, class AView, class XView>
void mult_into(const ExecSpace& space, typename YView::non_const_value_type gamma, const YView& y,
               typename YView::non_const_value_type alpha, const AView& a, const XView& x) {
  for (std::size_t j = 0; j < num_columns(y); ++j) {
    const auto yj = write_view<ExecSpace>(column(y, j));
    const auto xj = read_view<ExecSpace>(column(x, j));
    using T = typename YView::non_const_value_type;
    if constexpr (is_host_space<ExecSpace>() && std::is_same<T, double>::value) {
      if (gamma != T(0) && alpha != T(0)) {
        for_each_certified(space, "ExKokkos::exmult", yj.extent(0),
                           MultOp<decltype(yj), AView, decltype(xj)>{yj, a, xj, gamma, alpha});
        continue;
      }
    }
    if constexpr (is_host_space<ExecSpace>() && std::is_same<T, Kokkos::complex<double>>::value) {
      if (gamma != T(0) && alpha != T(0)) {
        for_each_certified(
            space, "ExKokkos::exmult", yj.extent(0),
            ComplexMultOp<decltype(yj), AView, decltype(xj)>{yj, a, xj, gamma, alpha});
        continue;
      }
    }
    for_each_element(space, "ExKokkos::exmult", yj.extent(0),
                     MultFunctor<decltype(yj), AView, decltype(xj)>{yj, a, xj, gamma, alpha});
  }
}

template <class YView, class AView>
void check_mult_scale(const char* routine, const YView& y, const AView& a) {
  if (a.extent(0) != y.extent(0)) {
    std::ostringstream msg;
    msg << routine << ": A must have one entry per row of Y, but A.extent(0) = " << a.extent(0)
        << " and Y.extent(0) = " << y.extent(0);
    throw std::invalid_argument(msg.str());
  }
}

}  // namespace Impl

template <
    class ExecSpace, class YView, class AView, class XView,
    typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1or2_view<YView>() &&
                                Impl::is_rank1_view<AView>() && Impl::is_rank1or2_view<XView>(),
                            int>::type = 0>
void exmult(const ExecSpace& space, typename YView::non_const_value_type gamma, const YView& Y,
            typename YView::non_const_value_type alpha, const AView& A, const XView& X) {
  Impl::require_accessible<ExecSpace, YView>();
  Impl::require_accessible<ExecSpace, AView>();
  Impl::require_accessible<ExecSpace, XView>();
  static_assert(std::is_same<typename YView::non_const_value_type,
                             typename AView::non_const_value_type>::value,
                "ExKokkos::exmult: A and Y must hold the same value type");
  const Impl::HostCall<ExecSpace> call(space, "ExKokkos::exmult");
  static_assert(Impl::is_exact_value<typename YView::non_const_value_type>(),
                "ExKokkos::exmult: Y must hold double, float or their Kokkos::complex");
  Impl::check_elementwise_views("ExKokkos::exmult", Y, X);
  Impl::check_mult_scale("ExKokkos::exmult", Y, A);
  Impl::mult_into(space, gamma, Impl::write_view<ExecSpace>(Y), alpha,
                  Impl::read_view<ExecSpace>(A), Impl::read_view<ExecSpace>(X));
}

template <class YView, class AView, class XView,
          typename std::enable_if<Impl::is_rank1or2_view<YView>() && Impl::is_rank1_view<AView>() &&
                                      Impl::is_rank1or2_view<XView>(),
                                  int>::type = 0>
void exmult(typename YView::non_const_value_type gamma, const YView& Y,
            typename YView::non_const_value_type alpha, const AView& A, const XView& X) {
  exmult(typename YView::execution_space(), gamma, Y, alpha, A, X);
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_MULT_HPP
