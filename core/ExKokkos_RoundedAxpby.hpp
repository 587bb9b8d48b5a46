// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// RN(a*x + b*y) correctly rounded as one expression: the elementwise core of exaxpy/exaxpby (and
// of the beta*y part of exgemv/exgemm later).
//
// Double: both products are split exactly with TwoProd, a*x + b*y = p1 + e1 + p2 + e2, and
//   r = RN(RN(p1 + p2) + RN(e1 + e2)),  with  V - r = re + t + qe  exactly
// (the three TwoSum errors). r is the correctly rounded V whenever |V - r| is below half the gap
// to r's neighbour on that side; when d = re + t + qe is computed exactly an exact tie is settled
// to even, otherwise the error of d is far below the margin used. Otherwise (inexact near-ties,
// zero or near-zero results whose sign of zero matters,
// products outside TwoProd's exact range, NaN/Inf) the exact long accumulator decides: slower,
// and rare on ordinary data.
//
// Float: products of floats are exact in double; their sum rounded to odd in double and then to
// nearest in float is correctly rounded, since 53 >= 24 + 2 (Boldo, Melquiond, "Emulation of FMA
// and correctly rounded sums: proved algorithms using rounding to odd", IEEE TC 57(4), 2008).
#ifndef EXKOKKOS_ROUNDEDAXPBY_HPP
#define EXKOKKOS_ROUNDEDAXPBY_HPP

#include "ExKokkos_CorrectlyRoundedSqrt.hpp"
#include "ExKokkos_ErrorFreeTransforms.hpp"
#include "ExKokkos_LongAccumulator.hpp"

namespace ExKokkos {
namespace Impl {

KOKKOS_INLINE_FUNCTION double rounded_axpby_exact(double a, double x, double b, double y) {
  LongAccumulator acc;
  acc.add_product(a, x);
  acc.add_product(b, y);
  return acc.round();
}

// TwoProd is exact for this product (an exact zero included). Bitwise operators, not && and ||,
// so that no branch stops a loop over elements from vectorizing.
KOKKOS_FORCEINLINE_FUNCTION bool product_splits_exactly(double p, double a, double b) {
  const double ap = compat::fabs(p);
  return ((ap >= EftLimits<double>::small_product) & (ap < EftLimits<double>::big)) |
         ((p == 0.0) & ((a == 0.0) | (b == 0.0)));
}

// The fast path alone, written without branches and always inlined, so that a loop over elements
// vectorizes (GCC leaves it out of line otherwise, and a call per element with its TwoSum chain
// costs ~50 cycles). Returns
// true when `result` is certainly RN(a x + b y); otherwise the caller takes rounded_axpby_exact.
KOKKOS_FORCEINLINE_FUNCTION bool rounded_axpby_fast(double a, double x, double b, double y,
                                                    double& result) {
  double p1, e1, p2, e2;
  two_prod(a, x, p1, e1);
  two_prod(b, y, p2, e2);
  const bool products = product_splits_exactly(p1, a, x) & product_splits_exactly(p2, b, y);
  double s, t, q, qe, r, re;
  two_sum(p1, p2, s, t);
  two_sum(e1, e2, q, qe);
  two_sum(s, q, r, re);
  const double ar = compat::fabs(r);
  const bool in_range = (ar >= 0x1p-1000) & (ar < 0x1p1000);
  // V - r = re + t + qe; d is that sum, exact when both of its additions are.
  double u, u_err, d, d_err;
  two_sum(re, t, u, u_err);
  two_sum(u, qe, d, d_err);
  const bool exact = (u_err == 0.0) & (d_err == 0.0);
  // Half the gap to the neighbour on d's side of r (below a power of two it is half as wide).
  const bool away_from_zero = (d > 0.0) == (r > 0.0);
  const double up = next_up_nonnegative(ar), down = next_down_positive(ar);
  const double half_up = (up - ar) * 0.5, half_down = (ar - down) * 0.5;
  const double half_gap = away_from_zero ? half_up : half_down;
  const double ad = compat::fabs(d);
  const double margin = (compat::fabs(re) + compat::fabs(t) + compat::fabs(qe)) * 0x1p-49;
  // Certainly closer to r than half the gap; or, d being exact, an exact tie between r and that
  // neighbour, which goes to the even one (adding an ordinary pair of doubles produces such
  // ties often: an exact sum one bit too long). An inexact d may lie on either side of r: it
  // must fit inside the narrower half gap (below a power of two the gap is half as wide).
  const double narrower = half_up < half_down ? half_up : half_down;
  const bool inside = (exact & (ad < half_gap)) | (!exact & (ad + margin < narrower));
  const bool tie = exact & (ad == half_gap);
  // Selects on comparisons only: a bool made from ar's last bit, or ?: between bools, keeps GCC
  // from vectorizing the loop.
  const double neighbour = tie ? (away_from_zero ? up : down) : ar;
  const double magnitude = (compat::bit_cast<std::uint64_t>(ar) & 1u) != 0 ? neighbour : ar;
  result = r > 0.0 ? magnitude : -magnitude;
  return products & in_range & (inside | tie);
}

KOKKOS_INLINE_FUNCTION double rounded_axpby(double a, double x, double b, double y) {
  double r;
  if (rounded_axpby_fast(a, x, b, y, r)) return r;
  return rounded_axpby_exact(a, x, b, y);
}

KOKKOS_INLINE_FUNCTION float rounded_axpby(float a, float x, float b, float y) {
  const double p1 = static_cast<double>(a) * static_cast<double>(x);  // exact
  const double p2 = static_cast<double>(b) * static_cast<double>(y);  // exact
  double s, t;
  two_sum(p1, p2, s, t);  // s + t == p1 + p2 exactly (no overflow: |p| < 2^256)
  if (compat::isfinite(s) && t != 0.0 && is_even(s)) {
    // Round to odd: the exact value lies strictly between s and its neighbour towards t; take
    // that neighbour, which is odd.
    const std::uint64_t bits = compat::bit_cast<std::uint64_t>(s);
    const bool away = (s > 0.0) == (t > 0.0);
    s = compat::bit_cast<double>(away ? bits + 1 : bits - 1);
  }
  return static_cast<float>(s);
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_ROUNDEDAXPBY_HPP
