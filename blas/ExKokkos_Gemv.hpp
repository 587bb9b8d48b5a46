// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::exgemv: y = alpha op(A) x + beta y with every element correctly rounded as one
// expression, y_i = RN(alpha * sum_k op(A)_ik x_k + beta * y_i), and bitwise reproducible on every
// backend, thread count and schedule (ExGEMV of the ExBLAS papers).
//
//   ExKokkos::exgemv(space, "N", alpha, A, x, beta, y);   // op(A) = A
//   ExKokkos::exgemv(space, "T", alpha, A, x, beta, y);   // op(A) = A^T ("C" is the same)
//   ExKokkos::exgemv("N", alpha, A, x, beta, y);          // y's default execution space
//
// Conventions as KokkosBlas::gemv and BLAS: beta == 0 does not read y (y = RN(alpha A x)); alpha
// == 0 does not read A or x (y = RN(beta y), or zeros when beta == 0 too), and neither does an
// inner dimension of 0. Mismatched extents or an unknown trans throw std::invalid_argument.
// Value types double and float (A, x and y alike); any layout, strided subviews.
//
// Cost: one long accumulator per output (1 KiB; kept per thread for 32 outputs at a time on the
// host) and, per output, one rounding of a wider integer (core/ExKokkos_ScaledSumRounding.hpp).
#ifndef EXKOKKOS_GEMV_HPP
#define EXKOKKOS_GEMV_HPP

#include "ExKokkos_Scal.hpp"
#include "impl/ExKokkos_ComplexGemv_impl.hpp"
#include "impl/ExKokkos_Gemv_impl.hpp"

#include <impl/ExKokkos_CanonicalViews_impl.hpp>

