// Hand-checked cases for every branch of the long accumulator's rounding, the known ways to get
// exact summation wrong (docs/design.md, "Pitfalls the tests guard against"), IEEE special
// values and signs of zero, products beyond the double range, and the carry-save headroom.
// Expected values are worked out in the comments and checked against the MPFR oracle as well;
// comparisons are bitwise.
#include <ExKokkos_LongAccumulator.hpp>

#include <ExKokkosTest_Oracle.hpp>

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <initializer_list>
#include <limits>

namespace {

using ExKokkos::LongAccumulator;
using ExKokkosTest::describe;
using ExKokkosTest::ExactSum;
using ExKokkosTest::same_bits;

double sum_of(std::initializer_list<double> terms) {
  LongAccumulator acc;
  for (double t : terms) acc.add(t);
  return acc.round();
}

float float_sum_of(std::initializer_list<double> terms) {
  LongAccumulator acc;
  for (double t : terms) acc.add(t);
  return acc.round<float>();
}

double oracle_sum_of(std::initializer_list<double> terms) {
  ExactSum s;
  for (double t : terms) s.add(t);
  return s.round_double();
}

// Expects the accumulator and the oracle both to give `expected`, bit for bit.
void expect_sum(std::initializer_list<double> terms, double expected) {
  const double got = sum_of(terms);
  EXPECT_TRUE(same_bits(got, expected))
      << "got " << describe(got) << ", expected " << describe(expected);
  const double oracle = oracle_sum_of(terms);
  EXPECT_TRUE(same_bits(oracle, expected))
      << "the oracle disagrees with the hand-worked value: " << describe(oracle);
}

const double dbl_max = std::numeric_limits<double>::max();
const double inf = std::numeric_limits<double>::infinity();
const double nan = std::numeric_limits<double>::quiet_NaN();

// --- Known ways to get it wrong (docs/design.md, "Pitfalls the tests guard against") ---------

TEST(LongAccumulatorKnownFailures, TinyTermBelowLargeOne) {
  // 2^52 + 2^-60: the tiny term is far below half an ulp (0.5): the result is 2^52, not 2^52+1.
  expect_sum({0x1p52, 0x1p-60}, 0x1p52);
}

TEST(LongAccumulatorKnownFailures, NoDoubleRoundingAcrossDigits) {
  // x = 0x1.fa358df3d19d0p-21 has ulp 2^-73; 2^-74 is exactly half an ulp (a tie, which would
  // round to the even ...19d0), but 2^-150 is a sticky bit below it, so the result rounds up.
  expect_sum({0x1.fa358df3d19d0p-21, 0x1p-74, 0x1p-150}, 0x1.fa358df3d19d1p-21);
}

TEST(LongAccumulatorKnownFailures, LargeNegativeIsFinite) {
  expect_sum({-0x1p1020}, -0x1p1020);
}

TEST(LongAccumulatorKnownFailures, SmallestSubnormalAlone) {
  expect_sum({0x1p-1074}, 0x1p-1074);
}

// --- Rounding branches ---------------------------------------------------------------------------

TEST(LongAccumulatorRounding, ExactTiesGoToEven) {
  expect_sum({1.0, 0x1p-53}, 1.0);                            // 1 is even
  expect_sum({1.0 + 0x1p-52, 0x1p-53}, 1.0 + 0x1p-51);        // 1 + 2^-52 is odd
  expect_sum({-1.0 - 0x1p-52, -0x1p-53}, -1.0 - 0x1p-51);     // the same, negative
  expect_sum({0x1p1000, 0x1p947}, 0x1p1000);                  // ulp 2^948, tie
  expect_sum({0x1p-1022, 0x1p-1074}, 0x1p-1022 + 0x1p-1074);  // exact
}

TEST(LongAccumulatorRounding, StickyBitFarBelowBreaksTies) {
  expect_sum({1.0, 0x1p-53, 0x1p-1074}, 1.0 + 0x1p-52);  // above the tie: up
  expect_sum({1.0, 0x1p-53, -0x1p-1074}, 1.0);           // below the tie: down
  expect_sum({0x1p1000, 0x1p947, 0x1p-1074}, 0x1p1000 + 0x1p948);
  expect_sum({-1.0, -0x1p-53, -0x1p-1074}, -1.0 - 0x1p-52);
}

TEST(LongAccumulatorRounding, CarryOutOfTheSignificand) {
  // 2 - 2^-52 is the largest double below 2 (ulp 2^-52); a bit more than half its ulp rounds the
  // all-ones significand up to 2, one binade higher; a bit less does not.
  expect_sum({2.0 - 0x1p-52, 0x1p-53, 0x1p-100}, 2.0);
  expect_sum({2.0 - 0x1p-52, 0x1p-53, -0x1p-100}, 2.0 - 0x1p-52);
  // All ones rounding up into a new binade, negative.
  expect_sum({-(2.0 - 0x1p-52), -0x1p-53}, -2.0);
}

TEST(LongAccumulatorRounding, SubnormalBoundary) {
  expect_sum({0x1p-1022, -0x1p-1074}, 0x1p-1022 - 0x1p-1074);  // the largest subnormal
  expect_sum({0x1p-1023, 0x1p-1023}, 0x1p-1022);               // subnormals sum to a normal
  expect_sum({0x1p-1022 - 0x1p-1074, 0x1p-1074}, 0x1p-1022);
  expect_sum({0x1p-1050, -0x1p-1074}, 0x1p-1050 - 0x1p-1074);
}

TEST(LongAccumulatorRounding, LargestFiniteAndOverflow) {
  // DBL_MAX = (2^53 - 1) 2^971; half its ulp is 2^970.
  expect_sum({dbl_max}, dbl_max);
  expect_sum({dbl_max, 0x1p970, -0x1p-1074}, dbl_max);  // just below the tie: stays finite
  expect_sum({dbl_max, 0x1p970}, inf);                  // a tie: to even, 2^1024, is infinite
  expect_sum({dbl_max, dbl_max}, inf);                  // exact sum beyond the range
  expect_sum({-dbl_max, -dbl_max}, -inf);
  expect_sum({dbl_max, dbl_max, -dbl_max}, dbl_max);  // intermediate overflow cancels
}

TEST(LongAccumulatorRounding, NegativeValuesWithNonZeroLowDigits) {
  expect_sum({-1.0, 0x1p-1074}, -1.0);  // -(1 - 2^-1074): within half an ulp of -1
  // -(1 - 2^-54 - 2^-1074): just below the tie between 1 - 2^-53 and 1, so 1 - 2^-53.
  expect_sum({-1.0, 0x1p-54, 0x1p-1074}, -(1.0 - 0x1p-53));
  expect_sum({-0x1p100, 3 * 0x1p-1074}, -0x1p100);
  expect_sum({0x1p-1000, -1.0}, -1.0);  // tiny positive part, far below half an ulp
}

TEST(LongAccumulatorRounding, RoundToFloat) {
  EXPECT_TRUE(same_bits(float_sum_of({1.0, 0x1p-24}), 1.0f));  // tie to even
  EXPECT_TRUE(same_bits(float_sum_of({1.0, 0x1p-24, 0x1p-1074}), 1.0f + 0x1p-23f));
  EXPECT_TRUE(same_bits(float_sum_of({0x1p-149}), 0x1p-149f));  // float subnormal
  EXPECT_TRUE(same_bits(float_sum_of({0x1p-150}), 0.0f));       // tie to 0
  EXPECT_TRUE(same_bits(float_sum_of({0x1p-150, 0x1p-1000}), 0x1p-149f));
  EXPECT_TRUE(same_bits(float_sum_of({-0x1p-151}), -0.0f));  // sign of a tiny negative
  EXPECT_TRUE(same_bits(float_sum_of({0x1p128}), std::numeric_limits<float>::infinity()));
  const double flt_max = std::numeric_limits<float>::max();  // (2^24 - 1) 2^104
  EXPECT_TRUE(
      same_bits(float_sum_of({flt_max, 0x1p103, -0x1p-1074}), std::numeric_limits<float>::max()));
  EXPECT_TRUE(same_bits(float_sum_of({flt_max, 0x1p103}), std::numeric_limits<float>::infinity()));
  // A double that is not a float rounds once, not twice.
  EXPECT_TRUE(same_bits(float_sum_of({1.0 + 0x1p-24 + 0x1p-52}), 1.0f + 0x1p-23f));
}

TEST(LongAccumulatorRounding, TinyNonZeroSumsRoundToSignedZero) {
  LongAccumulator acc;
  acc.add_product(-0x1p-1000, 0x1p-1000);  // exactly -2^-2000
  EXPECT_TRUE(same_bits(acc.round(), -0.0));
  LongAccumulator half;
  half.add_product(0x1p-538, 0x1p-537);  // exactly 2^-1075: a tie between 0 and 2^-1074
  EXPECT_TRUE(same_bits(half.round(), 0.0));
  half.add_product(0x1p-1000, 0x1p-1000);  // a sticky bit: now above the tie
  EXPECT_TRUE(same_bits(half.round(), 0x1p-1074));
}

// --- Products beyond the double range
// --------------------------------------------------------------

TEST(LongAccumulatorProducts, OverflowingProductsCancelExactly) {
  // 1e200 * 1e200 overflows in double, but the exact products cancel and leave exactly 1.
  LongAccumulator acc;
  acc.add_product(1e200, 1e200);
  acc.add_product(-1e200, 1e200);
  acc.add(1.0);
  EXPECT_TRUE(same_bits(acc.round(), 1.0));
}

TEST(LongAccumulatorProducts, ManyUnderflowingProductsSumToARepresentableValue) {
  // 2^40 products each equal to 2^-1100 (far below the smallest subnormal) sum to 2^-1060.
  // 2^20 of them are added one by one; merging the accumulator into itself 20 times doubles the
  // count each time (a merge is exact), which reaches 2^40 terms without 2^40 additions.
  LongAccumulator acc;
  for (int i = 0; i < (1 << 20); ++i) acc.add_product(0x1p-550, 0x1p-550);
  EXPECT_TRUE(same_bits(acc.round(), 0.0));  // 2^-1080 is below half of 2^-1074: +0
  for (int i = 0; i < 20; ++i) acc.merge(LongAccumulator(acc));
  EXPECT_TRUE(same_bits(acc.round(), 0x1p-1060));
}

TEST(LongAccumulatorProducts, ExtremeFactors) {
  const double tiny = 0x1p-1074;
  LongAccumulator acc;
  acc.add_product(tiny, tiny);  // 2^-2148, the smallest exact product
  acc.add_product(dbl_max, dbl_max);
  acc.add_product(-dbl_max, dbl_max);
  EXPECT_TRUE(same_bits(acc.round(), 0.0));  // positive, rounds to +0
  double hi, lo;
  acc.round_pair(hi, lo);
  EXPECT_TRUE(same_bits(hi, 0.0));
  LongAccumulator big;
  big.add_product(dbl_max, dbl_max);  // about 2^2048
  EXPECT_TRUE(same_bits(big.round(), inf));
  big.add_product(-dbl_max, dbl_max);
  big.add_product(0x1p1000, 0x1p-1000);
  EXPECT_TRUE(same_bits(big.round(), 1.0));
}

// --- IEEE special values and signs of zero
// ---------------------------------------------------------

TEST(LongAccumulatorSpecial, SignsOfZero) {
  EXPECT_TRUE(same_bits(LongAccumulator().round(), 0.0));  // empty: +0
  expect_sum({-0.0}, -0.0);
  expect_sum({-0.0, -0.0}, -0.0);
  expect_sum({-0.0, 0.0}, 0.0);
  expect_sum({1.0, -1.0}, 0.0);
  expect_sum({-1.0, 1.0}, 0.0);
  expect_sum({-0.0, -1.0, 1.0}, 0.0);
  LongAccumulator p;
  p.add_product(-0.0, 3.0);
  EXPECT_TRUE(same_bits(p.round(), -0.0));
  p.add_product(-2.0, -0.0);  // +0
  EXPECT_TRUE(same_bits(p.round(), 0.0));
  LongAccumulator q;
  q.add_product(-2.0, 0.0);
  q.add(-0.0);
  EXPECT_TRUE(same_bits(q.round(), -0.0));
  EXPECT_TRUE(same_bits(q.round<float>(), -0.0f));
}

TEST(LongAccumulatorSpecial, NanAndInfinities) {
  EXPECT_TRUE(std::isnan(sum_of({1.0, nan, 2.0})));
  EXPECT_TRUE(same_bits(sum_of({1.0, inf}), inf));
  EXPECT_TRUE(same_bits(sum_of({-inf, 1e308, 1e308}), -inf));
  EXPECT_TRUE(std::isnan(sum_of({inf, -inf})));
  EXPECT_TRUE(std::isnan(sum_of({inf, nan})));
  LongAccumulator p;
  p.add_product(inf, -2.0);
  EXPECT_TRUE(same_bits(p.round(), -inf));
  p.add_product(0.0, inf);  // inf * 0
  EXPECT_TRUE(std::isnan(p.round()));
  LongAccumulator q;
  q.add_product(nan, 0.0);
  EXPECT_TRUE(std::isnan(q.round()));
  EXPECT_TRUE(std::isnan(q.round<float>()));
  // A merge carries the flags.
  LongAccumulator r;
  r.add(1.0);
  r.merge(p);
  EXPECT_TRUE(std::isnan(r.round()));
}

TEST(LongAccumulatorSpecial, RoundPair) {
  LongAccumulator a;
  a.add(1.0);
  a.add(0x1p-60);
  double hi, lo;
  a.round_pair(hi, lo);
  EXPECT_TRUE(same_bits(hi, 1.0));
  EXPECT_TRUE(same_bits(lo, 0x1p-60));
  LongAccumulator b;  // 1 + 2^-53 + 2^-100: hi rounds up, lo = -(2^-53 - 2^-100) exactly
  b.add(1.0);
  b.add(0x1p-53);
  b.add(0x1p-100);
  b.round_pair(hi, lo);
  EXPECT_TRUE(same_bits(hi, 1.0 + 0x1p-52));
  EXPECT_TRUE(same_bits(lo, -(0x1p-53 - 0x1p-100)));
  // S - hi is an IEEE subtraction: an exact zero difference is +0 whatever the zeros in S.
  LongAccumulator empty;
  empty.round_pair(hi, lo);
  EXPECT_TRUE(same_bits(hi, 0.0));
  EXPECT_TRUE(same_bits(lo, 0.0));
  LongAccumulator negative_zeros;
  negative_zeros.add(-0.0);
  negative_zeros.round_pair(hi, lo);
  EXPECT_TRUE(same_bits(hi, -0.0));
  EXPECT_TRUE(same_bits(lo, 0.0));
  LongAccumulator tiny_negative;  // -2^-2000 rounds to -0, and so does S - (-0)
  tiny_negative.add_product(-0x1p-1000, 0x1p-1000);
  tiny_negative.round_pair(hi, lo);
  EXPECT_TRUE(same_bits(hi, -0.0));
  EXPECT_TRUE(same_bits(lo, -0.0));
  LongAccumulator c;
  c.add(dbl_max);
  c.add(dbl_max);
  c.round_pair(hi, lo);
  EXPECT_TRUE(same_bits(hi, inf));
  EXPECT_TRUE(same_bits(lo, 0.0));
}

// --- Headroom
// ---------------------------------------------------------------------------------------

// More deposits than the digits' headroom allows between normalizations (2^31 - 1): the
// accumulator must normalize on its own. The term is chosen so that its three chunks are all
// 2^32 - 1, the largest a deposit can add to a digit.
TEST(LongAccumulatorHeadroom, MoreDepositsThanTheCapacity) {
  // x = -(2^53 - 1) 2^e with e + 2148 = 32 * 40 + 11: a shift of 11 bits inside a digit, so the
  // significand's chunks are 0xFFFFF800 and 0xFFFFFFFF (both near the 2^32 maximum).
  const double x = -std::ldexp(0x1.fffffffffffffp0, 32 * 40 + 11 - 2148 + 52);
  const std::uint64_t n = (std::uint64_t(1) << 31) + 1000;
  LongAccumulator acc;
  for (std::uint64_t i = 0; i < n; ++i) acc.add(x);
  ExactSum expected;  // n * x exactly, by binary doubling with exact merges
  ExactSum power;
  power.add(x);
  for (std::uint64_t bits = n; bits != 0; bits >>= 1) {
    if (bits & 1) expected.merge(power);
    ExactSum twice = power;
    twice.merge(power);
    power = twice;
  }
  EXPECT_TRUE(same_bits(acc.round(), expected.round_double()))
      << describe(acc.round()) << " vs " << describe(expected.round_double());
}

}  // namespace
