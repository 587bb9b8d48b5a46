// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// exgemv against the MPFR oracle, bit for bit: every y_i = RN(alpha * sum_k op(A)_ik x_k + beta
// y_i) rounded once, for trans N/T/C, alpha and beta in {0, 1, -1, random, huge, tiny}, shapes 1x1
// to 2000x3000, LayoutLeft/Right/Stride, ill-conditioned rows (GenDot), products of three doubles
// that over- or underflow in floating point, IEEE special values, and bad input. Every schedule,
// team and expansion size: test_level2_gemv_schedules.cpp.
#include <ExKokkos.hpp>

#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_GemvOracle.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_ExpectBits.hpp"
#include "ExKokkosTest_GemvProblem.hpp"
#include "ExKokkosTest_Matrices.hpp"
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
namespace GemvSuite {

using namespace ExKokkosTest::GemvTest;
using ExKokkosTest::describe;
using ExKokkosTest::expect_bits;
using ExKokkosTest::Rng;
using ExKokkosTest::same_bits;
using ExKokkosTest::to_host;

TEST(Gemv, MatchesOracleForShapesAlphaBetaAndLayouts) {
  Rng rng(42);
  const std::vector<std::pair<std::size_t, std::size_t>> shapes = {
      {1, 1}, {1, 5}, {5, 1}, {2, 3}, {17, 33}, {33, 17}, {31, 32}, {65, 70}, {100, 7}, {7, 100}};
  std::uniform_real_distribution<double> u(-3, 3);
  const std::vector<double> scalars = {1.0, -1.0, 0.0, u(rng), 0x1p-600, 0x1.8p700};
  for (const auto& s : shapes)
    for (bool t : {false, true})
      for (double alpha : scalars)
        for (double beta : {0.0, 1.0, -1.0, u(rng)}) {
          const auto p = random_problem<double>(s.first, s.second, t, alpha, beta, rng);
          check_all_layouts(p, std::to_string(s.first) + "x" + std::to_string(s.second) +
                                   (t ? " T" : " N") + " alpha " + describe(alpha) + " beta " +
                                   describe(beta));
        }
}

TEST(Gemv, ConjugateTransposeIsTransposeForRealValues) {
  Rng rng(8);
  const auto p = random_problem<double>(20, 30, true, 1.25, 0.5, rng);
  expect_bits(p.expected(), run<Kokkos::LayoutLeft>(p, "C"), "C", "y");
  expect_bits(p.expected(), run<Kokkos::LayoutLeft>(p, "t"), "t", "y");
}

TEST(Gemv, LargeShapes) {
  Rng rng(9);
  for (bool t : {false, true}) {
    const auto p = random_problem<double>(2000, 3000, t, 1.5, 0.5, rng);
    const auto e = p.expected();
    expect_bits(e, run<Kokkos::LayoutLeft>(p, t ? "T" : "N"), t ? "2000x3000 T" : "2000x3000 N",
                "y");
  }
}

TEST(Gemv, FloatIsCorrectlyRoundedToFloat) {
  Rng rng(10);
  for (bool t : {false, true})
    for (float alpha : {1.0f, -2.5f, 0.3f})
      for (float beta : {0.0f, 1.0f, 0.7f}) {
        const auto p = random_problem<float>(40, 57, t, alpha, beta, rng);
        check_all_layouts(p, std::string("float ") + (t ? "T" : "N"));
      }
}

// Ill-conditioned rows (GemvTest::ill_conditioned_rows, condition numbers 1e10 to 1e300), "N" and
// "T", so that both host lane schedules meet rows their compensated try must refuse (the same rows
// under output_block: test_level2_gemv_schedules.cpp).
TEST(Gemv, IllConditionedRows) {
  Rng rng(11);
  for_each_ill_conditioned_problem(
      rng, [](const Problem<double>& p, const Problem<double>& q, const std::string& label) {
        check_all_layouts(p, label);
        check_all_layouts(q, "T, " + label);
      });
}

// alpha * a * x beyond the double range in either direction, with cancellation: the exact
// three-factor products need the wide frame.
TEST(Gemv, ProductsThatOverflowOrUnderflow) {
  Rng rng(12);
  using Gen = ExKokkosTest::VectorPair (*)(std::size_t, Rng&);
  for (Gen gen : {Gen(ExKokkosTest::full_range_products), Gen(ExKokkosTest::underflow_products),
                  Gen(ExKokkosTest::overflow_cancel_products)}) {
    const std::size_t m = 9, n = 50;
    Problem<double> p;
    p.m = m;
    p.n = n;
    const auto first = gen(n, rng);
    p.x = first.first;
    for (std::size_t i = 0; i < m; ++i) {
      const auto row = gen(n, rng);
      p.a.insert(p.a.end(), row.second.begin(), row.second.end());
    }
    std::uniform_real_distribution<double> u(-1, 1);
    for (std::size_t i = 0; i < m; ++i) p.y.push_back(std::ldexp(u(rng), -1060));
    for (double alpha : {1.0, 0x1p-1074, 0x1.3p-900, 0x1.fp900, -3.0e300})
      for (double beta : {0.0, 1.0, 0x1p-20, 0x1p1000}) {
        p.alpha = alpha;
        p.beta = beta;
        const auto e = p.expected();
        expect_bits(e, run<Kokkos::LayoutLeft>(p, "N"),
                    "alpha " + describe(alpha) + " beta " + describe(beta), "y");
      }
  }
}

TEST(Gemv, SpecialValuesFollowIeee) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  Problem<double> p;
  p.m = 4;
  p.n = 2;
  p.a = {1, nan, inf, 1, inf, -inf, 1, 2};
  p.x = {1, 1};
  p.y = {nan, 5, 7, nan};
  p.alpha = 2;
  p.beta = 0;  // y is not read: its NaNs do not propagate
  auto y = run<Kokkos::LayoutLeft>(p, "N");
  EXPECT_TRUE(std::isnan(y[0]));
  EXPECT_EQ(y[1], inf);
  EXPECT_TRUE(std::isnan(y[2]));  // inf - inf
  EXPECT_EQ(y[3], 6.0);
  p.beta = 1;  // now y is read
  y = run<Kokkos::LayoutLeft>(p, "N");
  EXPECT_TRUE(std::isnan(y[3]));
  EXPECT_EQ(y[1], inf);
  // alpha == 0: A and x are not read, y = beta y.
  p.alpha = 0;
  p.beta = 2;
  p.y = {1, 2, 3, 4};
  y = run<Kokkos::LayoutLeft>(p, "N");
  EXPECT_EQ(y, (std::vector<double>{2, 4, 6, 8}));
  // An infinite alpha times an exactly zero sum is NaN; times a non-zero one, an infinity.
  p.a = {1, -1, 0, 0, 1, 1, -0.0, -0.0};
  p.alpha = inf;
  p.beta = 0;
  y = run<Kokkos::LayoutLeft>(p, "N");
  EXPECT_TRUE(std::isnan(y[0]));
  EXPECT_TRUE(std::isnan(y[1]));
  EXPECT_EQ(y[2], inf);
  EXPECT_TRUE(std::isnan(y[3]));
}

