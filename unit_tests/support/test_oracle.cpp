// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The oracle checks itself: hand-worked values, agreement with the hardware where one IEEE
// operation is the exact answer, and the claims of the generators.
#include "ExKokkosTest_GemvOracle.hpp"
#include "ExKokkosTest_Generators.hpp"
#include "ExKokkosTest_Oracle.hpp"
#include "ExKokkosTest_Triangular.hpp"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <limits>

namespace {

using namespace ExKokkosTest;

double sum2(double a, double b) {
  ExactSum s;
  s.add(a);
  s.add(b);
  return s.round_double();
}

TEST(Oracle, HandWorkedValues) {
  EXPECT_TRUE(same_bits(exact_sum(Vector{0x1p52, 0x1p-60}), 0x1p52));
  // ulp(x) = 2^-73; 2^-74 is half an ulp and 2^-150 breaks the tie upwards.
  EXPECT_TRUE(same_bits(exact_sum(Vector{0x1.fa358df3d19d0p-21, 0x1p-74, 0x1p-150}),
                        0x1.fa358df3d19d1p-21));
  EXPECT_TRUE(same_bits(exact_sum(Vector{0x1.fa358df3d19d0p-21, 0x1p-74}), 0x1.fa358df3d19d0p-21));
  EXPECT_TRUE(same_bits(exact_sum(Vector{-0x1p1020}), -0x1p1020));
  EXPECT_TRUE(same_bits(exact_sum(Vector{0x1p-1074}), 0x1p-1074));
  EXPECT_TRUE(
      same_bits(exact_sum(Vector{0x1p1023, 0x1p1023}), std::numeric_limits<double>::infinity()));
  // DBL_MAX + 2^970 is exactly halfway to 2^1024; ties-to-even rounds to 2^1024, an overflow.
  EXPECT_TRUE(
      same_bits(exact_sum(Vector{DBL_MAX, 0x1p970}), std::numeric_limits<double>::infinity()));
  EXPECT_TRUE(same_bits(exact_sum(Vector{DBL_MAX, 0x1p970, -0x1p-1074}), DBL_MAX));
  ExactSum p;
  p.add_product(1e200, 1e200);
  p.add_product(-1e200, 1e200);
  p.add(1.0);
  EXPECT_TRUE(same_bits(p.round_double(), 1.0));
  ExactSum tiny;
  tiny.add_product(0x1p-550, 0x1p-550);  // 2^-1100
  EXPECT_TRUE(same_bits(tiny.round_double(), 0.0));
  for (int i = 0; i < 25; ++i) tiny.merge(ExactSum(tiny));  // 2^25 terms: 2^-1075, a tie
  EXPECT_TRUE(same_bits(tiny.round_double(), 0.0));
  tiny.merge(ExactSum(tiny));  // 2^-1074
  EXPECT_TRUE(same_bits(tiny.round_double(), 0x1p-1074));
}

TEST(Oracle, Nrm2) {
  EXPECT_TRUE(same_bits(exact_nrm2(Vector{1e300, 1e300}), 1.4142135623730952e+300));
  EXPECT_TRUE(same_bits(exact_nrm2(Vector{1e-300, 1e-300}), 1.414213562373095e-300));
  EXPECT_TRUE(same_bits(exact_nrm2(Vector{3.0, 4.0}), 5.0));
  EXPECT_TRUE(same_bits(exact_nrm2(Vector{}), 0.0));
}

TEST(Oracle, SpecialValuesAndZeros) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(std::isnan(exact_sum(Vector{inf, -inf})));
  EXPECT_TRUE(std::isnan(exact_sum(Vector{1.0, std::nan("")})));
  EXPECT_TRUE(same_bits(exact_sum(Vector{inf, 1.0}), inf));
  EXPECT_TRUE(same_bits(exact_sum(Vector{}), 0.0));
  EXPECT_TRUE(same_bits(exact_sum(Vector{-0.0}), -0.0));
  EXPECT_TRUE(same_bits(exact_sum(Vector{-0.0, 0.0}), 0.0));
  EXPECT_TRUE(same_bits(exact_sum(Vector{1.0, -1.0}), 0.0));
  EXPECT_TRUE(same_bits(exact_dot(Vector{-0.0}, Vector{3.0}), -0.0));
  EXPECT_TRUE(same_bits(exact_dot(Vector{-0.0}, Vector{-3.0}), 0.0));
  EXPECT_TRUE(std::isnan(exact_dot(Vector{inf}, Vector{0.0})));
  ExactSum neg;
  neg.add_product(-0x1p-1000, 0x1p-1000);
  EXPECT_TRUE(same_bits(neg.round_double(), -0.0));
  const auto pair = neg.round_pair();
  EXPECT_TRUE(same_bits(pair.first, -0.0));
  EXPECT_TRUE(same_bits(pair.second, -0.0));
}

