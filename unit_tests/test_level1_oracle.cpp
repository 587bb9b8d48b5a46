// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// BLAS level 1 against the MPFR oracle, bit for bit: exsum, exasum, exdot, exnrm2 (reductions)
// and exscal, exinvscal, exaxpy, exaxpby (elementwise), for every input generator, sizes 0 to
// 10^5 (and 10^7 for exsum/exdot), double and float, LayoutLeft, LayoutRight and LayoutStride,
// the rank-0 result forms, IEEE special values and bad extents.
#include <ExKokkos.hpp>

#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_Views.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace Level1OracleSuite {

using ExKokkosTest::describe;
using ExKokkosTest::same_bits;
using ExKokkosTest::to_host;
using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;

// The data as a rank-1 view of T in the layout under test. LayoutStride: a row of a LayoutLeft
// matrix with three rows, so consecutive elements are three apart in memory.
template <class T>
struct Inputs {
  Kokkos::View<T*, Kokkos::LayoutLeft, Mem> left;
  Kokkos::View<T*, Kokkos::LayoutRight, Mem> right;
  Kokkos::View<T**, Kokkos::LayoutLeft, Mem> matrix;
  Kokkos::View<T*, Kokkos::LayoutStride, Mem> strided;

  explicit Inputs(const std::vector<T>& v)
      : left("left", v.size()), right("right", v.size()), matrix("matrix", 3, v.size()) {
    auto hl = Kokkos::create_mirror_view(left);
    auto hm = Kokkos::create_mirror_view(matrix);
    for (std::size_t i = 0; i < v.size(); ++i) {
      hl(i) = v[i];
      hm(1, i) = v[i];
      hm(0, i) = hm(2, i) = T(12345);  // the neighbours must not leak in
    }
    Kokkos::deep_copy(left, hl);
    Kokkos::deep_copy(right, hl);
    Kokkos::deep_copy(matrix, hm);
    strided = Kokkos::subview(matrix, 1, Kokkos::ALL());
  }
};

template <class T>
std::vector<T> as(const std::vector<double>& v) {
  return std::vector<T>(v.begin(), v.end());
}

template <class T>
std::vector<double> widen(const std::vector<T>& v) {
  return std::vector<double>(v.begin(), v.end());
}

// Oracle values for T (the exact value of the T data, rounded once to T).
template <class T>
T oracle_sum(const std::vector<T>& v) {
  ExKokkosTest::ExactSum s;
  for (T x : v) s.add(static_cast<double>(x));
  return std::is_same<T, float>::value ? T(s.round_float()) : T(s.round_double());
}
template <class T>
T oracle_asum(const std::vector<T>& v) {
  ExKokkosTest::ExactSum s;
  for (T x : v) s.add(std::fabs(static_cast<double>(x)));
  return std::is_same<T, float>::value ? T(s.round_float()) : T(s.round_double());
}
template <class T>
T oracle_dot(const std::vector<T>& x, const std::vector<T>& y) {
  ExKokkosTest::ExactSum s;
  for (std::size_t i = 0; i < x.size(); ++i) s.add_product(double(x[i]), double(y[i]));
  return std::is_same<T, float>::value ? T(s.round_float()) : T(s.round_double());
}
template <class T>
T oracle_axpby(T a, T x, T b, T y) {
  ExKokkosTest::ExactSum s;
  s.add_product(double(a), double(x));
  s.add_product(double(b), double(y));
  return std::is_same<T, float>::value ? T(s.round_float()) : T(s.round_double());
}
double oracle_nrm2(const std::vector<double>& v) {
  return ExKokkosTest::exact_nrm2(v);
}
float oracle_nrm2(const std::vector<float>& v) {
  return ExKokkosTest::exact_nrm2(v);
}

