// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The exponent bins in front of a long accumulator (core/ExKokkos_BinnedSink.hpp) against the
// MPFR oracle, bit for bit in every rounding: every sum and product generator (one term at a time
// and in chunks), sums and products mixed, the bins emptied and used again, more terms than the
// bins take between two emptyings, and the signs of exact zeros.
#include <ExKokkos_BinnedSink.hpp>
#include <ExKokkos_LongAccumulator.hpp>

#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_SameRoundings.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

using ExKokkos::LongAccumulator;
using ExKokkosTest::describe;
using ExKokkosTest::ExactSum;
using ExKokkosTest::same_bits;
using ExKokkosTest::same_roundings;
using Bins = ExKokkos::Impl::BinnedSink<LongAccumulator>;

constexpr int cases_per_generator = 5000;

// Mostly short sums (rounding corner cases are dense there), some long ones.
std::size_t random_size(std::mt19937_64& rng) {
  const std::uint64_t r = rng() % 100;
  if (r < 60) return 1 + rng() % 8;
  if (r < 90) return 1 + rng() % 64;
  return 1 + rng() % 3000;
}

// The bins take 131 KiB: one object per test, on the heap, reused across cases (flush leaves
// them ready for the next sum).
struct Fixture {
  LongAccumulator acc;
  std::unique_ptr<Bins> bins = std::make_unique<Bins>(acc);
  void reset() { acc = LongAccumulator(); }
};

class BinnedSums : public ::testing::TestWithParam<ExKokkosTest::NamedSumGenerator> {};

// Terms through add, and (every other case) through reserve + add_terms_reserved, the chunked
// form the host walk calls, from an index other than 0.
TEST_P(BinnedSums, MatchTheOracle) {
  const auto& gen = GetParam();
  std::mt19937_64 rng(std::hash<std::string>()(gen.name) + 1);
  Fixture f;
  for (int c = 0; c < cases_per_generator; ++c) {
    const std::vector<double> terms = gen.generate(random_size(rng), rng);
    ExactSum oracle;
    f.reset();
    for (double t : terms) oracle.add(t);
    if (c % 2 == 0) {
      for (double t : terms) f.bins->add(t);
    } else {
      const std::int64_t offset = 1 + static_cast<std::int64_t>(rng() % 100);
      const auto values = [&](std::int64_t i) {
        return terms[static_cast<std::size_t>(i - offset)];
      };
      f.bins->reserve(static_cast<std::uint32_t>(terms.size()));
      f.bins->add_terms_reserved(values, offset, static_cast<std::int64_t>(terms.size()));
    }
    f.bins->flush();
    ASSERT_TRUE(same_roundings(f.acc, oracle)) << gen.name << ", " << terms.size() << " terms";
  }
}

INSTANTIATE_TEST_SUITE_P(BinnedSink, BinnedSums,
                         ::testing::ValuesIn(ExKokkosTest::sum_generators()),
                         [](const ::testing::TestParamInfo<ExKokkosTest::NamedSumGenerator>& info) {
                           return info.param.name;
                         });

class BinnedProducts : public ::testing::TestWithParam<ExKokkosTest::NamedProductGenerator> {};

// Products through add_product, through reserve + add_product_reserved, and through reserve +
// add_products_reserved (the chunked form the host walk calls, from an index other than 0).
TEST_P(BinnedProducts, MatchTheOracle) {
  const auto& gen = GetParam();
  std::mt19937_64 rng(std::hash<std::string>()(gen.name) + 2);
  Fixture f;
  for (int c = 0; c < cases_per_generator; ++c) {
    const auto xy = gen.generate(random_size(rng), rng);
    const std::size_t n = xy.first.size();
    ExactSum oracle;
    f.reset();
    for (std::size_t i = 0; i < n; ++i) oracle.add_product(xy.first[i], xy.second[i]);
    if (c % 3 == 0) {
      for (std::size_t i = 0; i < n; ++i) f.bins->add_product(xy.first[i], xy.second[i]);
    } else if (c % 3 == 1) {
      f.bins->reserve(static_cast<std::uint32_t>(n));
      for (std::size_t i = 0; i < n; ++i) f.bins->add_product_reserved(xy.first[i], xy.second[i]);
    } else {
      const std::int64_t offset = 1 + static_cast<std::int64_t>(rng() % 100);
      const auto pairs = [&](std::int64_t i, double& a, double& b) {
        a = xy.first[static_cast<std::size_t>(i - offset)];
        b = xy.second[static_cast<std::size_t>(i - offset)];
      };
      f.bins->reserve(static_cast<std::uint32_t>(n));
      f.bins->add_products_reserved(pairs, offset, static_cast<std::int64_t>(n));
    }
    f.bins->flush();
    ASSERT_TRUE(same_roundings(f.acc, oracle)) << gen.name << ", " << xy.first.size() << " terms";
  }
}

INSTANTIATE_TEST_SUITE_P(
    BinnedSink, BinnedProducts, ::testing::ValuesIn(ExKokkosTest::product_generators()),
    [](const ::testing::TestParamInfo<ExKokkosTest::NamedProductGenerator>& info) {
      return info.param.name;
    });