// One IEEE addition or multiplication is correctly rounded: the oracle must agree with it.
TEST(Oracle, AgreesWithSingleHardwareOperations) {
  Rng rng(5);
  for (int i = 0; i < 200000; ++i) {
    const double a = full_range(1, rng)[0];
    const double b = std::ldexp(full_range(1, rng)[0], -static_cast<int>(rng() % 64));
    ASSERT_TRUE(same_bits(sum2(a, b), a + b)) << describe(a) << " + " << describe(b);
    // Two floats add exactly in double, so rounding that double to float is one rounding.
    const float fa = static_cast<float>(a), fb = static_cast<float>(b);
    ExactSum s;
    s.add(fa);
    s.add(fb);
    ASSERT_TRUE(same_bits(s.round_float(), fa + fb)) << describe(fa) << " + " << describe(fb);
    const double c = uniform(1, rng)[0] * std::ldexp(1.0, static_cast<int>(rng() % 200) - 100);
    const double d = normal(1, rng)[0];
    ExactSum p;
    p.add_product(c, d);
    ASSERT_TRUE(same_bits(p.round_double(), c * d)) << describe(c) << " * " << describe(d);
    const float fc = static_cast<float>(c), fd = static_cast<float>(d);
    ExactSum pf;
    pf.add_product(fc, fd);
    ASSERT_TRUE(same_bits(pf.round_float(), fc * fd));
  }
}

TEST(Oracle, RoundPairIsConsistent) {
  Rng rng(6);
  for (int i = 0; i < 20000; ++i) {
    const Vector v = lognormal_wide(1 + rng() % 10, rng);
    ExactSum s;
    for (double x : v) s.add(x);
    const auto pr = s.round_pair();
    // |lo| <= ulp(hi)/2, and S - hi - lo is below half an ulp of lo.
    ASSERT_LE(std::fabs(pr.second),
              (std::nextafter(std::fabs(pr.first), INFINITY) - std::fabs(pr.first)) / 2);
    ExactSum rest(s);
    rest.add(-pr.first);
    rest.add(-pr.second);
    const double r = std::fabs(rest.round_double());
    const double lo = std::fabs(pr.second);
    ASSERT_LE(r, lo == 0.0 ? 0.0 : (std::nextafter(lo, INFINITY) - lo) / 2)
        << describe(pr.first) << " " << describe(pr.second);
  }
}

TEST(Generators, DoWhatTheyClaim) {
  Rng rng(7);
  for (int i = 0; i < 200; ++i) {
    EXPECT_TRUE(same_bits(exact_sum(exact_cancellation(1 + rng() % 50, rng)), 0.0));
    for (double x : subnormal_only(10, rng)) EXPECT_LT(std::fabs(x), DBL_MIN);
  }
  for (double cond : {1e10, 1e50, 1e100, 1e200, 1e300}) {
    const VectorPair xy = gen_dot(100, cond, rng);
    const double achieved = dot_condition(xy.first, xy.second);
    EXPECT_GT(achieved, cond * 1e-4) << "target " << cond;
    EXPECT_LT(achieved, cond * 1e4) << "target " << cond;
  }
  const VectorPair big = overflow_cancel_products(100, rng);
  bool overflowed = false;
  for (std::size_t i = 0; i < big.first.size(); ++i)
    overflowed |= std::isinf(big.first[i] * big.second[i]);
  EXPECT_TRUE(overflowed);
  EXPECT_TRUE(std::isfinite(exact_dot(big.first, big.second)));
  const VectorPair small = underflow_products(100, rng);
  ExactSum s;
  for (std::size_t i = 0; i < small.first.size(); ++i)
    s.add_product(small.first[i], small.second[i]);
  EXPECT_NE(s.sign(), 0);
}

