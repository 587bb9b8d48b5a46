// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// exgemm by error-free splitting (the Ozaki scheme: Ozaki, Ogita, Oishi, Rump, "Error-free
// transformations of matrix multiplication by using fast routines of matrix multiplication and its
// applications", Numer. Algorithms 59, 2012), made exact rather than accurate: every bit of every
// entry goes into some slice, every slice product is computed exactly by an ordinary GEMM, and the
// slice products are summed exactly and rounded once with alpha and beta, exactly as the other
// schedules round (GemvFinish: round_scaled_sum / round_from_slots). So this path gives the same
// bits as every other schedule; it only lets a vendor GEMM do the O(m n k) work.
//
// Splitting. Let K = ceil(log2 k) and beta = floor((53 - K) / 2) bits per slice, so that
// 2 beta + K <= 53. Row i of op(A) gets the power of two 2^ea_i > max_k |a_ik| (ea_i is one more
// than the exponent of the row's largest entry), column j of op(B) likewise 2^eb_j. Slice s of
// a_ik is the integer d_s(a_ik) made of the bits of |a_ik| at the positions
// [ea_i - (s+1) beta, ea_i - s beta), with a_ik's sign, so that
//     a_ik = sum_s d_s(a_ik) 2^(ea_i - (s+1) beta),   |d_s| <= 2^beta - 1,
// exactly, as soon as the slices reach down to the lowest set bit of every entry of the row: the
// number of slices S is taken from the data (the widest row: ceil((ea_i - lowest bit) / beta)),
// never truncated, so the method is exact, not approximate. The digits are cut from the IEEE bits
// with integer shifts (no floating-point operation, nothing to underflow): the stored slice values
// are small integers whatever the magnitude of the data, the scales 2^ea_i are kept apart as
// integers and applied only when the products are summed.
//
// Why an ordinary GEMM is exact on slices. The slice product P_st = A_s B_t has entries
//     P_st(i, j) = sum_k d_s(a_ik) d_t(b_kj),
// a sum of k integers each of magnitude <= (2^beta - 1)^2 < 2^(2 beta). Any partial sum that any
// GEMM forms, in any order, blocked or not, with or without FMA, split over threads or not, is a
// sum of a subset of these products: an integer of magnitude < k 2^(2 beta) <= 2^(K + 2 beta)
// <= 2^53, so exactly representable in double. Every floating-point addition and every FMA in
// it therefore has an exact result and rounds nothing: the computed P_st is the exact P_st, bit
// for bit, whatever the GEMM (OpenBLAS with FMA kernels, cuBLAS, Kokkos Kernels' own kernels,
// the plain kernel of ExKokkos_OzakiSliceGemm_impl.hpp). What would break this: fast algorithms
// that add or subtract entries of A or B before multiplying (Strassen, Winograd), since the sums of
// slices are no longer below 2^beta and their products no longer below 2^(2 beta); and a GEMM that
// itself computes approximately (reduced-precision or "emulated FP64" modes of a vendor library,
// TF32-style tensor-core modes): leave those off for this path.
//
// Summation. The exact element is
//     S_ij = sum_{s,t} P_st(i, j) 2^(ea_i + eb_j - (s + t + 2) beta),
// S T terms per element, each an integer below 2^53 times a power of two; those of one diagonal
// s + t = g share their power of two and are summed first in 64-bit integers (exact). Usually
// (S + T <= 14, scales inside 2^+-1000) the S + T - 1 diagonal sums are carried into beta-bit
// limbs and become at most 8 non-overlapping exact doubles for the certified rounding without a
// long accumulator (OzakiFinishFunctor::carried_slots, packed_slots); the elements it cannot
// certify (near-ties, more diagonals, the edges of the range, exact zeros) are summed in a long
// accumulator by a second launch (OzakiFinishFunctor::exact; a term that is not a double, at the
// edges of the range, as an exact product of two doubles). Either way the element is rounded once
// as RN(alpha S_ij + beta c_ij) by GemvFinish, the code every other schedule uses.
//
// When the path is taken: every entry of op(A) and op(B) finite (NaN and inf keep the IEEE rules
// of the other path); max ea + max eb + K + ceil(log2 min(S, T)) <= 2047, so that each term
// Q 2^x of the finishing (Q a sum of at most min(S, T) slice products, |Q| < min(S, T) 2^(2 beta
// + K)) splits into two doubles (add_scaled_integer); at most max_slices slices per operand and the
// slice matrices within max_slice_doubles. Otherwise exgemm uses its other schedules (same bits).
// Range of the terms: each product (slice of a)(slice of b) is a multiple of 2^-2148 (both slices
// are bit ranges of doubles, whose lowest bits weigh at least 2^-1074), so every term P 2^x is too;
// with |P 2^x| < 2^2047 it is the product of two doubles h = P 2^x1 and g = 2^x2
// (add_scaled_integer).
//
// Cost: the scan of op(A) and op(B) (one pass), the slices (S m k + T k n doubles), one GEMM of
// (S m) x k x (T n) (in column blocks of C to bound P's memory), and S T integer additions and
// one certified rounding per element of C.
//
// Int8 slices (ExKokkos_OzakiInt8Slices_impl.hpp): the same with beta = 7 and digits in int8,
// whose S + T - 1 diagonal sums int8 GEMMs form directly in int32 (exact while min(S, T) k 127^2
// < 2^31); the finishing reads one integer per diagonal instead of summing S T products. Where
// int8 GEMMs run an order of magnitude faster than FP64 ones (integer tensor cores), that far
// outweighs the 2.5 to 3 times as many slices (figures: docs/performance.md).
//
// The parts, a file each: the scan of the lines' scales and the plan (ExKokkos_OzakiScan_impl.hpp,
// ExKokkos_OzakiPlan_impl.hpp); the digits and the slices (ExKokkos_OzakiDigits_impl.hpp,
// ExKokkos_OzakiSlices_impl.hpp, ExKokkos_OzakiInt8Slices_impl.hpp); the slice GEMMs, plain and
// vendor (ExKokkos_OzakiSliceGemm_impl.hpp, ExKokkos_OzakiVendorGemm_impl.hpp,
// ExKokkos_CublasSliceGemm_impl.hpp); the finishing (ExKokkos_OzakiFinish_impl.hpp); the cost
// model of Schedule::automatic (ExKokkos_OzakiCostModel_impl.hpp). This file runs them in order.
#ifndef EXKOKKOS_GEMMOZAKI_IMPL_HPP
#define EXKOKKOS_GEMMOZAKI_IMPL_HPP

