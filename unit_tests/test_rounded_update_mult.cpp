// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The elementwise cores of exupdate and exmult against an MPFR oracle, bit for bit:
// RN(a x + b y + c z) (rounded_update) and RN(c y + ab a x), RN(ab a x) (rounded_mult,
// rounded_triple_product), double and float, over the whole range of the factors (products that
// over- and underflow, triple products far below the subnormals and far above the largest
// double), near-cancellation, rounding ties with and without a tiny term deciding them, and
// IEEE's special values and signed zeros.
#include <ExKokkos_RoundedMult.hpp>
#include <ExKokkos_RoundedUpdate.hpp>

#include <ExKokkosTest_Oracle.hpp>

#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace {

using ExKokkosTest::describe;
using ExKokkosTest::require_exact;
using ExKokkosTest::same_bits;

// RN of a sum of products of factors (each term a list of two or three factors), with IEEE's
// rules: a term with a NaN factor, or an infinite and a zero factor, is NaN; one with an infinite
// factor is that signed infinity; one with a zero factor is a signed zero (the XOR of the signs);
// NaN terms, or +inf with -inf, give NaN; otherwise an infinite term wins; an exact zero sum is
// -0 only when every term is -0. The finite non-zero terms are multiplied and added exactly in
// MPFR (a product of three doubles has at most 159 bits; the sum spans less than 7000 bits) and
// rounded once at the end.
template <class T>
T oracle(const std::vector<std::vector<T>>& terms) {
  bool nan = false, pos_inf = false, neg_inf = false, all_neg_zero = true;
  mpfr_t sum, product;
  mpfr_init2(sum, 7000);
  mpfr_init2(product, 200);
  mpfr_set_zero(sum, 1);
  for (const auto& factors : terms) {
    bool any_nan = false, any_inf = false, any_zero = false, negative = false;
    for (T f : factors) {
      any_nan = any_nan || std::isnan(f);
      any_inf = any_inf || std::isinf(f);
      any_zero = any_zero || f == T(0);
      negative = negative != std::signbit(f);
    }
    if (any_nan || (any_inf && any_zero)) {
      nan = true;
      all_neg_zero = false;
      continue;
    }
    if (any_inf) {
      (negative ? neg_inf : pos_inf) = true;
      all_neg_zero = false;
      continue;
    }
    if (any_zero) {
      all_neg_zero = all_neg_zero && negative;
      continue;
    }
    all_neg_zero = false;
    require_exact(mpfr_set_d(product, static_cast<double>(factors[0]), MPFR_RNDN), "set");
    for (std::size_t i = 1; i < factors.size(); ++i)
      require_exact(mpfr_mul_d(product, product, static_cast<double>(factors[i]), MPFR_RNDN),
                    "product");
    require_exact(mpfr_add(sum, sum, product, MPFR_RNDN), "sum");
  }
  T result;
  if (nan || (pos_inf && neg_inf))
    result = std::numeric_limits<T>::quiet_NaN();
  else if (pos_inf || neg_inf)
    result = pos_inf ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity();
  else if (mpfr_zero_p(sum))
    result = all_neg_zero ? T(-0.0) : T(0.0);
  else if (std::is_same<T, float>::value)
    result = static_cast<T>(ExKokkosTest::round_to_float(sum));
  else
    result = static_cast<T>(ExKokkosTest::round_to_double(sum));
  mpfr_clear(sum);
  mpfr_clear(product);
  return result;
}

// Random finite non-zero values whose binary exponents are drawn from [lo, hi] (subnormals
// included when lo reaches below the normal range), random signs and significands.
template <class T>
T random_value(std::mt19937_64& rng, int lo, int hi) {
  std::uniform_int_distribution<int> exponent(lo, hi);
  std::uniform_real_distribution<double> significand(1.0, 2.0);
  const T v = static_cast<T>(std::ldexp(significand(rng), exponent(rng)));
  const T s = (rng() & 1) ? -v : v;
  return s == T(0) ? std::numeric_limits<T>::denorm_min() : s;
}

template <class T>
std::vector<T> specials() {
  const T inf = std::numeric_limits<T>::infinity();
  return {T(0),
          T(-0.0),
          inf,
          -inf,
          std::numeric_limits<T>::quiet_NaN(),
          T(1),
          T(-3),
          std::numeric_limits<T>::denorm_min(),
          -std::numeric_limits<T>::max()};
}

