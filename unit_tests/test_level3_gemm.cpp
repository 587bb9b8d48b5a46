// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// exgemm against the MPFR oracle, bit for bit: every c_ij = RN(alpha * sum_k op(A)_ik op(B)_kj +
// beta c_ij) rounded once, for every transA/transB pair, alpha and beta in {0, 1, -1, random, huge,
// tiny}, shapes around the 32-row blocks (1 x k x 1, k x 1 x k, odd sizes),
// LayoutLeft/Right/Stride, ill-conditioned rows (GenDot), products of three doubles that over- or
// underflow in floating point, IEEE special values, and bad input. Every schedule, team size and
// expansion size: test_level3_gemm_schedules.cpp.
#include <ExKokkos.hpp>

#include <ExKokkosTest_GemvOracle.hpp>
#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_ExpectBits.hpp"
#include "ExKokkosTest_GemmProblem.hpp"
#include "ExKokkosTest_Matrices.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace GemmSuite {

using namespace ExKokkosTest::GemmTest;
using ExKokkosTest::describe;
using ExKokkosTest::expect_bits;
using ExKokkosTest::Rng;
using ExKokkosTest::same_bits;

struct Shape {
  std::size_t m, n, k;
};

TEST(Gemm, MatchesOracleForShapesTransposesAlphaBetaAndLayouts) {
  Rng rng(42);
  // 1 x k x 1 and k x 1 x k, and sizes on both sides of the 32-row blocks of the host lanes.
  const std::vector<Shape> shapes = {{1, 1, 1},   {1, 1, 45},  {45, 1, 45}, {1, 45, 45},
                                     {45, 45, 1}, {31, 5, 32}, {32, 3, 33}, {33, 4, 31},
                                     {65, 9, 17}, {7, 70, 3}};
  std::uniform_real_distribution<double> u(-3, 3);
  const std::vector<double> alphas = {1.0, -1.0, 0.0, u(rng), 0x1p-600, 0x1.8p700};
  const std::vector<double> betas = {0.0, 1.0, -1.0, u(rng)};
  for (const auto& s : shapes)
    for (bool ta : {false, true})
      for (bool tb : {false, true})
        for (std::size_t v = 0; v < alphas.size() * betas.size(); v += 5) {  // a spread of pairs
          const double alpha = alphas[v % alphas.size()], beta = betas[v / alphas.size()];
          const auto p = random_problem<double>(s.m, s.n, s.k, ta, tb, alpha, beta, rng);
          check_layouts(p, p.expected(),
                        shape_name(s.m, s.n, s.k, ta, tb) + " alpha " + describe(alpha) + " beta " +
                            describe(beta));
        }
}

TEST(Gemm, EveryAlphaBetaPair) {
  Rng rng(43);
  std::uniform_real_distribution<double> u(-3, 3);
  for (double alpha : {1.0, -1.0, 0.0, u(rng), 0x1p-600, 0x1.8p700})
    for (double beta : {0.0, 1.0, -1.0, u(rng)}) {
      const auto p = random_problem<double>(35, 6, 40, false, false, alpha, beta, rng);
      expect_bits(p.expected(), run<Kokkos::LayoutLeft>(p, "N", "N"),
                  "alpha " + describe(alpha) + " beta " + describe(beta), "C");
    }
}

// A defect to guard against: alpha and beta ignored, or C rounded twice. With alpha and beta
// away from 1 and 0, rounding the sum before scaling gives other bits in a good share of the
// elements: the oracle comparison sees that, and this checks that the data make it visible.
TEST(Gemm, RoundsOnceWithAlphaAndBeta) {
  Rng rng(44);
  const auto p = random_problem<double>(40, 40, 50, false, true, 0.7, 0.3, rng);
  const auto e = p.expected();
  expect_bits(e, run<Kokkos::LayoutRight>(p, "N", "T"), "alpha 0.7 beta 0.3", "C");
  int twice_differs = 0;
  std::vector<double> row(p.k), col(p.k);
  for (std::size_t i = 0; i < p.m; ++i)
    for (std::size_t j = 0; j < p.n; ++j) {
      for (std::size_t l = 0; l < p.k; ++l) {
        row[l] = p.op_a(i, l);
        col[l] = p.op_b(l, j);
      }
      const double rounded_sum = ExKokkosTest::exact_gemv_entry(1.0, row, col, 0.0, 0.0);
      const double twice = p.alpha * rounded_sum + p.beta * p.c[i * p.n + j];
      if (!same_bits(twice, e[i * p.n + j])) ++twice_differs;
    }
  EXPECT_GT(twice_differs, 0) << "the data cannot tell one rounding from several";
}

