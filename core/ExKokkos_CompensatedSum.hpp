// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::CompensatedSum: a cheap first try at the correctly rounded exact sum of terms and
// products, which either certifies its result or refuses, leaving the sum to an exact method.
//
// Where many short sums are each rounded once (the entries of an LU factorization), an expansion
// of N slots costs N TwoSums per term, about 40 flops for N = 4, although the rounding almost
// never depends on more than the first two doubles of the exact sum. This keeps those two: Dot2 of
// Ogita, Rump and Oishi ("Accurate sum and dot product", SIAM J. Sci. Comput. 26 (2005), Alg. 5.3),
// a TwoProd and one TwoSum per product into the head s, the exact errors of both summed in plain
// floating point into c, the magnitudes of the products into P: 11 flops per product, no branch.
//
// Certificate. With the n terms x_i (a product counts as its p_i = RN(a_i b_i)), s_i the head after
// i of them and k = terms() the number of error terms t (the TwoSum errors q_i, and the TwoProd
// errors e_i), every step but the sum of the errors is error-free, so the exact sum is
//     S = s + E + U,  E = sum of the t,  |U| <= k 2^-1075
// (U: a product below about 2^-969 may have an error that is not a double; fma rounds it, by at
// most half the smallest subnormal). Bounds, with u = 2^-53 and P = sum |x_i|:
//   |e_i| <= u |p_i|, |q_i| <= u |s_i| and |s_i| <= (1 + u)^i P, so sum |t| <= u P (1 + k (1 +
//   u)^k); c is E summed recursively, |c - E| <= gamma_{k-1} sum |t| (Higham, "Accuracy and
//   Stability of Numerical Algorithms", 2nd ed., (4.4); additions have no underflow error); the
//   computed P is at least (1 - u)^n P (a sum of non-negative terms, each step rounded).
// For k <= 2^20 these give |S - (s + c)| <= margin = 4 u^2 (k + 1)^2 P + 2^-1022 with room to spare
// (a factor 2 over the bound covers the rounding of the margin's own products; 2^-1022 covers U and
// their underflow). With r + d = s + c exactly (TwoSum), S = r + d + delta, |delta| <= margin, and
// r = RN(S) whenever |d| + margin is below half the narrower gap between r and its neighbours
// (certified_nearest in ExKokkos_ExpansionRounding.hpp): no point within reach of S rounds
// elsewhere or is a tie. Refused: results near zero or the ends of the range, and every sum with
// P >= 2^1000, which takes in NaN and infinities (they make P NaN or infinite) and keeps every
// step far from overflow (|s_i| <= 2^1001), so no per-term check is needed. A zero sum is refused
// too: its sign needs the exact method.
#ifndef EXKOKKOS_COMPENSATEDSUM_HPP
#define EXKOKKOS_COMPENSATEDSUM_HPP

#include "ExKokkos_Compat.hpp"
#include "ExKokkos_ErrorFreeTransforms.hpp"
#include "ExKokkos_ExpansionRounding.hpp"

