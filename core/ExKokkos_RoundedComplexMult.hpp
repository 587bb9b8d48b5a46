// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// RN(gamma y + alpha a x) per part for Kokkos::complex<double> and Kokkos::complex<float>: the
// elementwise core of exmult on complex views, each part the exact value rounded once.
//
// The value. With S = a x exactly,
//     re(S) = re(a) re(x) - im(a) im(x),   im(S) = im(a) re(x) + re(a) im(x),
// each part of alpha S + gamma y is
//     re: re(alpha) re(S) - im(alpha) im(S) + re(gamma) re(y) - im(gamma) im(y)
//     im: im(alpha) re(S) + re(alpha) im(S) + im(gamma) re(y) + re(gamma) im(y),
// two scaled exact sums (each of two exact products of doubles, held in a long accumulator) and
// two exact products: round_complex_scaled_sum (ExKokkos_RoundedComplex.hpp) rounds each part
// once, as it rounds a complex exgemv output (here a row of one term). Real multiplication is
// associative, so this is the exact value of the product of the three factors in any grouping.
//
// Special values: where a NaN or an infinity takes part, IEEE arithmetic on the grouping
// alpha (a x) + gamma y, as Kokkos::complex's operators evaluate it, with a x's parts as their
// exact sums give them (round_scaled_sums' rule for genuine specials): (inf + 0i) x (1 + 0i) has
// im(a x) = inf * 0 = NaN. KokkosBlas' (alpha a) x groups otherwise and can differ in which part
// of such a result is NaN; the finite results are the exact values, rounded once, in any grouping.
// An exact zero result carries the IEEE sign of that formula on the exact zeros.
//
// Fast path (double): each part is the exact sum of four triple products with signs (re: re(alpha)
// re(a) re(x), -re(alpha) im(a) im(x), -im(alpha) im(a) re(x), -im(alpha) re(a) im(x)) and two
// products, 4 x 4 + 2 x 2 = 20 doubles from TwoProd (triple_product_terms,
// ExKokkos_RoundedMult.hpp) while every TwoProd is exact; round_terms_branch_free rounds their
// sum when it certifies the result (never a zero, never outside [2^-1000, 2^1000)); otherwise the
// exact path decides, so the bits do not depend on which path ran.
#ifndef EXKOKKOS_ROUNDEDCOMPLEXMULT_HPP
#define EXKOKKOS_ROUNDEDCOMPLEXMULT_HPP

#include "ExKokkos_RoundedComplex.hpp"
#include "ExKokkos_RoundedMult.hpp"
#include "ExKokkos_ScaledSumRounding.hpp"

