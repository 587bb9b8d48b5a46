// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The wire form of the long accumulator (core/ExKokkos_PackedAccumulator.hpp), on the host alone:
// packed accumulators combined in any order and any tree give the same words, whose value is the
// MPFR sum of the parts rounded once; combinations of many extreme operands (every digit at its
// maximum, negative values, values beyond the double range) stay exact; flags OR across parts.
// This is the arithmetic that ExKokkos_MPI.hpp hands to MPI_Allreduce.
#include <ExKokkos.hpp>

#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include <gtest/gtest.h>

#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace {

using ExKokkos::LongAccumulator;
using ExKokkos::Impl::PackedAccumulator;
using ExKokkosTest::describe;
using ExKokkosTest::same_bits;
using Words = std::vector<std::uint64_t>;

Words packed(const LongAccumulator& acc) {
  Words w(PackedAccumulator::num_words);
  ExKokkos::Impl::pack(acc, w.data());
  return w;
}

// Combines the parts in the order `order`, folding from the left.
Words fold(const std::vector<Words>& parts, const std::vector<std::size_t>& order) {
  Words total = parts[order[0]];
  for (std::size_t k = 1; k < order.size(); ++k)
    ExKokkos::Impl::combine_packed(parts[order[k]].data(), total.data());
  return total;
}

// Combines the parts pairwise at random until one is left (as an MPI reduction tree might).
Words random_tree(std::vector<Words> parts, std::mt19937_64& rng) {
  while (parts.size() > 1) {
    const std::size_t i = rng() % parts.size();
    std::size_t j = rng() % (parts.size() - 1);
    if (j >= i) ++j;
    ExKokkos::Impl::combine_packed(parts[i].data(), parts[j].data());
    parts.erase(parts.begin() + static_cast<std::ptrdiff_t>(i));
  }
  return parts[0];
}

// Splits the terms into `count` parts at random cut points (some parts empty), one accumulator
// per part, packed.
std::vector<Words> split(const std::vector<double>& x, const std::vector<double>* y, int count,
                         std::mt19937_64& rng) {
  std::vector<std::size_t> cuts{0, x.size()};
  for (int k = 1; k < count; ++k) cuts.push_back(x.empty() ? 0 : rng() % (x.size() + 1));
  std::sort(cuts.begin(), cuts.end());
  std::vector<Words> parts;
  for (int k = 0; k < count; ++k) {
    LongAccumulator acc;
    for (std::size_t i = cuts[k]; i < cuts[k + 1]; ++i) {
      if (y)
        acc.add_product(x[i], (*y)[i]);
      else
        acc.add(x[i]);
    }
    parts.push_back(packed(acc));
  }
  return parts;
}

