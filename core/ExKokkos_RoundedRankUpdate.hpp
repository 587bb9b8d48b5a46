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
// Float: a product of two floats is exact in double, and alpha times it splits exactly with
// TwoProd (when not zero its magnitude lies in [2^-447, 2^384], and its error term on a grid of
// at least 2^-520: no under- or overflow), so the 2 K + 1 doubles a, q_k, f_k sum exactly to the
// value; round_terms_to_float_within (ExKokkos_CompensatedScaledRounding.hpp) rounds them to
// float when no float midpoint lies within its bound. It refuses zero, NaN and infinite results
// and those below 2^-100, which the accumulator then rounds once to float from the exact alpha S
// + a. Complex<float> parts likewise: 8 K + 1 doubles, the triple products' inner products of
// floats exact in double.
//
// Kokkos::complex values: each part of a + alpha S, S = sum_k x_k y_k (the caller conjugates the
// factors its mode asks for), rounded once: S's parts are two exact sums of 2K products
// (add_complex_product), part p of alpha S is f_0 re S + f_1 im S (complex_part_coefficients), and
// round_scaled_sums rounds that plus a's part p as one expression, a's part added as it is (a
// complex 1 x a would turn an infinite part's partner into inf * 0 = NaN). Special values follow
// IEEE arithmetic on alpha S + a as Kokkos::complex evaluates it, with S's parts as their exact
// sums give them. The Hermitian rank-2 update a + alpha P + conj(alpha Q) (exsyr2 "H": P = x_i
// conj(y_j), Q = conj(y_i) x_j) has the parts re a + re(alpha (P + Q)) and im a + im(alpha (P -
// Q)): each from its own pair of exact sums. For doubles a certified fast path comes first: for
// K = 1 exmult's (rounded_complex_mult_fast on 1 a + alpha x y); for K = 2 each part is a's part
// plus eight triple products with signs, alpha's parts times those of x_0 y_0 and of x_1 y_1 (the
// latter negated in the imaginary part of the Hermitian element), 8 x 4 + 1 = 33 doubles from
// TwoProd that round_terms_branch_free rounds when it certifies the result, as for doubles above.
// Both answer for finite values only (never a zero, never outside [2^-1000, 2^1000)).
#ifndef EXKOKKOS_ROUNDEDRANKUPDATE_HPP
#define EXKOKKOS_ROUNDEDRANKUPDATE_HPP

#include "ExKokkos_CompensatedScaledRounding.hpp"
#include "ExKokkos_ExpansionRounding.hpp"
#include "ExKokkos_LongAccumulator.hpp"
#include "ExKokkos_RoundedComplex.hpp"
#include "ExKokkos_RoundedComplexMult.hpp"
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

// The float fast path (above): true when `result` is certainly RN_float(a + alpha sum_k x_k y_k).
template <int K>
KOKKOS_INLINE_FUNCTION bool rounded_rank_update_fast(float a, float alpha, const float (&x)[K],
                                                     const float (&y)[K], float& result) {
  double t[2 * K + 1];
  for (int k = 0; k < K; ++k)
    two_prod(double(alpha), double(x[k]) * double(y[k]), t[2 * k], t[2 * k + 1]);
  t[2 * K] = a;
  return round_terms_to_float_within(t, 0.0, result);
}

template <int K>
KOKKOS_INLINE_FUNCTION float rounded_rank_update(float a, float alpha, const float (&x)[K],
                                                 const float (&y)[K]) {
  float r;
  if (rounded_rank_update_fast<K>(a, alpha, x, y, r)) return r;
  LongAccumulator s;
  for (int k = 0; k < K; ++k) s.add_product(x[k], y[k]);  // exact in double
  return round_scaled_sum<float>(s, alpha, 1.0, a, true);
}

// The complex K = 2 fast path (above), always inlined and without branches: true when (re, im) is
// certainly RN(a + alpha (x0 y0 + x1 y1)), or with hermitian RN(re a + re(alpha (x0 y0 + x1 y1)))
// and RN(im a + im(alpha (x0 y0 - x1 y1))) (the caller has conjugated the factors its mode asks
// for). The values come as their parts, so that a loop over elements may vectorize.
KOKKOS_FORCEINLINE_FUNCTION bool rounded_complex_rank2_fast(double ar, double ai,
                                                            const Kokkos::complex<double>& alpha,
                                                            double x0r, double x0i, double y0r,
                                                            double y0i, double x1r, double x1i,
                                                            double y1r, double y1i, bool hermitian,
                                                            double& re, double& im) {
  const ComplexPartFactors p0(alpha.real(), alpha.imag(), x0r, x0i, y0r, y0i);
  const ComplexPartFactors p1(alpha.real(), alpha.imag(), x1r, x1i, y1r, y1i);
  const double s = hermitian ? -1.0 : 1.0;  // exact: a sign
  const double fi1[4] = {s * p1.fi[0], s * p1.fi[1], s * p1.fi[2], s * p1.fi[3]};
  double t[33], u[33];
  bool split = (compat::fabs(ar) < 0x1p1000) & (compat::fabs(ai) < 0x1p1000);
  complex_triple_terms(p0.fr, p0.a, p0.x, t, 0, split);
  complex_triple_terms(p1.fr, p1.a, p1.x, t, 16, split);
  t[32] = ar;
  complex_triple_terms(p0.fi, p0.a, p0.x, u, 0, split);
  complex_triple_terms(fi1, p1.a, p1.x, u, 16, split);
  u[32] = ai;
  double r0, r1;
  const bool re_ok = round_terms_branch_free(t, r0);
  const bool im_ok = round_terms_branch_free(u, r1);
  re = r0;
  im = r1;
  return split & re_ok & im_ok;
}