// Hand-worked cases for the level-2 oracles.
TEST(GemvOracle, HandWorkedCases) {
  EXPECT_EQ(exact_gemv_entry(2.0, {1, 2}, {3, 4}, 0.0, std::nan("")), 22.0);  // y not read
  EXPECT_EQ(exact_gemv_entry(2.0, {1, 2}, {3, 4}, -0.5, 4.0), 20.0);
  // alpha * a * x is 2^-1100 and -2^-1101 (below the subnormals, 0 in plain double); with
  // beta y = 2^-1074 the exact 2^-1074 + 2^-1101 rounds to 2^-1074.
  EXPECT_EQ(exact_gemv_entry(0x1p-600, {0x1p-250, -0x1p-251}, {0x1p-250, 0x1p-250}, 1.0, 0x1p-1074),
            0x1p-1074);
  // 2^-1075 exactly halfway between 0 and 2^-1074: ties to even gives 0; a sticky 2^-1200 above
  // it rounds up.
  EXPECT_TRUE(same_bits(exact_gemv_entry(0x1p-575, {0x1p-250}, {0x1p-250}, 0.0, 0.0), 0.0));
  EXPECT_EQ(exact_gemv_entry(0x1p-575, {0x1p-250, 0x1p-300}, {0x1p-250, 0x1p-325}, 0.0, 0.0),
            0x1p-1074);
  // Each product 2^1100 overflows in plain double; their exact difference 2^1047 times alpha is
  // 2^947. And an exact result beyond the range rounds to +inf.
  EXPECT_EQ(
      exact_gemv_entry(0x1p-100, {0x1p1000, -0x1p1000}, {0x1p100, 0x1.fffffffffffffp99}, 0.0, 0.0),
      0x1p947);
  EXPECT_EQ(exact_gemv_entry(0x1p600, {0x1p500, -0x1p500}, {1.0, 1.0 - 0x1p-53}, 0.0, 0.0),
            std::numeric_limits<double>::infinity());
  EXPECT_TRUE(same_bits(exact_gemv_entry(1.0, {1.0}, {1.0}, -1.0, 1.0), 0.0));  // cancellation
  EXPECT_EQ(exact_gemv_entry(3.0f, {1.0f}, {0x1p-20f}, 1.0f, 1.0f), 1.0f + 0x1p-20f * 3.0f);
}

TEST(GemvOracle, TriangularSolveOfAnIntegerSystem) {
  // [2 0 0; 1 4 0; -3 2 8] x = [2, 9, 1] has x = [1, 2, 0.25].
  const std::vector<double> a = {2, 0, 0, 1, 4, 0, -3, 2, 8};
  EXPECT_EQ(exact_trsv('L', 'N', 'N', a, 3, {2, 9, 1.5}), (std::vector<double>{1, 2, 0.0625}));
  // x = 1/3 is rounded once.
  EXPECT_EQ(exact_trsv('L', 'N', 'N', {3.0}, 1, {1.0}), (std::vector<double>{1.0 / 3.0}));
  // The transpose of the lower matrix is upper: solve backwards.
  EXPECT_EQ(exact_trsv('U', 'T', 'N', {2, 1, 0, 4}, 2, {2, 9}), (std::vector<double>{1, 2}));
  Rng rng(3);
  for (double target : {1e5, 1e15}) {
    const double cond = skeel_condition(ill_conditioned_lower_triangular(40, target, rng));
    EXPECT_GT(cond, target * 1e-2);
    EXPECT_LT(cond, target * 1e2);
  }
}

}  // namespace
