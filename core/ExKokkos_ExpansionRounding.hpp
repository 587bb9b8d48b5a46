// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Correct rounding of the exact sum of a few doubles (an expansion's slots) without a long
// accumulator, when a cheap test certifies it; otherwise the caller deposits the slots into an
// accumulator. Used where many short exact sums are each rounded once (the LU's entries, the
// outputs of exgemv and exgemm), and where a long accumulator's normalization and rounding would
// cost more than the sum itself.
//
// Method. A VecSum pass (Ogita, Rump, Oishi 2005, Alg. 4.3) from the last slot up leaves
// x_0 = r and exact errors x_1 .. x_{n-1}: S = r + D with D = x_1 + ... + x_{n-1}. D is summed
// with TwoSum; when every error of that sum is zero, d = D exactly; otherwise |D - d| <= margin
// = 2^-48 sum |x_i| (at most max_vec_sum_terms terms, below). Then r
// is RN(S) if |D| is below half the gap from r to its neighbour on D's side (on either side when
// d is inexact), or, d being exact, at a tie that ties-to-even settles. Results near zero, at the
// edges of the range or not finite are left to the accumulator.
#ifndef EXKOKKOS_EXPANSIONROUNDING_HPP
#define EXKOKKOS_EXPANSIONROUNDING_HPP

#include "ExKokkos_CorrectlyRoundedSqrt.hpp"
#include "ExKokkos_Expansion.hpp"
#include "ExKokkos_RoundedAxpby.hpp"

