// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::exgemm: C = alpha op(A) op(B) + beta C with every element correctly rounded as one
// expression, c_ij = RN(alpha * sum_k op(A)_ik op(B)_kj + beta * c_ij), and bitwise reproducible on
// every backend, thread count and schedule (ExGEMM of the ExBLAS papers). C is rounded once: the
// sum is never rounded before alpha and beta are applied.
//
//   ExKokkos::exgemm(space, "N", "N", alpha, A, B, beta, C);   // C = alpha A B + beta C
//   ExKokkos::exgemm(space, "T", "N", alpha, A, B, beta, C);   // op(A) = A^T ("C": A^H)
//   ExKokkos::exgemm("N", "T", alpha, A, B, beta, C);          // C's default execution space
//
// Conventions as KokkosBlas::gemm and BLAS: beta == 0 does not read C; alpha == 0 or an inner
// dimension of 0 does not read A or B (C = RN(beta C), zeros when beta == 0). Mismatched extents,
// an unknown trans, or C whose memory span overlaps A's or B's throw std::invalid_argument (BLAS
// leaves aliasing undefined; the span test also rejects interleaved views that share no element).
// Value types double and float (A, B and C alike); any layout, strided subviews. Options as for
// exgemv (schedule, expansion size, team and league size): every setting gives the same bits.
// Kokkos::complex<double> and Kokkos::complex<float>: "C" (or "H") conjugates (for real values it
// is "T");
// each part of c_ij the exact value of the formula of Kokkos::complex's operators, rounded once,
// computed column by column through complex exgemv (blas/impl/ExKokkos_ComplexGemm_impl.hpp).
//
// Cost: that of m * n exact dot products of length k (about 35 flops per term on the host, bound
// by arithmetic, not memory), plus one long accumulator per output, cleared and rounded once.
//
// Schedule::ozaki (blas/impl/ExKokkos_GemmOzaki_impl.hpp): A and B split exactly into S and T
// slices of beta bits (2 beta + ceil(log2 k) <= 53), whose S T products an ordinary GEMM
// (cublasDgemm for Kokkos::Cuda when ExKokkos was configured with cuBLAS, KokkosBlas::gemm when
// with Kokkos Kernels, else a plain Kokkos kernel)
// computes without any rounding; the products are summed exactly per element and rounded once as
// above, so the bits are those of every other schedule. S and T come from the data (the widest
// row of op(A), column of op(B)): 3 for uniform data at k = 1024, 4 for normal data, tens for data
// spread over hundreds of binades. Data that cannot be split (NaN or inf in A or B, entries near
// the overflow threshold, more than 48 slices, slices over 2 GiB) take the default schedule, even
// when ozaki is asked for. Schedule::automatic takes the Ozaki path where a vendor GEMM multiplies
// the slices (host execution spaces with Kokkos Kernels, CUDA with cuBLAS) when its cost model
// (S T GEMMs against the exact dot products, fitted to each) says it is faster.
// ExKokkos::exgemm_ozaki_plan(space, transA, transB, A, B) tells what it would do.
#ifndef EXKOKKOS_GEMM_HPP
#define EXKOKKOS_GEMM_HPP

#include "ExKokkos_Gemv.hpp"
#include "impl/ExKokkos_ComplexGemm_impl.hpp"
#include "impl/ExKokkos_GemmOzaki_impl.hpp"
#include "impl/ExKokkos_Gemm_impl.hpp"

#include <impl/ExKokkos_CanonicalViews_impl.hpp>