template <class T>
void expect_update(T a, T x, T b, T y, T c, T z, int& failures) {
  const T got = ExKokkos::Impl::rounded_update(a, x, b, y, c, z);
  const T want = oracle<T>({{a, x}, {b, y}, {c, z}});
  if (!same_bits(got, want) && ++failures <= 5)
    ADD_FAILURE() << "rounded_update(" << describe(a) << ", " << describe(x) << ", " << describe(b)
                  << ", " << describe(y) << ", " << describe(c) << ", " << describe(z)
                  << ") = " << describe(got) << ", expected " << describe(want);
}

template <class T>
void expect_mult(T c, T y, T ab, T a, T x, int& failures) {
  const T got = ExKokkos::Impl::rounded_mult(c, y, ab, a, x);
  const T want = oracle<T>({{c, y}, {ab, a, x}});
  if (!same_bits(got, want) && ++failures <= 5)
    ADD_FAILURE() << "rounded_mult(" << describe(c) << ", " << describe(y) << ", " << describe(ab)
                  << ", " << describe(a) << ", " << describe(x) << ") = " << describe(got)
                  << ", expected " << describe(want);
  const T got3 = ExKokkos::Impl::rounded_triple_product(ab, a, x);
  const T want3 = oracle<T>({{ab, a, x}});
  if (!same_bits(got3, want3) && ++failures <= 5)
    ADD_FAILURE() << "rounded_triple_product(" << describe(ab) << ", " << describe(a) << ", "
                  << describe(x) << ") = " << describe(got3) << ", expected " << describe(want3);
}

// The exponent ranges the random factors are drawn from: ordinary values, then the whole range.
template <class T>
std::vector<std::pair<int, int>> exponent_ranges() {
  if (std::is_same<T, float>::value) return {{-4, 4}, {-40, 40}, {-149, 127}};
  return {{-4, 4}, {-300, 300}, {-1074, 1023}, {-1074, -500}, {500, 1023}};
}

template <class T>
void random_updates() {
  std::mt19937_64 rng(11);
  int failures = 0;
  for (const auto& range : exponent_ranges<T>())
    for (int i = 0; i < 20000; ++i) {
      const int lo = range.first, hi = range.second;
      T a = random_value<T>(rng, lo, hi), x = random_value<T>(rng, lo, hi);
      T b = random_value<T>(rng, lo, hi), y = random_value<T>(rng, lo, hi);
      T c = random_value<T>(rng, lo, hi), z = random_value<T>(rng, lo, hi);
      if (i % 4 == 1) z = -(a * x + b * y) / c;  // near-cancellation
      if (i % 4 == 2) y = -(a * x) / b;          // the first two terms nearly cancel
      if (i % 8 == 3) z = (a * x) * T(0x1p-60);  // c z far below: a sticky term or nothing
      expect_update(a, x, b, y, c, z, failures);
    }
  EXPECT_EQ(failures, 0);
}

template <class T>
void random_mults() {
  std::mt19937_64 rng(12);
  int failures = 0;
  for (const auto& range : exponent_ranges<T>())
    for (int i = 0; i < 20000; ++i) {
      const int lo = range.first, hi = range.second;
      T c = random_value<T>(rng, lo, hi), y = random_value<T>(rng, lo, hi);
      T ab = random_value<T>(rng, lo, hi), a = random_value<T>(rng, lo, hi);
      T x = random_value<T>(rng, lo, hi);
      if (i % 4 == 1) y = -(ab * a * x) / c;  // near-cancellation
      expect_mult(c, y, ab, a, x, failures);
    }
  EXPECT_EQ(failures, 0);
}

TEST(RoundedUpdate, RandomDoubleOverTheWholeRange) {
  random_updates<double>();
}
TEST(RoundedUpdate, RandomFloatOverTheWholeRange) {
  random_updates<float>();
}
TEST(RoundedMult, RandomDoubleOverTheWholeRange) {
  random_mults<double>();
}
TEST(RoundedMult, RandomFloatOverTheWholeRange) {
  random_mults<float>();
}