template <class T>
void check_reductions(const std::vector<T>& x, const std::vector<T>& y, const std::string& what) {
  Inputs<T> ix(x), iy(y);
  const T sum = oracle_sum(x), asum = oracle_asum(x), dot = oracle_dot(x, y), nrm2 = oracle_nrm2(x);
  const auto check = [&](T got, T expected, const char* routine, const char* layout) {
    ASSERT_TRUE(same_bits(got, expected))
        << routine << " " << layout << " " << what << " n=" << x.size() << ": got " << describe(got)
        << ", expected " << describe(expected);
  };
  check(ExKokkos::exsum(Space(), ix.left), sum, "exsum", "left");
  check(ExKokkos::exsum(Space(), ix.right), sum, "exsum", "right");
  check(ExKokkos::exsum(Space(), ix.strided), sum, "exsum", "stride");
  check(ExKokkos::exasum(Space(), ix.left), asum, "exasum", "left");
  check(ExKokkos::exasum(Space(), ix.strided), asum, "exasum", "stride");
  check(ExKokkos::exdot(Space(), ix.left, iy.left), dot, "exdot", "left");
  check(ExKokkos::exdot(Space(), ix.right, iy.strided), dot, "exdot", "right/stride");
  check(ExKokkos::exnrm2(Space(), ix.left), nrm2, "exnrm2", "left");
  check(ExKokkos::exnrm2(Space(), ix.strided), nrm2, "exnrm2", "stride");
  // The forms without a space, and the rank-0 forms.
  check(ExKokkos::exdot(ix.left, iy.left), dot, "exdot(x, y)", "left");
  Kokkos::View<T, Mem> r("r");
  ExKokkos::exsum(Space(), r, ix.left);
  T h;
  Kokkos::deep_copy(h, r);
  check(h, sum, "exsum(space, r, x)", "left");
  ExKokkos::exdot(Space(), r, ix.left, iy.left);
  Kokkos::deep_copy(h, r);
  check(h, dot, "exdot(space, r, x, y)", "left");
  ExKokkos::exnrm2(Space(), r, ix.right);
  Kokkos::deep_copy(h, r);
  check(h, nrm2, "exnrm2(space, r, x)", "right");
  ExKokkos::exasum(Space(), r, ix.right);
  Kokkos::deep_copy(h, r);
  check(h, asum, "exasum(space, r, x)", "right");
}

TEST(Level1Reductions, EveryGeneratorSizeTypeAndLayout) {
  std::mt19937_64 rng(2026);
  for (const auto& g : ExKokkosTest::sum_generators()) {
    for (std::size_t n : {0, 1, 2, 3, 17, 1000, 100000}) {
      const std::vector<double> x = g.generate(n, rng);
      std::vector<double> y = g.generate(x.size(), rng);
      y.resize(x.size(), 1.0);  // some generators return a few more or fewer than asked
      check_reductions<double>(x, y, g.name);
      if (n <= 1000) check_reductions<float>(as<float>(x), as<float>(y), g.name + " (float)");
    }
  }
}

TEST(Level1Reductions, ProductGeneratorsAndIllConditionedDots) {
  std::mt19937_64 rng(2027);
  for (const auto& g : ExKokkosTest::product_generators()) {
    for (std::size_t n : {6, 17, 1000, 100000}) {
      const auto xy = g.generate(n, rng);
      check_reductions<double>(xy.first, xy.second, g.name);
    }
  }
  for (double cond : {1e10, 1e20, 1e50, 1e100, 1e200, 1e300}) {
    for (std::size_t n : {100, 10000}) {
      const auto xy = ExKokkosTest::gen_dot(n, cond, rng);
      Inputs<double> ix(xy.first), iy(xy.second);
      const double expected = oracle_dot(xy.first, xy.second);
      const double got = ExKokkos::exdot(Space(), ix.left, iy.left);
      ASSERT_TRUE(same_bits(got, expected))
          << "GenDot cond " << cond << ": " << describe(got) << " vs " << describe(expected);
    }
  }
}

// Narrow and wide data in segments of random lengths: a CPU thread walks narrow stretches through
// its expansion lanes and wide ones straight into exponent bins, switching back and forth
// (blas/impl/ExKokkos_LaneWalk_impl.hpp); the sums are exact either way.
TEST(Level1Reductions, NarrowAndWideSegments) {
  std::mt19937_64 rng(2029);
  for (int c = 0; c < 4; ++c) {
    std::vector<double> x, y;
    while (x.size() < 200000) {
      const std::size_t len = 1 + rng() % (c < 2 ? 3000 : 40000);
      const int kind = static_cast<int>(rng() % 4);
      const auto segment = [&]() {
        if (kind == 0) return ExKokkosTest::lognormal_wide(len, rng);
        if (kind == 1) return ExKokkosTest::full_range(len, rng);
        if (kind == 2) return ExKokkosTest::normal(len, rng);
        return ExKokkosTest::uniform(len, rng);
      };
      const std::vector<double> sx = segment(), sy = segment();
      x.insert(x.end(), sx.begin(), sx.end());
      y.insert(y.end(), sy.begin(), sy.begin() + std::min(sx.size(), sy.size()));
      y.resize(x.size(), 1.0);
    }
    check_reductions<double>(x, y, "segments " + std::to_string(c));
  }
}

