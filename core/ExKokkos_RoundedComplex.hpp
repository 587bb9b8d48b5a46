// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Complex linear combinations c_1 v_1 + ... + c_K v_K of Kokkos::complex<double> or
// Kokkos::complex<float> values with each part rounded once: the elementwise cores of exscal
// (K = 1), exaxpby (K = 2) and exupdate (K = 3) on complex views; exabs' |x| and the exact order
// of two moduli (exiamax).
//
// The real part is the exact value of sum_k re(c_k) re(v_k) - im(c_k) im(v_k), the imaginary part
// that of sum_k re(c_k) im(v_k) + im(c_k) re(v_k), each rounded to nearest once (a sum of 2K real
// products: ExKokkos_RoundedSumOfProducts.hpp). These are the formulas Kokkos::complex's operators
// evaluate, so special values follow them with IEEE's rules for the exact sums: (inf + 0i) (1 + 0i)
// is inf + NaN i, as the formula's inf * 0 makes it; C's Annex G recovery of infinities is not
// applied. Negating im(c_k) is exact, so the value summed is exactly the formula's.
#ifndef EXKOKKOS_ROUNDEDCOMPLEX_HPP
#define EXKOKKOS_ROUNDEDCOMPLEX_HPP

#include "ExKokkos_RoundedSumOfProducts.hpp"
#include "ExKokkos_ScaledSumRounding.hpp"