namespace ExKokkos {
namespace Impl {

// The margin above: |S - (s + c)| <= margin for the floating-point sum magnitude of the |x_i| and
// `terms` error terms. False (no bound) beyond 2^20 terms, and for magnitudes of 2^1000 or more,
// NaN and infinities included.
constexpr int compensated_max_terms = 1 << 20;  // the margin's bound assumes at most this many

// The margin's formula alone, for callers that check the bounds themselves (CompensatedLanes,
// CompensatedRow).
KOKKOS_INLINE_FUNCTION double compensated_margin_unchecked(double magnitude, int terms) {
  const double k1 = double(terms + 1);
  return magnitude * (k1 * k1) * 0x1p-104 + 0x1p-1022;
}

KOKKOS_INLINE_FUNCTION bool compensated_margin(double magnitude, int terms, double& margin) {
  if (terms > compensated_max_terms || !(magnitude < EftLimits<double>::big)) return false;
  margin = compensated_margin_unchecked(magnitude, terms);
  return true;
}

// The certificate above without its branches, for loops over many sums that must vectorize
// (CompensatedLanes::round_all, CompensatedRow::round): r = RN(s + c), and true when r is RN(exact
// sum). The caller checks terms <= compensated_max_terms once for all of them.
KOKKOS_INLINE_FUNCTION bool certified_compensated(double s, double c, double magnitude, int terms,
                                                  double& r) {
  double d;
  two_sum(s, c, r, d);
  return (magnitude < EftLimits<double>::big) &
         certified_nearest(r, d, compensated_margin_unchecked(magnitude, terms));
}

// The certificate above for the head s, the floating-point sum c of the `terms` error terms and
// the floating-point sum magnitude of the |x_i|: RN(exact sum) into result, or false.
KOKKOS_INLINE_FUNCTION bool round_compensated(double s, double c, double magnitude, int terms,
                                              double& result) {
  double r;
  if (terms > compensated_max_terms || !certified_compensated(s, c, magnitude, terms, r))
    return false;
  result = r;
  return true;
}

class CompensatedSum {
 public:
  CompensatedSum() = default;  // (nvcc: a defaulted constructor takes no execution space)
  // A sum already under way: the head, the errors' sum, the magnitude and the number of error
  // terms, with the meaning and bounds above (CompensatedLanes::fold).
  KOKKOS_INLINE_FUNCTION CompensatedSum(double s, double c, double magnitude, int terms)
      : s_(s), c_(c), magnitude_(magnitude), terms_(terms) {}

  KOKKOS_INLINE_FUNCTION void add(double x) {
    double q;
    two_sum(s_, x, s_, q);
    c_ += q;
    magnitude_ += Impl::compat::fabs(x);
    terms_ += 1;
  }

  KOKKOS_INLINE_FUNCTION void add_product(double a, double b) {
    double p, e, q;
    two_prod(a, b, p, e);
    two_sum(s_, p, s_, q);
    c_ += q;
    c_ += e;
    magnitude_ += Impl::compat::fabs(p);
    terms_ += 2;
  }

  // Adds the sum `other` to this one: the heads by TwoSum (its error into the errors' sum), the
  // errors' sums and the magnitudes added. The result stands for all the terms of both, with
  // terms() + other.terms() + 1 error terms, and the margin holds for it by the argument of
  // CompensatedLanes::fold (ExKokkos_CompensatedLanes.hpp), which is one tree of such merges: in
  // any tree of merges, a chain included, a term's contribution to a head passes through no more
  // roundings than there are error terms, an error term through no more additions, and each
  // magnitude through no more. Used where threads sum a dot product's terms in strides and fold
  // their sums (exgemv's output_block schedule). The count saturates above
  // Impl::compensated_max_terms, where round refuses anyway.
  KOKKOS_INLINE_FUNCTION void merge(const CompensatedSum& other) {
    double q;
    two_sum(s_, other.s_, s_, q);
    c_ = (c_ + other.c_) + q;
    magnitude_ += other.magnitude_;
    const long long k = static_cast<long long>(terms_) + other.terms_ + 1;
    constexpr long long saturated = Impl::compensated_max_terms + 1;
    terms_ = static_cast<int>(k < saturated ? k : saturated);
  }

  // RN(exact sum) when certified (see above); false when the caller must sum exactly.
  KOKKOS_INLINE_FUNCTION bool round(double& result) const {
    return Impl::round_compensated(s_, c_, magnitude_, terms_, result);
  }

  KOKKOS_INLINE_FUNCTION int terms() const { return terms_; }
  KOKKOS_INLINE_FUNCTION double head() const { return s_; }
  KOKKOS_INLINE_FUNCTION double errors() const { return c_; }
  KOKKOS_INLINE_FUNCTION double magnitude() const { return magnitude_; }

 private:
  double s_ = 0.0, c_ = 0.0, magnitude_ = 0.0;  // the head, the errors' sum, the sum of |x_i|
  int terms_ = 0;
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_COMPENSATEDSUM_HPP