TEST(Level1Reductions, TenMillionElements) {
  std::mt19937_64 rng(2028);
  const std::vector<double> x = ExKokkosTest::uniform(10000000, rng);
  const std::vector<double> y = ExKokkosTest::normal(x.size(), rng);
  Inputs<double> ix(x), iy(y);
  EXPECT_TRUE(same_bits(ExKokkos::exsum(Space(), ix.left), oracle_sum(x)));
  EXPECT_TRUE(same_bits(ExKokkos::exasum(Space(), ix.strided), oracle_asum(x)));
  EXPECT_TRUE(same_bits(ExKokkos::exdot(Space(), ix.left, iy.right), oracle_dot(x, y)));
  EXPECT_TRUE(same_bits(ExKokkos::exnrm2(Space(), ix.right), oracle_nrm2(x)));
  const std::vector<float> fx = as<float>(x), fy = as<float>(y);
  Inputs<float> jx(fx), jy(fy);
  EXPECT_TRUE(same_bits(ExKokkos::exsum(Space(), jx.left), oracle_sum(fx)));
  EXPECT_TRUE(same_bits(ExKokkos::exdot(Space(), jx.left, jy.left), oracle_dot(fx, fy)));
  // exaxpby on 10^7 elements, every one checked.
  ExKokkos::exaxpby(Space(), 0.1, ix.left, -3.0, iy.left);
  const std::vector<double> got = to_host(iy.left);
  for (std::size_t i = 0; i < x.size(); ++i)
    ASSERT_TRUE(same_bits(got[i], oracle_axpby(0.1, x[i], -3.0, y[i]))) << "i=" << i;
}

// Norms that are exact midpoints between two neighbours of T, and values a hair on either side
// of them, over the exponent range: the square root's exact midpoint tests decide them (ties to
// even). With s^2 + t^2 = mu odd and one bit longer than T's significand, the norm of
// {(s^2 - t^2) 2^k, 2 s t 2^k} is exactly mu 2^k, halfway between two neighbours of T.
template <class T>
void check_norm_midpoints(int precision, int max_scale, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::uint64_t lo = std::uint64_t(1) << precision, hi = lo << 1;
  const std::uint64_t root = static_cast<std::uint64_t>(std::sqrt(double(lo)));
  int ties = 0;
  for (int c = 0; c < 20000; ++c) {
    const std::uint64_t s = root + rng() % (root / 2), t = rng() % (root * 3 / 5);
    const std::uint64_t mu = s * s + t * t;  // exact: below 2^56
    // mu odd and one bit longer than T's significand; s^2 - t^2 and 2st exact in T.
    if (mu < lo || mu >= hi || mu % 2 == 0 || s * s - t * t >= lo) continue;
    const int k = static_cast<int>(rng() % std::uint64_t(2 * max_scale)) - max_scale;
    std::vector<T> v = {T(std::ldexp(double(s * s - t * t), k)),
                        T(std::ldexp(double(2 * s * t), k))};
    const std::uint64_t kind = rng() % 3;  // the tie, or a term far below it on either side
    if (kind != 0) v.push_back(T(std::ldexp(1.0, k - 3 * precision)));
    if (kind == 2) v[1] = std::nextafter(v[1], T(0));
    ties += kind == 0;
    Inputs<T> in(v);
    const T got = ExKokkos::exnrm2(Space(), in.left);
    const T expected = ExKokkosTest::exact_nrm2(v);
    ASSERT_TRUE(same_bits(got, expected))
        << "k " << k << ", kind " << kind << ": " << describe(got) << " vs " << describe(expected);
  }
  EXPECT_GT(ties, 100);
}

TEST(Level1Reductions, Nrm2AtAndBesideMidpoints) {
  check_norm_midpoints<double>(53, 960, 2030);
  check_norm_midpoints<float>(24, 100, 2031);
}