namespace ExKokkos {
namespace Impl {

// The factors of the two parts' sums of products, re = sum re_c re_v and im = sum im_c im_v, from
// the coefficients c_k and the parts (vr_k, vi_k) of the values.
template <int K, class T>
struct ComplexCombinationFactors {
  T re_c[2 * K], re_v[2 * K], im_c[2 * K], im_v[2 * K];
  KOKKOS_INLINE_FUNCTION ComplexCombinationFactors(const Kokkos::complex<T> (&c)[K],
                                                   const T (&vr)[K], const T (&vi)[K]) {
    for (int k = 0; k < K; ++k) {
      re_c[2 * k] = c[k].real();
      re_v[2 * k] = vr[k];
      re_c[2 * k + 1] = -c[k].imag();
      re_v[2 * k + 1] = vi[k];
      im_c[2 * k] = c[k].real();
      im_v[2 * k] = vi[k];
      im_c[2 * k + 1] = c[k].imag();
      im_v[2 * k + 1] = vr[k];
    }
  }
};

template <int K, class T>
KOKKOS_INLINE_FUNCTION Kokkos::complex<T> rounded_complex_combination(
    const Kokkos::complex<T> (&c)[K], const Kokkos::complex<T> (&v)[K]) {
  T vr[K], vi[K];
  for (int k = 0; k < K; ++k) {
    vr[k] = v[k].real();
    vi[k] = v[k].imag();
  }
  const ComplexCombinationFactors<K, T> f(c, vr, vi);
  return Kokkos::complex<T>(rounded_sum_of_products(f.re_c, f.re_v),
                            rounded_sum_of_products(f.im_c, f.im_v));
}

// Both parts' fast paths (ExKokkos_RoundedSumOfProducts.hpp), always inlined and without
// branches: true when (re, im) is certainly the rounded combination; otherwise the caller takes
// rounded_complex_combination. The values come as their parts and the result goes to two
// doubles: loads and stores of plain doubles are what lets a loop over elements vectorize.
template <int K>
KOKKOS_FORCEINLINE_FUNCTION bool rounded_complex_combination_fast(
    const Kokkos::complex<double> (&c)[K], const double (&vr)[K], const double (&vi)[K], double& re,
    double& im) {
  const ComplexCombinationFactors<K, double> f(c, vr, vi);
  const bool re_ok = rounded_sum_of_products_fast(f.re_c, f.re_v, re);
  const bool im_ok = rounded_sum_of_products_fast(f.im_c, f.im_v, im);
  return re_ok & im_ok;
}

// The coefficients of part p of alpha S + beta y for complex alpha, S, beta, y: alpha's f[j]
// multiplies part j of S (and beta's, part j of y). The negation is exact.
//   p = 0: re(alpha) re(S) - im(alpha) im(S) + re(beta) re(y) - im(beta) im(y)
//   p = 1: im(alpha) re(S) + re(alpha) im(S) + im(beta) re(y) + re(beta) im(y)
template <class C>
KOKKOS_INLINE_FUNCTION void complex_part_coefficients(const C& c, int p, double (&f)[2]) {
  const double re = static_cast<double>(c.real()), im = static_cast<double>(c.imag());
  f[0] = p == 0 ? re : im;
  f[1] = p == 0 ? -im : re;
}

// Adds the exact product (ar + ai i)(xr + xi i) to the complex sum held in s[0] (re) and s[1] (im):
// re += ar xr - ai xi, im += ai xr + ar xi (the negation is exact).
KOKKOS_INLINE_FUNCTION void add_complex_product(LongAccumulator (&s)[2], double ar, double ai,
                                                double xr, double xi) {
  s[0].add_product(ar, xr);
  s[0].add_product(-ai, xi);
  s[1].add_product(ai, xr);
  s[1].add_product(ar, xi);
}

// Both parts of RN(alpha S + beta y), each rounded once, for an exact complex S whose parts are
// the sums held in s[0] (re) and s[1] (im): two scaled exact sums and two exact products a part
// (round_scaled_sums, ExKokkos_ScaledSumRounding.hpp). read_y == false leaves beta y out (y is not
// read). The accumulators are normalized here.
template <class T, class C>
KOKKOS_INLINE_FUNCTION Kokkos::complex<T> round_complex_scaled_sum(LongAccumulator (&s)[2],
                                                                   const C& alpha, const C& beta,
                                                                   const double (&ys)[2],
                                                                   bool read_y) {
  s[0].normalize();
  s[1].normalize();
  const std::uint64_t* const sums[2] = {s[0].digits(), s[1].digits()};
  const std::uint32_t flags[2] = {s[0].flags(), s[1].flags()};
  T r[2];
  for (int p = 0; p < 2; ++p) {
    double a[2], b[2];
    complex_part_coefficients(alpha, p, a);
    complex_part_coefficients(beta, p, b);
    r[p] = round_scaled_sums<T, 2, 2>(sums, flags, a, b, ys, read_y);
  }
  return Kokkos::complex<T>(r[0], r[1]);
}

// RN(a x) per part.
template <class T>
KOKKOS_INLINE_FUNCTION Kokkos::complex<T> mul_rn(const Kokkos::complex<T>& a,
                                                 const Kokkos::complex<T>& x) {
  const Kokkos::complex<T> c[1] = {a}, v[1] = {x};
  return rounded_complex_combination(c, v);
}

// RN(a x + b y) per part.
template <class T>
KOKKOS_INLINE_FUNCTION Kokkos::complex<T> rounded_axpby(const Kokkos::complex<T>& a,
                                                        const Kokkos::complex<T>& x,
                                                        const Kokkos::complex<T>& b,
                                                        const Kokkos::complex<T>& y) {
  const Kokkos::complex<T> c[2] = {a, b}, v[2] = {x, y};
  return rounded_complex_combination(c, v);
}

// RN(a x + b y + c z) per part.
template <class T>
KOKKOS_INLINE_FUNCTION Kokkos::complex<T> rounded_update(
    const Kokkos::complex<T>& a, const Kokkos::complex<T>& x, const Kokkos::complex<T>& b,
    const Kokkos::complex<T>& y, const Kokkos::complex<T>& c, const Kokkos::complex<T>& z) {
  const Kokkos::complex<T> f[3] = {a, b, c}, v[3] = {x, y, z};
  return rounded_complex_combination(f, v);
}

// |x| = sqrt(re^2 + im^2): the square root of the exact sum, rounded once
// (ExKokkos_CorrectlyRoundedSqrt.hpp), as exnrm2 of the one-element vector (x): no overflow or
// underflow on the way; special values by the formula (a NaN part gives NaN, as does inf + NaN i).
template <class T>
KOKKOS_INLINE_FUNCTION T rounded_complex_abs_exact(const Kokkos::complex<T>& x) {
  LongAccumulator acc;
  acc.add_product(x.real(), x.real());
  acc.add_product(x.imag(), x.imag());
  return sqrt_rounded<T>(acc);
}

// The fast path of |x| for complex doubles, branch-free so that a loop over elements vectorizes:
// true when `result` is certainly rounded_complex_abs_exact(x); otherwise the caller takes that.
//
// With a = re x, b = im x: a^2 = p1 + e1 and b^2 = p2 + e2 exactly (TwoProd, when both split
// exactly), p1 + p2 = s + t exactly (TwoSum), so S = a^2 + b^2 = s + L with L = t + e1 + e2, and
// |t|, |e1|, |e2| <= ulp(s) / 2 (p1, p2 <= s, all >= 0). With s in [2^-900, 2^900]:
// - r = sqrt(s) rounded once (IEEE) is within ulp(r) / 2 of sqrt(s), so r^2 = s (1 + eps) with
//   |eps| < 2^-51, and r^2 = rr + ree exactly (TwoProd, in range). rr lies in [s / 2, 2 s], so
//   D = s - rr is exact (Sterbenz), and R = S - r^2 = D - ree + L exactly.
// - R' = ((D - ree) + t) + (e1 + e2) computes R with four roundings, each at most 2^-53 of a
//   partial sum, itself at most M = |D| + |ree| + |t| + |e1| + |e2|: |R' - R| <= 2^-51 M.
// - The root q = sqrt(S) satisfies q - r = R / (q + r). d = RN(R' / (2 r)) (2 r exact) differs
//   from it by at most |R - R'| / (q + r) + |R'| |q - r| / (2 r (q + r)) + 2^-53 |d|. q is
//   within 2 ulp(r) <= 2^-51 r of r (|S - s| <= 1.5 ulp(s) <= 1.5 2^-52 s moves the root by at
//   most 0.75 2^-52 sqrt(s) <= 1.5 ulp(r), and r is within ulp(r) / 2 of sqrt(s)), and q + r >= r,
//   so that is below 2^-50 (M / r + |d|); the margin 2^-46 (M / r + |d|) bounds it with room for
//   the roundings of the margin and of d +- margin (each at most 2^-53 (|d| + margin)).
// Then q lies strictly between d - margin and d + margin from r, and RN(q) is: r when that
// interval lies inside (-h_down, h_up), the half gaps to r's neighbours; the neighbour up when it
// lies strictly between h_up and 1.5 gap_up (below the next midpoint up, whose gap is at least
// gap_up); the neighbour down when it lies strictly between -1.25 gap_down and -h_down (the gap
// below r's lower neighbour is at least half of gap_down). A tie or anything closer than the margin
// to a midpoint is left to the exact path, as are zeros, subnormal parts, NaN and infinities.
KOKKOS_FORCEINLINE_FUNCTION bool rounded_complex_abs_fast(const Kokkos::complex<double>& x,
                                                          double& result) {
  const double a = x.real(), b = x.imag();
  double p1, e1, p2, e2, s, t;
  two_prod(a, a, p1, e1);
  two_prod(b, b, p2, e2);
  const bool split = product_splits_exactly(p1, a, a) & product_splits_exactly(p2, b, b);
  two_sum(p1, p2, s, t);
  const bool in_range = (s >= 0x1p-900) & (s <= 0x1p900);
  const double r = compat::sqrt(s);
  double rr, ree;
  two_prod(r, r, rr, ree);
  const double D = s - rr;
  const double R = ((D - ree) + t) + (e1 + e2);
  const double M =
      compat::fabs(D) + compat::fabs(ree) + compat::fabs(t) + compat::fabs(e1) + compat::fabs(e2);
  const double d = R / (2.0 * r);
  const double margin = (M / r + compat::fabs(d)) * 0x1p-46;
  const double up = next_up_nonnegative(r), down = next_down_positive(r);
  const double gap_up = up - r, gap_down = r - down;
  const double lo = d - margin, hi = d + margin;
  const bool stay = (lo > -0.5 * gap_down) & (hi < 0.5 * gap_up);
  const bool go_up = (lo > 0.5 * gap_up) & (hi < 1.5 * gap_up);
  const bool go_down = (hi < -0.5 * gap_down) & (lo > -1.25 * gap_down);
  result = go_up ? up : (go_down ? down : r);
  return split & in_range & (stay | go_up | go_down);
}

// |x|: the fast path above where it decides (doubles), else the exact square root.
template <class T>
KOKKOS_INLINE_FUNCTION T rounded_complex_abs(const Kokkos::complex<T>& x) {
  if constexpr (std::is_same<T, double>::value) {
    double r;
    if (rounded_complex_abs_fast(x, r)) return r;
  }
  return rounded_complex_abs_exact(x);
}

// The sign of |a| - |b| for parts that are not NaN, exactly, so that two values whose rounded
// moduli tie (both round to the same value, or both overflow) are still ordered: an infinite part
// makes a modulus larger than every finite one, and two infinite moduli are equal; otherwise the
// sign of |a|^2 - |b|^2, its four squares in one long accumulator (no over- or underflow). Equal or
// swapped magnitudes of the parts give 0 at once.
KOKKOS_INLINE_FUNCTION int compare_complex_magnitudes(double ar, double ai, double br, double bi) {
  ar = compat::fabs(ar), ai = compat::fabs(ai), br = compat::fabs(br), bi = compat::fabs(bi);
  if ((ar == br && ai == bi) || (ar == bi && ai == br)) return 0;
  constexpr double largest = 0x1.fffffffffffffp+1023;
  const int a_infinite = ar > largest || ai > largest, b_infinite = br > largest || bi > largest;
  if (a_infinite || b_infinite) return a_infinite - b_infinite;
  LongAccumulator acc;
  acc.add_product(ar, ar);
  acc.add_product(ai, ai);
  acc.add_product(-br, br);
  acc.add_product(-bi, bi);
  return acc.sign();
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_ROUNDEDCOMPLEX_HPP