// Sums and products of every generator's values mixed, one at a time and in runs through the
// chunked forms, some terms straight into the long accumulator beside the bins, and the bins
// emptied at random points and used again: the accumulator's sum is the same however the terms
// went.
TEST(BinnedSink, MixedTermsAndIntermediateFlushes) {
  std::mt19937_64 rng(31);
  const auto generators = ExKokkosTest::sum_generators();
  Fixture f;
  for (int c = 0; c < 20000; ++c) {
    const auto& g = generators[rng() % generators.size()];
    const std::vector<double> a = g.generate(random_size(rng), rng);
    std::vector<double> b = g.generate(a.size(), rng);
    b.resize(a.size(), 0.0);
    ExactSum oracle;
    f.reset();
    for (std::size_t i = 0; i < a.size(); ++i) {
      const std::uint64_t r = rng() % 16;
      if (r < 7) {
        oracle.add(a[i]);
        f.bins->add(a[i]);
      } else if (r < 13) {
        oracle.add_product(a[i], b[i]);
        f.bins->add_product(a[i], b[i]);
      } else if (r == 13) {  // a run of up to 150 terms, sums or products, in chunks
        const std::size_t len = std::min<std::size_t>(1 + rng() % 150, a.size() - i);
        f.bins->reserve(static_cast<std::uint32_t>(len));
        const auto first = static_cast<std::int64_t>(i);
        if (rng() % 2 == 0) {
          for (std::size_t k = i; k < i + len; ++k) oracle.add(a[k]);
          f.bins->add_terms_reserved([&](std::int64_t k) { return a[std::size_t(k)]; }, first,
                                     static_cast<std::int64_t>(len));
        } else {
          for (std::size_t k = i; k < i + len; ++k) oracle.add_product(a[k], b[k]);
          f.bins->add_products_reserved(
              [&](std::int64_t k, double& x, double& y) {
                x = a[std::size_t(k)];
                y = b[std::size_t(k)];
              },
              first, static_cast<std::int64_t>(len));
        }
        i += len - 1;
      } else if (r == 14) {
        oracle.add(a[i]);
        f.acc.add(a[i]);
      } else {
        f.bins->flush();
      }
    }
    f.bins->flush();
    ASSERT_TRUE(same_roundings(f.acc, oracle)) << g.name << ", " << a.size() << " terms";
  }
}

// More terms than the bins take between two emptyings (capacity): they empty themselves into the
// long accumulator on the way. Products near the top of the range, which fill their bins fastest,
// and their exact negatives, so that the sum cancels down to the few terms left over.
TEST(BinnedSink, MoreTermsThanTheCapacity) {
  std::mt19937_64 rng(32);
  const std::size_t n = 2 * std::size_t(Bins::capacity) + 12345;
  const auto xy = ExKokkosTest::full_range_products(n, rng);
  Fixture f;
  for (int variant = 0; variant < 2; ++variant) {
    ExactSum oracle;
    f.reset();
    for (std::size_t i = 0; i < xy.first.size(); ++i) {
      const double a = xy.first[i], b = variant == 0 ? xy.second[i] : 0x1.fffffffffffffp+1023;
      oracle.add_product(a, b);
      f.bins->add_product(a, b);
      if (i % 3 == 0) {  // cancels exactly
        oracle.add_product(-a, b);
        f.bins->add_product(-a, b);
      }
    }
    f.bins->flush();
    ASSERT_TRUE(same_roundings(f.acc, oracle)) << "variant " << variant;
  }
}

// Only the long accumulator's flags know the sign of an exact zero: -0 when every term was -0, +0
// when anything else was added, even finite terms that cancelled in the bins.
TEST(BinnedSink, SignsOfExactZeros) {
  Fixture f;
  const auto sum_of = [&](const std::vector<double>& terms) {
    f.reset();
    for (double t : terms) f.bins->add(t);
    f.bins->flush();
    return f.acc.round();
  };
  EXPECT_TRUE(same_bits(sum_of({-0.0, -0.0}), -0.0));
  EXPECT_TRUE(same_bits(sum_of({-0.0, 0.0}), 0.0));
  EXPECT_TRUE(same_bits(sum_of({-0.0, 1.5, -1.5, -0.0}), 0.0));
  EXPECT_TRUE(same_bits(sum_of({-0x1p-1074, 0x1p-1074, -0.0}), 0.0));
  EXPECT_TRUE(same_bits(sum_of({}), 0.0));
  f.reset();
  f.bins->add_product(-0.0, 3.0);
  f.bins->add_product(2.0, -0.0);
  f.bins->flush();
  EXPECT_TRUE(same_bits(f.acc.round(), -0.0));
  f.reset();
  f.bins->add_product(-0.0, 3.0);
  f.bins->add_product(0x1p-600, 0x1p-600);  // below every double, still a non-zero term
  f.bins->add_product(-0x1p-600, 0x1p-600);
  f.bins->flush();
  EXPECT_TRUE(same_bits(f.acc.round(), 0.0));
}

}  // namespace
