// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// RN(a*x + b*y + c*z) correctly rounded as one expression: the elementwise core of exupdate, the
// sum of three products of ExKokkos_RoundedSumOfProducts.hpp (its fast path certifies the
// rounding of the six TwoProd terms, its exact path is the long accumulator; the proof is there).
#ifndef EXKOKKOS_ROUNDEDUPDATE_HPP
#define EXKOKKOS_ROUNDEDUPDATE_HPP

#include "ExKokkos_RoundedSumOfProducts.hpp"

namespace ExKokkos {
namespace Impl {

KOKKOS_INLINE_FUNCTION double rounded_update_exact(double a, double x, double b, double y, double c,
                                                   double z) {
  const double f[3] = {a, b, c}, v[3] = {x, y, z};
  return rounded_sum_of_products_exact(f, v);
}

// The fast path alone, always inlined: true when `result` is certainly RN(a x + b y + c z);
// otherwise the caller takes rounded_update_exact.
KOKKOS_FORCEINLINE_FUNCTION bool rounded_update_fast(double a, double x, double b, double y,
                                                     double c, double z, double& result) {
  const double f[3] = {a, b, c}, v[3] = {x, y, z};
  return rounded_sum_of_products_fast(f, v, result);
}

KOKKOS_INLINE_FUNCTION double rounded_update(double a, double x, double b, double y, double c,
                                             double z) {
  const double f[3] = {a, b, c}, v[3] = {x, y, z};
  return rounded_sum_of_products(f, v);
}

KOKKOS_INLINE_FUNCTION float rounded_update(float a, float x, float b, float y, float c, float z) {
  const float f[3] = {a, b, c}, v[3] = {x, y, z};
  return rounded_sum_of_products(f, v);
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_ROUNDEDUPDATE_HPP
