// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// RN(c*y + ab*a*x) (and RN(ab*a*x)) correctly rounded as one expression: the elementwise core of
// exmult, whose triple product is not a sum of products of two doubles.
//
// Fast path (double): a*x = p + e exactly (TwoProd), ab*p = q1 + f1 and ab*e = q2 + f2 exactly,
// c*y = q3 + f3 exactly, when every one of these TwoProds is exact (product_splits_exactly); the
// six doubles sum exactly to the value, and round_terms_branch_free
// (ExKokkos_ExpansionRounding.hpp; no branches, so that a loop over elements vectorizes) rounds
// it when it can certify the result. Otherwise the exact path below decides.
//
// Exact path (double). c*y enters the long accumulator as an exact product (special values with
// IEEE's rules). A triple product with a NaN, an infinity or a zero factor is a special term:
// NaN (a NaN, or inf * 0), a signed infinity, or a signed zero (the XOR of the signs), added as
// such; a finite triple product beside an infinite or NaN c*y leaves the result to c*y. Otherwise
// write each factor as m * 2^k with m in [1, 2) (exact: normalize_double), so that ab*a*x = (p + e)
// * m3 * 2^E with p + e = m1 * m2 in [1, 4) exactly (TwoProd of numbers in [1, 2): e is a multiple
// of 2^-104, |e| < 2^-51, no underflow) and |ab*a*x| in [2^E, 2^(E+3)).
//  - E in [-1992, 2044]: the products p*2^k1 * m3*2^k2 and e*2^k1 * m3*2^k2 (k1 + k2 = E) are
//    products of exact doubles: p*2^k1 is normal for k1 in [-1022, 1021] (p < 4), e*2^k1 keeps
//    every bit for k1 >= -970 (its grid 2^(k1-104) >= 2^-1074), m3*2^k2 is normal for k2 in
//    [-1022, 1023]; k1 = clamp(E/2, -970, 1021) meets all three over that range of E. Both enter
//    the accumulator exactly, and it rounds once.
//  - E > 2044: |ab*a*x| >= 2^2045. Without c*y, or for E >= 2050 (|ab*a*x| >= 2^2050 while
//    |c*y| < 2^2048, so the sum's magnitude is at least 2^2049), the result overflows to the
//    triple product's signed infinity. For E in [2045, 2049], 32 deposits of the product scaled
//    by 2^-5 add up to it exactly (the accumulator holds sums far beyond 2^2048).
//  - E < -1992: |t| < 2^-1989 for t = ab*a*x. Without c*y, or with c*y = 0, RN(t) is zero with
//    t's sign (|t| < 2^-1075). Otherwise let g = c*y = mc*my * 2^(ec+ey):
//     * ec + ey >= -1880: g and every rounding midpoint (the multiples of 2^-1075) lie on the
//       grid of g's last bit, at least 2^(ec+ey-104) >= 2^-1984 (mc and my have at most 53
//       bits). g + t, and g + s*2^-2148 for s = sign(t), lie in the same open interval between g
//       and its grid neighbour on t's side, which holds no midpoint; so both round to the same
//       double, and the accumulator rounds g + s*2^-2148 (an exact product: s*2^-1074 * 2^-1074).
//     * ec + ey < -1880: |g + t| < 2^-1878 + 2^-1989 < 2^-1075, so the result is a zero whose
//       sign is that of g + t (+0 when g + t = 0). Both are scaled by 2^1000 (g: its smaller
//       factor times 2^1000, below 2^61; t: E + 1000 in the range above, else |t| < 2^-2989 is
//       below |g| >= 2^-2148 and g's sign decides), added exactly, and the sign read off.
//
// Float: a*x is exact in double (48 bits), ab*(a*x) is split exactly by TwoProd in double (it is
// far inside double's range: at least 2^-447 in magnitude when non-zero, so the error term is on
// a grid above 2^-1074), and c*y is exact in double: three doubles, summed exactly and rounded
// once to float by the accumulator.
#ifndef EXKOKKOS_ROUNDEDMULT_HPP
#define EXKOKKOS_ROUNDEDMULT_HPP

#include "ExKokkos_ExpansionRounding.hpp"
#include "ExKokkos_LongAccumulator.hpp"
#include "ExKokkos_RoundedAxpby.hpp"
#include "impl/ExKokkos_FloatBits.hpp"