void check_orders(const std::vector<Words>& parts, double expected, const std::string& what) {
  std::mt19937_64 rng(99);
  std::vector<std::size_t> order(parts.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  const Words reference = fold(parts, order);
  const double got = ExKokkos::Impl::unpack(reference.data()).round();
  EXPECT_TRUE(same_bits(got, expected))
      << what << " parts " << parts.size() << ": " << describe(got) << " vs " << describe(expected);
  std::reverse(order.begin(), order.end());
  EXPECT_EQ(fold(parts, order), reference) << what << ": reversed order";
  for (int trial = 0; trial < 4; ++trial) {
    std::shuffle(order.begin(), order.end(), rng);
    EXPECT_EQ(fold(parts, order), reference) << what << ": shuffled order";
    EXPECT_EQ(random_tree(parts, rng), reference) << what << ": random tree";
  }
}

TEST(PackedAccumulator, AnyOrderAndTreeGivesTheOracleBits) {
  std::mt19937_64 rng(7);
  for (const auto& g : ExKokkosTest::sum_generators()) {
    for (std::size_t n : {0, 1, 5, 2000}) {
      const std::vector<double> x = g.generate(n, rng);
      ExKokkosTest::ExactSum oracle;
      for (double v : x) oracle.add(v);
      for (int count : {1, 2, 3, 8, 37})
        check_orders(split(x, nullptr, count, rng), oracle.round_double(), g.name);
    }
  }
  for (const auto& g : ExKokkosTest::product_generators()) {
    const auto xy = g.generate(2000, rng);
    ExKokkosTest::ExactSum oracle;
    for (std::size_t i = 0; i < xy.first.size(); ++i) oracle.add_product(xy.first[i], xy.second[i]);
    for (int count : {1, 2, 8, 37})
      check_orders(split(xy.first, &xy.second, count, rng), oracle.round_double(), g.name);
  }
}

// The exact value of packed words, in MPFR (independent of the accumulator's rounding): the top
// digit is a signed 64-bit number, the others unsigned.
void words_value(const Words& w, mpfr_t v) {
  mpfr_t term;
  mpfr_init2(term, 64);
  mpfr_set_zero(v, 1);
  for (int i = 0; i < PackedAccumulator::num_digits; ++i) {
    if (i + 1 < PackedAccumulator::num_digits)
      mpfr_set_uj(term, w[i], MPFR_RNDN);
    else
      mpfr_set_sj(term, static_cast<std::int64_t>(w[i]), MPFR_RNDN);
    mpfr_mul_2si(term, term, 32 * i + ExKokkos::Impl::AccumulatorFormat::lsb_exponent, MPFR_RNDN);
    ExKokkosTest::require_exact(mpfr_add(v, v, term, MPFR_RNDN), "words_value");
  }
  mpfr_clear(term);
}

// A normalized operand whose non-zero digits span [low, high], at their maximum or at random,
// negated at random: the extremes the headroom bound is about.
Words extreme_operand(std::mt19937_64& rng) {
  Words w(PackedAccumulator::num_words, 0);
  const int high = static_cast<int>(rng() % PackedAccumulator::num_digits);
  const int low = static_cast<int>(rng() % (high + 1));
  const bool saturated = rng() % 2 == 0;
  for (int i = low; i <= high; ++i) w[i] = saturated ? 0xffffffffu : (rng() & 0xffffffffu);
  if (high == PackedAccumulator::num_digits - 1) w[high] = rng() % 64;  // a small top digit
  if (rng() % 2) ExKokkos::Impl::negate_normalized(w.data(), PackedAccumulator::num_digits);
  return w;
}

TEST(PackedAccumulator, ManyExtremeOperandsStayExact) {
  std::mt19937_64 rng(12);
  mpfr_t exact, part;
  mpfr_init2(exact, 8000);
  mpfr_init2(part, 8000);
  for (int trial = 0; trial < 20; ++trial) {
    const int count = trial < 10 ? 1000 : 3;
    std::vector<Words> parts;
    mpfr_set_zero(exact, 1);
    for (int k = 0; k < count; ++k) {
      parts.push_back(extreme_operand(rng));
      words_value(parts.back(), part);
      ExKokkosTest::require_exact(mpfr_add(exact, exact, part, MPFR_RNDN), "sum of operands");
    }
    const Words total = random_tree(parts, rng);
    for (int i = 0; i + 1 < PackedAccumulator::num_digits; ++i)
      ASSERT_LT(total[i], std::uint64_t(1) << 32) << "digit " << i << " not normalized";
    words_value(total, part);
    EXPECT_EQ(mpfr_cmp(part, exact), 0) << "trial " << trial << ": the combined value is not exact";
    const double got = ExKokkos::Impl::unpack(total.data()).round();
    const double expected = ExKokkosTest::round_to_double(exact);
    EXPECT_TRUE(same_bits(got, expected))
        << "trial " << trial << ": " << describe(got) << " vs " << describe(expected);
  }
  mpfr_clear(exact);
  mpfr_clear(part);
}

TEST(PackedAccumulator, FlagsOrAcrossParts) {
  const double inf = std::numeric_limits<double>::infinity();
  struct Case {
    std::vector<std::vector<double>> parts;
    double expected;
  };
  const std::vector<Case> cases = {
      {{{1.0}, {inf}, {}}, inf},
      {{{inf}, {2.0}, {-inf}}, std::numeric_limits<double>::quiet_NaN()},
      {{{1.0}, {std::nan("")}}, std::numeric_limits<double>::quiet_NaN()},
      {{{-0.0}, {}, {-0.0, -0.0}}, -0.0},
      {{{-0.0}, {0.0}, {}}, 0.0},
      {{{}, {}, {}}, 0.0},
  };
  for (const Case& c : cases) {
    std::vector<Words> parts;
    for (const auto& p : c.parts) {
      LongAccumulator acc;
      for (double v : p) acc.add(v);
      parts.push_back(packed(acc));
    }
    check_orders(parts, c.expected, "flags");
    // The caller's high half of the flag word is ORed too, and ignored by unpack.
    parts[0][PackedAccumulator::flags_word] |= std::uint64_t(1) << 40;
    std::vector<std::size_t> order(parts.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    const Words total = fold(parts, order);
    EXPECT_NE(total[PackedAccumulator::flags_word] & (std::uint64_t(1) << 40), 0u);
    EXPECT_TRUE(same_bits(ExKokkos::Impl::unpack(total.data()).round(), c.expected));
  }
}

}  // namespace