TEST(Level1Reductions, Nrm2WithoutSpuriousOverflowOrUnderflow) {
  const auto nrm2 = [](std::vector<double> v) {
    Inputs<double> in(v);
    return ExKokkos::exnrm2(Space(), in.left);
  };
  EXPECT_TRUE(same_bits(nrm2({1e300, 1e300}), 1.4142135623730952e+300));
  EXPECT_TRUE(same_bits(nrm2({1e-300, 1e-300}), 1.414213562373095e-300));
  EXPECT_TRUE(same_bits(nrm2({3.0, 4.0}), 5.0));
  EXPECT_TRUE(same_bits(nrm2({1e-320}), 1e-320));  // a subnormal norm
  EXPECT_TRUE(same_bits(nrm2({0x1p-1074, 0x1p-1074}),
                        oracle_nrm2(std::vector<double>{0x1p-1074, 0x1p-1074})));
  EXPECT_TRUE(same_bits(nrm2({1e308, 1e308}), oracle_nrm2(std::vector<double>{1e308, 1e308})));
  EXPECT_TRUE(same_bits(nrm2({1.5e308, 1.5e308}), std::numeric_limits<double>::infinity()));
  EXPECT_TRUE(same_bits(nrm2({1.2e308, 0.5}), 1.2e308));
  EXPECT_TRUE(same_bits(nrm2({-0.0}), 0.0));
  EXPECT_TRUE(std::isnan(nrm2({1.0, std::nan("")})));
  EXPECT_TRUE(same_bits(nrm2({1.0, -std::numeric_limits<double>::infinity()}),
                        std::numeric_limits<double>::infinity()));
}

TEST(Level1Reductions, SpecialValues) {
  const double inf = std::numeric_limits<double>::infinity();
  Inputs<double> a(std::vector<double>{1.0, inf, 2.0}), b(std::vector<double>{inf, -inf});
  EXPECT_TRUE(same_bits(ExKokkos::exsum(Space(), a.left), inf));
  EXPECT_TRUE(std::isnan(ExKokkos::exsum(Space(), b.left)));
  Inputs<double> z(std::vector<double>{0.0, 1.0}), w(std::vector<double>{inf, 3.0});
  EXPECT_TRUE(std::isnan(ExKokkos::exdot(Space(), z.left, w.left)));  // 0 * inf
  Inputs<double> nz(std::vector<double>{-0.0, -0.0});
  EXPECT_TRUE(same_bits(ExKokkos::exsum(Space(), nz.left), -0.0));
  Inputs<double> empty(std::vector<double>{});
  EXPECT_TRUE(same_bits(ExKokkos::exsum(Space(), empty.left), 0.0));
  EXPECT_TRUE(same_bits(ExKokkos::exdot(Space(), empty.left, empty.left), 0.0));
}

TEST(Level1Reductions, MismatchedExtentsThrowNamingRoutineAndExtents) {
  Kokkos::View<double*, Mem> x("x", 3), y("y", 4);
  try {
    ExKokkos::exdot(Space(), x, y);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("ExKokkos::exdot"), std::string::npos) << what;
    EXPECT_NE(what.find("3"), std::string::npos) << what;
    EXPECT_NE(what.find("4"), std::string::npos) << what;
  }
  EXPECT_THROW(ExKokkos::exaxpby(Space(), 1.0, x, 1.0, y), std::invalid_argument);
  EXPECT_THROW(ExKokkos::exaxpy(Space(), 1.0, x, y), std::invalid_argument);
  EXPECT_THROW(ExKokkos::exscal(Space(), y, 2.0, x), std::invalid_argument);
  EXPECT_THROW(ExKokkos::exinvscal(Space(), y, 2.0, x), std::invalid_argument);
}

// --- Elementwise --------------------------------------------------------------------------------

template <class T>
void check_elementwise(const std::vector<T>& x, const std::vector<T>& y, T alpha, T beta,
                       const std::string& what) {
  // Expected values, with the BLAS conventions for zero coefficients.
  std::vector<T> axpby(x.size()), axpy(x.size()), scal(x.size()), invscal(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    axpby[i] = beta == T(0)
                   ? (alpha == T(0) ? T(0) : T(alpha * x[i]))
                   : (alpha == T(0) ? T(beta * y[i]) : oracle_axpby(alpha, x[i], beta, y[i]));
    axpy[i] = alpha == T(0) ? y[i] : oracle_axpby(alpha, x[i], T(1), y[i]);
    scal[i] = alpha == T(0) ? T(0) : alpha * x[i];  // KokkosBlas: alpha = 0 writes zeros
    invscal[i] = x[i] / alpha;                      // one IEEE division is correctly rounded
  }
  for (int layout = 0; layout < 2; ++layout) {
    Inputs<T> ix(x), iy(y);
    if (layout == 0) {
      ExKokkos::exaxpby(Space(), alpha, ix.left, beta, iy.left);
    } else {
      ExKokkos::exaxpby(Space(), alpha, ix.strided, beta, iy.strided);
    }
    const std::vector<T> got = layout == 0 ? to_host(iy.left) : to_host(iy.strided);
    for (std::size_t i = 0; i < x.size(); ++i)
      ASSERT_TRUE(same_bits(got[i], axpby[i]))
          << "exaxpby " << what << " layout " << layout << " i=" << i << ": alpha "
          << describe(alpha) << " x " << describe(x[i]) << " beta " << describe(beta) << " y "
          << describe(y[i]) << " got " << describe(got[i]) << " expected " << describe(axpby[i]);
  }
  Inputs<T> ix(x), iy(y), out(y);
  ExKokkos::exaxpy(Space(), alpha, ix.right, iy.right);
  const std::vector<T> got_axpy = to_host(iy.right);
  ExKokkos::exscal(Space(), out.left, alpha, ix.left);
  const std::vector<T> got_scal = to_host(out.left);
  ExKokkos::exinvscal(Space(), out.strided, alpha, ix.strided);
  const std::vector<T> got_invscal = to_host(out.strided);
  for (std::size_t i = 0; i < x.size(); ++i) {
    ASSERT_TRUE(same_bits(got_axpy[i], axpy[i])) << "exaxpy " << what << " i=" << i;
    ASSERT_TRUE(same_bits(got_scal[i], scal[i])) << "exscal " << what << " i=" << i;
    ASSERT_TRUE(same_bits(got_invscal[i], invscal[i])) << "exinvscal " << what << " i=" << i;
  }
}

