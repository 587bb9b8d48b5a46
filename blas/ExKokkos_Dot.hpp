// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::exdot: the correctly rounded dot product, bitwise reproducible everywhere (ExDOT).
//
//   double d = ExKokkos::exdot(space, x, y);    // returns after the kernel finishes
//   ExKokkos::exdot(space, r, x, y);             // r: rank-0 view, filled asynchronously
//   double d = ExKokkos::exdot(x, y);            // x's default execution space
//   ExKokkos::exdot(space, R, X, Y);             // R(j) = exdot of column j of X and of Y
//
// Every product x(i) * y(i) enters the sum exactly (TwoProd, or the accumulator's integer product
// where TwoProd would over- or underflow), so the result is the exact dot product rounded once.
// Mismatched extents throw std::invalid_argument; empty vectors give +0.
// Kokkos::complex values: conj(x) . y, as KokkosBlas::dot, its real and imaginary parts each the
// exact value rounded once (impl/ExKokkos_ComplexTerms_impl.hpp).
#ifndef EXKOKKOS_DOT_HPP
#define EXKOKKOS_DOT_HPP

#include "impl/ExKokkos_ComplexTerms_impl.hpp"
#include "impl/ExKokkos_Multivector_impl.hpp"
#include "impl/ExKokkos_RealifiedViews_impl.hpp"
#include "impl/ExKokkos_ReductionRoutine_impl.hpp"

namespace ExKokkos {
namespace Impl {

template <class XView, class YView>
struct DotTerms {
  static constexpr bool is_product = true;
  static constexpr int deposits_per_element = 2;
  XView x;
  YView y;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, double& a, double& b) const {
    a = x(i);
    b = y(i);
  }
};

// Two floats multiply exactly in double (48 significant bits, far inside the range): each product
// is one exact double term.
template <class XView, class YView>
struct FloatDotTerms {
  static constexpr bool is_product = false;
  // Budgeted as a product (the double product's kernel and its three slots): the products of
  // floats spread over twice their exponent range.
  static constexpr int deposits_per_element = 2;
  XView x;
  YView y;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t i) const {
    return static_cast<double>(x(i)) * static_cast<double>(y(i));
  }
};

template <class XView, class YView>
using dot_terms_t =
    typename std::conditional<std::is_same<typename XView::non_const_value_type, float>::value,
                              FloatDotTerms<XView, YView>, DotTerms<XView, YView>>::type;

// The entry point, on canonical views (common/impl/ExKokkos_CanonicalViews_impl.hpp).
template <class ExecSpace, class RView, class XView, class YView>
void dot_into(const ExecSpace& space, const RView& r, const XView& x, const YView& y,
              const Options& options) {
  using T = typename XView::non_const_value_type;
  const char* routine = "ExKokkos::exdot";
  if constexpr (is_exact_complex<T>()) {
    using Real = magnitude_t<T>;
    const auto parts = complex_parts(r);
    if (x.stride(0) == 1 && y.stride(0) == 1) {
      // Contiguous vectors as 2n reals each: re(conj(x) . y) = sum re(x) re(y) + im(x) im(y) is
      // their real dot product, at the real exdot's speed; im(conj(x) . y) pairs each real of x
      // with its neighbour in y (SwappedDotTerms).
      const auto xr = realified_vector<ExecSpace>(x);
      const auto yr = realified_vector<ExecSpace>(y);
      reduce_into<Real>(space, element(parts, 0), dot_terms_t<decltype(xr), decltype(yr)>{xr, yr},
                        2 * x.extent(0), options, routine);
      reduce_into<Real>(space, element(parts, 1),
                        SwappedDotTerms<decltype(xr), decltype(yr)>{xr, yr}, 2 * x.extent(0),
                        options, routine);
    } else {
      reduce_into<Real>(space, element(parts, 0), ComplexDotTerms<XView, YView, false>{x, y},
                        2 * x.extent(0), options, routine);
      reduce_into<Real>(space, element(parts, 1), ComplexDotTerms<XView, YView, true>{x, y},
                        2 * x.extent(0), options, routine);
    }
  } else {
    reduce_into<T>(space, r, dot_terms_t<XView, YView>{x, y}, x.extent(0), options, routine);
  }
}

// KokkosBlas' multivector form on canonical views: R(j) = dot of column j of x and column j of
// y, where a rank-1 operand (or one of a single column) is paired with every column of the other.
template <class ExecSpace, class RView, class XView, class YView>
void dot_columns(const ExecSpace& space, const RView& r, const XView& x, const YView& y,
                 const Options& options) {
  const char* routine = "ExKokkos::exdot";
  const HostCall<ExecSpace> call(space, routine);
  const std::size_t columns = check_column_reduction(space, routine, r, x, y, options);
  for (std::size_t j = 0; j < columns; ++j)
    dot_into(space, element(r, j), read_view<ExecSpace>(column(x, j)),
             read_view<ExecSpace>(column(y, j)), options);
}

}  // namespace Impl