TEST(Gemm, ConjugateTransposeIsTransposeForRealValues) {
  Rng rng(8);
  const auto p = random_problem<double>(9, 13, 21, true, true, 1.25, 0.5, rng);
  const auto e = p.expected();
  expect_bits(e, run<Kokkos::LayoutLeft>(p, "C", "c"), "C c", "C");
  expect_bits(e, run<Kokkos::LayoutLeft>(p, "t", "T"), "t T", "C");
}

TEST(Gemm, LargerShapes) {
  Rng rng(9);
  const auto p = random_problem<double>(150, 120, 300, false, false, 1.5, 0.5, rng);
  const auto e = p.expected();
  expect_bits(e, run<Kokkos::LayoutLeft>(p, "N", "N"), "150x120x300 NN LayoutLeft", "C");
  expect_bits(e, run<Kokkos::LayoutRight>(p, "N", "N"), "150x120x300 NN LayoutRight", "C");
}

TEST(Gemm, FloatIsCorrectlyRoundedToFloat) {
  Rng rng(10);
  for (bool ta : {false, true})
    for (float alpha : {1.0f, -2.5f, 0.3f})
      for (float beta : {0.0f, 0.7f}) {
        const auto p = random_problem<float>(34, 5, 29, ta, !ta, alpha, beta, rng);
        check_layouts(p, p.expected(), std::string("float ") + (ta ? "TN" : "NT"));
      }
}

// Rows of A whose products with the columns of B cancel to a tiny fraction of their terms
// (GenDot, condition numbers 1e10 to 1e300): column j of B is GenDot's x scaled by 2^(j - 2), row i
// of A its partner scaled by 2^(i mod 5 - 2) with the last element nudged in odd rows.
TEST(Gemm, IllConditionedRowsAndColumns) {
  Rng rng(11);
  for (double cond : {1e10, 1e100, 1e300}) {
    const std::size_t k = 50, m = 35, n = 4;
    const auto pair = ExKokkosTest::gen_dot(k, cond, rng);
    Problem<double> p;
    p.m = m;
    p.n = n;
    p.k = k;
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t l = 0; l < k; ++l) {
        double v = std::ldexp(pair.second[l], static_cast<int>(i % 5) - 2);
        if (l + 1 == k && i % 2 == 1) v = std::nextafter(v, 0.0);
        p.a.push_back(v);
      }
    for (std::size_t l = 0; l < k; ++l)
      for (std::size_t j = 0; j < n; ++j)
        p.b.push_back(std::ldexp(pair.first[l], static_cast<int>(j) - 2));
    std::uniform_real_distribution<double> u(-1, 1);
    for (std::size_t i = 0; i < m * n; ++i) p.c.push_back(u(rng) * 1e-20);
    for (double alpha : {1.0, -0.7})
      for (double beta : {0.0, 0.37}) {
        p.alpha = alpha;
        p.beta = beta;
        check_layouts(
            p, p.expected(),
            "cond " + describe(cond) + " alpha " + describe(alpha) + " beta " + describe(beta));
      }
  }
}