namespace ExKokkos {
namespace Impl {

// x = m * 2^e with |m| in [1, 2), m carrying x's sign (x finite and non-zero).
struct NormalizedDouble {
  double m;
  int e;
};

KOKKOS_INLINE_FUNCTION NormalizedDouble normalize_double(double x) {
  const DecomposedDouble d = decompose(x);
  const int shift = 53 - bit_width(d.significand);
  return NormalizedDouble{compose<double>(d.negative, d.significand << shift, -52),
                          d.exponent - shift + 52};
}

// m * 2^k for |k| <= 2044, exact when the result is a normal double or keeps every bit of m
// (the caller's condition); the two steps stay between m and the result in magnitude.
KOKKOS_INLINE_FUNCTION double scale_by_power_of_two(double m, int k) {
  const int k1 = k / 2;
  return (m * power_of_two(k1)) * power_of_two(k - k1);
}

KOKKOS_INLINE_FUNCTION double signed_zero(bool negative) {
  return negative ? -0.0 : 0.0;
}

// The triple product's scale E (see above) and its exact parts.
struct TripleProduct {
  double p, e, m3;
  int scale;  // E: |ab*a*x| in [2^E, 2^(E+3))
  bool negative;
};

KOKKOS_INLINE_FUNCTION TripleProduct split_triple(double ab, double a, double x) {
  const NormalizedDouble n1 = normalize_double(ab), n2 = normalize_double(a),
                         n3 = normalize_double(x);
  TripleProduct t;
  two_prod(n1.m, n2.m, t.p, t.e);
  t.m3 = n3.m;
  t.scale = n1.e + n2.e + n3.e;
  t.negative = sign_bit(ab) != (sign_bit(a) != sign_bit(x));
  return t;
}

// Adds copies * (p + e) * m3 * 2^scale exactly; scale in [-1992, 2044].
KOKKOS_INLINE_FUNCTION void deposit_triple(LongAccumulator& acc, const TripleProduct& t, int scale,
                                           int copies) {
  int k1 = scale / 2;
  if (k1 < -970) k1 = -970;
  if (k1 > 1021) k1 = 1021;
  const double m3 = scale_by_power_of_two(t.m3, scale - k1);
  const double p = scale_by_power_of_two(t.p, k1), e = scale_by_power_of_two(t.e, k1);
  for (int i = 0; i < copies; ++i) {
    acc.add_product(p, m3);
    if (e != 0.0) acc.add_product(e, m3);  // a zero term would change the sign rule of zeros
  }
}

// The triple product's value when a factor is NaN, infinite or zero.
KOKKOS_INLINE_FUNCTION double special_triple(double ab, double a, double x) {
  const bool any_nan = compat::isnan(ab) || compat::isnan(a) || compat::isnan(x);
  const bool any_inf = compat::isinf(ab) || compat::isinf(a) || compat::isinf(x);
  const bool any_zero = ab == 0.0 || a == 0.0 || x == 0.0;
  const bool negative = sign_bit(ab) != (sign_bit(a) != sign_bit(x));
  if (any_nan || (any_inf && any_zero)) return quiet_nan<double>();
  return any_inf ? signed_infinity<double>(negative) : signed_zero(negative);
}

// RN(c*y + ab*a*x), or RN(ab*a*x) when with_y is false (y is then not read), by the exact path.
KOKKOS_INLINE_FUNCTION double rounded_mult_exact(double c, double y, bool with_y, double ab,
                                                 double a, double x) {
  LongAccumulator acc;
  if (with_y) acc.add_product(c, y);
  const bool finite = compat::isfinite(ab) && compat::isfinite(a) && compat::isfinite(x);
  if (!finite || ab == 0.0 || a == 0.0 || x == 0.0) {
    acc.add(special_triple(ab, a, x));
    return acc.round();
  }
  // A finite triple product beside an infinite or NaN c*y: c*y decides.
  if (with_y && !(compat::isfinite(c) && compat::isfinite(y))) return acc.round();
  const TripleProduct t = split_triple(ab, a, x);
  if (t.scale >= -1992 && t.scale <= 2044) {
    deposit_triple(acc, t, t.scale, 1);
    return acc.round();
  }
  if (t.scale > 2044) {
    if (!with_y || t.scale >= 2050) return signed_infinity<double>(t.negative);
    deposit_triple(acc, t, t.scale - 5, 32);
    return acc.round();
  }
  // |ab*a*x| < 2^-1989.
  if (!with_y || c == 0.0 || y == 0.0) return signed_zero(t.negative);
  const NormalizedDouble nc = normalize_double(c), ny = normalize_double(y);
  if (nc.e + ny.e >= -1880) {
    acc.add_product(t.negative ? -0x1p-1074 : 0x1p-1074, 0x1p-1074);
    return acc.round();
  }
  // The result is a zero: its sign is that of g + t, both scaled by 2^1000.
  const bool g_negative = sign_bit(c) != sign_bit(y);
  if (t.scale + 1000 < -1992) return signed_zero(g_negative);
  LongAccumulator scaled;
  if (nc.e <= ny.e)
    scaled.add_product(c * 0x1p1000, y);
  else
    scaled.add_product(c, y * 0x1p1000);
  deposit_triple(scaled, t, t.scale + 1000, 1);
  return signed_zero(scaled.sign() < 0);
}

// The fast path's terms: ab*a*x = t0 + t1 + t2 + t3 exactly while `split` stays true (each
// TwoProd exact). The rank updates' element (ExKokkos_RoundedRankUpdate.hpp) is built from them
// too.
KOKKOS_FORCEINLINE_FUNCTION void triple_product_terms(double ab, double a, double x, double& t0,
                                                      double& t1, double& t2, double& t3,
                                                      bool& split) {
  double p, e;
  two_prod(a, x, p, e);
  two_prod(ab, p, t0, t1);
  two_prod(ab, e, t2, t3);
  split = split & product_splits_exactly(p, a, x) & product_splits_exactly(t0, ab, p) &
          product_splits_exactly(t2, ab, e);
}

// The fast paths alone, always inlined: true when `result` is certainly RN(c*y + ab*a*x) (or
// RN(ab*a*x)); otherwise the caller takes rounded_mult_exact.
KOKKOS_FORCEINLINE_FUNCTION bool rounded_mult_fast(double c, double y, double ab, double a,
                                                   double x, double& result) {
  double t[6];
  bool split = true;
  triple_product_terms(ab, a, x, t[0], t[1], t[2], t[3], split);
  two_prod(c, y, t[4], t[5]);
  split = split & product_splits_exactly(t[4], c, y);
  double r;
  const bool certified = round_terms_branch_free(t, r);
  result = r;
  return split & certified;
}

KOKKOS_FORCEINLINE_FUNCTION bool rounded_triple_product_fast(double ab, double a, double x,
                                                             double& result) {
  double t[4];
  bool split = true;
  triple_product_terms(ab, a, x, t[0], t[1], t[2], t[3], split);
  double r;
  const bool certified = round_terms_branch_free(t, r);
  result = r;
  return split & certified;
}

KOKKOS_INLINE_FUNCTION double rounded_mult(double c, double y, double ab, double a, double x) {
  double r;
  if (rounded_mult_fast(c, y, ab, a, x, r)) return r;
  return rounded_mult_exact(c, y, true, ab, a, x);
}

// RN(ab*a*x).
KOKKOS_INLINE_FUNCTION double rounded_triple_product(double ab, double a, double x) {
  double r;
  if (rounded_triple_product_fast(ab, a, x, r)) return r;
  return rounded_mult_exact(0.0, 0.0, false, ab, a, x);
}

KOKKOS_INLINE_FUNCTION float rounded_mult(float c, float y, float ab, float a, float x) {
  const double ax = static_cast<double>(a) * static_cast<double>(x);  // exact
  double q, f;
  two_prod(static_cast<double>(ab), ax, q, f);  // exact (see above); NaN/inf: q carries them
  LongAccumulator acc;
  acc.add_product(c, y);  // exact in double
  acc.add(q);
  if (compat::isfinite(q) && f != 0.0) acc.add(f);  // a zero f would change the sign of zeros
  return acc.round<float>();
}

KOKKOS_INLINE_FUNCTION float rounded_triple_product(float ab, float a, float x) {
  const double ax = static_cast<double>(a) * static_cast<double>(x);
  double q, f;
  two_prod(static_cast<double>(ab), ax, q, f);
  LongAccumulator acc;
  acc.add(q);
  if (compat::isfinite(q) && f != 0.0) acc.add(f);  // a zero f would change the sign of zeros
  return acc.round<float>();
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_ROUNDEDMULT_HPP
