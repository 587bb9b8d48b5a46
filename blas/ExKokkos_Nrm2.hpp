// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::exnrm2: the correctly rounded 2-norm, sqrt(sum x_i^2) rounded once, bitwise
// reproducible. No spurious overflow or underflow: the squares are exact products in the long
// accumulator, and the square root is decided exactly (ExKokkos_CorrectlyRoundedSqrt.hpp):
// ||{1e300, 1e300}|| = 1.4142135623730952e+300 and ||{1e-300, 1e-300}|| = 1.414213562373095e-300.
//
//   double n = ExKokkos::exnrm2(space, x);   ExKokkos::exnrm2(space, r, x);   exnrm2(x)
//   ExKokkos::exnrm2(space, R, X);   // rank-2 X: R(j) = exnrm2 of column j
// Kokkos::complex values: sqrt(sum |x_i|^2), |x_i|^2 = re^2 + im^2 exactly, a real result.
#ifndef EXKOKKOS_NRM2_HPP
#define EXKOKKOS_NRM2_HPP

#include "impl/ExKokkos_ComplexTerms_impl.hpp"
#include "impl/ExKokkos_Multivector_impl.hpp"
#include "impl/ExKokkos_ReductionRoutine_impl.hpp"

#include <ExKokkos_CorrectlyRoundedSqrt.hpp>

namespace ExKokkos {
namespace Impl {

template <class XView>
struct SquareTerms {
  static constexpr bool is_product = true;
  static constexpr int deposits_per_element = 2;
  XView x;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, double& a, double& b) const {
    a = b = x(i);
  }
};

// A float squared is exact in double.
template <class XView>
struct FloatSquareTerms {
  static constexpr bool is_product = false;
  // Budgeted as a product, as FloatDotTerms.
  static constexpr int deposits_per_element = 2;
  XView x;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t i) const {
    const double v = x(i);
    return v * v;
  }
};

template <class XView>
using square_terms_t =
    typename std::conditional<std::is_same<typename XView::non_const_value_type, float>::value,
                              FloatSquareTerms<XView>, SquareTerms<XView>>::type;

template <class T, class ResultView>
struct SqrtRoundInto {
  ResultView result;
  KOKKOS_INLINE_FUNCTION void operator()(const std::uint64_t* digits, std::uint32_t flags) const {
    result() = sqrt_rounded_normalized<T>(digits, flags);
  }
};

// The entry point, on canonical views (common/impl/ExKokkos_CanonicalViews_impl.hpp).
template <class ExecSpace, class RView, class XView>
void nrm2_into(const ExecSpace& space, const RView& r, const XView& x, const Options& options) {
  using T = typename XView::non_const_value_type;
  const char* routine = "ExKokkos::exnrm2";
  if constexpr (is_exact_complex<T>()) {
    if (x.stride(0) == 1)  // sqrt(sum re^2 + im^2): the real exnrm2 of the 2n reals
      nrm2_into(space, r, realified_vector<ExecSpace>(x), options);
    else
      reduce_into_with(space, r, ComplexSquareTerms<XView>{x}, 2 * x.extent(0), options, routine,
                       SqrtRoundInto<magnitude_t<T>, RView>{r});
  } else
    reduce_into_with(space, r, square_terms_t<XView>{x}, x.extent(0), options, routine,
                     SqrtRoundInto<T, RView>{r});
}

// The rank-1 entry point as the multivector forms' per-column step.
struct Nrm2Column {
  template <class ExecSpace, class RView, class XView>
  void operator()(const ExecSpace& space, const RView& r, const XView& x,
                  const Options& options) const {
    nrm2_into(space, r, x, options);
  }
};

}  // namespace Impl

template <class ExecSpace, class RView, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank0_view<RView>() &&
                                      Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
void exnrm2(const ExecSpace& space, const RView& r, const XView& x, const Options& options = {}) {
  Impl::require_accessible<ExecSpace, RView>();
  Impl::require_accessible<ExecSpace, XView>();
  using T = typename XView::non_const_value_type;
  static_assert(Impl::is_exact_value<T>(),
                "ExKokkos::exnrm2: x must hold double, float or their Kokkos::complex");
  Impl::nrm2_into(space, Impl::write_view<ExecSpace>(r), Impl::read_view<ExecSpace>(x), options);
}

template <class ExecSpace, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
Impl::magnitude_t<typename XView::non_const_value_type> exnrm2(const ExecSpace& space,
                                                               const XView& x,
                                                               const Options& options = {}) {
  Impl::require_accessible<ExecSpace, XView>();
  const auto r =
      Impl::result_view<Impl::magnitude_t<typename XView::non_const_value_type>, ExecSpace>(
          space, "ExKokkos::exnrm2");
  exnrm2(space, r, x, options);
  return Impl::fetch_result(space, r);
}

template <class XView, typename std::enable_if<Impl::is_rank1_view<XView>(), int>::type = 0>
Impl::magnitude_t<typename XView::non_const_value_type> exnrm2(const XView& x,
                                                               const Options& options = {}) {
  return exnrm2(typename XView::execution_space(), x, options);
}

// KokkosBlas' form without a space: r filled on x's default execution space.
template <class RView, class XView,
          typename std::enable_if<Impl::is_rank0_view<RView>() && Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
void exnrm2(const RView& r, const XView& x, const Options& options = {}) {
  exnrm2(typename XView::execution_space(), r, x, options);
}

// KokkosBlas' multivector form: R(j) = exnrm2 of column j of the rank-2 X, the bits of the
// rank-1 routine on that column; R is a rank-1 view of X.extent(1) entries, filled asynchronously.
template <class ExecSpace, class RView, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<RView>() &&
                                      Impl::is_rank2_view<XView>(),
                                  int>::type = 0>
void exnrm2(const ExecSpace& space, const RView& R, const XView& X, const Options& options = {}) {
  Impl::require_accessible<ExecSpace, RView>();
  Impl::require_accessible<ExecSpace, XView>();
  using T = typename XView::non_const_value_type;
  static_assert(Impl::is_exact_value<T>(),
                "ExKokkos::exnrm2: X must hold double, float or their Kokkos::complex");
  static_assert(!std::is_const<typename RView::value_type>::value,
                "ExKokkos::exnrm2: R must not be const");
  Impl::reduce_columns(space, "ExKokkos::exnrm2", Impl::write_view<ExecSpace>(R),
                       Impl::read_view<ExecSpace>(X), options, Impl::Nrm2Column{});
}

template <class RView, class XView,
          typename std::enable_if<Impl::is_rank1_view<RView>() && Impl::is_rank2_view<XView>(),
                                  int>::type = 0>
void exnrm2(const RView& R, const XView& X, const Options& options = {}) {
  exnrm2(typename XView::execution_space(), R, X, options);
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_NRM2_HPP