// alpha * a * b beyond the double range in either direction, with cancellation: the exact
// three-factor products need the wide frame of the scaled rounding.
TEST(Gemm, ProductsThatOverflowOrUnderflow) {
  Rng rng(12);
  using Gen = ExKokkosTest::VectorPair (*)(std::size_t, Rng&);
  for (Gen gen : {Gen(ExKokkosTest::full_range_products), Gen(ExKokkosTest::underflow_products),
                  Gen(ExKokkosTest::overflow_cancel_products)}) {
    const std::size_t m = 5, n = 3, k = 40;
    Problem<double> p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.trans_b = true;  // B stored n x k: each row of B is one generated column of op(B)
    for (std::size_t i = 0; i < m; ++i) {
      const auto row = gen(k, rng);
      p.a.insert(p.a.end(), row.first.begin(), row.first.end());
    }
    for (std::size_t j = 0; j < n; ++j) {
      const auto col = gen(k, rng);
      p.b.insert(p.b.end(), col.second.begin(), col.second.end());
    }
    std::uniform_real_distribution<double> u(-1, 1);
    for (std::size_t i = 0; i < m * n; ++i) p.c.push_back(std::ldexp(u(rng), -1060));
    for (double alpha : {1.0, 0x1p-1074, 0x1.fp900, -3.0e300})
      for (double beta : {0.0, 0x1p-20, 0x1p1000}) {
        p.alpha = alpha;
        p.beta = beta;
        const auto e = p.expected();
        expect_bits(e, run<Kokkos::LayoutLeft>(p, "N", "T"),
                    "alpha " + describe(alpha) + " beta " + describe(beta), "C");
        ExKokkos::Options tiles;  // products at the edges of the range: the tiles' fallback
        tiles.schedule = ExKokkos::Schedule::tiles;
        expect_bits(e, run<Kokkos::LayoutLeft>(p, "N", "T", tiles),
                    "tiles alpha " + describe(alpha) + " beta " + describe(beta), "C");
      }
  }
}

TEST(Gemm, SpecialValuesFollowIeee) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  Problem<double> p;
  p.m = 4;
  p.n = 1;
  p.k = 2;
  p.a = {1, nan, inf, 1, inf, -inf, 1, 2};
  p.b = {1, 1};
  p.c = {nan, 5, 7, nan};
  p.alpha = 2;
  p.beta = 0;  // C is not read: its NaNs do not propagate
  auto c = run<Kokkos::LayoutLeft>(p, "N", "N");
  EXPECT_TRUE(std::isnan(c[0]));
  EXPECT_EQ(c[1], inf);
  EXPECT_TRUE(std::isnan(c[2]));  // inf - inf
  EXPECT_EQ(c[3], 6.0);
  p.beta = 1;  // now C is read
  c = run<Kokkos::LayoutLeft>(p, "N", "N");
  EXPECT_TRUE(std::isnan(c[3]));
  // alpha == 0: A and B are not read (no NaN from them), C = beta C.
  p.alpha = 0;
  p.beta = 2;
  p.c = {1, 2, 3, -0.0};
  c = run<Kokkos::LayoutLeft>(p, "N", "N");
  EXPECT_EQ(c[0], 2.0);
  EXPECT_EQ(c[2], 6.0);
  EXPECT_TRUE(same_bits(c[3], -0.0));
  p.beta = 0;  // and zeros without reading C
  p.c = {nan, nan, nan, nan};
  c = run<Kokkos::LayoutLeft>(p, "N", "N");
  for (double v : c) EXPECT_TRUE(same_bits(v, 0.0));
}

TEST(Gemm, SignedZerosFollowIeee) {
  Problem<double> p;
  p.m = 3;
  p.n = 1;
  p.k = 2;
  p.a = {-0.0, -0.0, 1, -1, -0.0, 0.0};
  p.b = {1, 1};
  p.c = {-0.0, -0.0, -0.0};
  p.alpha = 1;
  p.beta = 0;
  auto c = run<Kokkos::LayoutLeft>(p, "N", "N");
  EXPECT_TRUE(same_bits(c[0], -0.0));  // -0 + -0
  EXPECT_TRUE(same_bits(c[1], 0.0));   // cancellation gives +0
  EXPECT_TRUE(same_bits(c[2], 0.0));   // -0 + +0
  p.alpha = -1;
  c = run<Kokkos::LayoutLeft>(p, "N", "N");
  EXPECT_TRUE(same_bits(c[0], 0.0));  // -1 * -0
}