namespace ExKokkos {
namespace Impl {

template <class AView, class XView, class YView>
void check_gemv_extents(const char* routine, bool transposed, const AView& A, const XView& x,
                        const YView& y) {
  const std::size_t rows = A.extent(0), cols = A.extent(1);
  const std::size_t need_x = transposed ? rows : cols, need_y = transposed ? cols : rows;
  if (x.extent(0) != need_x || y.extent(0) != need_y) {
    std::ostringstream msg;
    msg << routine << ": op(A) is " << (transposed ? cols : rows) << " x "
        << (transposed ? rows : cols) << " (A is " << rows << " x " << cols << ", trans "
        << (transposed ? "T" : "N") << "), so x needs extent " << need_x << " and y extent "
        << need_y << ", but x.extent(0) = " << x.extent(0) << " and y.extent(0) = " << y.extent(0);
    throw std::invalid_argument(msg.str());
  }
}

// The real engine (impl/ExKokkos_Gemv_impl.hpp) on an operand: the schedule the options and the
// backend choose, launched.
template <class ExecSpace, class Op, class XView, class Finish>
void run_gemv(const ExecSpace& space, const Op& op, const XView& x, const Finish& finish,
              const Options& options) {
  const GemvConfig c = resolve_gemv_config(space, options, op,
                                           std::is_same<typename Finish::value_type, double>::value,
                                           "ExKokkos::exgemv");
  launch_gemv(space, c, op, x, finish, std::integral_constant<bool, is_host_space<ExecSpace>()>());
}

template <bool Transposed, class ExecSpace, class AView, class XView, class YView>
void exgemv_with(const ExecSpace& space, const AView& A, const XView& x,
                 const GemvFinish<YView>& finish, const Options& options) {
  run_gemv(space, MatrixOperand<AView, Transposed>{A}, x, finish, options);
}

// Complex values in two passes (impl/ExKokkos_ComplexGemv_impl.hpp): pass 1 keeps the real sums
// of every output from two runs of the real engine, in the split or the interleaved form by A's
// layout; pass 2 certifies each y_i from them or sums it again exactly.
template <class Real, class ExecSpace, class Op, class Factor, class Parts>
void keep_part_sums(const ExecSpace& space, const Op& op, const Factor& factor, bool split,
                    const Parts& parts, const Options& options) {
  for (int q = 0; q < 2; ++q)
    run_gemv(space, op, factor(q), KeepPartSums<Real, Parts>{parts, q, split}, options);
}

template <bool Transposed, bool Conjugated, class ExecSpace, class AView, class XView, class Parts>
bool complex_gemv_pass1(const ExecSpace& space, const AView& A, const XView& x, const Parts& parts,
                        const Options& options) {
  using Real = magnitude_t<typename XView::non_const_value_type>;
  constexpr int out = Transposed ? 1 : 0, in = 1 - out;  // A's dimensions of outputs and terms
  const auto split_factor = [&](int q) { return realified_part<ExecSpace>(x, q); };
  if (realifiable<out>(A) || !realifiable<in>(A)) {
    if (realifiable<out>(A))
      keep_part_sums<Real>(space,
                           MatrixOperand<decltype(realified_matrix<out, ExecSpace>(A)), Transposed>{
                               realified_matrix<out, ExecSpace>(A)},
                           split_factor, true, parts, options);
    else
      keep_part_sums<Real>(space, ComplexRowParts<AView, Transposed>{A}, split_factor, true, parts,
                           options);
    return true;
  }
  using Factors =
      canonical_view_t<ExecSpace, double, 1, Kokkos::LayoutLeft, typename ExecSpace::memory_space>;
  const std::int64_t n = static_cast<std::int64_t>(x.extent(0));
  const Kokkos::View<double*, typename ExecSpace::memory_space> f(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ExKokkos::exgemv factors"), 4 * n);
  Kokkos::parallel_for("ExKokkos::exgemv", Kokkos::RangePolicy<ExecSpace>(space, 0, n),
                       InterleavedFactors<XView, Factors, Conjugated>{x, f});
  const auto factor = [&](int q) {
    return canonical_view_t<ExecSpace, const double, 1, Kokkos::LayoutLeft,
                            typename ExecSpace::memory_space>(
        Kokkos::subview(f, std::make_pair(2 * n * q, 2 * n * (q + 1))));
  };
  keep_part_sums<Real>(space,
                       MatrixOperand<decltype(realified_matrix<in, ExecSpace>(A)), Transposed>{
                           realified_matrix<in, ExecSpace>(A)},
                       factor, false, parts, options);
  return false;
}

template <bool Transposed, bool Conjugated, class ExecSpace, class AView, class XView, class YView>
void complex_gemv_with(const ExecSpace& space, typename YView::const_value_type alpha,
                       const AView& A, const XView& x, typename YView::const_value_type beta,
                       const YView& y, const Options& options) {
  using Parts = Kokkos::View<double*, typename ExecSpace::memory_space>;
  const std::int64_t m = static_cast<std::int64_t>(y.extent(0));
  const Parts parts(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ExKokkos::exgemv parts"), 16 * m);
  const bool split = complex_gemv_pass1<Transposed, Conjugated>(space, A, x, parts, options);
  Kokkos::parallel_for(
      "ExKokkos::exgemv", Kokkos::RangePolicy<ExecSpace>(space, 0, m),
      ComplexGemvCombine<AView, XView, YView, Parts, Transposed, Conjugated>{
          A, x, y, parts, alpha, beta, static_cast<std::int64_t>(x.extent(0)), split});
}

// The entry point, on canonical views (common/impl/ExKokkos_CanonicalViews_impl.hpp), after the
// arguments were checked.
template <class ExecSpace, class AView, class XView, class YView>
void gemv_entry(const ExecSpace& space, bool transposed, bool conjugated,
                typename YView::const_value_type alpha, const AView& A, const XView& x,
                typename YView::const_value_type beta, const YView& y, const Options& options) {
  using T = typename YView::non_const_value_type;
  if (y.extent(0) == 0) return;
  if (alpha == T(0) || x.extent(0) == 0) {  // BLAS: A and x are not read; empty sums
    ExKokkos::exscal(space, y, beta, y);
    return;
  }
  if constexpr (is_exact_complex<T>()) {
    if (!transposed)
      complex_gemv_with<false, false>(space, alpha, A, x, beta, y, options);
    else if (conjugated)
      complex_gemv_with<true, true>(space, alpha, A, x, beta, y, options);
    else
      complex_gemv_with<true, false>(space, alpha, A, x, beta, y, options);
  } else {
    (void)conjugated;
    const GemvFinish<YView> finish{y, alpha, beta};
    if (transposed)
      exgemv_with<true>(space, A, x, finish, options);
    else
      exgemv_with<false>(space, A, x, finish, options);
  }
}

}  // namespace Impl

template <class ExecSpace, class AView, class XView, class YView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank2_view<AView>() &&
                                      Impl::is_rank1_view<XView>() && Impl::is_rank1_view<YView>(),
                                  int>::type = 0>
void exgemv(const ExecSpace& space, const char trans[], typename YView::const_value_type& alpha,
            const AView& A, const XView& x, typename YView::const_value_type& beta, const YView& y,
            const Options& options = {}) {
  Impl::require_accessible<ExecSpace, AView>();
  Impl::require_accessible<ExecSpace, XView>();
  Impl::require_accessible<ExecSpace, YView>();
  using T = typename YView::non_const_value_type;
  static_assert(Impl::is_exact_value<T>(),
                "ExKokkos::exgemv: y must hold double, float or their Kokkos::complex");
  static_assert(std::is_same<T, typename AView::non_const_value_type>::value &&
                    std::is_same<T, typename XView::non_const_value_type>::value,
                "ExKokkos::exgemv: A, x and y must hold the same value type");
  static_assert(!std::is_const<typename YView::value_type>::value,
                "ExKokkos::exgemv: y must not be const");
  const char* routine = "ExKokkos::exgemv";
  const Impl::HostCall<ExecSpace> call(space, routine);
  Impl::validate_options(space, routine, Impl::OptionUses::gemv(), options,
                         Impl::ProblemFacts{std::int64_t(y.extent(0))});
  const bool transposed = Impl::parse_trans(routine, trans);
  const bool conjugated = Impl::parse_conjugate(trans);
  Impl::check_gemv_extents(routine, transposed, A, x, y);
  Impl::gemv_entry(space, transposed, conjugated, alpha, Impl::read_view<ExecSpace>(A),
                   Impl::read_view<ExecSpace>(x), beta, Impl::write_view<ExecSpace>(y), options);
}

template <class AView, class XView, class YView,
          typename std::enable_if<Impl::is_rank2_view<AView>() && Impl::is_rank1_view<XView>() &&
                                      Impl::is_rank1_view<YView>(),
                                  int>::type = 0>
void exgemv(const char trans[], typename YView::const_value_type& alpha, const AView& A,
            const XView& x, typename YView::const_value_type& beta, const YView& y,
            const Options& options = {}) {
  exgemv(typename YView::execution_space(), trans, alpha, A, x, beta, y, options);
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_GEMV_HPP