// The complex<float> fast path (above): true when (re, im) is certainly each part of a + alpha
// sum_k x_k y_k (hermitian: the second product negated in the imaginary part) rounded once to
// float. Part p is a's part plus sum_k s_k sum_m f_m (a_m x_m) over the four products of
// ComplexPartFactors, each a_m x_m exact in double and f_m times it split by TwoProd.
template <int K>
KOKKOS_INLINE_FUNCTION bool rounded_complex_rank_update_fast(const Kokkos::complex<float>& a,
                                                             const Kokkos::complex<float>& alpha,
                                                             const Kokkos::complex<float> (&x)[K],
                                                             const Kokkos::complex<float> (&y)[K],
                                                             bool hermitian, float& re, float& im) {
  double t[2][8 * K + 1];
  for (int k = 0; k < K; ++k) {
    const ComplexPartFactors p(alpha.real(), alpha.imag(), x[k].real(), x[k].imag(), y[k].real(),
                               y[k].imag());
    const double s = (k == 1 && hermitian) ? -1.0 : 1.0;  // the imaginary part's sign of Q
    for (int m = 0; m < 4; ++m) {
      const double ax = p.a[m] * p.x[m];  // exact: a product of floats
      two_prod(p.fr[m], ax, t[0][8 * k + 2 * m], t[0][8 * k + 2 * m + 1]);
      two_prod(s * p.fi[m], ax, t[1][8 * k + 2 * m], t[1][8 * k + 2 * m + 1]);
    }
  }
  t[0][8 * K] = a.real();
  t[1][8 * K] = a.imag();
  return round_terms_to_float_within(t[0], 0.0, re) && round_terms_to_float_within(t[1], 0.0, im);
}

// Part `part` of a + alpha S rounded once, S's parts exact in s (see above).
template <class T, class C>
KOKKOS_INLINE_FUNCTION T round_complex_rank_part(LongAccumulator (&s)[2], const C& a,
                                                 const C& alpha, int part) {
  s[0].normalize();
  s[1].normalize();
  const std::uint64_t* const sums[2] = {s[0].digits(), s[1].digits()};
  const std::uint32_t flags[2] = {s[0].flags(), s[1].flags()};
  double f[2];
  complex_part_coefficients(alpha, part, f);
  const double one[1] = {1.0};
  const double ap[1] = {static_cast<double>(part == 0 ? a.real() : a.imag())};
  return round_scaled_sums<T, 2, 1>(sums, flags, f, one, ap, true);
}

// RN(a + alpha sum_k x_k y_k) per part for complex values; hermitian (K = 2 only): RN(a +
// alpha x_0 y_0 + conj(alpha x_1 y_1)), exsyr2's Hermitian element (see above).
template <int K, class T>
KOKKOS_INLINE_FUNCTION Kokkos::complex<T> rounded_complex_rank_update(
    const Kokkos::complex<T>& a, const Kokkos::complex<T>& alpha, const Kokkos::complex<T> (&x)[K],
    const Kokkos::complex<T> (&y)[K], bool hermitian) {
  if constexpr (K == 1 && std::is_same<T, double>::value) {
    double re, im;
    if (rounded_complex_mult_fast(Kokkos::complex<double>(1.0, 0.0), a.real(), a.imag(), true,
                                  alpha, x[0].real(), x[0].imag(), y[0].real(), y[0].imag(), re,
                                  im))
      return Kokkos::complex<double>(re, im);
  }
  if constexpr (std::is_same<T, float>::value) {
    float re, im;
    if (rounded_complex_rank_update_fast<K>(a, alpha, x, y, hermitian, re, im))
      return Kokkos::complex<float>(re, im);
  }
  if constexpr (K == 2 && std::is_same<T, double>::value) {
    double re, im;
    if (rounded_complex_rank2_fast(a.real(), a.imag(), alpha, x[0].real(), x[0].imag(), y[0].real(),
                                   y[0].imag(), x[1].real(), x[1].imag(), y[1].real(), y[1].imag(),
                                   hermitian, re, im))
      return Kokkos::complex<double>(re, im);
  }
  // S = sum_k x_k y_k for both parts; or, when hermitian, P + Q for the real part and P - Q (the
  // second product negated, exactly) for the imaginary part.
  const auto add_products = [&](LongAccumulator(&s)[2], double sign) {
    for (int k = 0; k < K; ++k) {
      const double sk = k == 1 ? sign : 1.0;
      add_complex_product(s, sk * double(x[k].real()), sk * double(x[k].imag()),
                          double(y[k].real()), double(y[k].imag()));
    }
  };
  T r[2];
  LongAccumulator s[2];
  add_products(s, 1.0);
  r[0] = round_complex_rank_part<T>(s, a, alpha, 0);
  if (hermitian) {
    LongAccumulator d[2];
    add_products(d, -1.0);
    r[1] = round_complex_rank_part<T>(d, a, alpha, 1);
  } else {
    r[1] = round_complex_rank_part<T>(s, a, alpha, 1);
  }
  return Kokkos::complex<T>(r[0], r[1]);
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_ROUNDEDRANKUPDATE_HPP