#include "ExKokkos_OzakiCostModel_impl.hpp"
#include "ExKokkos_OzakiFinish_impl.hpp"
#include "ExKokkos_OzakiInt8Slices_impl.hpp"
#include "ExKokkos_OzakiPlan_impl.hpp"
#include "ExKokkos_OzakiScan_impl.hpp"
#include "ExKokkos_OzakiSlices_impl.hpp"
#include "ExKokkos_OzakiVendorGemm_impl.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace ExKokkos {
namespace Impl {

// The slices for scanned data: as asked, or (automatic) int8 where the execution space has an
// int8 vendor GEMM, the data allow it and the model says it is the cheaper, else double slices.
// sc.plan holds the double slices' plan on entry (plan_ozaki) and the chosen one on return.
template <class ExecSpace>
void choose_digits(OzakiScales<typename ExecSpace::memory_space>& sc, std::int64_t m,
                   std::int64_t n, SliceDigits digits, const OzakiCostModel& model) {
  if (digits == SliceDigits::fp64) return;
  const OzakiPlan int8 = choose_slices(sc, m, n, SliceDigits::int8);
  if (digits == SliceDigits::int8) {
    sc.plan = int8;
    return;
  }
  if (!has_vendor_int8_slice_gemm<ExecSpace>() || !int8.feasible) return;
  if (!sc.plan.feasible || model.cost(m, n, sc.k, int8) < model.cost(m, n, sc.k, sc.plan))
    sc.plan = int8;
}

// Column blocks of C: as wide as P's budget allows, of equal widths (an int8 GEMM of a narrow
// last block would leave most of a GPU idle).
inline std::int64_t ozaki_block_width(std::int64_t n, std::int64_t bytes_per_column,
                                      std::int64_t budget_bytes) {
  const std::int64_t widest = std::max<std::int64_t>(1, budget_bytes / bytes_per_column);
  const std::int64_t blocks = (n + widest - 1) / widest;
  return std::max<std::int64_t>(1, (n + blocks - 1) / blocks);
}

// The path with double slices: As LayoutLeft (S m) x k, Bs k x (T n), P = As Bs per column block.
template <class ExecSpace, class OpA, class OpB, class CView>
void launch_gemm_ozaki_fp64(const ExecSpace& space,
                            const OzakiScales<typename ExecSpace::memory_space>& sc,
                            const OpA& op_a, const OpB& op_b, const CView& C,
                            typename CView::const_value_type alpha,
                            typename CView::const_value_type beta, SliceGemm which,
                            std::int64_t block_bytes) {
  using Mem = typename ExecSpace::memory_space;
  using Device = Kokkos::Device<ExecSpace, Mem>;
  using Slices = Kokkos::View<double**, Kokkos::LayoutLeft, Device>;
  using IntView = Kokkos::View<int*, Mem>;
  const std::int64_t m = static_cast<std::int64_t>(C.extent(0));
  const std::int64_t n = static_cast<std::int64_t>(C.extent(1));
  const std::int64_t k = sc.k;
  const int S = sc.plan.slices_a, T = sc.plan.slices_b, bits = sc.plan.slice_bits;
  const Slices As(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ExKokkos::exgemm ozaki A"), m * S, k);
  const Slices Bs(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ExKokkos::exgemm ozaki B"), k, n * T);
  Kokkos::parallel_for("ExKokkos::exgemm ozaki split",
                       Kokkos::RangePolicy<ExecSpace>(space, 0, m * k),
                       SliceRowsFunctor<OpA, IntView, Slices>{op_a, sc.top_a, As, m, S, bits});
  Kokkos::parallel_for("ExKokkos::exgemm ozaki split",
                       Kokkos::RangePolicy<ExecSpace>(space, 0, k * n),
                       SliceColumnsFunctor<OpB, IntView, Slices>{op_b, sc.top_b, Bs, k, T, bits});
  const std::int64_t width = ozaki_block_width(n, 8 * m * S * T, block_bytes);
  const Slices P(Kokkos::view_alloc(space, "ExKokkos::exgemm ozaki P"), m * S, width * T);
  const Kokkos::View<unsigned char*, Mem> refused(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ExKokkos::exgemm ozaki refused"),
      m * width);
  for (std::int64_t j0 = 0; j0 < n; j0 += width) {
    const std::int64_t w = std::min(width, n - j0);
    const auto Bb = Kokkos::subview(Bs, Kokkos::ALL(), Kokkos::make_pair(j0 * T, (j0 + w) * T));
    const auto Pb = Kokkos::subview(P, Kokkos::ALL(), Kokkos::make_pair(std::int64_t(0), w * T));
    slice_gemm(space, As, Bb, Pb, which);
    using Diagonals = Fp64Diagonals<typename std::decay<decltype(Pb)>::type>;
    finish_ozaki_block(space, sc, op_a, op_b, C, alpha, beta, Diagonals{Pb, S, T}, j0, w, refused);
  }
  space.fence();  // P, As and Bs are released on return
}

// The path with int8 slices (ExKokkos_OzakiInt8Slices_impl.hpp): A8 (S kp) x m, B8 (T kp) x n,
// and per column block the S + T - 1 diagonal sums in int32, P(i, g width + jj), P's rows padded
// to a multiple of 4.
template <class ExecSpace, class OpA, class OpB, class CView>
void launch_gemm_ozaki_int8(const ExecSpace& space,
                            const OzakiScales<typename ExecSpace::memory_space>& sc,
                            const OpA& op_a, const OpB& op_b, const CView& C,
                            typename CView::const_value_type alpha,
                            typename CView::const_value_type beta, SliceGemm which,
                            std::int64_t block_bytes) {
  using Mem = typename ExecSpace::memory_space;
  using Device = Kokkos::Device<ExecSpace, Mem>;
  using Int8View = Kokkos::View<std::int8_t**, Kokkos::LayoutLeft, Device>;
  using Int32View = Kokkos::View<std::int32_t**, Kokkos::LayoutLeft, Device>;
  using IntView = Kokkos::View<int*, Mem>;
  const std::int64_t m = static_cast<std::int64_t>(C.extent(0));
  const std::int64_t n = static_cast<std::int64_t>(C.extent(1));
  const std::int64_t k = sc.k, kp = int8_padded_depth(k);
  const int S = sc.plan.slices_a, T = sc.plan.slices_b, G = S + T - 1;
  const Int8View A8(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ExKokkos::exgemm ozaki A8"), S * kp,
      m);
  const Int8View B8(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ExKokkos::exgemm ozaki B8"), T * kp,
      n);
  Kokkos::parallel_for("ExKokkos::exgemm ozaki split",
                       Kokkos::RangePolicy<ExecSpace>(space, 0, kp * m),
                       Int8SliceRowsFunctor<OpA, IntView, Int8View>{op_a, sc.top_a, A8, k, kp, S});
  Kokkos::parallel_for(
      "ExKokkos::exgemm ozaki split", Kokkos::RangePolicy<ExecSpace>(space, 0, kp * n),
      Int8SliceColumnsFunctor<OpB, IntView, Int8View>{op_b, sc.top_b, B8, k, kp, T});
  const std::int64_t mp = (m + 3) / 4 * 4;
  const std::int64_t width = ozaki_block_width(n, 4 * mp * G, block_bytes);
  const Int32View P(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ExKokkos::exgemm ozaki P32"), mp,
      width * G);
  const Kokkos::View<unsigned char*, Mem> refused(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ExKokkos::exgemm ozaki refused"),
      m * width);
  for (std::int64_t j0 = 0; j0 < n; j0 += width) {
    const std::int64_t w = std::min(width, n - j0);
    for (int g = 0; g < G; ++g) {
      const int s0 = g < T ? 0 : g - T + 1, s1 = g < S ? g : S - 1;
      const Int8DiagonalGemm d{s0 * kp, (T - 1 - g + s0) * kp, j0, g * width, (s1 - s0 + 1) * kp, m,
                               w};
      slice_gemm_int8(space, A8, B8, P, d, which);
    }
    finish_ozaki_block(space, sc, op_a, op_b, C, alpha, beta, Int8Diagonals<Int32View>{P, width},
                       j0, w, refused);
  }
  space.fence();  // P, A8 and B8 are released on return
}

// Runs the Ozaki path for a feasible plan: slices, their products in column blocks of C, the
// exact sums and one rounding per element. block_bytes bounds P's memory (0: the default of the
// slices' kind).
template <class ExecSpace, class OpA, class OpB, class CView>
void launch_gemm_ozaki(const ExecSpace& space,
                       const OzakiScales<typename ExecSpace::memory_space>& sc, const OpA& op_a,
                       const OpB& op_b, const CView& C, typename CView::const_value_type alpha,
                       typename CView::const_value_type beta, SliceGemm which,
                       std::int64_t block_bytes = 0) {
  if (sc.plan.int8)
    launch_gemm_ozaki_int8(space, sc, op_a, op_b, C, alpha, beta, which,
                           block_bytes > 0 ? block_bytes : OzakiLimits::int8_product_block_bytes);
  else
    launch_gemm_ozaki_fp64(space, sc, op_a, op_b, C, alpha, beta, which,
                           block_bytes > 0 ? block_bytes : OzakiLimits::product_block_bytes);
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_GEMMOZAKI_IMPL_HPP
