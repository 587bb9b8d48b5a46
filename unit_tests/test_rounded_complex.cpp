// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The complex elementwise cores against the MPFR oracle, bit for bit, on the host alone:
// rounded_complex_combination (K = 1, 2, 3 terms; each part the exact sum of its 2K real products
// rounded once), its branch-free fast path (it may refuse, never answer differently), and
// rounded_complex_abs and its fast path (the square root of the exact re^2 + im^2 rounded once),
// and rounded_complex_quotient and its fast path (each part the exact quotient of its exact
// numerator and |a|^2 rounded once), double and float, over random, wide-range, cancelling and
// special values, purely real or imaginary values with zeros of either sign, and |x| at rounding
// midpoints.
#include <ExKokkos_RoundedComplex.hpp>
#include <ExKokkos_RoundedQuotient.hpp>

#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_Complex.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using ExKokkosTest::describe;
using ExKokkosTest::same_bits;
template <class T>
using C = Kokkos::complex<T>;

// A value of one of several kinds: ordinary, any exponent, near the ends of the range, a
// signed zero, an infinity or NaN.
template <class T>
T value(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(-2, 2);
  const int kind = int(rng() % 16);
  const double u = unit(rng);
  const int emax = std::numeric_limits<T>::max_exponent,
            emin = std::numeric_limits<T>::min_exponent;
  switch (kind) {
    case 0:
      return T(std::ldexp(u, int(rng() % (emax - emin + 60)) + emin - 55));
    case 1:
      return T(std::ldexp(u, emax - 2));
    case 2:
      return T(std::ldexp(u, emin - 10));
    case 3:
      return (rng() & 1) ? T(0) : T(-0.0);
    case 4:
      return (rng() & 1) ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity();
    case 5:
      return std::numeric_limits<T>::quiet_NaN();
    case 6:
      return T(std::ldexp(u, int(rng() % 40) - 20));
    default:
      return T(u);
  }
}

template <int K, class T>
C<T> oracle(const C<T> (&c)[K], const C<T> (&v)[K]) {
  return ExKokkosTest::exact_combination(std::vector<C<T>>(c, c + K), std::vector<C<T>>(v, v + K));
}

template <int K, class T>
void check_combinations(int& failures, int& certified) {
  std::mt19937_64 rng(1000 + K);
  for (int trial = 0; trial < 20000; ++trial) {
    C<T> c[K], v[K];
    for (int k = 0; k < K; ++k) {
      // Mostly ordinary values, so that the fast path is tried on what it certifies.
      const bool plain = trial % 4 != 0;
      std::uniform_real_distribution<double> unit(-2, 2);
      c[k] = plain ? C<T>(T(unit(rng)), T(unit(rng))) : C<T>(value<T>(rng), value<T>(rng));
      v[k] = plain ? C<T>(T(unit(rng)), T(unit(rng))) : C<T>(value<T>(rng), value<T>(rng));
    }
    if (trial % 7 == 0 && K > 1) v[1] = C<T>(-v[0].real(), v[0].imag());  // cancellation
    const C<T> want = oracle(c, v);
    const C<T> got = ExKokkos::Impl::rounded_complex_combination(c, v);
    if (!same_bits(got, want) && ++failures <= 10)
      ADD_FAILURE() << "K = " << K << " trial " << trial << ": " << describe(got) << ", expected "
                    << describe(want);
    if constexpr (std::is_same<T, double>::value) {
      double vr[K], vi[K], re, im;
      for (int k = 0; k < K; ++k) {
        vr[k] = v[k].real();
        vi[k] = v[k].imag();
      }
      if (ExKokkos::Impl::rounded_complex_combination_fast(c, vr, vi, re, im)) {
        ++certified;
        if (!same_bits(C<T>(re, im), want) && ++failures <= 10)
          ADD_FAILURE() << "fast path, K = " << K << " trial " << trial << ": "
                        << describe(C<T>(re, im)) << ", expected " << describe(want);
      }
    }
  }
}

TEST(RoundedComplex, CombinationsAgainstTheOracle) {
  int failures = 0, certified = 0;
  check_combinations<1, double>(failures, certified);
  check_combinations<2, double>(failures, certified);
  check_combinations<3, double>(failures, certified);
  check_combinations<1, float>(failures, certified);
  check_combinations<2, float>(failures, certified);
  check_combinations<3, float>(failures, certified);
  EXPECT_EQ(failures, 0);
  // The fast path decides most of the ordinary three quarters (it is what makes the host fast).
  EXPECT_GT(certified, 3 * 20000 / 2);
}

