// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// RN(a*x + b*y + c*z) correctly rounded as one expression: the elementwise core of exupdate.
//
// Double: the three products are split exactly with TwoProd into six doubles whose exact sum is
// the value; round_terms_branch_free (ExKokkos_ExpansionRounding.hpp, two VecSum passes and the
// half-gap test, with its proof; no branches, so that a loop over elements vectorizes) rounds it
// when it can certify the result. Everything it cannot certify
// (a product outside TwoProd's exact range, results near zero, near a tie, near the ends of the
// range, NaN and infinities) takes the long accumulator, which holds the three products exactly
// and rounds once with IEEE's rules for special values: the result is RN of the exact value in
// every case, and the fast path only decides when it provably agrees.
//
// Float: a product of two floats is exact in double, so the value is the exact sum of three
// doubles, rounded once to float by the accumulator.
#ifndef EXKOKKOS_ROUNDEDUPDATE_HPP
#define EXKOKKOS_ROUNDEDUPDATE_HPP

#include "ExKokkos_ExpansionRounding.hpp"
#include "ExKokkos_LongAccumulator.hpp"
#include "ExKokkos_RoundedAxpby.hpp"

namespace ExKokkos {
namespace Impl {

KOKKOS_INLINE_FUNCTION double rounded_update_exact(double a, double x, double b, double y, double c,
                                                   double z) {
  LongAccumulator acc;
  acc.add_product(a, x);
  acc.add_product(b, y);
  acc.add_product(c, z);
  return acc.round();
}

// The fast path alone, always inlined: true when `result` is certainly RN(a x + b y + c z);
// otherwise the caller takes rounded_update_exact.
KOKKOS_FORCEINLINE_FUNCTION bool rounded_update_fast(double a, double x, double b, double y,
                                                     double c, double z, double& result) {
  double t[6];
  two_prod(a, x, t[0], t[1]);
  two_prod(b, y, t[2], t[3]);
  two_prod(c, z, t[4], t[5]);
  const bool split = product_splits_exactly(t[0], a, x) & product_splits_exactly(t[2], b, y) &
                     product_splits_exactly(t[4], c, z);
  double r;
  const bool certified = round_terms_branch_free(t, r);
  result = r;
  return split & certified;
}

KOKKOS_INLINE_FUNCTION double rounded_update(double a, double x, double b, double y, double c,
                                             double z) {
  double r;
  if (rounded_update_fast(a, x, b, y, c, z, r)) return r;
  return rounded_update_exact(a, x, b, y, c, z);
}

KOKKOS_INLINE_FUNCTION float rounded_update(float a, float x, float b, float y, float c, float z) {
  LongAccumulator acc;
  acc.add_product(a, x);  // exact in double
  acc.add_product(b, y);
  acc.add_product(c, z);
  return acc.round<float>();
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_ROUNDEDUPDATE_HPP
