// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::exsum: the correctly rounded sum of a vector, bitwise reproducible everywhere.
//
//   double s = ExKokkos::exsum(space, x);       // returns after the kernel finishes
//   ExKokkos::exsum(space, r, x);                // r: rank-0 view, filled asynchronously
//   double s = ExKokkos::exsum(x);               // x's default execution space
//   ExKokkos::exsum(space, R, X);                // rank-2 X: R(j) = exsum of column j
//
// x: rank-1 view of double or float, any layout (strided subviews too). The result is the exact
// sum rounded once to x's value type (to nearest, ties to even); NaN/Inf follow IEEE addition;
// an empty x sums to +0. Kokkos::complex values: each part the exact sum of that part, rounded
// once.
#ifndef EXKOKKOS_SUM_HPP
#define EXKOKKOS_SUM_HPP

#include "impl/ExKokkos_ComplexTerms_impl.hpp"
#include "impl/ExKokkos_Multivector_impl.hpp"
#include "impl/ExKokkos_ReductionRoutine_impl.hpp"

namespace ExKokkos {
namespace Impl {

template <class XView>
struct SumTerms {
  static constexpr bool is_product = false;
  static constexpr int deposits_per_element = 1;
  XView x;
  // A float converts to double exactly.
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t i) const {
    return static_cast<double>(x(i));
  }
};

// The entry point, on canonical views (common/impl/ExKokkos_CanonicalViews_impl.hpp).
template <class ExecSpace, class RView, class XView>
void sum_into(const ExecSpace& space, const RView& r, const XView& x, const Options& options) {
  using T = typename XView::non_const_value_type;
  const char* routine = "ExKokkos::exsum";
  if constexpr (is_exact_complex<T>()) {
    using Real = magnitude_t<T>;
    const auto parts = complex_parts(r);
    reduce_into<Real>(space, element(parts, 0), ComplexPartTerms<XView, false>{x}, x.extent(0),
                      options, routine);
    reduce_into<Real>(space, element(parts, 1), ComplexPartTerms<XView, true>{x}, x.extent(0),
                      options, routine);
  } else {
    reduce_into<T>(space, r, SumTerms<XView>{x}, x.extent(0), options, routine);
  }
}

// The rank-1 entry point as the multivector forms' per-column step.
struct SumColumn {
  template <class ExecSpace, class RView, class XView>
  void operator()(const ExecSpace& space, const RView& r, const XView& x,
                  const Options& options) const {
    sum_into(space, r, x, options);
  }
};

}  // namespace Impl

template <class ExecSpace, class RView, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank0_view<RView>() &&
                                      Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
void exsum(const ExecSpace& space, const RView& r, const XView& x, const Options& options = {}) {
  Impl::require_accessible<ExecSpace, RView>();
  Impl::require_accessible<ExecSpace, XView>();
  using T = typename XView::non_const_value_type;
  static_assert(Impl::is_exact_value<T>(),
                "ExKokkos::exsum: x must hold double, float or their Kokkos::complex");
  Impl::sum_into(space, Impl::write_view<ExecSpace>(r), Impl::read_view<ExecSpace>(x), options);
}

template <class ExecSpace, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
typename XView::non_const_value_type exsum(const ExecSpace& space, const XView& x,
                                           const Options& options = {}) {
  Impl::require_accessible<ExecSpace, XView>();
  const auto r =
      Impl::result_view<typename XView::non_const_value_type, ExecSpace>(space, "ExKokkos::exsum");
  exsum(space, r, x, options);
  return Impl::fetch_result(space, r);
}

template <class XView, typename std::enable_if<Impl::is_rank1_view<XView>(), int>::type = 0>
typename XView::non_const_value_type exsum(const XView& x, const Options& options = {}) {
  return exsum(typename XView::execution_space(), x, options);
}

// KokkosBlas' form without a space: r filled on x's default execution space.
template <class RView, class XView,
          typename std::enable_if<Impl::is_rank0_view<RView>() && Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
void exsum(const RView& r, const XView& x, const Options& options = {}) {
  exsum(typename XView::execution_space(), r, x, options);
}

// KokkosBlas' multivector form: R(j) = exsum of column j of the rank-2 X, the bits of the
// rank-1 routine on that column; R is a rank-1 view of X.extent(1) entries, filled asynchronously.
template <class ExecSpace, class RView, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<RView>() &&
                                      Impl::is_rank2_view<XView>(),
                                  int>::type = 0>
void exsum(const ExecSpace& space, const RView& R, const XView& X, const Options& options = {}) {
  Impl::require_accessible<ExecSpace, RView>();
  Impl::require_accessible<ExecSpace, XView>();
  using T = typename XView::non_const_value_type;
  static_assert(Impl::is_exact_value<T>(),
                "ExKokkos::exsum: X must hold double, float or their Kokkos::complex");
  static_assert(!std::is_const<typename RView::value_type>::value,
                "ExKokkos::exsum: R must not be const");
  Impl::reduce_columns(space, "ExKokkos::exsum", Impl::write_view<ExecSpace>(R),
                       Impl::read_view<ExecSpace>(X), options, Impl::SumColumn{});
}

template <class RView, class XView,
          typename std::enable_if<Impl::is_rank1_view<RView>() && Impl::is_rank2_view<XView>(),
                                  int>::type = 0>
void exsum(const RView& R, const XView& X, const Options& options = {}) {
  exsum(typename XView::execution_space(), R, X, options);
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_SUM_HPP
