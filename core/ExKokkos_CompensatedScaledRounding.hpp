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
// the tighter test) is used.
#ifndef EXKOKKOS_COMPENSATEDSCALEDROUNDING_HPP
#define EXKOKKOS_COMPENSATEDSCALEDROUNDING_HPP

#include "ExKokkos_CompensatedSum.hpp"
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

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_COMPENSATEDSCALEDROUNDING_HPP
