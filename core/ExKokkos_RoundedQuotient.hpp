// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// RN(N / D) for exact real numerators and denominators, correctly rounded once: each part of a
// complex quotient (x / a: re = (re x re a + im x im a) / |a|^2, im = (im x re a - re x im a) /
// |a|^2, both with the exact sum of squares |a|^2 = re a^2 + im a^2), which is what complex
// exreciprocal ((1 + 0i) / a) and exinvscal (x / a) write.
//
// Exact path (round_quotient, any N and D held in long accumulators). Both are integers in the
// accumulator's units (2^-2148), which cancel in the quotient. With Ln and Ld their bit lengths
// and s = 58 - (Ln - Ld), N 2^s / D lies in (2^57, 2^59); restoring division, one bit per step
// from bit 58 down, gives Q = floor(N 2^s / D) < 2^59 and the remainder, and the quotient is
// (Q + rho) 2^-s with rho in [0, 1), rho > 0 exactly when the remainder is. Q has at least 58
// significant bits, five more than double's 53: rounding (2 Q + [rho > 0]) 2^(-s-1) to T, its
// last bit a sticky bit strictly below the guard bit, gives the same result as rounding the exact
// quotient (the guard bit and whether anything below it is set are the same). Quotients below
// 2^(min_subnormal_lsb - 1) round to a zero; the others reach the rounding with their guard bit
// inside Q (the smallest case puts it at bit s - 1075 of 2 Q for doubles, below bit 60). Zero,
// infinite and NaN numerators or denominators give what IEEE division gives on them (a finite
// non-zero value stands in as +-1, a zero with the accumulator's sign of zero).
//
// Fast path (rounded_quotient_fast, doubles): N = sum_k a_k b_k (K products) and D = sum_j c_j
// e_j (J products, D > 0), each product split exactly by TwoProd (checked). VecSum (two passes)
// of D's 2J terms leaves dh and errors whose sum d_D is computed within 2^-48 of their magnitudes
// m_D (ExKokkos_ExpansionRounding.hpp): |D - dh| <= eps_D := |d_D| + 2^-48 m_D. The candidate
// q0 = RN(n / dh) (n: N's terms summed the same way) need not be accurate: the residual
// E = N - q0 D = sum a_k b_k - sum_j q0 c_j e_j is an exact sum of 2K + 4J doubles (the triple
// products split exactly, triple_product_terms in ExKokkos_RoundedMult.hpp), and VecSum gives
// e = RN(x_0 + d_E) with |E - e| <= eps_E := 2^-48 m_E + 2^-53 |e|. The quotient is
//     N / D = q0 + E / D,   t = RN(e / dh),
//     |E / D - t| <= |E - e| / D + |e| |1 / D - 1 / dh| + 2^-53 |t|
//                 <= (2 eps_E + 2 |e| eps_D / dh) / dh + 2^-53 |t|      (eps_D <= dh / 2),
// using D >= dh - eps_D >= dh / 2 and |1/D - 1/dh| = |dh - D| / (D dh) <= 2 eps_D / dh^2.
// TwoSum(q0, t) = (q1, r) exactly, so N / D = q1 + r + delta with |delta| bounded by eta, that
// bound times (1 + 2^-40) (its own six roundings, each of a sum or product of non-negative
// values) plus 2^-1000 (the absolute errors of operations that underflow, each at most 2^-1075);
// certified_nearest(q1, r,
// eta) then certifies q1 = RN(N / D). A numerator that is a sum of zero products (each with a zero
// factor) gives the signed zero of IEEE division at once. Every double in the path is kept in
// [2^-900, 2^900] (zero terms aside), so no TwoProd or division leaves the normal range; otherwise,
// and for ties and values within eta of a midpoint, the exact path decides, so the bits never
// depend on which path ran.
#ifndef EXKOKKOS_ROUNDEDQUOTIENT_HPP
#define EXKOKKOS_ROUNDEDQUOTIENT_HPP

#include "ExKokkos_ExpansionRounding.hpp"
#include "ExKokkos_LongAccumulator.hpp"
#include "ExKokkos_RoundedMult.hpp"