template <class T>
void check_abs(const C<T>& x, const std::string& what, int& failures, int& certified) {
  const T want = ExKokkosTest::exact_abs(x);
  const T got = ExKokkos::Impl::rounded_complex_abs(x);
  if (!same_bits(got, want) && ++failures <= 10)
    ADD_FAILURE() << "|" << describe(x) << "| (" << what << ") = " << describe(got) << ", expected "
                  << describe(want);
  if constexpr (std::is_same<T, double>::value) {
    double r;
    if (ExKokkos::Impl::rounded_complex_abs_fast(x, r)) {
      ++certified;
      if (!same_bits(r, want) && ++failures <= 10)
        ADD_FAILURE() << "fast |" << describe(x) << "| (" << what << ") = " << describe(r)
                      << ", expected " << describe(want);
    }
  }
}

// With a = m and b near sqrt(m ulp(m)), |x| lies within a hair of the midpoint m + ulp(m) / 2,
// on either side as b moves by an ulp; b = m gives |x| = m sqrt(2); Pythagorean triples are exact.
template <class T>
void check_abs_cases(int& failures, int& certified) {
  std::mt19937_64 rng(77);
  std::uniform_real_distribution<double> unit(1, 2);
  for (int trial = 0; trial < 5000; ++trial) {
    check_abs(C<T>(value<T>(rng), value<T>(rng)), "random", failures, certified);
    const T m = T(std::ldexp(unit(rng), int(rng() % 400) - 200));
    const T ulp = std::nextafter(m, std::numeric_limits<T>::infinity()) - m;
    T b = T(std::sqrt(double(m) * double(ulp)));
    for (int k = 0; k < 3; ++k) b = std::nextafter(b, T(0));
    for (int k = 0; k < 7; ++k, b = std::nextafter(b, std::numeric_limits<T>::infinity()))
      check_abs(C<T>(m, b), "near a midpoint", failures, certified);
    check_abs(C<T>(m, -m), "equal parts", failures, certified);
    check_abs(C<T>(T(3) * m, T(4) * m), "3, 4, 5", failures, certified);
    check_abs(C<T>(T(unit(rng)), T(unit(rng))), "ordinary", failures, certified);
  }
}

TEST(RoundedComplex, AbsAgainstTheOracle) {
  int failures = 0, certified = 0;
  check_abs_cases<double>(failures, certified);
  check_abs_cases<float>(failures, certified);
  EXPECT_EQ(failures, 0);
  // At least the ordinary cases and the exact 3, 4, 5 ones (2 of every 11) are decided fast.
  EXPECT_GT(certified, 2 * 5000);
}

// A part for the quotients: a value of any kind, or (one time in three) a signed zero, so that
// purely real and purely imaginary values, whose quotients have exact zero parts, are common.
template <class T>
T quotient_part(std::mt19937_64& rng) {
  if (rng() % 3 == 0) return (rng() & 1) ? T(0) : T(-0.0);
  if (rng() % 2 == 0) return T(std::uniform_real_distribution<double>(-2, 2)(rng));
  return value<T>(rng);
}

template <class T>
void check_quotients(int& failures, int& certified) {
  std::mt19937_64 rng(4242);
  for (int trial = 0; trial < 40000; ++trial) {
    const C<T> x(quotient_part<T>(rng), quotient_part<T>(rng));
    const C<T> a(quotient_part<T>(rng), quotient_part<T>(rng));
    const C<T> want = ExKokkosTest::exact_complex_quotient(x, a);
    const C<T> got = ExKokkos::Impl::rounded_complex_quotient(x, a);
    if (!same_bits(got, want) && ++failures <= 10)
      ADD_FAILURE() << describe(x) << " / " << describe(a) << " = " << describe(got)
                    << ", expected " << describe(want);
    if constexpr (std::is_same<T, double>::value) {
      double re, im;
      if (ExKokkos::Impl::rounded_complex_quotient_fast(x.real(), x.imag(), a.real(), a.imag(), re,
                                                        im)) {
        ++certified;
        if (!same_bits(C<T>(re, im), want) && ++failures <= 10)
          ADD_FAILURE() << "fast path: " << describe(x) << " / " << describe(a) << " = "
                        << describe(C<T>(re, im)) << ", expected " << describe(want);
      }
    }
  }
}

TEST(RoundedComplex, QuotientsAgainstTheOracle) {
  int failures = 0, certified = 0;
  check_quotients<double>(failures, certified);
  check_quotients<float>(failures, certified);
  EXPECT_EQ(failures, 0);
  // The fast path decides the ordinary quotients, those with a zero part included (about a
  // quarter of the trials have ordinary non-zero parts in a and in x).
  EXPECT_GT(certified, 40000 / 8);
}

}  // namespace