namespace ExKokkos {
namespace Impl {

// op(A) and op(B) are strided operands (blas/impl/ExKokkos_StridedOperand_impl.hpp): the four
// transposition pairs and every layout share the instantiations; op(A)'s unit row stride is a
// type for the exact schedules on the host only (the Ozaki path reads it once, to slice it).
template <class ExecSpace, class Op, class CView>
void exgemm_with(const ExecSpace& space, const Op& op_a, const Op& op_b,
                 typename CView::const_value_type alpha, typename CView::const_value_type beta,
                 const CView& C, const Options& options) {
  using T = typename CView::non_const_value_type;
  const std::int64_t m = static_cast<std::int64_t>(C.extent(0));
  const std::int64_t n = static_cast<std::int64_t>(C.extent(1));
  const std::int64_t k = op_a.inner();
  // The other schedules' configuration first: it validates every option, whichever path runs.
  Options other = options;
  if (other.schedule == Schedule::ozaki) other.schedule = Schedule::automatic;
  const GemvConfig c = resolve_gemm_config(space, other, FlatRowsOperand<Op>{op_a, m, n},
                                           std::is_same<T, double>::value);
  const bool forced = options.schedule == Schedule::ozaki;
  // automatic: execution spaces with a vendor slice GEMM (Kokkos Kernels on the host, cuBLAS on
  // CUDA), and only when even one slice per operand would pay (otherwise the scan is not worth
  // it).
  const OzakiCostModel model = OzakiCostModel::for_space<ExecSpace>();
  const bool consider = forced || (options.schedule == Schedule::automatic &&
                                   has_vendor_slice_gemm<ExecSpace>() && model.pays(m, n, k, 1, 1));
  if (consider) {
    auto scales = plan_ozaki(space, op_a, op_b, m, n);
    choose_digits<ExecSpace>(scales, m, n, SliceDigits::automatic, model);
    const OzakiPlan& plan = scales.plan;
    if (plan.feasible && (forced || model.pays(m, n, k, plan))) {
      launch_gemm_ozaki(space, scales, op_a, op_b, C, alpha, beta, SliceGemm::automatic);
      return;
    }
  }
  with_unit_outputs<ExecSpace>(op_a, [&](const auto& a) {
    launch_gemm(space, c, a, op_b, C, alpha, beta, options.block_size,
                std::integral_constant<bool, is_host_space<ExecSpace>()>());
  });
}

// The entry point, on canonical views (common/impl/ExKokkos_CanonicalViews_impl.hpp), after the
// arguments were checked.
template <class ExecSpace, class AView, class BView, class CView>
void gemm_entry(const ExecSpace& space, bool trans_a, bool conj_a, bool trans_b, bool conj_b,
                typename CView::const_value_type alpha, const AView& A, const BView& B,
                typename CView::const_value_type beta, const CView& C, const Options& options) {
  using T = typename CView::non_const_value_type;
  const std::int64_t m = static_cast<std::int64_t>(C.extent(0));
  if (m == 0 || C.extent(1) == 0) return;
  if (alpha == T(0) || A.extent(trans_a ? 0 : 1) == 0) {  // BLAS: A and B are not read
    Kokkos::parallel_for("ExKokkos::exgemm",
                         Kokkos::RangePolicy<ExecSpace>(space, 0, m * std::int64_t(C.extent(1))),
                         ScaleMatrixFunctor<CView>{C, beta, m});
    return;
  }
  if constexpr (is_exact_complex<T>()) {
    complex_gemm(space, trans_a, conj_a, trans_b, conj_b, alpha, A, B, beta, C, options);
  } else {
    exgemm_with(space, strided_operand(A, trans_a), strided_operand(B, trans_b), alpha, beta, C,
                options);
  }
}

// The Ozaki path alone, with a chosen slice GEMM, slices and column-block size of the slice
// products in bytes (0: the default; tests, the benchmarks): runs it when the data can be split
// and returns the plan; writes nothing when the plan is not feasible. Arguments checked as
// exgemm's; alpha != 0 and k > 0 are the caller's business.
template <class ExecSpace, class AView, class BView, class CView>
OzakiPlan exgemm_ozaki(const ExecSpace& space, const char transA[], const char transB[],
                       typename CView::const_value_type& alpha, const AView& A, const BView& B,
                       typename CView::const_value_type& beta, const CView& C, SliceGemm which,
                       std::int64_t block_bytes = 0, SliceDigits digits = SliceDigits::fp64) {
  const char* routine = "ExKokkos::exgemm";
  const bool trans_a = parse_trans(routine, "transA", transA);
  const bool trans_b = parse_trans(routine, "transB", transB);
  check_gemm_extents(routine, trans_a, trans_b, A, B, C);
  check_no_overlap(routine, "C", C, "A", A);
  check_no_overlap(routine, "C", C, "B", B);
  const std::int64_t m = static_cast<std::int64_t>(C.extent(0));
  const std::int64_t n = static_cast<std::int64_t>(C.extent(1));
  const auto op_a = strided_operand(A, trans_a);
  const auto op_b = strided_operand(B, trans_b);
  auto scales = plan_ozaki(space, op_a, op_b, m, n);
  choose_digits<ExecSpace>(scales, m, n, digits, OzakiCostModel::for_space<ExecSpace>());
  if (scales.plan.feasible)
    launch_gemm_ozaki(space, scales, op_a, op_b, C, alpha, beta, which, block_bytes);
  return scales.plan;
}

}  // namespace Impl

template <class ExecSpace, class AView, class BView, class CView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank2_view<AView>() &&
                                      Impl::is_rank2_view<BView>() && Impl::is_rank2_view<CView>(),
                                  int>::type = 0>
void exgemm(const ExecSpace& space, const char transA[], const char transB[],
            typename CView::const_value_type& alpha, const AView& A, const BView& B,
            typename CView::const_value_type& beta, const CView& C, const Options& options = {}) {
  Impl::require_accessible<ExecSpace, AView>();
  Impl::require_accessible<ExecSpace, BView>();
  Impl::require_accessible<ExecSpace, CView>();
  using T = typename CView::non_const_value_type;
  static_assert(Impl::is_exact_value<T>(),
                "ExKokkos::exgemm: C must hold double, float or their Kokkos::complex");
  static_assert(std::is_same<T, typename AView::non_const_value_type>::value &&
                    std::is_same<T, typename BView::non_const_value_type>::value,
                "ExKokkos::exgemm: A, B and C must hold the same value type");
  static_assert(!std::is_const<typename CView::value_type>::value,
                "ExKokkos::exgemm: C must not be const");
  const char* routine = "ExKokkos::exgemm";
  const Impl::HostCall<ExecSpace> call(space, routine);
  Impl::validate_options(space, routine, Impl::OptionUses::gemm(), options,
                         Impl::ProblemFacts{std::int64_t(C.extent(0)) * std::int64_t(C.extent(1)),
                                            Impl::gemm_tiles_max_panel<ExecSpace>(options)});
  const bool trans_a = Impl::parse_trans(routine, "transA", transA);
  const bool trans_b = Impl::parse_trans(routine, "transB", transB);
  Impl::check_gemm_extents(routine, trans_a, trans_b, A, B, C);
  Impl::check_no_overlap(routine, "C", C, "A", A);
  Impl::check_no_overlap(routine, "C", C, "B", B);
  Impl::gemm_entry(space, trans_a, Impl::parse_conjugate(transA), trans_b,
                   Impl::parse_conjugate(transB), alpha, Impl::read_view<ExecSpace>(A),
                   Impl::read_view<ExecSpace>(B), beta, Impl::write_view<ExecSpace>(C), options);
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

// What Schedule::ozaki would do with these A and B (scans them; writes nothing): whether they can
// be split exactly, into how many slices per operand, of how many bits, of which kind
// (automatic: the kind exgemm takes on this execution space; fp64 or int8: that kind's plan).
template <class ExecSpace, class AView, class BView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank2_view<AView>() &&
                                      Impl::is_rank2_view<BView>(),
                                  int>::type = 0>
OzakiPlan exgemm_ozaki_plan(const ExecSpace& space, const char transA[], const char transB[],
                            const AView& A, const BView& B,
                            SliceDigits digits = SliceDigits::automatic) {
  Impl::require_accessible<ExecSpace, AView>();
  Impl::require_accessible<ExecSpace, BView>();
  const char* routine = "ExKokkos::exgemm_ozaki_plan";
  const bool trans_a = Impl::parse_trans(routine, "transA", transA);
  const bool trans_b = Impl::parse_trans(routine, "transB", transB);
  const std::int64_t m = static_cast<std::int64_t>(A.extent(trans_a ? 1 : 0));
  const std::int64_t n = static_cast<std::int64_t>(B.extent(trans_b ? 0 : 1));
  if (A.extent(trans_a ? 0 : 1) != B.extent(trans_b ? 1 : 0))
    throw std::invalid_argument(std::string(routine) +
                                ": the inner extents of op(A) and op(B) differ");
  const auto op_a = Impl::strided_operand(Impl::read_view<ExecSpace>(A), trans_a);
  const auto op_b = Impl::strided_operand(Impl::read_view<ExecSpace>(B), trans_b);
  auto scales = Impl::plan_ozaki(space, op_a, op_b, m, n);
  Impl::choose_digits<ExecSpace>(scales, m, n, digits,
                                 Impl::OzakiCostModel::for_space<ExecSpace>());
  return scales.plan;
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_GEMM_HPP