namespace ExKokkos {
namespace Impl {

// True when r = RN(r + d + delta) for every |delta| <= margin: |d| + margin is below half the
// narrower of the two gaps around r (so no value within reach rounds elsewhere or is a tie), and r
// lies in [2^-1000, 2^1000) (no subnormal gaps, no overflow). Computing |d| + margin rounds, but
// rounding is monotonic, so a computed sum below the half gap (a double) means a true sum below it.
// Branch-free, so that CompensatedLanes::round_all vectorizes (out of range, the neighbours'
// bit patterns may mean anything; the range test alone decides).
KOKKOS_INLINE_FUNCTION bool certified_nearest(double r, double d, double margin) {
  const double ar = compat::fabs(r);
  const bool in_range = (ar >= 0x1p-1000) & (ar < 0x1p1000);  // false for zero, NaN, inf
  const double up = next_up_nonnegative(ar), down = next_down_positive(ar);
  const double half_up = (up - ar) * 0.5, half_down = (ar - down) * 0.5;
  const double narrower = half_up < half_down ? half_up : half_down;
  return in_range & (compat::fabs(d) + margin < narrower);
}

// The most terms for which the margin magnitude 2^-48 holds. D's M - 1 terms are summed by M - 2
// additions, each off by at most u = 2^-53 of its partial sum, so |D - d| <= gamma_(M-2) sum |x_i|
// (gamma_k = k u / (1 - k u), Higham's recursive-summation bound); `magnitude` is that sum computed
// in floating point, at least (1 - gamma_(M-2)) sum |x_i|. With M - 2 <= 31 the bound is at most
// 31 u (1 + 2^11 u) magnitude < 32 u magnitude = 2^-48 magnitude; M = 34 would exceed it.
constexpr int max_vec_sum_terms = 33;

// The VecSum pass (see above): afterwards x[0] = r and the exact sum is r + D, D = x[1] + ... +
// x[M-1]; d is D summed with TwoSum, exact when every error of that sum was zero, and otherwise
// within magnitude 2^-48 of D (magnitude: sum |x_i|, i >= 1; M <= max_vec_sum_terms).
template <int M>
KOKKOS_INLINE_FUNCTION void vec_sum_pass(double (&x)[M], double& d, double& magnitude,
                                         bool& exact) {
  static_assert(M <= max_vec_sum_terms, "the VecSum margin 2^-48 assumes at most 33 terms");
  EXKOKKOS_UNROLL_TERMS
  for (int i = M - 1; i > 0; --i) two_sum(x[i - 1], x[i], x[i - 1], x[i]);
  d = M > 1 ? x[1] : 0.0;
  magnitude = compat::fabs(d);
  exact = true;
  EXKOKKOS_UNROLL_TERMS
  for (int i = 2; i < M; ++i) {
    double s, err;
    two_sum(d, x[i], s, err);
    exact = exact & (err == 0.0);
    d = s;
    magnitude += compat::fabs(x[i]);
  }
}

// The exact sum of the M doubles x (any order, any overlap) rounded to nearest, when the test
// above certifies it; false leaves the rounding to an accumulator. x is overwritten.
// One VecSum pass and the test above on the x it leaves.
template <int M>
KOKKOS_INLINE_FUNCTION bool round_terms_pass(double (&x)[M], double& result) {
  double d, magnitude;
  bool exact;
  vec_sum_pass(x, d, magnitude, exact);
  const double r = x[0];
  const double ar = compat::fabs(r);
  if (!(ar >= 0x1p-1000 && ar < 0x1p1000)) return false;  // also zero, NaN, inf
  const double up = next_up_nonnegative(ar), down = next_down_positive(ar);
  const double half_up = (up - ar) * 0.5, half_down = (ar - down) * 0.5;
  const bool away_from_zero = (d > 0.0) == (r > 0.0);
  const double ad = compat::fabs(d);
  if (!exact) {
    if (!certified_nearest(r, d, magnitude * 0x1p-48)) return false;
    result = r;
    return true;
  }
  const double half_gap = away_from_zero ? half_up : half_down;
  if (ad < half_gap) {
    result = r;
    return true;
  }
  if (ad == half_gap) {  // an exact tie between r and that neighbour: to the even one
    const double magnitude_rounded = is_even(ar) ? ar : (away_from_zero ? up : down);
    result = r > 0.0 ? magnitude_rounded : -magnitude_rounded;
    return true;
  }
  return false;
}

// The exact sum of the M doubles x (any order, any overlap) rounded to nearest, when the test
// above certifies it; false leaves the rounding to an accumulator. x is overwritten (its exact
// sum kept: VecSum is error-free). When one pass does not certify, a second VecSum pass on what
// the first left (SumK with K = 2: its leading term is then the sum to within about one rounding,
// the errors far below it) usually does: with terms of mixed magnitudes (alpha times an
// expansion plus beta y) one pass leaves r within a few ulps of the small terms' sum, and about
// one element in eight of exgemm's Ozaki path failed the test on that alone.
template <int M>
KOKKOS_INLINE_FUNCTION bool round_terms_fast(double (&x)[M], double& result) {
  if (round_terms_pass(x, result)) return true;
  const double r = compat::fabs(x[0]);
  if (!(r >= 0x1p-1000 && r < 0x1p1000)) return false;
  return round_terms_pass(x, result);
}

// round_terms_fast written without branches and always inlined, so that a loop over elements
// vectorizes: two VecSum passes, unconditionally (each is error-free, so r + D stays the exact
// sum), then the test above on what they leave, with selects and bitwise operators only (GCC
// compiles ?: between bools, or a bool made from a bit, into branches that stop vectorization).
// True when `result` is certainly RN(sum x); false leaves the rounding to an accumulator, so the
// bits do not depend on which one ran. x is overwritten.
template <int M>
KOKKOS_FORCEINLINE_FUNCTION bool round_terms_branch_free(double (&x)[M], double& result) {
  double d, magnitude;
  bool exact;
  vec_sum_pass(x, d, magnitude, exact);
  vec_sum_pass(x, d, magnitude, exact);
  const double r = x[0], ar = compat::fabs(r);
  const bool in_range = (ar >= 0x1p-1000) & (ar < 0x1p1000);
  const double up = next_up_nonnegative(ar), down = next_down_positive(ar);
  const double half_up = (up - ar) * 0.5, half_down = (ar - down) * 0.5;
  const bool away_from_zero = (d > 0.0) == (r > 0.0);
  const double half_gap = away_from_zero ? half_up : half_down;
  const double narrower = half_up < half_down ? half_up : half_down;
  const double ad = compat::fabs(d);
  const bool inside = (exact & (ad < half_gap)) | (!exact & (ad + magnitude * 0x1p-48 < narrower));
  const bool tie = exact & (ad == half_gap);
  // A tie goes to the even one of r and that neighbour: r when its last bit is 0.
  const double neighbour = tie ? (away_from_zero ? up : down) : ar;
  const double rounded = (compat::bit_cast<std::uint64_t>(ar) & 1u) != 0 ? neighbour : ar;
  result = r > 0.0 ? rounded : -rounded;
  return in_range & (inside | tie);
}

// RN(V) for a value V within `uncertainty` of the exact sum of the M doubles x (|V - sum x| <=
// uncertainty, a bound the caller proves), when certified; false otherwise. x is overwritten.
// One or two VecSum passes as in round_terms_fast, each followed by certified_nearest with the
// pass's own margin (magnitude 2^-48) plus the uncertainty. No tie is ever certified: V is not
// known exactly. The two margins are added in floating point, which may round down by a relative
// u; the factor 1 + 2^-40 restores an upper bound (the sum is a normal double: uncertainty, by
// the caller's bound, is at least 2^-1022).
template <int M>
KOKKOS_INLINE_FUNCTION bool round_terms_within(double (&x)[M], double uncertainty, double& result) {
  for (int pass = 0; pass < 2; ++pass) {
    double d, magnitude;
    bool exact;
    vec_sum_pass(x, d, magnitude, exact);
    const double margin = (magnitude * 0x1p-48 + uncertainty) * (1.0 + 0x1p-40);
    if (certified_nearest(x[0], d, margin)) {
      result = x[0];
      return true;
    }
    const double r = compat::fabs(x[0]);
    if (!(r >= 0x1p-1000 && r < 0x1p1000)) return false;
  }
  return false;
}

template <int N, bool EarlyExit>
KOKKOS_INLINE_FUNCTION bool round_expansion_fast(const Expansion<N, EarlyExit>& e, double& result) {
  double x[N];
  for (int i = 0; i < N; ++i) x[i] = e[i];
  return round_terms_fast(x, result);
}

// RN(alpha S + beta y) for S = the sum of N slots, without a long accumulator when certified
// (exgemv's and exgemm's outputs whose expansion kept every term): alpha s_i and beta y split
// exactly with TwoProd into 2 N + 2 doubles whose exact sum is the value. False when a product
// may not split exactly or the rounding is not certified; the caller then deposits the slots.
template <int N>
KOKKOS_INLINE_FUNCTION bool round_scaled_slots_fast(const double (&slots)[N], double alpha,
                                                    double beta, double y, bool read_y,
                                                    double& result) {
  double x[2 * N + 2];
  bool exact = true;
  for (int i = 0; i < N; ++i) {
    two_prod(alpha, slots[i], x[2 * i], x[2 * i + 1]);
    exact = exact && product_splits_exactly(x[2 * i], alpha, slots[i]);
  }
  x[2 * N] = 0.0;
  x[2 * N + 1] = 0.0;
  if (read_y) {
    two_prod(beta, y, x[2 * N], x[2 * N + 1]);
    exact = exact && product_splits_exactly(x[2 * N], beta, y);
  }
  return exact && round_terms_fast(x, result);
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_EXPANSIONROUNDING_HPP