TEST(RoundedUpdate, TiesAndStickyTerms) {
  int failures = 0;
  const double u = 0x1p-53;
  // 1 + u is a tie between 1 and 1 + 2u: even (1) without a third term, upward with a tiny
  // positive one, downward with a tiny negative one, at every magnitude of the tiny term.
  for (int k = 60; k < 1070; k += 7) {
    const double tiny = std::ldexp(1.0, -k);
    expect_update(1.0, 1.0, 1.0, u, 0.0, 0.0, failures);
    expect_update(1.0, 1.0, 1.0, u, tiny, 1.0, failures);
    expect_update(1.0, 1.0, 1.0, u, -tiny, 1.0, failures);
    expect_update(1.0, 1.0, u, 1.0, 0x1p-30, std::ldexp(1.0, 30 - k), failures);
    expect_update(-1.0, 1.0, -u, 1.0, tiny, tiny, failures);
  }
  expect_update(1e308, 10.0, -1e308, 10.0, 1.0, 0x1p-1074, failures);  // overflowing products
  expect_update(0x1p-600, 0x1p-600, 1.0, 0x1p-1074, -0x1p-600, 0x1p-600, failures);
  EXPECT_EQ(failures, 0);
}

TEST(RoundedMult, TriplesBeyondTheRangeOfOneProduct) {
  int failures = 0;
  const double m = std::numeric_limits<double>::max();
  // Triple products far below 2^-1074 deciding a tie of c y, or only the sign of a zero.
  for (int e = -1100; e >= -3200; e -= 37) {
    const double a = std::ldexp(1.0, e / 3), x = std::ldexp(1.5, e / 3);
    const double ab = std::ldexp(-1.25, e - 2 * (e / 3));
    expect_mult(0.5, 0x1p-1074, ab, a, x, failures);  // c y = 2^-1075, a tie
    expect_mult(0.5, 0x1p-1074, -ab, a, x, failures);
    expect_mult(0.5, 0x1p-1073, ab, a, x, failures);       // c y a double: the tiny term is lost
    expect_mult(0x1p-600, 0x1p-1074, ab, a, x, failures);  // both tiny: a signed zero
    expect_mult(0x1p-600, -0x1p-1074, ab, a, x, failures);
    expect_mult(0x1p-1000, 0x1p-1000, -ab, a, x, failures);
    expect_mult(1.0 + 0x1p-52, 0x1p-1074, ab, a, x, failures);
    expect_mult(0.0, 1.0, ab, a, x, failures);
  }
  // The same magnitudes on both sides: c y and ab a x of about 2^-1900 and 2^-2000 cancel.
  expect_mult(0x1p-1000, 0x1p-1000, -0x1p-700, 0x1p-700, 0x1p-600, failures);
  expect_mult(0x1p-1000, 0x1p-1000, -0x1p-700, 0x1p-700, 0x1p-600 * 3, failures);
  // Triple products above the largest double, cancelled by c y or not.
  for (int e = 1020; e <= 3000; e += 11) {
    const double a = std::ldexp(1.0, e / 3), x = std::ldexp(1.75, e / 3);
    const double ab = std::ldexp(1.0, e - 2 * (e / 3));
    expect_mult(-m, m, ab, a, x, failures);
    expect_mult(m, m, -ab, a, x, failures);
    expect_mult(-m, 0x1p1000, ab, a, x, failures);
    expect_mult(1.0, 1.0, ab, a, x, failures);
  }
  const double b = std::ldexp(1.0, 682);
  expect_mult(-m, m, b, b, std::ldexp(1.0, 684), failures);  // 2^2048 - c y: exactly cancelling
  expect_mult(-m, m, b, b, std::ldexp(1.0 - 0x1p-53, 684), failures);
  EXPECT_EQ(failures, 0);
}

template <class T>
void special_values() {
  int failures = 0;
  const std::vector<T> s = specials<T>();
  for (T p : s)
    for (T q : s)
      for (T r : s) {
        expect_update(p, q, r, T(2), T(1), T(-1), failures);
        expect_update(T(1), p, q, T(1), r, T(1), failures);
        expect_mult(p, q, r, T(2), T(3), failures);
        expect_mult(T(1), T(1), p, q, r, failures);
        expect_mult(T(-0.0), T(1), p, q, r, failures);
      }
  EXPECT_EQ(failures, 0);
}

TEST(RoundedUpdateMult, SpecialValuesAndSignedZerosDouble) {
  special_values<double>();
}
TEST(RoundedUpdateMult, SpecialValuesAndSignedZerosFloat) {
  special_values<float>();
}

}  // namespace
