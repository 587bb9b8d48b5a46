// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// RN(alpha S + beta y) from a CompensatedSum of S (ExKokkos_CompensatedSum.hpp), when certified:
// the cheap first try for an output of exgemv (and exgemm), whose exact path rounds the same value
// from a long accumulator (ExKokkos_ScaledSumRounding.hpp). False leaves the output to that path.
//
// Certificate. CompensatedSum's margin m bounds |S - (s + c)| (s the head, c the errors' sum), so
//     alpha S + beta y = alpha s + alpha c + beta y + alpha delta,  |delta| <= m.
// TwoProd splits alpha s, alpha c and beta y into six doubles whose sum is exactly
// alpha (s + c) + beta y, provided each split is exact (product_splits_exactly: no underflow of
// the error, no overflow, or an exact zero; NaN and infinities fail it). The value is then within
// |alpha| m of the sum of the six, and round_terms_within certifies its rounding with that
// uncertainty (VecSum, then certified_nearest with the pass's own margin plus |alpha| m).
// Computing |alpha| m rounds: RN(|alpha| m) >= (1 - u) |alpha| m - 2^-1075 (underflow), and the
// factor 1 + 2^-40 and the added 2^-1021 make the computed uncertainty an upper bound of |alpha| m
// ((1 - u)^2 (1 + 2^-40) > 1; 2^-1021 covers the 2^-1075 and keeps the value normal). If it
// overflows, certified_nearest refuses (|d| + inf is no less than any gap).
//
// With alpha = 1 and beta y absent the value is S itself, and round_compensated (no splitting,
// the tighter test) is used. The same certificate over several sums known in parts
// (round_scaled_parts_within) rounds complex exgemv's outputs, and to float directly
// (round_scaled_parts_to_float_within) for complex<float> ones.
#ifndef EXKOKKOS_COMPENSATEDSCALEDROUNDING_HPP
#define EXKOKKOS_COMPENSATEDSCALEDROUNDING_HPP

#include "ExKokkos_CompensatedSum.hpp"
#include "ExKokkos_CorrectlyRoundedSqrt.hpp"
#include "ExKokkos_ExpansionRounding.hpp"
#include "ExKokkos_RoundedAxpby.hpp"