TEST(Gemv, SignedZerosFollowIeee) {
  Problem<double> p;
  p.m = 3;
  p.n = 2;
  p.a = {-0.0, -0.0, 1, -1, -0.0, 0.0};
  p.x = {1, 1};
  p.y = {-0.0, -0.0, -0.0};
  p.alpha = 1;
  p.beta = 0;
  auto y = run<Kokkos::LayoutLeft>(p, "N");
  EXPECT_TRUE(same_bits(y[0], -0.0));  // -0 + -0
  EXPECT_TRUE(same_bits(y[1], 0.0));   // cancellation gives +0
  EXPECT_TRUE(same_bits(y[2], 0.0));   // -0 + +0
  p.beta = 1;                          // -0 + (-0 * 1... ) stays -0 only when every term is -0
  y = run<Kokkos::LayoutLeft>(p, "N");
  EXPECT_TRUE(same_bits(y[0], -0.0));
  EXPECT_TRUE(same_bits(y[1], 0.0));
  p.alpha = -1;
  p.beta = 0;
  y = run<Kokkos::LayoutLeft>(p, "N");
  EXPECT_TRUE(same_bits(y[0], 0.0));  // -1 * -0
}

TEST(Gemv, EmptyDimensions) {
  Kokkos::View<double**> A0("A", 0, 3), A1("A", 3, 0);
  Kokkos::View<double*> x3("x", 3), x0("x", 0), y0("y", 0), y3("y", 3);
  ExKokkos::exgemv("N", 1.0, A0, x3, 2.0, y0);  // no output
  Kokkos::deep_copy(y3, 1.5);
  ExKokkos::exgemv("N", 1.0, A1, x0, 2.0, y3);  // empty sums: y = beta y, as KokkosBlas
  for (double v : to_host(y3)) EXPECT_EQ(v, 3.0);
  ExKokkos::exgemv("N", 1.0, A1, x0, 0.0, y3);
  for (double v : to_host(y3)) EXPECT_TRUE(same_bits(v, 0.0));
}

TEST(Gemv, BadInputThrowsAndLeavesYUntouched) {
  Kokkos::View<double**> A("A", 4, 3);
  Kokkos::View<double*> x3("x", 3), x4("x", 4), y4("y", 4), y3("y", 3);
  Kokkos::deep_copy(y4, 1.0);
  try {
    ExKokkos::exgemv("N", 1.0, A, x4, 0.0, y4);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("ExKokkos::exgemv"), std::string::npos) << msg;
    EXPECT_NE(msg.find("x.extent(0) = 4"), std::string::npos) << msg;
  }
  EXPECT_THROW(ExKokkos::exgemv("T", 1.0, A, x3, 0.0, y3), std::invalid_argument);
  EXPECT_THROW(ExKokkos::exgemv("X", 1.0, A, x3, 0.0, y4), std::invalid_argument);
  EXPECT_NO_THROW(ExKokkos::exgemv("T", 1.0, A, x4, 0.0, y3));
  for (double v : to_host(y4)) EXPECT_EQ(v, 1.0);
}

}  // namespace GemvSuite
}  // namespace
