// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The Ozaki schedule with int8 slices (ExKokkos_GemmOzaki_impl.hpp describes the method): 7-bit
// digits, |d| <= 127, so that an int8 x int8 GEMM with int32 sums (cuBLAS' integer tensor cores,
// many times the FP64 rate; figures: docs/performance.md) computes the slice products exactly.
//
// Why int32 sums are exact. Every product of two digits has magnitude <= 127^2 < 2^14. The
// GEMMs below sum whole diagonals: for s + t = g, the products d_s(a_ik) d_t(b_kj) over every k and
// every (s, t) of the diagonal, at most min(S, T) k of them. Any partial sum that any GEMM forms,
// in any order, split over thread blocks or not, is a sum of a subset of these: its magnitude is
// at most min(S, T) k 127^2, which the plan keeps at or below 2^31 - 1 (int8_diagonal_fits).
// Integer additions without overflow are exact and associative, so the int32 result is the
// exact diagonal sum Q_g, the same on every launch. (Not so for reduced-precision integer modes
// or saturating arithmetic; cublasGemmEx with CUBLAS_COMPUTE_32I has neither.)
//
// Layout: the diagonal of a GEMM is one GEMM, by concatenation along k. Column i of A8 holds the
// digits of row i of op(A), slice after slice: A8(s kp + k, i) = d_s(a_ik), kp = k rounded up to
// 16 (zeros in the padding; the tensor-core kernels want 16-byte aligned operands). Column j of
// B8 holds op(B)'s column j in reversed slice order: B8((T - 1 - t) kp + k, j) = d_t(b_kj). For
// the diagonal g, s runs over [s0, s1] and t = g - s, so the rows s0 kp .. (s1 + 1) kp of A8 and
// the rows (T - 1 - g + s0) kp .. of B8 line up slice with slice: Q_g = A8(rows)^T B8(rows), one
// "T" "N" GEMM (the layout that runs at the int8 rate; "N" "N" is far slower).
// S + T - 1 GEMMs instead of S T, and the finishing reads one int32 per diagonal.
#ifndef EXKOKKOS_OZAKIINT8SLICES_IMPL_HPP
#define EXKOKKOS_OZAKIINT8SLICES_IMPL_HPP

#include "ExKokkos_OzakiDigits_impl.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace ExKokkos {
namespace Impl {

constexpr int int8_slice_bits = 7;

// min(S, T) k 127^2 <= 2^31 - 1: every partial sum of a diagonal fits int32.
inline bool int8_diagonal_fits(std::int64_t k, int terms) {
  const std::int64_t limit = (std::int64_t(1) << 31) - 1;
  return k <= limit / (std::int64_t(terms) * 127 * 127);
}

// k rounded up to a multiple of 16.
inline std::int64_t int8_padded_depth(std::int64_t k) {
  return (k + 15) / 16 * 16;
}

// Digits of op(A): A8(s kp + k, i), a thread per (k, i), k fastest (the S bytes of consecutive
// threads are consecutive).
template <class OpA, class IntView, class Int8View>
struct Int8SliceRowsFunctor {
  OpA op;
  IntView top;
  Int8View out;
  std::int64_t k_count, kp;
  int slices;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t q) const {
    const std::int64_t k = q % kp, i = q / kp;
    const double x = k < k_count ? op(i, k) : 0.0;
    const int e = top(i);
    for (int s = 0; s < slices; ++s)
      out(s * kp + k, i) =
          static_cast<std::int8_t>(slice_digit(x, e - (s + 1) * int8_slice_bits, int8_slice_bits));
  }
};

// Digits of op(B): B8((T - 1 - t) kp + k, j), a thread per (k, j), k fastest.
template <class OpB, class IntView, class Int8View>
struct Int8SliceColumnsFunctor {
  OpB op;
  IntView top;
  Int8View out;
  std::int64_t k_count, kp;
  int slices;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t q) const {
    const std::int64_t k = q % kp, j = q / kp;
    const double x = k < k_count ? op(k, j) : 0.0;
    const int e = top(j);
    for (int t = 0; t < slices; ++t)
      out((slices - 1 - t) * kp + k, j) =
          static_cast<std::int8_t>(slice_digit(x, e - (t + 1) * int8_slice_bits, int8_slice_bits));
  }
};

// One diagonal's GEMM: P(i, p0 + jj) = sum_{q < depth} A8(a0 + q, i) B8(b0 + q, j0 + jj) for
// i < rows, jj < cols, in int32 (exact: see the top).
struct Int8DiagonalGemm {
  std::int64_t a0, b0, j0, p0, depth, rows, cols;
};

// The plain kernel for it (every backend; the tests' reference for cuBLAS): a thread per entry,
// both operands read down their contiguous columns.
template <class Int8View, class Int32View>
struct Int8DiagonalGemmFunctor {
  Int8View A8, B8;
  Int32View P;
  Int8DiagonalGemm g;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t o) const {
    const std::int64_t i = o % g.rows, jj = o / g.rows;
    std::int32_t sum = 0;
    for (std::int64_t q = 0; q < g.depth; ++q)
      sum += std::int32_t(A8(g.a0 + q, i)) * std::int32_t(B8(g.b0 + q, g.j0 + jj));
    P(i, g.p0 + jj) = sum;
  }
};

template <class ExecSpace, class Int8View, class Int32View>
void int8_diagonal_gemm_internal(const ExecSpace& space, const Int8View& A8, const Int8View& B8,
                                 const Int32View& P, const Int8DiagonalGemm& g) {
  Kokkos::parallel_for("ExKokkos::exgemm ozaki int8 slices",
                       Kokkos::RangePolicy<ExecSpace>(space, 0, g.rows * g.cols),
                       Int8DiagonalGemmFunctor<Int8View, Int32View>{A8, B8, P, g});
}

// The finishing's view of the diagonal sums: Q_g(i, jj) = P(i, g width + jj).
template <class Int32View>
struct Int8Diagonals {
  // |Q_g| < 2^31: the finishing packs 4 diagonals per slot, 8 slots (packed_slots).
  static constexpr int sum_bits = 31;
  static constexpr int max_fast_diagonals = 32;
  Int32View P;
  std::int64_t width;
  KOKKOS_INLINE_FUNCTION std::int64_t operator()(std::int64_t i, std::int64_t jj, int g) const {
    return P(i, g * width + jj);
  }
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_OZAKIINT8SLICES_IMPL_HPP
