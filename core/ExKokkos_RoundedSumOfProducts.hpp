// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// RN(a_1 b_1 + ... + a_N b_N) correctly rounded as one expression, for a handful of products: one
// element of exupdate (N = 3) and each part of a complex element of the elementwise routines
// (ExKokkos_RoundedComplex.hpp: N = 2 for a product, 4 for exaxpby, 6 for exupdate).
//
// Double: each product is split exactly with TwoProd into two doubles, so the 2N doubles sum
// exactly to the value; round_terms_branch_free (ExKokkos_ExpansionRounding.hpp: two VecSum
// passes and the half-gap test, with its proof; no branches, so that a loop over elements
// vectorizes) rounds it when it can certify the result. Everything it cannot certify (a product
// outside TwoProd's exact range, results near zero, near a tie, near the ends of the range, NaN
// and infinities) takes the long accumulator, which holds the products exactly and rounds once
// with IEEE's rules for special values (inf - inf and 0 * inf are NaN, an exact zero is +0 unless
// every product is -0): the result is RN of the exact value in every case, and the fast path only
// answers when it provably agrees.
//
// Float: a product of two floats is exact in double, so the value is the exact sum of N doubles,
// rounded once to float by the accumulator.
#ifndef EXKOKKOS_ROUNDEDSUMOFPRODUCTS_HPP
#define EXKOKKOS_ROUNDEDSUMOFPRODUCTS_HPP

#include "ExKokkos_ExpansionRounding.hpp"
#include "ExKokkos_LongAccumulator.hpp"
#include "ExKokkos_RoundedAxpby.hpp"

namespace ExKokkos {
namespace Impl {

template <int N, class T>
KOKKOS_INLINE_FUNCTION T rounded_sum_of_products_exact(const T (&a)[N], const T (&b)[N]) {
  LongAccumulator acc;
  for (int k = 0; k < N; ++k) acc.add_product(a[k], b[k]);  // exact, also for floats
  return acc.round<T>();
}

// The fast path alone, always inlined and without branches: true when `result` is certainly
// RN(sum a_k b_k); otherwise the caller takes rounded_sum_of_products_exact.
template <int N>
KOKKOS_FORCEINLINE_FUNCTION bool rounded_sum_of_products_fast(const double (&a)[N],
                                                              const double (&b)[N],
                                                              double& result) {
  double t[2 * N];
  bool split = true;
  for (int k = 0; k < N; ++k) {
    two_prod(a[k], b[k], t[2 * k], t[2 * k + 1]);
    split = split & product_splits_exactly(t[2 * k], a[k], b[k]);
  }
  double r;
  const bool certified = round_terms_branch_free(t, r);
  result = r;
  return split & certified;
}

template <int N>
KOKKOS_INLINE_FUNCTION double rounded_sum_of_products(const double (&a)[N], const double (&b)[N]) {
  double r;
  if (rounded_sum_of_products_fast(a, b, r)) return r;
  return rounded_sum_of_products_exact(a, b);
}

template <int N>
KOKKOS_INLINE_FUNCTION float rounded_sum_of_products(const float (&a)[N], const float (&b)[N]) {
  return rounded_sum_of_products_exact(a, b);
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_ROUNDEDSUMOFPRODUCTS_HPP
