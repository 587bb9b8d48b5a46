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

template <bool Transposed, class ExecSpace, class AView, class XView, class YView>
void exgemv_with(const ExecSpace& space, const AView& A, const XView& x,
                 const GemvFinish<YView>& finish, const Options& options) {
  using T = typename YView::non_const_value_type;
  using Op = MatrixOperand<AView, Transposed>;
  const Op op{A};
  const GemvConfig c =
      resolve_gemv_config(space, options, op, std::is_same<T, double>::value, "ExKokkos::exgemv");
  launch_gemv(space, c, op, x, finish, std::integral_constant<bool, is_host_space<ExecSpace>()>());
}

// The entry point, on canonical views (common/impl/ExKokkos_CanonicalViews_impl.hpp), after the
// arguments were checked.
template <class ExecSpace, class AView, class XView, class YView>
void gemv_entry(const ExecSpace& space, bool transposed, typename YView::const_value_type alpha,
                const AView& A, const XView& x, typename YView::const_value_type beta,
                const YView& y, const Options& options) {
  using T = typename YView::non_const_value_type;
  if (y.extent(0) == 0) return;
  if (alpha == T(0) || x.extent(0) == 0) {  // BLAS: A and x are not read; empty sums
    ExKokkos::exscal(space, y, beta, y);
    return;
  }
  const GemvFinish<YView> finish{y, alpha, beta};
  if (transposed)
    exgemv_with<true>(space, A, x, finish, options);
  else
    exgemv_with<false>(space, A, x, finish, options);
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
  static_assert(Impl::is_exact_scalar<T>(), "ExKokkos::exgemv: y must hold double or float");
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
  Impl::check_gemv_extents(routine, transposed, A, x, y);
  Impl::gemv_entry(space, transposed, alpha, Impl::read_view<ExecSpace>(A),
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
