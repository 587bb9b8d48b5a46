// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// RN(a + alpha (x_1 y_1 + ... + x_K y_K)) correctly rounded as one expression: one element of
// the rank-1 and rank-2 updates, exger and exsyr (K = 1: a + alpha x_i y_j) and exsyr2 (K = 2:
// a + alpha (x_i y_j + y_i x_j)).
//
// Fast path (double). Each x_k y_k = p_k + e_k exactly (TwoProd), and alpha p_k = q_k + f_k,
// alpha e_k = g_k + h_k exactly, when every TwoProd is exact (product_splits_exactly; exmult's
// triple_product_terms): the 4 K doubles and a sum exactly to the value, which
// round_terms_branch_free (ExKokkos_ExpansionRounding.hpp: two VecSum passes and a test that
// certifies the rounding, with its proof) rounds when it can certify the result; |a| < 2^1000 keeps
// its TwoSums finite. It has no branches, so that a loop over a column of A vectorizes; its second
// pass is needed here (one pass leaves r an ulp off whenever a and alpha x y are of one size, the
// common case).
//
// Exact path: the products enter a long accumulator exactly (whatever their range), and
// round_scaled_sum (ExKokkos_ScaledSumRounding.hpp) forms alpha S + a as one integer and rounds
// it once, with IEEE's rules for NaN, infinities and signed zeros (an exact zero is +0 after
// cancellation, otherwise the IEEE sign of alpha (+-0) + a, S's zero being -0 only when every
// product is -0): the last step of every exgemv row, with beta = 1 and y = a.
// The fast path only answers when it provably gives the exact path's result, so the bits do not
// depend on which one ran.
//
// Float: a product of two floats is exact in double, and the accumulator rounds alpha S + a once
// to float.
#ifndef EXKOKKOS_ROUNDEDRANKUPDATE_HPP
#define EXKOKKOS_ROUNDEDRANKUPDATE_HPP

#include "ExKokkos_ExpansionRounding.hpp"
#include "ExKokkos_LongAccumulator.hpp"
#include "ExKokkos_RoundedMult.hpp"
#include "ExKokkos_ScaledSumRounding.hpp"

namespace ExKokkos {
namespace Impl {

// The fast path alone (above), always inlined and without branches: true when `result` is
// certainly RN(a + alpha (x0 y0 + x1 y1)) (K = 2) or RN(a + alpha x0 y0) (K = 1, x1 and y1 not
// used); otherwise the caller takes rounded_rank_update_exact.
template <int K>
KOKKOS_FORCEINLINE_FUNCTION bool rounded_rank_update_fast(double a, double alpha, double x0,
                                                          double y0, double x1, double y1,
                                                          double& result) {
  constexpr int M = 4 * K + 1;
  double t[M];
  bool split = true;
  triple_product_terms(alpha, x0, y0, t[0], t[1], t[2], t[3], split);
  if constexpr (K == 2) triple_product_terms(alpha, x1, y1, t[4], t[5], t[6], t[7], split);
  t[M - 1] = a;
  split = split & (compat::fabs(a) < 0x1p1000);
  double r;
  const bool certified = round_terms_branch_free(t, r);
  result = r;
  return split & certified;
}

template <int K>
KOKKOS_INLINE_FUNCTION double rounded_rank_update_exact(double a, double alpha,
                                                        const double (&x)[K],
                                                        const double (&y)[K]) {
  LongAccumulator s;
  for (int k = 0; k < K; ++k) s.add_product(x[k], y[k]);
  return round_scaled_sum<double>(s, alpha, 1.0, a, true);
}

template <int K>
KOKKOS_INLINE_FUNCTION double rounded_rank_update(double a, double alpha, const double (&x)[K],
                                                  const double (&y)[K]) {
  double r;
  if (rounded_rank_update_fast<K>(a, alpha, x[0], y[0], x[K - 1], y[K - 1], r)) return r;
  return rounded_rank_update_exact(a, alpha, x, y);
}

template <int K>
KOKKOS_INLINE_FUNCTION float rounded_rank_update(float a, float alpha, const float (&x)[K],
                                                 const float (&y)[K]) {
  LongAccumulator s;
  for (int k = 0; k < K; ++k) s.add_product(x[k], y[k]);  // exact in double
  return round_scaled_sum<float>(s, alpha, 1.0, a, true);
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_ROUNDEDRANKUPDATE_HPP