namespace ExKokkos {
namespace Impl {

// RN(alpha S + beta y) into result when certified, S the exact sum that `sum` stands for; beta y
// is left out when !read_y (BLAS: beta == 0 does not read y). False: the caller rounds exactly.
KOKKOS_INLINE_FUNCTION bool round_compensated_scaled(const CompensatedSum& sum, double alpha,
                                                     double beta, double y, bool read_y,
                                                     double& result) {
  if (alpha == 1.0 && !read_y) return sum.round(result);
  double margin;
  if (!compensated_margin(sum.magnitude(), sum.terms(), margin)) return false;
  double x[6];
  two_prod(alpha, sum.head(), x[0], x[1]);
  two_prod(alpha, sum.errors(), x[2], x[3]);
  bool exact = product_splits_exactly(x[0], alpha, sum.head()) &
               product_splits_exactly(x[2], alpha, sum.errors());
  x[4] = 0.0;
  x[5] = 0.0;
  if (read_y) {
    two_prod(beta, y, x[4], x[5]);
    exact = exact & product_splits_exactly(x[4], beta, y);
  }
  if (!exact) return false;
  const double uncertainty = compat::fabs(alpha) * margin * (1.0 + 0x1p-40) + 0x1p-1021;
  return round_terms_within(x, uncertainty, result);
}

// The terms of round_scaled_parts_within and round_scaled_parts_to_float_within (below): x[2 (3 j +
// q)] + x[2 (3 j + q) + 1] = alpha_j parts[j][q] and x[2 (3 NS + p)] + x[2 (3 NS + p) + 1] = beta_p
// y_p (zeros when !read_y), exactly when the function returns true (every TwoProd split exact),
// with `bound` the computed upper bound of U = sum_j |alpha_j| margin[j] (the bound is proved at
// round_scaled_parts_within).
template <int NS, int NP>
KOKKOS_INLINE_FUNCTION bool scaled_parts_terms(const double (&alpha)[NS],
                                               const double (&parts)[NS][3],
                                               const double (&margin)[NS], const double (&beta)[NP],
                                               const double (&y)[NP], bool read_y,
                                               double (&x)[2 * (3 * NS + NP)], double& bound) {
  static_assert(NS >= 1 && NS <= 4, "the uncertainty's bound is proved for at most four sums");
  bool exact = true;
  double uncertainty = 0.0;
  for (int j = 0; j < NS; ++j) {
    for (int q = 0; q < 3; ++q) {
      double& p = x[2 * (3 * j + q)];
      two_prod(alpha[j], parts[j][q], p, x[2 * (3 * j + q) + 1]);
      exact = exact & product_splits_exactly(p, alpha[j], parts[j][q]);
    }
    uncertainty += compat::fabs(alpha[j]) * margin[j];
  }
  for (int p = 0; p < NP; ++p) {
    double& t = x[2 * (3 * NS + p)];
    t = 0.0;
    x[2 * (3 * NS + p) + 1] = 0.0;
    if (read_y) {
      two_prod(beta[p], y[p], t, x[2 * (3 * NS + p) + 1]);
      exact = exact & product_splits_exactly(t, beta[p], y[p]);
    }
  }
  bound = uncertainty * (1.0 + 0x1p-40) + 0x1p-1021;
  return exact;
}

// RN(sum_j alpha_j S_j + sum_p beta_p y_p) into result when certified, each exact sum S_j known
// only as h_j + l_j + r_j (parts[j]) within margin[j] (|S_j - h_j - l_j - r_j| <= margin[j]); the
// products are left out when !read_y. Each part of a complex exgemv output (NS = 4 real sums of
// products of parts, NP = 2), the parts of each sum being a compensated sum's head and errors, or
// a long accumulator's leading roundings. The certificate is the one above: TwoProd splits the
// 3 NS + NP products into doubles whose sum is exactly the value with every S_j replaced by its
// parts (when each split is exact), the value lies within U = sum_j |alpha_j| margin[j] of it,
// and round_terms_within certifies the rounding with that uncertainty. Computed, each product
// |alpha_j| margin[j] is at least (1 - u) times its value less 2^-1075 (underflow), and each of
// the NS - 1 additions loses at most a relative u (sums of subnormals are exact), so the computed
// sum is at least (1 - u)^NS U - NS 2^-1075; the factor 1 + 2^-40 and the added 2^-1021, each
// rounded, make it an upper bound of U for NS <= 4 ((1 - u)^6 (1 + 2^-40) > 1, and (1 - u)
// 2^-1021 exceeds the 4 2^-1075) that is a normal double, as round_terms_within requires. Alphas,
// betas and y must be finite (the caller's exact path handles the rest); a margin that overflows
// refuses.
template <int NS, int NP>
KOKKOS_INLINE_FUNCTION bool round_scaled_parts_within(
    const double (&alpha)[NS], const double (&parts)[NS][3], const double (&margin)[NS],
    const double (&beta)[NP], const double (&y)[NP], bool read_y, double& result) {
  double x[2 * (3 * NS + NP)], bound;
  if (!scaled_parts_terms(alpha, parts, margin, beta, y, read_y, x, bound)) return false;
  return round_terms_within(x, bound, result);
}

// The float result from a certified double one: true, with f = RN_float(V), when r = RN_double(V)
// is not a midpoint between two consecutive floats. Every such midpoint M is a double (25
// significant bits, inside double's exponent range), and rounding to double is monotonic, so
// V < M gives r <= M and V > M gives r >= M: when r is no midpoint, V and r lie strictly on the
// same side of every one, and RN_float, constant between consecutive midpoints, rounds both
// alike: f = float(r). The test: fa = RN_float(|r|) and d = |r| - fa, exact by Sterbenz (fa is
// within half a float ulp of |r|, or zero, when d = |r|); |r| is a midpoint when d != 0 and 2 |d|
// is the gap from fa to its neighbour on d's side. |r| >= FLT_MAX (where the overflow boundary is
// another such point) and NaN refuse.
KOKKOS_INLINE_FUNCTION bool float_rounding_agrees(double r, float& f) {
  const double a = compat::fabs(r);
  if (!(a < 0x1.fffffep+127)) return false;  // FLT_MAX
  const float fa = static_cast<float>(a);
  const double d = a - static_cast<double>(fa);
  if (d != 0.0) {
    const float g = d > 0.0 ? next_up_nonnegative(fa) : next_down_positive(fa);
    if (2.0 * compat::fabs(d) == compat::fabs(static_cast<double>(g) - static_cast<double>(fa)))
      return false;
  }
  f = sign_bit(r) ? -fa : fa;
  return true;
}

// RN_float(V) into f for any V within e of the double r (|V - r| <= e): fa = RN_float(|r|) and the
// two float midpoints around it, fa plus or minus half the gap on its side, each an exact double
// of 25 significant bits; |r| minus either is exact by Sterbenz (both in [2^-100, 2^128)). When e
// is below both distances, V lies strictly between the midpoints, so RN_float(V) = fa with r's
// sign. e may be computed: rounding is monotonic, so a computed e below a double distance means
// a true one below it. Refused: |r| below 2^-100 (subnormal floats and zero), fa = FLT_MAX or
// more (the overflow threshold is no midpoint that the neighbours give), NaN.
KOKKOS_INLINE_FUNCTION bool float_rounding_within(double r, double e, float& f) {
  const double a = compat::fabs(r);
  if (!(a >= 0x1p-100 && a < 0x1.fffffep+127)) return false;
  const float fa = static_cast<float>(a);
  if (!(fa < 0x1.fffffep+127f)) return false;
  const double fd = static_cast<double>(fa);
  const double mid_up = fd + (static_cast<double>(next_up_nonnegative(fa)) - fd) * 0.5;
  const double mid_down = fd - (fd - static_cast<double>(next_down_positive(fa))) * 0.5;
  if (!(e < mid_up - a && e < a - mid_down)) return false;
  f = sign_bit(r) ? -fa : fa;
  return true;
}

// RN_float(V) into result for V within `bound` of the exact sum of the M doubles x (bound = 0:
// V is that sum), when certified: after each VecSum pass, which leaves r = x[0] and d with |sum x
// - r - d| <= magnitude 2^-48 (ExKokkos_ExpansionRounding.hpp), |V - r| <= |d| + magnitude 2^-48
// + bound decides through float_rounding_within; the factor 1 + 2^-40 covers the rounding of that
// sum (as in round_terms_within). Refused: whatever float_rounding_within refuses. x is
// overwritten (its exact sum kept).
template <int M>
KOKKOS_INLINE_FUNCTION bool round_terms_to_float_within(double (&x)[M], double bound,
                                                        float& result) {
  for (int pass = 0; pass < 2; ++pass) {
    double d, magnitude;
    bool d_exact;
    vec_sum_pass(x, d, magnitude, d_exact);
    const double within = (magnitude * 0x1p-48 + bound) * (1.0 + 0x1p-40);
    if (float_rounding_within(x[0], compat::fabs(d) + within, result)) return true;
  }
  return false;
}

// RN_float(sum_j alpha_j S_j + sum_p beta_p y_p) into result when certified: the terms of
// round_scaled_parts_within, and after each VecSum pass, which leaves r = x[0] and d with
// |V - r - d| <= margin (round_terms_within's margin, the same expression), |V - r| <= |d| +
// margin decides through float_rounding_within. The double rounding first (then
// float_rounding_agrees) refuses where V is a tie between two doubles, which round_terms_within
// never certifies (V is not known exactly), and such ties are common when the kept sums are exact
// (long accumulators): the value then has only a few bits beyond a double's. RN_float(V) needs only
// that no float midpoint lies within |d| + margin of r.
template <int NS, int NP>
KOKKOS_INLINE_FUNCTION bool round_scaled_parts_to_float_within(
    const double (&alpha)[NS], const double (&parts)[NS][3], const double (&margin)[NS],
    const double (&beta)[NP], const double (&y)[NP], bool read_y, float& result) {
  constexpr int M = 2 * (3 * NS + NP);
  double x[M], bound;
  if (!scaled_parts_terms(alpha, parts, margin, beta, y, read_y, x, bound)) return false;
  return round_terms_to_float_within(x, bound, result);
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_COMPENSATEDSCALEDROUNDING_HPP
