// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The compiled error-free transformations are exact: a + b == s + e and a * b == p + e, checked
// with the MPFR oracle on random inputs over the whole range where each one promises exactness.
// This file is compiled twice (see CMakeLists.txt): once with the library's strict flags and once
// with contraction forced on (-ffp-contract=fast, and FMA instructions where the CPU has them), to
// prove that no flag a user might build with can break them.
#include <ExKokkos_ErrorFreeTransforms.hpp>
#include <impl/ExKokkos_WideMultiply.hpp>

#include <ExKokkosTest_Oracle.hpp>

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace {

using ExKokkosTest::ExactSum;

// A random finite double with a random sign and an exponent in [emin, emax].
double random_double(std::mt19937_64& rng, int emin, int emax) {
  std::uniform_int_distribution<int> exponent(emin, emax);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  const double x = std::ldexp(mantissa(rng), exponent(rng));
  return (rng() & 1) ? -x : x;
}

// True when x1 + x2 - y1 - y2 is exactly zero.
bool exact_identity(double x1, double x2, double y1, double y2) {
  ExactSum s;
  s.add(x1);
  s.add(x2);
  s.add(-y1);
  s.add(-y2);
  return s.sign() == 0;
}

TEST(ErrorFreeTransforms, TwoSumIsExact) {
  std::mt19937_64 rng(1);
  for (int i = 0; i < 200000; ++i) {
    // Operands close in magnitude (heavy cancellation) and far apart, subnormals included.
    const int base = std::uniform_int_distribution<int>(-1074, 1021)(rng);
    const int spread = std::uniform_int_distribution<int>(0, 120)(rng);
    const double a = random_double(rng, base, base);
    const double b = random_double(rng, std::max(base - spread, -1074), base);
    double s, e;
    ExKokkos::Impl::two_sum(a, b, s, e);
    ASSERT_TRUE(exact_identity(a, b, s, e))
        << ExKokkosTest::describe(a) << " + " << ExKokkosTest::describe(b);
    ASSERT_EQ(s, a + b);  // s is the rounded sum
  }
}

TEST(ErrorFreeTransforms, FastTwoSumIsExactWhenOrdered) {
  std::mt19937_64 rng(2);
  for (int i = 0; i < 200000; ++i) {
    double a = random_double(rng, -1000, 1000);
    double b = random_double(rng, -1074, 1000);
    if (std::fabs(a) < std::fabs(b)) std::swap(a, b);
    double s, e;
    ExKokkos::Impl::fast_two_sum(a, b, s, e);
    ASSERT_TRUE(exact_identity(a, b, s, e));
  }
}

TEST(ErrorFreeTransforms, TwoProdIsExactInItsRange) {
  std::mt19937_64 rng(3);
  int exact_range = 0;
  for (int i = 0; i < 200000; ++i) {
    const double a = random_double(rng, -600, 600);
    const double b = random_double(rng, -600, 600);
    double p, e;
    ExKokkos::Impl::two_prod(a, b, p, e);
    ASSERT_EQ(p, a * b);
    if (!ExKokkos::Impl::two_prod_is_exact(p)) continue;
    ++exact_range;
    ExactSum s;
    s.add_product(a, b);
    s.add(-p);
    s.add(-e);
    ASSERT_EQ(s.sign(), 0) << ExKokkosTest::describe(a) << " * " << ExKokkosTest::describe(b);
  }
  EXPECT_GT(exact_range, 100000);
}

// At the edges of two_prod_is_exact: products just above 2^-969 are still exact, the rounding
// error of products below it may not be representable (those go to the integer path).
TEST(ErrorFreeTransforms, TwoProdThresholdIsSafe) {
  std::mt19937_64 rng(4);
  for (int i = 0; i < 100000; ++i) {
    const double a = random_double(rng, -600, -400);
    const double b = std::ldexp(random_double(rng, 0, 0), -969 - std::ilogb(a) + (int)(rng() % 3));
    double p, e;
    ExKokkos::Impl::two_prod(a, b, p, e);
    if (!ExKokkos::Impl::two_prod_is_exact(p)) continue;
    ExactSum s;
    s.add_product(a, b);
    s.add(-p);
    s.add(-e);
    ASSERT_EQ(s.sign(), 0) << ExKokkosTest::describe(a) << " * " << ExKokkosTest::describe(b);
  }
}

// The contraction probe: if the compiler fused x * y + z here, the result would differ. It guards
// the build flags of ExKokkos' own targets (compiled with EXKOKKOS_EXPECT_NO_CONTRACTION).
#if defined(EXKOKKOS_EXPECT_NO_CONTRACTION)
// The lanes' TwoSum computes two of its subtractions as fma(x, 1, -y) on hosts with fma units
// (compat::difference_on_fma_unit): that must be the same double as x - y for every pair, signed
// zeros, subnormals, overflow to infinity and infinities included (NaN stays NaN).
TEST(ErrorFreeTransforms, DifferenceOnFmaUnitIsTheRoundedDifference) {
  std::mt19937_64 rng(7);
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> specials = {0.0,       -0.0,        1.0,     -1.0,     0x1p-1074, -0x1p-1074,
                                  0x1p-1022, 0x1.8p-1022, DBL_MAX, -DBL_MAX, inf,       -inf};
  for (const double x : specials)
    for (const double y : specials) {
      const double want = x - y, got = ExKokkos::Impl::compat::difference_on_fma_unit(x, y);
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got)) << x << " - " << y;
      } else {
        EXPECT_EQ(std::signbit(got), std::signbit(want)) << x << " - " << y;
        EXPECT_EQ(got, want) << x << " - " << y;
      }
    }
  for (int i = 0; i < 200000; ++i) {
    // Close operands (cancellation, exact results), far apart ones, subnormals and the top.
    const double x = random_double(rng, -1074, 1023);
    const double y = i % 2 ? x * (1.0 + std::ldexp(random_double(rng, 0, 0), -(i % 60)))
                           : random_double(rng, -1074, 1023);
    const double got = ExKokkos::Impl::compat::difference_on_fma_unit(x, y);
    ASSERT_EQ(got, x - y) << x << " - " << y;
    ASSERT_EQ(std::signbit(got), std::signbit(x - y)) << x << " - " << y;
    if (std::isfinite(got)) {
      ExactSum exact;
      exact.add(x);
      exact.add(-y);
      const double rounded = exact.round_double();
      ASSERT_EQ(got, rounded) << x << " - " << y;
    }
  }
}