namespace ExKokkos {
namespace Impl {

// Integers of W digits of 32 bits (MagnitudeDigits) for the restoring division.
template <int W>
KOKKOS_INLINE_FUNCTION int magnitude_bit_length(const MagnitudeDigits<W>& m) {
  for (int i = W - 1; i >= 0; --i)
    if (m.digit[i] != 0) return 32 * i + bit_width(m.digit[i]);
  return 0;
}

// m <<= bits (the result must fit in W digits).
template <int W>
KOKKOS_INLINE_FUNCTION void shift_left(MagnitudeDigits<W>& m, int bits) {
  const int whole = bits >> 5, part = bits & 31;
  for (int i = W - 1; i >= 0; --i) {
    const int from = i - whole;
    std::uint64_t v = from >= 0 ? (m.digit[from] << part) & AccumulatorFormat::digit_mask : 0;
    if (part != 0 && from - 1 >= 0) v |= m.digit[from - 1] >> (32 - part);
    m.digit[i] = v;
  }
}

// x >= y, comparing digits lo..hi (equal there means x >= y: y has no bits below lo).
template <int W>
KOKKOS_INLINE_FUNCTION bool not_less(const MagnitudeDigits<W>& x, const MagnitudeDigits<W>& y,
                                     int lo, int hi) {
  for (int i = hi; i >= lo; --i)
    if (x.digit[i] != y.digit[i]) return x.digit[i] > y.digit[i];
  return true;
}

// x -= y on digits lo..hi (x >= y; y has no bits below lo, so no borrow leaves the range).
template <int W>
KOKKOS_INLINE_FUNCTION void subtract(MagnitudeDigits<W>& x, const MagnitudeDigits<W>& y, int lo,
                                     int hi) {
  std::uint64_t borrow = 0;
  for (int i = lo; i <= hi; ++i) {
    const std::uint64_t sub = y.digit[i] + borrow;
    borrow = x.digit[i] < sub ? 1 : 0;
    x.digit[i] = (x.digit[i] + (borrow << 32) - sub) & AccumulatorFormat::digit_mask;
  }
}

// y >>= 1 on digits lo..hi (nothing above hi).
template <int W>
KOKKOS_INLINE_FUNCTION void shift_right_one(MagnitudeDigits<W>& y, int lo, int hi) {
  for (int i = lo; i <= hi; ++i) {
    const std::uint64_t above = i + 1 <= hi ? y.digit[i + 1] & 1u : 0;
    y.digit[i] = (y.digit[i] >> 1) | (above << 31);
  }
}

// The value IEEE division gives with an accumulator's special value or signed zero standing in
// for it (a finite non-zero value as +-1).
KOKKOS_INLINE_FUNCTION double quotient_proxy(std::uint32_t flags, bool zero, bool negative) {
  double special = 0.0;
  if (special_result(flags, special)) return special;
  if (!zero) return negative ? -1.0 : 1.0;
  const bool neg_zero =
      (flags & AccumulatorFlags::any_term) != 0 && (flags & AccumulatorFlags::not_neg_zero) == 0;
  return neg_zero ? -0.0 : 0.0;
}

// RN(N / D) in T for exact N and D held in long accumulators (see above).
template <class T>
KOKKOS_INLINE_FUNCTION T round_quotient(const LongAccumulator& numerator,
                                        const LongAccumulator& denominator) {
  LongAccumulator n = numerator, d = denominator;
  n.normalize();
  d.normalize();
  constexpr int W = Magnitude::size + 2;  // room for N 2^s: Ld + 58 bits
  MagnitudeDigits<W> x, y;
  for (int i = 0; i < W; ++i) x.digit[i] = y.digit[i] = 0;
  Magnitude nm, dm;
  const bool n_negative = magnitude_of_normalized(n.digits(), nm);
  const bool d_negative = magnitude_of_normalized(d.digits(), dm);
  for (int i = 0; i < Magnitude::size; ++i) {
    x.digit[i] = nm.digit[i];
    y.digit[i] = dm.digit[i];
  }
  const int ln = magnitude_bit_length(x), ld = magnitude_bit_length(y);
  double special = 0.0;
  if (special_result(n.flags(), special) || special_result(d.flags(), special) || ln == 0 ||
      ld == 0)
    return static_cast<T>(quotient_proxy(n.flags(), ln == 0, n_negative) /
                          quotient_proxy(d.flags(), ld == 0, d_negative));
  const bool negative = n_negative != d_negative;
  using Fmt = FloatFormat<T>;
  const int s = 58 - (ln - ld);
  // The quotient is below 2^(59 - s): at or below a quarter of the smallest subnormal, a zero.
  if (59 - s <= Fmt::min_subnormal_lsb - 1) return static_cast<T>(negative ? -0.0 : 0.0);
  if (s >= 0)
    shift_left(x, s);
  else
    shift_left(y, -s);
  shift_left(y, 58);  // Y 2^58, as many bits as X
  // Y 2^58 lies in (X / 2, 2 X): its top digit may sit one above X's.
  const int bits = magnitude_bit_length(x) > magnitude_bit_length(y) ? magnitude_bit_length(x)
                                                                     : magnitude_bit_length(y);
  const int hi = (bits - 1) >> 5;
  int lo = 0;
  while (y.digit[lo] == 0) ++lo;
  lo = lo >= 2 ? lo - 2 : 0;  // 58 shifts right move Y's lowest bit at most two digits down
  std::uint64_t q = 0;
  for (int bit = 58; bit >= 0; --bit) {
    if (not_less(x, y, lo, hi)) {
      subtract(x, y, lo, hi);
      q |= std::uint64_t(1) << bit;
    }
    shift_right_one(y, lo, hi);
  }
  bool rest = false;
  for (int i = 0; i < W; ++i) rest = rest || x.digit[i] != 0;
  MagnitudeDigits<3> r;
  const std::uint64_t with_sticky = (q << 1) | (rest ? 1u : 0u);
  r.digit[0] = with_sticky & AccumulatorFormat::digit_mask;
  r.digit[1] = with_sticky >> 32;
  r.digit[2] = 0;
  return round_magnitude<T>(r, -s - 1, negative,
                            AccumulatorFlags::any_term | AccumulatorFlags::not_neg_zero);
}

// VecSum's two passes over x: x[0] and the sum of the rest, within 2^-48 of the rest's magnitude.
template <int M>
KOKKOS_FORCEINLINE_FUNCTION void leading_and_rest(double (&x)[M], double& lead, double& rest,
                                                  double& rest_magnitude) {
  bool exact;
  vec_sum_pass(x, rest, rest_magnitude, exact);
  vec_sum_pass(x, rest, rest_magnitude, exact);
  lead = x[0];
}

KOKKOS_FORCEINLINE_FUNCTION bool in_safe_range(double v) {
  const double a = compat::fabs(v);
  return (a >= 0x1p-900) & (a <= 0x1p900);
}

// True with q = RN(sum_k a_k b_k / sum_j c_j e_j) when certified (see above); the denominator
// must be positive. Branch-free.
template <int K, int J>
KOKKOS_FORCEINLINE_FUNCTION bool rounded_quotient_fast(const double (&a)[K], const double (&b)[K],
                                                       const double (&c)[J], const double (&e)[J],
                                                       double& q) {
  bool ok = true;
  // A numerator whose every product has a zero factor, and no infinite or NaN one, is a signed
  // zero: the IEEE sum of its zero products has the sign the exact path gives it (-0 only when
  // every product is -0, as the long accumulator's flags), and so has that zero over D > 0. The
  // residual would be zero too, but q0 = 0 lies outside the safe range the proof needs; no residual
  // is needed.
  bool zero_numerator = true;
  double zero_sum = a[0] * b[0];
  for (int k = 0; k < K; ++k) {
    const bool finite = (compat::fabs(a[k]) <= 0x1.fffffffffffffp+1023) &
                        (compat::fabs(b[k]) <= 0x1.fffffffffffffp+1023);
    zero_numerator = zero_numerator & ((a[k] == 0.0) | (b[k] == 0.0)) & finite;
    if (k > 0) zero_sum = zero_sum + a[k] * b[k];
  }
  double nt[2 * K], dt[2 * J], et[2 * K + 4 * J];
  for (int k = 0; k < K; ++k) {
    two_prod(a[k], b[k], nt[2 * k], nt[2 * k + 1]);
    ok = ok & product_splits_exactly(nt[2 * k], a[k], b[k]);
    et[2 * k] = nt[2 * k];
    et[2 * k + 1] = nt[2 * k + 1];
  }
  bool denominator_ok = true;
  for (int j = 0; j < J; ++j) {
    two_prod(c[j], e[j], dt[2 * j], dt[2 * j + 1]);
    denominator_ok = denominator_ok & product_splits_exactly(dt[2 * j], c[j], e[j]);
  }
  double dh, d_rest, d_magnitude, nh, n_rest, n_magnitude;
  leading_and_rest(dt, dh, d_rest, d_magnitude);
  leading_and_rest(nt, nh, n_rest, n_magnitude);
  const double eps_d = compat::fabs(d_rest) + d_magnitude * 0x1p-48;
  const double q0 = (nh + n_rest) / dh;
  denominator_ok = denominator_ok & (dh > 0.0) & in_safe_range(dh) & (eps_d <= 0.5 * dh);
  ok = ok & denominator_ok & in_safe_range(q0);
  for (int j = 0; j < J; ++j)
    triple_product_terms(-q0, c[j], e[j], et[2 * K + 4 * j], et[2 * K + 4 * j + 1],
                         et[2 * K + 4 * j + 2], et[2 * K + 4 * j + 3], ok);
  double e_lead, e_rest, e_magnitude;
  leading_and_rest(et, e_lead, e_rest, e_magnitude);
  const double ev = e_lead + e_rest;
  const double ae = compat::fabs(ev);
  const double eps_e = e_magnitude * 0x1p-48 + ae * 0x1p-53;
  const double t = ev / dh;
  const double eta =
      ((2.0 * eps_e + 2.0 * ae * eps_d / dh) / dh + compat::fabs(t) * 0x1p-53) * (1.0 + 0x1p-40) +
      0x1p-1000;
  double q1, r;
  two_sum(q0, t, q1, r);
  // zero_sum / dh is zero_sum itself (dh > 0 where it is used): no division under a condition,
  // which GCC keeps as a branch (a division may trap) and which stops a loop from vectorizing.
  q = zero_numerator ? zero_sum : q1;
  const bool certified = certified_nearest(q1, r, eta);
  return (zero_numerator & denominator_ok) | (!zero_numerator & ok & certified);
}

// Both parts of x / a, each RN(N / D) with D = re(a)^2 + im(a)^2 exact: re N = re x re a + im x
// im a, im N = im x re a - re x im a (the negation is exact). Special values: IEEE division of the
// parts' exact sums as the long accumulator keeps them (NaN from inf * 0 or inf - inf, a signed
// infinity, a signed zero): x / 0 is +-inf or NaN part by part, as (N / +0). The values come as
// their parts (plain doubles, which lets a loop over elements vectorize); `fast` is true when
// both parts are certified, else the caller takes rounded_complex_quotient.
KOKKOS_FORCEINLINE_FUNCTION bool rounded_complex_quotient_fast(double xr, double xi, double ar,
                                                               double ai, double& re, double& im) {
  const double c[2] = {ar, ai}, b[2] = {ar, ai};
  const double n_re[2] = {xr, xi}, n_im[2] = {xi, -xr};
  const bool re_ok = rounded_quotient_fast<2, 2>(n_re, b, c, c, re);
  const bool im_ok = rounded_quotient_fast<2, 2>(n_im, b, c, c, im);
  return re_ok & im_ok;
}

template <class T>
KOKKOS_INLINE_FUNCTION Kokkos::complex<T> rounded_complex_quotient_exact(
    const Kokkos::complex<T>& x, const Kokkos::complex<T>& a) {
  const double xr = x.real(), xi = x.imag(), ar = a.real(), ai = a.imag();
  LongAccumulator d, n_re, n_im;
  d.add_product(ar, ar);
  d.add_product(ai, ai);
  n_re.add_product(xr, ar);
  n_re.add_product(xi, ai);
  n_im.add_product(xi, ar);
  n_im.add_product(-xr, ai);
  return Kokkos::complex<T>(round_quotient<T>(n_re, d), round_quotient<T>(n_im, d));
}

template <class T>
KOKKOS_INLINE_FUNCTION Kokkos::complex<T> rounded_complex_quotient(const Kokkos::complex<T>& x,
                                                                   const Kokkos::complex<T>& a) {
  if constexpr (std::is_same<T, double>::value) {
    double re, im;
    if (rounded_complex_quotient_fast(x.real(), x.imag(), a.real(), a.imag(), re, im))
      return Kokkos::complex<double>(re, im);
  }
  return rounded_complex_quotient_exact(x, a);
}

// x / a rounded once: one IEEE division for real values (itself correctly rounded), each part
// for complex values. Complex exreciprocal's 1 / a is (1 + 0i) / a.
KOKKOS_INLINE_FUNCTION double rounded_quotient(double x, double a) {
  return x / a;
}
KOKKOS_INLINE_FUNCTION float rounded_quotient(float x, float a) {
  return x / a;
}
template <class T>
KOKKOS_INLINE_FUNCTION Kokkos::complex<T> rounded_quotient(const Kokkos::complex<T>& x,
                                                           const Kokkos::complex<T>& a) {
  return rounded_complex_quotient(x, a);
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_ROUNDEDQUOTIENT_HPP