template <class ExecSpace, class RView, class XView, class YView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank0_view<RView>() &&
                                      Impl::is_rank1_view<XView>() && Impl::is_rank1_view<YView>(),
                                  int>::type = 0>
void exdot(const ExecSpace& space, const RView& r, const XView& x, const YView& y,
           const Options& options = {}) {
  Impl::require_accessible<ExecSpace, RView>();
  Impl::require_accessible<ExecSpace, XView>();
  Impl::require_accessible<ExecSpace, YView>();
  using T = typename XView::non_const_value_type;
  static_assert(Impl::is_exact_value<T>(),
                "ExKokkos::exdot: x must hold double, float or their Kokkos::complex");
  static_assert(std::is_same<T, typename YView::non_const_value_type>::value,
                "ExKokkos::exdot: x and y must hold the same value type");
  Impl::check_same_extent("ExKokkos::exdot", x, y);
  Impl::dot_into(space, Impl::write_view<ExecSpace>(r), Impl::read_view<ExecSpace>(x),
                 Impl::read_view<ExecSpace>(y), options);
}

template <class ExecSpace, class XView, class YView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<XView>() &&
                                      Impl::is_rank1_view<YView>(),
                                  int>::type = 0>
typename XView::non_const_value_type exdot(const ExecSpace& space, const XView& x, const YView& y,
                                           const Options& options = {}) {
  Impl::require_accessible<ExecSpace, XView>();
  Impl::require_accessible<ExecSpace, YView>();
  const auto r =
      Impl::result_view<typename XView::non_const_value_type, ExecSpace>(space, "ExKokkos::exdot");
  exdot(space, r, x, y, options);
  return Impl::fetch_result(space, r);
}

template <class XView, class YView,
          typename std::enable_if<Impl::is_rank1_view<XView>() && Impl::is_rank1_view<YView>(),
                                  int>::type = 0>
typename XView::non_const_value_type exdot(const XView& x, const YView& y,
                                           const Options& options = {}) {
  return exdot(typename XView::execution_space(), x, y, options);
}

// KokkosBlas' form without a space: r filled on x's default execution space.
template <class RView, class XView, class YView,
          typename std::enable_if<Impl::is_rank0_view<RView>() && Impl::is_rank1_view<XView>() &&
                                      Impl::is_rank1_view<YView>(),
                                  int>::type = 0>
void exdot(const RView& r, const XView& x, const YView& y, const Options& options = {}) {
  exdot(typename XView::execution_space(), r, x, y, options);
}

// KokkosBlas' multivector form: X and Y rank 2 (or one of them rank 1, paired with every column of
// the other), R a rank-1 view of one entry per column, R(j) the bits of the rank-1 exdot on
// column j; filled asynchronously.
template <class ExecSpace, class RView, class XView, class YView,
          typename std::enable_if<
              Impl::is_space<ExecSpace>() && Impl::is_rank1_view<RView>() &&
                  Impl::is_rank1or2_view<XView>() && Impl::is_rank1or2_view<YView>() &&
                  (Impl::is_rank2_view<XView>() || Impl::is_rank2_view<YView>()),
              int>::type = 0>
void exdot(const ExecSpace& space, const RView& R, const XView& X, const YView& Y,
           const Options& options = {}) {
  Impl::require_accessible<ExecSpace, RView>();
  Impl::require_accessible<ExecSpace, XView>();
  Impl::require_accessible<ExecSpace, YView>();
  using T = typename XView::non_const_value_type;
  static_assert(Impl::is_exact_value<T>(),
                "ExKokkos::exdot: X must hold double, float or their Kokkos::complex");
  static_assert(std::is_same<T, typename YView::non_const_value_type>::value,
                "ExKokkos::exdot: X and Y must hold the same value type");
  static_assert(!std::is_const<typename RView::value_type>::value,
                "ExKokkos::exdot: R must not be const");
  Impl::dot_columns(space, Impl::write_view<ExecSpace>(R), Impl::read_view<ExecSpace>(X),
                    Impl::read_view<ExecSpace>(Y), options);
}

template <
    class RView, class XView, class YView,
    typename std::enable_if<Impl::is_rank1_view<RView>() && Impl::is_rank1or2_view<XView>() &&
                                Impl::is_rank1or2_view<YView>() &&
                                (Impl::is_rank2_view<XView>() || Impl::is_rank2_view<YView>()),
                            int>::type = 0>
void exdot(const RView& R, const XView& X, const YView& Y, const Options& options = {}) {
  exdot(typename XView::execution_space(), R, X, Y, options);
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_DOT_HPP