namespace ExKokkos {
namespace Impl {

// RN(gamma y + alpha a x) per part by the exact path; with_y == false leaves gamma y out (y is
// not read: BLAS' gamma == 0).
template <class T>
KOKKOS_INLINE_FUNCTION Kokkos::complex<T> rounded_complex_mult_exact(
    const Kokkos::complex<T>& gamma, const Kokkos::complex<T>& y, bool with_y,
    const Kokkos::complex<T>& alpha, const Kokkos::complex<T>& a, const Kokkos::complex<T>& x) {
  LongAccumulator s[2];
  add_complex_product(s, a.real(), a.imag(), x.real(), x.imag());
  const double ys[2] = {with_y ? static_cast<double>(y.real()) : 0.0,
                        with_y ? static_cast<double>(y.imag()) : 0.0};
  return round_complex_scaled_sum<T>(s, alpha, gamma, ys, with_y);
}

// The 16 doubles t[o], ..., t[o + 15] whose sum is exactly sum_k f_k a_k x_k (four triple
// products), while `split` stays true: one part of f (a x) for complex f, a, x, with the factors
// ComplexPartFactors below gives.
template <int M>
KOKKOS_FORCEINLINE_FUNCTION void complex_triple_terms(const double (&f)[4], const double (&a)[4],
                                                      const double (&x)[4], double (&t)[M],
                                                      const int o, bool& split) {
  for (int k = 0; k < 4; ++k)
    triple_product_terms(f[k], a[k], x[k], t[o + 4 * k], t[o + 4 * k + 1], t[o + 4 * k + 2],
                         t[o + 4 * k + 3], split);
}

// The factors of f (a x)'s parts as sums of four triple products f_k a_k x_k: a_k and x_k are the
// same for both parts, f_k differs (re: fr, im: fi).
struct ComplexPartFactors {
  double a[4], x[4], fr[4], fi[4];
  KOKKOS_FORCEINLINE_FUNCTION ComplexPartFactors(double f_re, double f_im, double ar, double ai,
                                                 double xr, double xi)
      : a{ar, ai, ai, ar},
        x{xr, xi, xr, xi},
        fr{f_re, -f_re, -f_im, -f_im},
        fi{f_im, -f_im, f_re, f_re} {}
};

// The fast path of one part: sum_k f_k a_k x_k (four triple products) + g0 y0 + g1 y1.
KOKKOS_FORCEINLINE_FUNCTION bool rounded_complex_mult_part_fast(const double (&f)[4],
                                                                const double (&a)[4],
                                                                const double (&x)[4], double g0,
                                                                double y0, double g1, double y1,
                                                                double& result) {
  double t[20];
  bool split = true;
  complex_triple_terms(f, a, x, t, 0, split);
  two_prod(g0, y0, t[16], t[17]);
  two_prod(g1, y1, t[18], t[19]);
  split = split & product_splits_exactly(t[16], g0, y0) & product_splits_exactly(t[18], g1, y1);
  double r;
  const bool certified = round_terms_branch_free(t, r);
  result = r;
  return split & certified;
}

// Both parts' fast paths: true when (re, im) is certainly RN(gamma y + alpha a x); with_y ==
// false: gamma y left out (y not read). The values come as their parts (plain doubles, which is
// what lets a loop over elements vectorize: certified_block, blas/impl/ExKokkos_Elementwise_impl).
KOKKOS_FORCEINLINE_FUNCTION bool rounded_complex_mult_fast(const Kokkos::complex<double>& gamma,
                                                           double yr, double yi, bool with_y,
                                                           const Kokkos::complex<double>& alpha,
                                                           double ar, double ai, double xr,
                                                           double xi, double& re, double& im) {
  const double gr = with_y ? gamma.real() : 0.0, gi = with_y ? gamma.imag() : 0.0;
  const ComplexPartFactors p(alpha.real(), alpha.imag(), ar, ai, xr, xi);
  const bool re_ok = rounded_complex_mult_part_fast(p.fr, p.a, p.x, gr, yr, -gi, yi, re);
  const bool im_ok = rounded_complex_mult_part_fast(p.fi, p.a, p.x, gi, yr, gr, yi, im);
  return re_ok & im_ok;
}

// RN(gamma y + alpha a x) per part: exmult's element (gamma and alpha non-zero).
template <class T>
KOKKOS_INLINE_FUNCTION Kokkos::complex<T> rounded_mult(const Kokkos::complex<T>& gamma,
                                                       const Kokkos::complex<T>& y,
                                                       const Kokkos::complex<T>& alpha,
                                                       const Kokkos::complex<T>& a,
                                                       const Kokkos::complex<T>& x) {
  if constexpr (std::is_same<T, double>::value) {
    double re, im;
    if (rounded_complex_mult_fast(gamma, y.real(), y.imag(), true, alpha, a.real(), a.imag(),
                                  x.real(), x.imag(), re, im))
      return Kokkos::complex<double>(re, im);
  }
  return rounded_complex_mult_exact(gamma, y, true, alpha, a, x);
}

// RN(alpha a x) per part: exmult's element for gamma == 0.
template <class T>
KOKKOS_INLINE_FUNCTION Kokkos::complex<T> rounded_triple_product(const Kokkos::complex<T>& alpha,
                                                                 const Kokkos::complex<T>& a,
                                                                 const Kokkos::complex<T>& x) {
  const Kokkos::complex<T> zero(T(0), T(0));
  if constexpr (std::is_same<T, double>::value) {
    double re, im;
    if (rounded_complex_mult_fast(zero, 0.0, 0.0, false, alpha, a.real(), a.imag(), x.real(),
                                  x.imag(), re, im))
      return Kokkos::complex<double>(re, im);
  }
  return rounded_complex_mult_exact(zero, zero, false, alpha, a, x);
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_ROUNDEDCOMPLEXMULT_HPP
