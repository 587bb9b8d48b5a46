// CompensatedSum: whenever it certifies a rounding, the result is the MPFR oracle's RN of the exact
// sum, bit for bit, on every sum and product generator (ties, cancellation, the whole range,
// GenDot's ill-conditioned dot products); it refuses what it cannot certify (ties and near-ties,
// zero sums, special values, sums out of range) and certifies nearly every well-conditioned sum, so
// that the LU's fast path is actually taken.
#include <ExKokkos_CompensatedLanes.hpp>
#include <ExKokkos_CompensatedSum.hpp>

#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using ExKokkosTest::describe;
using ExKokkosTest::same_bits;

struct Outcome {
  bool certified = false;
  double value = 0.0;
  double oracle = 0.0;
};

// The terms v and the products x_i y_i, interleaved.
Outcome sum_both(const std::vector<double>& v, const std::vector<double>& x,
                 const std::vector<double>& y) {
  ExKokkos::CompensatedSum c;
  ExKokkosTest::ExactSum oracle;
  const std::size_t n = v.size() > x.size() ? v.size() : x.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (i < v.size()) {
      c.add(v[i]);
      oracle.add(v[i]);
    }
    if (i < x.size()) {
      c.add_product(x[i], y[i]);
      oracle.add_product(x[i], y[i]);
    }
  }
  Outcome o;
  o.certified = c.round(o.value);
  o.oracle = oracle.round_double();
  return o;
}

Outcome sum_of(const std::vector<double>& v) {
  return sum_both(v, {}, {});
}

TEST(CompensatedSum, CertifiedResultsAreCorrectlyRoundedForEveryGenerator) {
  std::mt19937_64 rng(2026);
  const auto sums = ExKokkosTest::sum_generators();
  const auto products = ExKokkosTest::product_generators();
  long certified = 0, total = 0;
  for (int round = 0; round < 40; ++round) {
    for (const auto& g : sums)
      for (const auto& pg : products) {
        const std::size_t n = 1 + rng() % 300;
        const auto v = g.generate(n, rng);
        const auto xy = pg.generate(1 + rng() % 300, rng);
        for (const Outcome& o :
             {sum_of(v), sum_both({}, xy.first, xy.second), sum_both(v, xy.first, xy.second)}) {
          ++total;
          if (!o.certified) continue;
          ++certified;
          ASSERT_TRUE(same_bits(o.value, o.oracle))
              << g.name << " / " << pg.name << ": certified " << describe(o.value) << ", exact "
              << describe(o.oracle);
        }
      }
  }
  std::printf("certified %ld of %ld sums of every generator\n", certified, total);
  EXPECT_GT(certified, 0);
}

TEST(CompensatedSum, IllConditionedDotProductsAreRightOrRefused) {
  std::mt19937_64 rng(7);
  int certified = 0, total = 0;
  for (double cond : {1e5, 1e10, 1e16, 1e20, 1e30, 1e50, 1e100}) {
    for (int t = 0; t < 40; ++t) {
      const auto xy = ExKokkosTest::gen_dot(2 + rng() % 200, cond, rng);
      const Outcome o = sum_both({}, xy.first, xy.second);
      ++total;
      if (!o.certified) continue;
      ++certified;
      ASSERT_TRUE(same_bits(o.value, o.oracle))
          << "cond " << cond << ": certified " << describe(o.value) << ", exact "
          << describe(o.oracle);
    }
  }
  std::printf("GenDot: certified %d of %d\n", certified, total);
  EXPECT_GT(certified, 0);      // moderately conditioned ones pass the test,
  EXPECT_LT(certified, total);  // the hardest do not
}

// The LU's case: an entry minus a dot product of well-scaled numbers. Nearly all certify.
TEST(CompensatedSum, WellConditionedSumsAreNearlyAlwaysCertified) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  int certified = 0;
  const int total = 20000;
  for (int t = 0; t < total; ++t) {
    const std::size_t n = 1 + rng() % 128;
    std::vector<double> x(n), y(n);
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = u(rng);
      y[i] = u(rng);
    }
    const Outcome o = sum_both({u(rng) * 4}, x, y);
    if (!o.certified) continue;
    ++certified;
    ASSERT_TRUE(same_bits(o.value, o.oracle)) << describe(o.value) << " vs " << describe(o.oracle);
  }
  std::printf("uniform dot products: certified %d of %d\n", certified, total);
  EXPECT_GE(certified, total - total / 1000);
}