TEST(ErrorFreeTransforms, OwnTargetsAreBuiltWithoutContraction) {
  volatile double vx = 1.0 + 0x1p-30, vy = 1.0 - 0x1p-30, vz = -1.0;
  const double x = vx, y = vy, z = vz;
  const double unfused = x * y + z;  // x*y = 1 - 2^-60 rounds to 1, so this is 0 unless fused
  EXPECT_EQ(unfused, 0.0) << "the compiler contracted x * y + z into an fma: the build flags of "
                             "ExKokkos' own targets must include -ffp-contract=off";
}
#endif

// The product of two integers below 2^56 (significands; the square root's midpoints) from 32-bit
// halves (the form compilers without a 128-bit type run) against the 128-bit product, at the
// corners and at random.
TEST(WideMultiply, ByHalvesIsTheFullProduct) {
  std::mt19937_64 rng(33);
  const std::uint64_t top = (std::uint64_t(1) << 56) - 1;
  std::vector<std::uint64_t> values = {
      0,   1,      2, std::uint64_t(1) << 32, (std::uint64_t(1) << 32) - 1, std::uint64_t(1) << 52,
      top, top - 1};
  for (int i = 0; i < 100000; ++i) values.push_back(rng() & top);
  for (std::size_t i = 0; i + 1 < values.size(); ++i) {
    for (std::size_t j : {i, i + 1}) {
      std::uint64_t high, low;
      ExKokkos::Impl::multiply_wide_by_halves(values[i], values[j], high, low);
#if defined(__SIZEOF_INT128__)
      const unsigned __int128 p = static_cast<unsigned __int128>(values[i]) * values[j];
      ASSERT_EQ(low, static_cast<std::uint64_t>(p)) << values[i] << " * " << values[j];
      ASSERT_EQ(high, static_cast<std::uint64_t>(p >> 64)) << values[i] << " * " << values[j];
#else
      // Without a 128-bit type: the product modulo 2^64 and the high word's bound.
      ASSERT_EQ(low, values[i] * values[j]);
      ASSERT_LT(high, std::uint64_t(1) << 48);
#endif
    }
  }
}

}  // namespace