TEST(Gemm, EmptyDimensions) {
  Kokkos::View<double**> A03("A", 0, 3), B34("B", 3, 4), C04("C", 0, 4);
  ExKokkos::exgemm("N", "N", 1.0, A03, B34, 2.0, C04);  // m == 0
  Kokkos::View<double**> A23("A", 2, 3), B30("B", 3, 0), C20("C", 2, 0);
  ExKokkos::exgemm("N", "N", 1.0, A23, B30, 2.0, C20);  // n == 0
  Kokkos::View<double**> A20("A", 2, 0), B04("B", 0, 4), C24("C", 2, 4);
  Kokkos::deep_copy(C24, 1.5);
  ExKokkos::exgemm("N", "N", 1.0, A20, B04, 2.0, C24);  // k == 0: C = beta C, as BLAS
  for (double v : ExKokkosTest::matrix_elements(C24)) EXPECT_EQ(v, 3.0);
  ExKokkos::exgemm("N", "N", 1.0, A20, B04, 0.0, C24);
  for (double v : ExKokkosTest::matrix_elements(C24)) EXPECT_TRUE(same_bits(v, 0.0));
}

TEST(Gemm, BadInputThrowsAndLeavesCUntouched) {
  Kokkos::View<double**> A("A", 4, 3), B("B", 5, 2), C("C", 4, 2);
  Kokkos::deep_copy(C, 1.0);
  try {
    ExKokkos::exgemm("N", "N", 1.0, A, B, 0.0, C);  // inner extents 3 and 5
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("ExKokkos::exgemm"), std::string::npos) << msg;
    EXPECT_NE(msg.find("op(A) is 4 x 3"), std::string::npos) << msg;
    EXPECT_NE(msg.find("op(B) is 5 x 2"), std::string::npos) << msg;
  }
  Kokkos::View<double**> B32("B", 3, 2), C42("C", 4, 2), C43("C", 4, 3);
  EXPECT_THROW(ExKokkos::exgemm("N", "N", 1.0, A, B32, 0.0, C43), std::invalid_argument);
  EXPECT_THROW(ExKokkos::exgemm("X", "N", 1.0, A, B32, 0.0, C42), std::invalid_argument);
  EXPECT_THROW(ExKokkos::exgemm("N", "", 1.0, A, B32, 0.0, C42), std::invalid_argument);
  for (double v : ExKokkosTest::matrix_elements(C)) EXPECT_EQ(v, 1.0);
  // Devices: teams wider than the kernels launch (256 threads) are refused before C is written.
  if (!ExKokkos::Impl::is_host_space<Kokkos::DefaultExecutionSpace>()) {
    Kokkos::deep_copy(C42, 1.0);
    for (auto s : {ExKokkos::Schedule::tiles, ExKokkos::Schedule::team_per_output,
                   ExKokkos::Schedule::automatic}) {
      ExKokkos::Options o;
      o.schedule = s;
      o.team_size = 1024;
      EXPECT_THROW(ExKokkos::exgemm("N", "N", 1.0, A, B32, 0.0, C42, o), std::invalid_argument);
    }
    for (double v : ExKokkosTest::matrix_elements(C42)) EXPECT_EQ(v, 1.0);
  }
  // C overlapping A or B: rejected, nothing written. The check compares memory spans, so it also
  // rejects interleaved views that share no element (documented in ExKokkos_Gemm.hpp).
  Kokkos::View<double**> M("M", 4, 4), S44("S", 4, 4), S22("S", 2, 2);
  Kokkos::deep_copy(M, 1.0);
  const auto left = Kokkos::subview(M, Kokkos::ALL, Kokkos::make_pair(0, 2));
  EXPECT_THROW(ExKokkos::exgemm("N", "N", 1.0, left, S22, 0.0, left), std::invalid_argument);
  EXPECT_THROW(ExKokkos::exgemm("N", "N", 1.0, M, S44, 0.0, M), std::invalid_argument);
  EXPECT_THROW(ExKokkos::exgemm("N", "T", 1.0, S44, M, 0.0, M), std::invalid_argument);
  for (double v : ExKokkosTest::matrix_elements(M)) EXPECT_EQ(v, 1.0);
}

}  // namespace GemmSuite
}  // namespace