TEST(CompensatedSum, TiesAndNearTiesAreRefusedOrRight) {
  const double u = std::ldexp(1.0, -53);
  // 1 + u is a tie (to 1, the even one); the gap below 1 is u, so 1 - u/2 is a tie too.
  EXPECT_FALSE(sum_of({1.0, u}).certified);
  EXPECT_FALSE(sum_of({1.0, -u / 2}).certified);
  EXPECT_FALSE(sum_of({u, 1.0}).certified);
  // A sticky bit far below decides a near-tie: refused (or right).
  for (double sticky : {std::ldexp(1.0, -200), -std::ldexp(1.0, -200), std::ldexp(1.0, -120)})
    for (const auto& v :
         {std::vector<double>{1.0, u, sticky}, std::vector<double>{1.0, -u / 2, sticky},
          std::vector<double>{3.0, 2 * u, sticky}}) {
      const Outcome o = sum_of(v);
      if (o.certified) EXPECT_TRUE(same_bits(o.value, o.oracle)) << describe(sticky);
    }
  // Well inside a half gap: certified and right.
  Outcome o = sum_of({1.0, -u / 4});
  EXPECT_TRUE(o.certified);
  EXPECT_TRUE(same_bits(o.value, 1.0));
  o = sum_of({1.0, 3 * u / 4, u / 2});  // 1 + 5u/4 rounds up to 1 + 2u
  EXPECT_TRUE(o.certified);
  EXPECT_TRUE(same_bits(o.value, o.oracle));
}

TEST(CompensatedSum, SpecialValuesZerosAndUnderflowAreRefusedOrRight) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(sum_of({1.0, nan}).certified);
  EXPECT_FALSE(sum_of({inf, 1.0}).certified);
  EXPECT_FALSE(sum_of({-inf, inf}).certified);
  EXPECT_FALSE(sum_of({std::ldexp(1.0, 1000), 1.0}).certified);  // beyond the certified range
  EXPECT_FALSE(sum_of({0x1.fffffffffffffp1023, 0x1.fffffffffffffp1023, -1.0}).certified);
  EXPECT_FALSE(sum_of({1.5, -1.5}).certified);  // zero: its sign needs the exact sum
  EXPECT_FALSE(sum_of({}).certified);
  EXPECT_FALSE(sum_of({std::ldexp(1.0, -1010)}).certified);  // below the certified range
  // Products that overflow, or are NaN (0 * inf).
  EXPECT_FALSE(sum_both({1.0}, {std::ldexp(1.0, 600)}, {std::ldexp(1.0, 600)}).certified);
  EXPECT_FALSE(sum_both({1.0}, {0.0}, {inf}).certified);
  EXPECT_FALSE(sum_both({1.0}, {nan}, {0.0}).certified);
  // A product that underflows (TwoProd no longer exact) is within the margin's slack: far below
  // the result it is certified, and right; near the bottom of the range it is refused.
  Outcome o = sum_both({1.0}, {std::ldexp(1.0, -600)}, {std::ldexp(1.0, -600)});
  EXPECT_TRUE(o.certified);
  EXPECT_TRUE(same_bits(o.value, 1.0));
  o = sum_both({std::ldexp(1.0, -990)}, {std::ldexp(1.3, -537)}, {std::ldexp(1.7, -537)});
  if (o.certified) EXPECT_TRUE(same_bits(o.value, o.oracle));
  // Zero factors add exact zeros.
  o = sum_both({3.0}, {0.0, 2.0, -0.0}, {5.0, 0.25, 7.0});
  EXPECT_TRUE(o.certified);
  EXPECT_TRUE(same_bits(o.value, 3.5));
}

// CompensatedLanes<W>: lane j certifies exactly when a CompensatedSum of lane j's terms does, with
// the same value.
TEST(CompensatedLanes, EachLaneIsACompensatedSum) {
  std::mt19937_64 rng(5);
  const auto products = ExKokkosTest::product_generators();
  constexpr int W = 8;
  for (int t = 0; t < 400; ++t) {
    const int count = 1 + static_cast<int>(rng() % 100);
    std::vector<std::vector<double>> a(W), b(W);
    double initial[W];
    for (int j = 0; j < W; ++j) {
      const auto xy = products[rng() % products.size()].generate(count, rng);
      a[j] = xy.first;
      b[j] = xy.second;
      a[j].resize(count, 1.0);
      b[j].resize(count, 1.0);
      initial[j] = xy.first.empty() ? 0.5 : xy.first[0];
    }
    ExKokkos::CompensatedLanes<W> lanes;
    lanes.add(initial);
    lanes.add_products(
        [&](int k, int j, double& x, double& y) {
          x = a[j][k];
          y = b[j][k];
        },
        count);
    for (int j = 0; j < W; ++j) {
      ExKokkos::CompensatedSum one;
      one.add(initial[j]);
      for (int k = 0; k < count; ++k) one.add_product(a[j][k], b[j][k]);
      double from_lanes = 0.0, from_one = 0.0;
      const bool lane_certified = lanes.round(j, from_lanes);
      ASSERT_EQ(lane_certified, one.round(from_one)) << "lane " << j;
      if (lane_certified) EXPECT_TRUE(same_bits(from_lanes, from_one)) << "lane " << j;
    }
  }
}

}  // namespace
