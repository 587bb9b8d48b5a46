// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The long accumulator against the MPFR oracle on random data: 10^5 cases per input generator,
// each compared bit for bit in every rounding (double, float, and the pair hi/lo), for add,
// add_product and merge in random split orders.
#include <ExKokkos_LongAccumulator.hpp>

#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_SameRoundings.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

using ExKokkos::LongAccumulator;
using ExKokkosTest::describe;
using ExKokkosTest::ExactSum;
using ExKokkosTest::same_bits;
using ExKokkosTest::same_roundings;

constexpr int cases_per_generator = 100000;

std::string show(const std::vector<double>& v) {
  std::string s;
  for (double x : v) s += describe(x) + " ";
  return s;
}

// Sizes vary per case: mostly small (where rounding corner cases are dense), sometimes larger.
std::size_t random_size(std::mt19937_64& rng) {
  const std::uint64_t r = rng() % 100;
  if (r < 70) return 1 + rng() % 8;
  if (r < 95) return 1 + rng() % 64;
  return 1 + rng() % 1000;
}

class SumGenerators : public ::testing::TestWithParam<ExKokkosTest::NamedSumGenerator> {};

TEST_P(SumGenerators, AddAndMergeInRandomSplitsMatchTheOracle) {
  const auto& gen = GetParam();
  std::mt19937_64 rng(std::hash<std::string>()(gen.name));
  for (int c = 0; c < cases_per_generator; ++c) {
    const std::vector<double> terms = gen.generate(random_size(rng), rng);
    ExactSum oracle;
    for (double t : terms) oracle.add(t);

    LongAccumulator whole;
    for (double t : terms) whole.add(t);
    ASSERT_TRUE(same_roundings(whole, oracle)) << "terms: " << show(terms);

    // The same terms split into random pieces, accumulated separately, merged in random order.
    const std::size_t pieces = 1 + rng() % 4;
    std::vector<LongAccumulator> parts(pieces);
    for (double t : terms) parts[rng() % pieces].add(t);
    std::vector<std::size_t> order(pieces);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::shuffle(order.begin(), order.end(), rng);
    LongAccumulator merged;
    for (std::size_t p : order) merged.merge(parts[p]);
    ASSERT_TRUE(same_roundings(merged, oracle)) << "merged terms: " << show(terms);
  }
}

INSTANTIATE_TEST_SUITE_P(LongAccumulator, SumGenerators,
                         ::testing::ValuesIn(ExKokkosTest::sum_generators()),
                         [](const ::testing::TestParamInfo<ExKokkosTest::NamedSumGenerator>& info) {
                           return info.param.name;
                         });

class ProductGenerators : public ::testing::TestWithParam<ExKokkosTest::NamedProductGenerator> {};

TEST_P(ProductGenerators, AddProductAndMergeMatchTheOracle) {
  const auto& gen = GetParam();
  std::mt19937_64 rng(std::hash<std::string>()(gen.name));
  for (int c = 0; c < cases_per_generator; ++c) {
    const auto xy = gen.generate(random_size(rng), rng);
    const std::vector<double>& x = xy.first;
    const std::vector<double>& y = xy.second;
    ExactSum oracle;
    LongAccumulator whole;
    std::vector<LongAccumulator> parts(1 + rng() % 3);
    for (std::size_t i = 0; i < x.size(); ++i) {
      oracle.add_product(x[i], y[i]);
      whole.add_product(x[i], y[i]);
      parts[rng() % parts.size()].add_product(x[i], y[i]);
    }
    ASSERT_TRUE(same_roundings(whole, oracle)) << "x: " << show(x) << "\ny: " << show(y);
    LongAccumulator merged;
    for (std::size_t p = parts.size(); p-- > 0;) merged.merge(parts[p]);
    ASSERT_TRUE(same_roundings(merged, oracle)) << "x: " << show(x) << "\ny: " << show(y);
  }
}

INSTANTIATE_TEST_SUITE_P(
    LongAccumulator, ProductGenerators, ::testing::ValuesIn(ExKokkosTest::product_generators()),
    [](const ::testing::TestParamInfo<ExKokkosTest::NamedProductGenerator>& info) {
      return info.param.name;
    });

// Sums and products mixed in one accumulator, with the terms of a sum generator as factors.
TEST(LongAccumulatorRandom, MixedSumsAndProducts) {
  std::mt19937_64 rng(99);
  const auto generators = ExKokkosTest::sum_generators();
  for (int c = 0; c < cases_per_generator; ++c) {
    const auto& g = generators[rng() % generators.size()];
    const std::vector<double> a = g.generate(random_size(rng), rng);
    std::vector<double> b = g.generate(a.size(), rng);
    b.resize(a.size(), 0.0);  // a generator returns about the size asked for: a factor per term
    ExactSum oracle;
    LongAccumulator acc;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (rng() & 1) {
        oracle.add(a[i]);
        acc.add(a[i]);
      } else {
        oracle.add_product(a[i], b[i]);
        acc.add_product(a[i], b[i]);
      }
    }
    ASSERT_TRUE(same_roundings(acc, oracle)) << g.name << "\na: " << show(a) << "\nb: " << show(b);
  }
}

}  // namespace
