// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::exasum: the correctly rounded sum of absolute values, bitwise reproducible.
//
//   double s = ExKokkos::exasum(space, x);   ExKokkos::exasum(space, r, x);   exasum(x)
//   ExKokkos::exasum(space, R, X);   // rank-2 X: R(j) = exasum of column j
//
// |x(i)| is exact, so this is exsum of the magnitudes: the exact sum rounded once. Kokkos::complex
// values: BLAS' sum of |re(x_i)| + |im(x_i)| (not of the moduli), a real result.
#ifndef EXKOKKOS_ASUM_HPP
#define EXKOKKOS_ASUM_HPP

#include "impl/ExKokkos_ComplexTerms_impl.hpp"
#include "impl/ExKokkos_Multivector_impl.hpp"
#include "impl/ExKokkos_ReductionRoutine_impl.hpp"

namespace ExKokkos {
namespace Impl {

template <class XView>
struct AbsTerms {
  static constexpr bool is_product = false;
  static constexpr int deposits_per_element = 1;
  XView x;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t i) const {
    return compat::fabs(static_cast<double>(x(i)));
  }
};

// The entry point, on canonical views (common/impl/ExKokkos_CanonicalViews_impl.hpp).
template <class ExecSpace, class RView, class XView>
void asum_into(const ExecSpace& space, const RView& r, const XView& x, const Options& options) {
  using T = typename XView::non_const_value_type;
  const char* routine = "ExKokkos::exasum";
  if constexpr (is_exact_complex<T>()) {
    if (x.stride(0) == 1)  // BLAS' sum of |re| + |im|: the real exasum of the 2n reals
      asum_into(space, r, realified_vector<ExecSpace>(x), options);
    else
      reduce_into<magnitude_t<T>>(space, r, ComplexAbsTerms<XView>{x}, 2 * x.extent(0), options,
                                  routine);
  } else
    reduce_into<T>(space, r, AbsTerms<XView>{x}, x.extent(0), options, routine);
}

// The rank-1 entry point as the multivector forms' per-column step.
struct AsumColumn {
  template <class ExecSpace, class RView, class XView>
  void operator()(const ExecSpace& space, const RView& r, const XView& x,
                  const Options& options) const {
    asum_into(space, r, x, options);
  }
};

}  // namespace Impl

template <class ExecSpace, class RView, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank0_view<RView>() &&
                                      Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
void exasum(const ExecSpace& space, const RView& r, const XView& x, const Options& options = {}) {
  Impl::require_accessible<ExecSpace, RView>();
  Impl::require_accessible<ExecSpace, XView>();
  using T = typename XView::non_const_value_type;
  static_assert(Impl::is_exact_value<T>(),
                "ExKokkos::exasum: x must hold double, float or their Kokkos::complex");
  Impl::asum_into(space, Impl::write_view<ExecSpace>(r), Impl::read_view<ExecSpace>(x), options);
}

template <class ExecSpace, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
Impl::magnitude_t<typename XView::non_const_value_type> exasum(const ExecSpace& space,
                                                               const XView& x,
                                                               const Options& options = {}) {
  Impl::require_accessible<ExecSpace, XView>();
  const auto r =
      Impl::result_view<Impl::magnitude_t<typename XView::non_const_value_type>, ExecSpace>(
          space, "ExKokkos::exasum");
  exasum(space, r, x, options);
  return Impl::fetch_result(space, r);
}

template <class XView, typename std::enable_if<Impl::is_rank1_view<XView>(), int>::type = 0>
Impl::magnitude_t<typename XView::non_const_value_type> exasum(const XView& x,
                                                               const Options& options = {}) {
  return exasum(typename XView::execution_space(), x, options);
}

// KokkosBlas' form without a space: r filled on x's default execution space.
template <class RView, class XView,
          typename std::enable_if<Impl::is_rank0_view<RView>() && Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
void exasum(const RView& r, const XView& x, const Options& options = {}) {
  exasum(typename XView::execution_space(), r, x, options);
}

// KokkosBlas' multivector form: R(j) = exasum of column j of the rank-2 X, the bits of the
// rank-1 routine on that column; R is a rank-1 view of X.extent(1) entries, filled asynchronously.
template <class ExecSpace, class RView, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<RView>() &&
                                      Impl::is_rank2_view<XView>(),
                                  int>::type = 0>
void exasum(const ExecSpace& space, const RView& R, const XView& X, const Options& options = {}) {
  Impl::require_accessible<ExecSpace, RView>();
  Impl::require_accessible<ExecSpace, XView>();
  using T = typename XView::non_const_value_type;
  static_assert(Impl::is_exact_value<T>(),
                "ExKokkos::exasum: X must hold double, float or their Kokkos::complex");
  static_assert(!std::is_const<typename RView::value_type>::value,
                "ExKokkos::exasum: R must not be const");
  Impl::reduce_columns(space, "ExKokkos::exasum", Impl::write_view<ExecSpace>(R),
                       Impl::read_view<ExecSpace>(X), options, Impl::AsumColumn{});
}

template <class RView, class XView,
          typename std::enable_if<Impl::is_rank1_view<RView>() && Impl::is_rank2_view<XView>(),
                                  int>::type = 0>
void exasum(const RView& R, const XView& X, const Options& options = {}) {
  exasum(typename XView::execution_space(), R, X, options);
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_ASUM_HPP