TEST(Level1Elementwise, EveryGeneratorAndCoefficient) {
  std::mt19937_64 rng(2029);
  const std::vector<double> coefficients = {0.0,     1.0,      -1.0,  0.3,   -7.25e-3,
                                            0x1p600, 0x1p-600, 1e300, 1e-300};
  for (const auto& g : ExKokkosTest::sum_generators()) {
    const std::vector<double> x = g.generate(500, rng);
    std::vector<double> y = g.generate(x.size(), rng);
    y.resize(x.size(), 1.0);
    for (double a : coefficients) {
      for (double b : {0.0, 1.0, -1.0, 0.7, 0x1p-700, 3e250}) {
        check_elementwise<double>(x, y, a, b, g.name);
        check_elementwise<float>(as<float>(x), as<float>(y), float(a), float(b),
                                 g.name + " (float)");
      }
    }
  }
}

TEST(Level1Elementwise, TiesZerosAndSpecials) {
  const double inf = std::numeric_limits<double>::infinity();
  // 1 + 2^-53 is a tie between 1 and 1 + 2^-52: to even, 1. A far sticky part in the second
  // product (its TwoProd error) moves it above or below the tie.
  const double above = 0x1p-53 * (1 + 0x1p-52), below = 0x1p-53 * (1 - 0x1p-53);
  const std::vector<double> x = {1.0, 1.0, 1.0, -0.0, -0.0, 0.0, 1.0, inf, 1.0};
  const std::vector<double> y = {1.0,  1.0 + 0x1p-52, 1.0 - 0x1p-53, -0.0, 0.0,
                                 -0.0, std::nan(""),  1.0,           1.0};
  for (double b : {0x1p-53, above, below, -0x1p-53, 2.0})
    check_elementwise<double>(x, y, 1.0, b, "ties");
  // beta == 0 does not read y: NaN in y does not propagate.
  check_elementwise<double>(x, y, 2.0, 0.0, "beta = 0");
  // Signed zeros: -0 + -0 is -0.
  Inputs<double> ix(std::vector<double>{-0.0}), iy(std::vector<double>{-0.0});
  ExKokkos::exaxpby(Space(), 1.0, ix.left, 1.0, iy.left);
  EXPECT_TRUE(same_bits(to_host(iy.left)[0], -0.0));
}

TEST(Level1Elementwise, SerialAndOpenMPAgree) {
  std::mt19937_64 rng(2030);
  const std::vector<double> x = ExKokkosTest::full_range(10000, rng);
  const std::vector<double> y = ExKokkosTest::lognormal_wide(10000, rng);
  Kokkos::View<double*, Kokkos::HostSpace> a("a", x.size()), b("b", y.size()), c("c", y.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    a(i) = x[i];
    b(i) = c(i) = y[i];
  }
  ExKokkos::exaxpby(Kokkos::Serial(), 0.3, a, -1.7, b);
  ExKokkos::exaxpby(Kokkos::DefaultHostExecutionSpace(), 0.3, a, -1.7, c);
  Kokkos::fence();
  for (std::size_t i = 0; i < x.size(); ++i) ASSERT_TRUE(same_bits(b(i), c(i)));
}

}  // namespace Level1OracleSuite
}  // namespace
