// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A long accumulator against the MPFR oracle in every rounding it offers: double, float and the
// pair hi/lo (header-only, shared by the long-accumulator and exponent-bin suites).
#ifndef EXKOKKOSTEST_SAMEROUNDINGS_HPP
#define EXKOKKOSTEST_SAMEROUNDINGS_HPP

#include <ExKokkos_LongAccumulator.hpp>

#include <ExKokkosTest_Oracle.hpp>

#include <gtest/gtest.h>

namespace ExKokkosTest {

// Fails (with a message) on the first rounding that differs from the oracle's.
inline ::testing::AssertionResult same_roundings(const ExKokkos::LongAccumulator& acc,
                                                 const ExactSum& oracle) {
  const double d = acc.round(), od = oracle.round_double();
  if (!same_bits(d, od))
    return ::testing::AssertionFailure()
           << "round<double>: " << describe(d) << " vs oracle " << describe(od);
  const float f = acc.round<float>(), of = oracle.round_float();
  if (!same_bits(f, of))
    return ::testing::AssertionFailure()
           << "round<float>: " << describe(f) << " vs oracle " << describe(of);
  double hi, lo;
  acc.round_pair(hi, lo);
  const auto pair = oracle.round_pair();
  if (!same_bits(hi, pair.first) || !same_bits(lo, pair.second))
    return ::testing::AssertionFailure()
           << "round_pair: (" << describe(hi) << ", " << describe(lo) << ") vs oracle ("
           << describe(pair.first) << ", " << describe(pair.second) << ")";
  return ::testing::AssertionSuccess();
}

}  // namespace ExKokkosTest

#endif  // EXKOKKOSTEST_SAMEROUNDINGS_HPP
