// ExKokkos::exgemm: C = alpha op(A) op(B) + beta C with every element correctly rounded as one
// expression, c_ij = RN(alpha * sum_k op(A)_ik op(B)_kj + beta * c_ij), and bitwise reproducible on
// every backend, thread count and schedule (ExGEMM of the ExBLAS papers). C is rounded once: the
// sum is never rounded before alpha and beta are applied.
//
//   ExKokkos::exgemm(space, "N", "N", alpha, A, B, beta, C);   // C = alpha A B + beta C
//   ExKokkos::exgemm(space, "T", "N", alpha, A, B, beta, C);   // op(A) = A^T ("C" is the same)
//   ExKokkos::exgemm("N", "T", alpha, A, B, beta, C);          // C's default execution space
//
// Conventions as KokkosBlas::gemm and BLAS: beta == 0 does not read C; alpha == 0 or an inner
// dimension of 0 does not read A or B (C = RN(beta C), zeros when beta == 0). Mismatched extents,
// an unknown trans, or C whose memory span overlaps A's or B's throw std::invalid_argument (BLAS
// leaves aliasing undefined; the span test also rejects interleaved views that share no element).
// Value types double and float (A, B and C alike); any layout, strided subviews. Options as for
// exgemv (schedule, expansion size, team and league size): every setting gives the same bits.
//
// Cost: that of m * n exact dot products of length k (about 35 flops per term on the host, bound
// by arithmetic, not memory), plus one long accumulator per output, cleared and rounded once.
#ifndef EXKOKKOS_GEMM_HPP
#define EXKOKKOS_GEMM_HPP

#include "ExKokkos_Gemv.hpp"
#include "impl/ExKokkos_Gemm_impl.hpp"

namespace ExKokkos {
namespace Impl {

template <bool TransA, bool TransB, class ExecSpace, class AView, class BView, class CView>
void exgemm_with(const ExecSpace& space, const AView& A, const BView& B,
                 typename CView::const_value_type alpha, typename CView::const_value_type beta,
                 const CView& C, const Options& options) {
  using T = typename CView::non_const_value_type;
  using OpA = MatrixOperand<AView, TransA>;
  using OpB = MatrixOperand<BView, TransB>;
  const OpA op_a{A};
  const OpB op_b{B};
  const std::int64_t m = static_cast<std::int64_t>(C.extent(0));
  const std::int64_t n = static_cast<std::int64_t>(C.extent(1));
  const GemvConfig c = resolve_gemm_config(space, options, FlatRowsOperand<OpA>{op_a, m, n},
                                           std::is_same<T, double>::value);
  launch_gemm(space, c, op_a, op_b, C, alpha, beta, options.block_size,
              std::integral_constant<bool, is_host_space<ExecSpace>()>());
}

}  // namespace Impl

template <class ExecSpace, class AView, class BView, class CView,
          typename std::enable_if<Impl::is_rank2_view<AView>() && Impl::is_rank2_view<BView>() &&
                                      Impl::is_rank2_view<CView>(),
                                  int>::type = 0>
void exgemm(const ExecSpace& space, const char transA[], const char transB[],
            typename CView::const_value_type& alpha, const AView& A, const BView& B,
            typename CView::const_value_type& beta, const CView& C, const Options& options = {}) {
  using T = typename CView::non_const_value_type;
  static_assert(Impl::is_exact_scalar<T>(), "ExKokkos::exgemm: C must hold double or float");
  static_assert(std::is_same<T, typename AView::non_const_value_type>::value &&
                    std::is_same<T, typename BView::non_const_value_type>::value,
                "ExKokkos::exgemm: A, B and C must hold the same value type");
  static_assert(!std::is_const<typename CView::value_type>::value,
                "ExKokkos::exgemm: C must not be const");
  const char* routine = "ExKokkos::exgemm";
  const bool trans_a = Impl::parse_flag(routine, "transA", transA, "NTC") != 'N';
  const bool trans_b = Impl::parse_flag(routine, "transB", transB, "NTC") != 'N';
  Impl::check_gemm_extents(routine, trans_a, trans_b, A, B, C);
  Impl::check_no_overlap(routine, "A", C, A);
  Impl::check_no_overlap(routine, "B", C, B);
  const std::int64_t m = static_cast<std::int64_t>(C.extent(0));
  if (m == 0 || C.extent(1) == 0) return;
  if (alpha == T(0) || A.extent(trans_a ? 0 : 1) == 0) {  // BLAS: A and B are not read
    Kokkos::parallel_for("ExKokkos::exgemm",
                         Kokkos::RangePolicy<ExecSpace>(space, 0, m * std::int64_t(C.extent(1))),
                         Impl::ScaleMatrixFunctor<CView>{C, beta, m});
    return;
  }
  if (trans_a) {
    if (trans_b)
      Impl::exgemm_with<true, true>(space, A, B, alpha, beta, C, options);
    else
      Impl::exgemm_with<true, false>(space, A, B, alpha, beta, C, options);
  } else {
    if (trans_b)
      Impl::exgemm_with<false, true>(space, A, B, alpha, beta, C, options);
    else
      Impl::exgemm_with<false, false>(space, A, B, alpha, beta, C, options);
  }
}

template <class AView, class BView, class CView,
          typename std::enable_if<Impl::is_rank2_view<AView>() && Impl::is_rank2_view<BView>() &&
                                      Impl::is_rank2_view<CView>(),
                                  int>::type = 0>
void exgemm(const char transA[], const char transB[], typename CView::const_value_type& alpha,
            const AView& A, const BView& B, typename CView::const_value_type& beta, const CView& C,
            const Options& options = {}) {
  exgemm(typename CView::execution_space(), transA, transB, alpha, A, B, beta, C, options);
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_GEMM_HPP
