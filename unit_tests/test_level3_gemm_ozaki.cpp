// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// exgemm's Ozaki schedule (error-free splitting into slices multiplied by an ordinary GEMM)
// against the MPFR oracle, bit for bit: every transA/transB pair, alpha and beta from 0 and +-1 to
// huge and tiny, shapes around the 32 x 32 tiles of the plain slice kernel and the slice widths,
// k = 1 up to k where beta drops, data needing one slice or dozens, data that cannot be split
// (the forced schedule falls back to the default and gives the same bits), products in the
// subnormal range and near the overflow threshold, signed zeros, floats, both slice GEMMs (the
// vendor's: cuBLAS on CUDA, Kokkos Kernels' on the host; and the plain Kokkos kernel), column
// blocks of the slice product, and the same bits as every other schedule. Both kinds of slices:
// doubles of beta bits and int8 digits of 7 bits whose diagonal sums are int32 (cublasGemmEx on
// CUDA, the plain Kokkos kernel everywhere), up to the int32 limit of those sums.
#include <ExKokkos.hpp>

#include <ExKokkosTest_GemvOracle.hpp>
#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_ExpectBits.hpp"
#include "ExKokkosTest_GemmProblem.hpp"
#include "ExKokkosTest_LaunchCounter.hpp"
#include "ExKokkosTest_Matrices.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace GemmOzakiSuite {

using ExKokkos::SliceDigits;
using ExKokkos::Impl::SliceGemm;
using ExKokkosTest::describe;
using ExKokkosTest::expect_bits;
using ExKokkosTest::Rng;
using ExKokkosTest::same_bits;
using Space = Kokkos::DefaultExecutionSpace;

template <class T>
using Problem = ExKokkosTest::GemmProblem<T>;

using Gen = ExKokkosTest::GemmTest::Generator;

Gen uniform_gen() {
  return [](Rng& r) { return std::uniform_real_distribution<double>(-1, 1)(r); };
}
Gen normal_gen() {
  return [](Rng& r) { return std::normal_distribution<double>(0, 1)(r); };
}
// Random sign, 2^u with u uniform in [-w, w], a random 53-bit significand.
Gen binades_gen(double w, double centre = 0) {
  return [w, centre](Rng& r) {
    const double s = std::uniform_real_distribution<double>(1, 2)(r);
    const int e = static_cast<int>(std::lround(std::uniform_real_distribution<double>(-w, w)(r)));
    return (r() & 1 ? -1 : 1) * std::ldexp(s, e + static_cast<int>(centre));
  };
}

ExKokkos::Options with_schedule(ExKokkos::Schedule s) {
  ExKokkos::Options o;
  o.schedule = s;
  return o;
}

// exgemm with the given options.
template <class ViewLayout, class T>
std::vector<T> run(const Problem<T>& p, const ExKokkos::Options& options) {
  return ExKokkosTest::run_exgemm<ViewLayout, Space>(p, p.ta(), p.tb(), options);
}

// The Ozaki path alone (nothing is written when the data cannot be split): its plan and C.
// block_bytes: P's memory (0: the default).
template <class ViewLayout, class T>
std::vector<T> run_ozaki(const Problem<T>& p, SliceGemm which, ExKokkos::OzakiPlan& plan,
                         SliceDigits digits = SliceDigits::fp64, std::int64_t block_bytes = 0) {
  const auto A = ExKokkosTest::to_matrix<ViewLayout, Space>(p.a, p.a_rows(), p.a_cols());
  const auto B = ExKokkosTest::to_matrix<ViewLayout, Space>(p.b, p.b_rows(), p.b_cols());
  const auto C = ExKokkosTest::to_matrix<ViewLayout, Space>(p.c, p.m, p.n);
  plan = ExKokkos::Impl::exgemm_ozaki(Space(), p.ta(), p.tb(), p.alpha, A, B, p.beta, C, which,
                                      block_bytes, digits);
  Space().fence();
  return ExKokkosTest::matrix_elements(C);
}

template <class T>
ExKokkos::OzakiPlan plan_of(const Problem<T>& p, SliceDigits digits = SliceDigits::fp64) {
  const auto A = ExKokkosTest::to_matrix<Kokkos::LayoutLeft, Space>(p.a, p.a_rows(), p.a_cols());
  const auto B = ExKokkosTest::to_matrix<Kokkos::LayoutLeft, Space>(p.b, p.b_rows(), p.b_cols());
  return ExKokkos::exgemm_ozaki_plan(Space(), p.ta(), p.tb(), A, B, digits);
}

const char* digits_name(SliceDigits d) {
  return d == SliceDigits::int8 ? " int8" : " fp64";
}

std::string shape_name(std::size_t m, std::size_t n, std::size_t k, bool ta, bool tb) {
  return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) + " " +
         (ta ? "T" : "N") + (tb ? "T" : "N");
}

// The Ozaki path must run (the plan feasible) and give the oracle's bits, with both kinds of
// slices, both slice GEMMs and through exgemm with the schedule forced, in every layout. int8:
// whether the data must allow int8 slices; when not required and refused, C must be untouched.
template <class T>
void check_ozaki(const Problem<T>& p, const std::vector<T>& e, const std::string& what,
                 bool int8 = true) {
  for (SliceDigits digits : {SliceDigits::fp64, SliceDigits::int8})
    for (SliceGemm which : {SliceGemm::vendor, SliceGemm::internal}) {
      ExKokkos::OzakiPlan plan;
      const auto c = run_ozaki<Kokkos::LayoutLeft>(p, which, plan, digits);
      const std::string name =
          what + digits_name(digits) + (which == SliceGemm::vendor ? " vendor" : " internal");
      if (digits == SliceDigits::int8 && !int8 && !plan.feasible) {
        EXPECT_NE(std::string(plan.reason), "") << name;
        expect_bits(p.c, c, name + " refused, C untouched", "C");
        continue;
      }
      ASSERT_TRUE(plan.feasible) << name << ": " << plan.reason;
      EXPECT_EQ(plan.int8, digits == SliceDigits::int8) << name;
      expect_bits(e, c, name, "C");
    }
  const auto ozaki = with_schedule(ExKokkos::Schedule::ozaki);
  expect_bits(e, run<Kokkos::LayoutRight>(p, ozaki), what + " exgemm LayoutRight", "C");
  expect_bits(e, run<Kokkos::LayoutStride>(p, ozaki), what + " exgemm LayoutStride", "C");
}

struct Shape {
  std::size_t m, n, k;
};

TEST(GemmOzaki, MatchesOracleForShapesTransposesAlphaBeta) {
  Rng rng(101);
  // 1 x k x 1, k x 1 x k, k = 1, and sizes on both sides of the 32 x 32 tiles and panels of the
  // plain slice kernel.
  const std::vector<Shape> shapes = {{1, 1, 1},   {1, 1, 45},   {45, 1, 45},  {1, 45, 45},
                                     {45, 45, 1}, {31, 33, 32}, {32, 31, 33}, {33, 32, 31},
                                     {65, 9, 64}, {7, 70, 3},   {64, 65, 97}};
  std::uniform_real_distribution<double> u(-3, 3);
  const std::vector<double> alphas = {1.0, -1.0, u(rng), 0x1p-600, 0x1.8p700};
  const std::vector<double> betas = {0.0, 1.0, -1.0, u(rng)};
  for (const auto& s : shapes)
    for (bool ta : {false, true})
      for (bool tb : {false, true})
        for (std::size_t v = 0; v < alphas.size() * betas.size(); v += 7) {
          const double alpha = alphas[v % alphas.size()], beta = betas[v / alphas.size()];
          const auto p = ExKokkosTest::GemmTest::random_problem<double>(
              s.m, s.n, s.k, ta, tb, alpha, beta, rng, uniform_gen(), normal_gen());
          check_ozaki(p, p.expected(),
                      shape_name(s.m, s.n, s.k, ta, tb) + " alpha " + describe(alpha) + " beta " +
                          describe(beta));
        }
}

// beta = floor((53 - ceil(log2 k)) / 2) drops by one bit each time k passes 2^(odd): entries all
// just below 1 make every slice digit 2^beta - 1 and every slice product sum k (2^beta - 1)^2,
// the largest the bound allows (one bit too many per slice would give sums above 2^53 that a GEMM
// rounds). Then random data at the same k.
TEST(GemmOzaki, SliceWidthAtLargeInnerDimensions) {
  Rng rng(102);
  const double below_one = std::nextafter(1.0, 0.0);
  for (std::size_t k : {2u, 3u, 128u, 129u, 2048u, 2049u, 8192u, 8193u, 40000u}) {
    Problem<double> p = ExKokkosTest::GemmTest::random_problem<double>(
        3, 4, k, false, true, 1.0, 0.0, rng, uniform_gen(), uniform_gen());
    for (auto& v : p.a) v = below_one;
    for (auto& v : p.b) v = -below_one;
    int K = 0;
    while ((std::size_t(1) << K) < k) ++K;
    const auto plan = plan_of(p);
    EXPECT_EQ(plan.slice_bits, (53 - K) / 2) << "k " << k;
    // int8: 8 slices of 7 bits, diagonal sums up to 8 k 127^2, within int32 up to k = 16643.
    const bool int8 = k < 16643;
    check_ozaki(p, p.expected(), "all digits full, k " + std::to_string(k), int8);
    p = ExKokkosTest::GemmTest::random_problem<double>(3, 4, k, true, false, 0.7, -0.3, rng,
                                                       normal_gen(), uniform_gen());
    check_ozaki(p, p.expected(), "random, k " + std::to_string(k), int8);
  }
}

// Data spread over many binades: tens of slices per operand, still exact.
TEST(GemmOzaki, ManySlices) {
  Rng rng(103);
  for (double w : {27.0, 100.0, 300.0}) {
    const auto p = ExKokkosTest::GemmTest::random_problem<double>(
        19, 23, 40, false, false, 1.5, 0.5, rng, binades_gen(w), binades_gen(w / 3));
    const auto plan = plan_of(p);
    ASSERT_TRUE(plan.feasible) << plan.reason;
    EXPECT_GE(plan.slices_a, int(2 * w / plan.slice_bits)) << "w " << w;
    check_ozaki(p, p.expected(), "2^+-" + describe(w), w < 300);  // 2^+-300: 90 int8 slices
  }
  // Rows and columns of very different magnitudes: each gets its own scale.
  Problem<double> p = ExKokkosTest::GemmTest::random_problem<double>(
      12, 10, 30, false, true, -1.0, 1.0, rng, normal_gen(), normal_gen());
  for (std::size_t i = 0; i < p.m; ++i)
    for (std::size_t l = 0; l < p.k; ++l) p.a[i * p.k + l] *= std::ldexp(1.0, int(i) * 150 - 900);
  for (std::size_t j = 0; j < p.n; ++j)
    for (std::size_t l = 0; l < p.k; ++l) p.b[j * p.k + l] *= std::ldexp(1.0, 700 - int(j) * 140);
  const auto plan = plan_of(p);
  ASSERT_TRUE(plan.feasible) << plan.reason;
  EXPECT_LE(plan.slices_a, 4);  // per-row scales: the spread between rows costs no slices
  check_ozaki(p, p.expected(), "scaled rows and columns");
}

// Products in and below the subnormal range, subnormal entries, and sums that underflow to
// subnormal results or to zero.
TEST(GemmOzaki, SubnormalProductsAndEntries) {
  Rng rng(104);
  for (auto centres : {std::make_pair(-600.0, -500.0), std::make_pair(-1040.0, 10.0),
                       std::make_pair(-1000.0, -60.0), std::make_pair(-1060.0, -1060.0)}) {
    for (double alpha : {1.0, 0x1p-30, 0x1p600}) {
      const auto p = ExKokkosTest::GemmTest::random_problem<double>(
          21, 17, 33, true, false, alpha, 0x1p-1060, rng, binades_gen(8, centres.first),
          binades_gen(8, centres.second));
      check_ozaki(p, p.expected(),
                  "2^" + describe(centres.first) + " x 2^" + describe(centres.second) + " alpha " +
                      describe(alpha));
    }
  }
  // Subnormal bit patterns (few significant bits each).
  Problem<double> p = ExKokkosTest::GemmTest::random_problem<double>(
      9, 8, 20, false, false, 0x1p1000, 1.0, rng, binades_gen(2), binades_gen(2));
  const auto sub = ExKokkosTest::subnormal_only(p.a.size(), rng);
  p.a = sub;
  check_ozaki(p, p.expected(), "subnormal A");
}

// Entries up to 2^1000: terms beyond 2^1000 go to the long accumulator, the largest ones as
// products of two doubles; results overflow to inf or are brought back by a tiny alpha.
TEST(GemmOzaki, HugeEntries) {
  Rng rng(105);
  for (double alpha : {1.0, 0x1p-1000, -0x1p-1074, 0x1.8p-1001})
    for (auto centres : {std::make_pair(990.0, 990.0), std::make_pair(1000.0, -1000.0)}) {
      const auto p = ExKokkosTest::GemmTest::random_problem<double>(
          8, 7, 25, false, true, alpha, 0.5, rng, binades_gen(6, centres.first),
          binades_gen(6, centres.second));
      check_ozaki(p, p.expected(),
                  "2^" + describe(centres.first) + " x 2^" + describe(centres.second) + " alpha " +
                      describe(alpha));
    }
}

// Ill-conditioned rows and columns (GenDot): massive cancellation between slices.
TEST(GemmOzaki, IllConditioned) {
  Rng rng(106);
  int checked = 0;
  for (double cond : {1e10, 1e60}) {
    const std::size_t k = 50, m = 9, n = 4;
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
    for (std::size_t i = 0; i < m * n; ++i) p.c.push_back(1e-20 * double(i));
    p.alpha = -0.7;
    p.beta = 0.37;
    const auto plan = plan_of(p);
    if (!plan.feasible) continue;  // gen_dot may spread wider than the slice limit
    check_ozaki(p, p.expected(), "cond " + describe(cond), false);
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

// Data that cannot be split: the Ozaki path refuses (writing nothing), exgemm with the schedule
// forced falls back to the default and gives the oracle's bits.
TEST(GemmOzaki, RefusesWhatItCannotSplitAndFallsBack) {
  Rng rng(107);
  struct Case {
    const char* name;
    Gen a, b;
  };
  const std::vector<Case> cases = {
      {"full range", [](Rng& r) { return ExKokkosTest::full_range(1, r)[0]; }, normal_gen()},
      {"2^+-1000", binades_gen(1000), binades_gen(1000)},
      {"near overflow", binades_gen(3, 1020), binades_gen(3, 1020)},
  };
  for (const auto& cs : cases) {
    const auto p = ExKokkosTest::GemmTest::random_problem<double>(6, 5, 30, false, false, 0x1p-1000,
                                                                  0.5, rng, cs.a, cs.b);
    for (SliceDigits digits : {SliceDigits::fp64, SliceDigits::int8}) {
      ExKokkos::OzakiPlan plan;
      const auto untouched = run_ozaki<Kokkos::LayoutLeft>(p, SliceGemm::automatic, plan, digits);
      const std::string name = cs.name + std::string(digits_name(digits));
      EXPECT_FALSE(plan.feasible) << name;
      EXPECT_NE(std::string(plan.reason), "") << name;
      expect_bits(p.c, untouched, name + ": refused, C untouched", "C");
    }
    expect_bits(p.expected(), run<Kokkos::LayoutLeft>(p, with_schedule(ExKokkos::Schedule::ozaki)),
                std::string(cs.name) + ": forced ozaki falls back", "C");
  }
}

// NaN and inf: refused, and the forced schedule gives the IEEE results of the default one.
TEST(GemmOzaki, SpecialValuesFallBackToTheIeeeResults) {
  Rng rng(108);
  auto p = ExKokkosTest::GemmTest::random_problem<double>(40, 9, 33, false, false, 1.5, 0.5, rng,
                                                          uniform_gen(), uniform_gen());
  p.a[3 * p.k + 4] = std::numeric_limits<double>::quiet_NaN();
  p.a[20 * p.k + 7] = std::numeric_limits<double>::infinity();
  p.b[5 * p.n + 2] = -std::numeric_limits<double>::infinity();
  const auto plan = plan_of(p);
  EXPECT_FALSE(plan.feasible);
  const auto reference =
      run<Kokkos::LayoutLeft>(p, with_schedule(ExKokkos::Schedule::team_per_output));
  const auto forced = run<Kokkos::LayoutLeft>(p, with_schedule(ExKokkos::Schedule::ozaki));
  ASSERT_EQ(reference.size(), forced.size());
  int nans = 0;
  for (std::size_t i = 0; i < forced.size(); ++i) {
    nans += std::isnan(reference[i]);
    EXPECT_TRUE(same_bits(forced[i], reference[i]) ||
                (std::isnan(forced[i]) && std::isnan(reference[i])))
        << i << ": " << describe(forced[i]) << " vs " << describe(reference[i]);
  }
  EXPECT_GT(nans, 0);
  // C's own specials do not stop the path: beta * c follows IEEE rules in the rounding.
  auto q = ExKokkosTest::GemmTest::random_problem<double>(5, 4, 10, true, true, 2.0, 1.0, rng,
                                                          uniform_gen(), uniform_gen());
  q.c[0] = std::numeric_limits<double>::quiet_NaN();
  q.c[5] = -std::numeric_limits<double>::infinity();
  ExKokkos::OzakiPlan qp;
  const auto c = run_ozaki<Kokkos::LayoutLeft>(q, SliceGemm::automatic, qp);
  ASSERT_TRUE(qp.feasible) << qp.reason;
  EXPECT_TRUE(std::isnan(c[0]));
  EXPECT_EQ(c[5], -std::numeric_limits<double>::infinity());
  q.c[0] = 0;
  q.c[5] = 0;
  auto e = q.expected();
  for (std::size_t i = 0; i < c.size(); ++i)
    if (i != 0 && i != 5) EXPECT_TRUE(same_bits(c[i], e[i])) << i;
}

// Exact zero sums: +0 after cancellation (also when every slice product is zero, as with
// [1, 1] . [1, -1]), -0 only when every product is -0, with the IEEE sign rules of alpha and
// beta c.
TEST(GemmOzaki, SignedZerosFollowIeee) {
  Problem<double> p;
  p.m = 4;
  p.n = 1;
  p.k = 2;
  p.a = {-0.0, -0.0, 1, -1, -0.0, 0.0, 1, 1};
  p.b = {1, 1};
  p.c = {-0.0, -0.0, -0.0, -0.0};
  p.alpha = 1;
  p.beta = 0;
  ExKokkos::OzakiPlan plan;
  auto c = run_ozaki<Kokkos::LayoutLeft>(p, SliceGemm::automatic, plan);
  ASSERT_TRUE(plan.feasible) << plan.reason;
  EXPECT_TRUE(same_bits(c[0], -0.0));  // -0 + -0
  EXPECT_TRUE(same_bits(c[1], 0.0));   // cancellation gives +0
  EXPECT_TRUE(same_bits(c[2], 0.0));   // -0 + +0
  EXPECT_EQ(c[3], 2.0);
  p.b = {1, -1};
  c = run_ozaki<Kokkos::LayoutLeft>(p, SliceGemm::internal, plan);
  EXPECT_TRUE(same_bits(c[3], 0.0));  // 1 - 1: the slice product itself is 0
  EXPECT_TRUE(same_bits(c[0], 0.0));  // -0 * 1 + -0 * -1 = -0 + +0
  p.b = {1, 1};
  p.alpha = -1;
  c = run_ozaki<Kokkos::LayoutLeft>(p, SliceGemm::vendor, plan);
  EXPECT_TRUE(same_bits(c[0], 0.0));  // -1 * -0
  p.alpha = 1;
  p.beta = 1;
  c = run_ozaki<Kokkos::LayoutLeft>(p, SliceGemm::vendor, plan);
  EXPECT_TRUE(same_bits(c[0], -0.0));  // -0 + -0 * 1... + beta (-0)
  EXPECT_TRUE(same_bits(c[1], 0.0));
  // And the oracle agrees on the whole thing, against every other schedule.
  for (auto s : {ExKokkos::Schedule::automatic, ExKokkos::Schedule::team_per_output}) {
    const auto other = run<Kokkos::LayoutLeft>(p, with_schedule(s));
    expect_bits(other, c, "against the other schedules", "C");
  }
}

TEST(GemmOzaki, FloatIsCorrectlyRoundedToFloat) {
  Rng rng(109);
  for (bool ta : {false, true})
    for (float alpha : {1.0f, -2.5f, 0.3f})
      for (float beta : {0.0f, 0.7f}) {
        const auto p = ExKokkosTest::GemmTest::random_problem<float>(
            34, 5, 29, ta, !ta, alpha, beta, rng, uniform_gen(), binades_gen(20));
        check_ozaki(p, p.expected(), std::string("float ") + (ta ? "TN" : "NT"));
      }
}

// The slice product in column blocks of C (down to one column): the finishing's launches per block
// (and its refused flags, reused from block to block) see the right columns.
TEST(GemmOzaki, ColumnBlocks) {
  Rng rng(110);
  const auto p = ExKokkosTest::GemmTest::random_problem<double>(37, 11, 70, false, true, 0.7, -0.3,
                                                                rng, normal_gen(), binades_gen(30));
  const auto e = p.expected();
  // P's budget in bytes: one column per block, a few columns, the default.
  for (SliceDigits digits : {SliceDigits::fp64, SliceDigits::int8})
    for (std::int64_t block : {std::int64_t(1), std::int64_t(37 * 16 * 3 * 8), std::int64_t(0)}) {
      ExKokkos::OzakiPlan plan;
      const auto c = run_ozaki<Kokkos::LayoutLeft>(p, SliceGemm::internal, plan, digits, block);
      ASSERT_TRUE(plan.feasible) << plan.reason;
      expect_bits(e, c, "block " + std::to_string(block) + digits_name(digits), "C");
    }
}

// All schedules are correctly rounded, so they must give the same bits: Ozaki (forced, both slice
// GEMMs) against each of the others, on data of several kinds, with the oracle as referee.
TEST(GemmOzaki, SameBitsAsEveryOtherSchedule) {
  Rng rng(111);
  const std::vector<std::pair<std::string, Gen>> kinds = {
      {"uniform", uniform_gen()}, {"normal", normal_gen()}, {"2^+-40", binades_gen(40)}};
  for (const auto& kind : kinds)
    for (bool ta : {false, true}) {
      const auto p = ExKokkosTest::GemmTest::random_problem<double>(45, 38, 90, ta, !ta, 1.25, -0.5,
                                                                    rng, kind.second, kind.second);
      const auto e = p.expected();
      for (SliceDigits digits : {SliceDigits::fp64, SliceDigits::int8}) {
        ExKokkos::OzakiPlan plan;
        expect_bits(e, run_ozaki<Kokkos::LayoutLeft>(p, SliceGemm::internal, plan, digits),
                    kind.first + " ozaki internal" + digits_name(digits), "C");
        ASSERT_TRUE(plan.feasible) << plan.reason;
      }
      for (auto s : {ExKokkos::Schedule::automatic, ExKokkos::Schedule::output_lanes,
                     ExKokkos::Schedule::inner_lanes, ExKokkos::Schedule::team_per_output,
                     ExKokkos::Schedule::tiles, ExKokkos::Schedule::ozaki}) {
        const bool host_schedule =
            s == ExKokkos::Schedule::output_lanes || s == ExKokkos::Schedule::inner_lanes;
        if (host_schedule && !ExKokkos::Impl::is_host_space<Space>()) continue;  // refused there
        expect_bits(e, run<Kokkos::LayoutLeft>(p, with_schedule(s)),
                    kind.first + " schedule " + std::to_string(int(s)), "C");
      }
    }
}

// The kernels an exgemm call launched, by path: the Ozaki path's plan (scan), its slices (split)
// and its exact sums and rounding (sum), labelled so in ExKokkos_GemmOzaki_impl.hpp; and every
// other ExKokkos kernel, those of the exact dot products (the vendor's slice GEMM launches
// kernels of its own name, view initializations are labelled "Kokkos::View::...").
struct Launches {
  std::size_t scan = 0, split = 0, sum = 0, other = 0;
  std::string list;
};

template <class T>
std::vector<T> run_automatic(const Problem<T>& p, Launches& launched) {
  const ExKokkosTest::LaunchCounter counter;
  auto c = run<Kokkos::LayoutLeft>(p, with_schedule(ExKokkos::Schedule::automatic));
  launched.scan = counter.count("ExKokkos::exgemm ozaki scan");
  launched.split = counter.count("ExKokkos::exgemm ozaki split");
  launched.sum = counter.count("ExKokkos::exgemm ozaki sum");
  launched.other =
      counter.count_prefix("ExKokkos::") - counter.count_prefix("ExKokkos::exgemm ozaki");
  launched.list = counter.list();
  return c;
}

// Schedule::automatic follows its cost model, proved by the kernels it launches, on three
// problems: uniform data at 520^3, where CUDA's entry of the model takes the Ozaki path; 64^3, too
// small for even one slice per operand to pay (not even scanned); and 520^3 of data spread over
// 600 binades, whose plan (feasible: about 32 slices of 21 bits per operand, fewer than 48; int8
// slices would need more than 48) costs more than the exact dot products (on CUDA scanned, then
// declined). The host's entry declines all three before the scan. Each gives the
// bits of the exact dot products (output_lanes on the host, tiles on devices, where lanes are
// refused), and the Ozaki path those of the plain slice kernel as well (too large for the oracle
// in a unit test; the other tests check those schedules).
TEST(GemmOzaki, AutomaticTakesItWhereItPaysWithTheSameBits) {
  Rng rng(113);
  const std::size_t n = 520;
  const auto p = ExKokkosTest::GemmTest::random_problem<double>(n, n, n, false, false, 1.5, 0.5,
                                                                rng, uniform_gen(), uniform_gen());
  // The plan exgemm takes: int8 slices on CUDA with cuBLAS, double slices elsewhere.
  const auto plan = plan_of(p, SliceDigits::automatic);
  ASSERT_TRUE(plan.feasible) << plan.reason;
  EXPECT_EQ(plan.int8, ExKokkos::Impl::has_vendor_int8_slice_gemm<Space>());
  if (!ExKokkos::Impl::has_vendor_slice_gemm<Space>())
    GTEST_SKIP() << "automatic takes the Ozaki path only with Kokkos Kernels on the host or "
                    "cuBLAS on CUDA";
  ASSERT_TRUE(ExKokkosTest::LaunchCounter::callbacks_active<Space>())
      << "Kokkos' tool callbacks are needed to tell which path ran";
  const auto model = ExKokkos::Impl::OzakiCostModel::for_space<Space>();
  const auto exact = ExKokkos::Impl::is_host_space<Space>() ? ExKokkos::Schedule::output_lanes
                                                            : ExKokkos::Schedule::tiles;
  struct Case {
    std::string name;
    Problem<double> problem;
    bool scans, pays;
  };
  // The verdicts each backend's entry of the model gives. On the host the exact dot products
  // cost about 0.1 ns a term against the Ozaki path's 0.1 us finishing of each element, so even
  // one slice per operand does not pay at 520^3: automatic must not scan there. On CUDA the
  // uniform product pays and the wide one is declined after the scan.
  const bool device = !ExKokkos::Impl::is_host_space<Space>();
  const std::vector<Case> cases = {
      {"uniform 520^3", p, device, device},
      {"uniform 64^3",
       ExKokkosTest::GemmTest::random_problem<double>(64, 64, 64, false, false, 1.5, 0.5, rng,
                                                      uniform_gen(), uniform_gen()),
       false, false},
      {"600 binades 520^3",
       ExKokkosTest::GemmTest::random_problem<double>(n, n, n, false, false, 1.5, 0.5, rng,
                                                      binades_gen(300), binades_gen(300)),
       device, false}};
  for (const Case& c : cases) {
    const auto& q = c.problem;
    const auto m = std::int64_t(q.m), cols = std::int64_t(q.n), k = std::int64_t(q.k);
    const auto qplan = plan_of(q, SliceDigits::automatic);
    // The model's verdict, as exgemm reaches it: scan when one slice per operand would pay, then
    // take the path when the plan is feasible and its cost below margin times the exact one.
    const bool scans = model.pays(m, cols, k, 1, 1);
    const bool takes = scans && qplan.feasible &&
                       model.cost(m, cols, k, qplan) < model.margin * model.exact(m, cols, k);
    ASSERT_EQ(scans, c.scans) << c.name << ": the model's verdict on one slice per operand";
    ASSERT_EQ(takes, c.pays) << c.name << ": the model's verdict on the plan";
    if (scans && !takes)  // declined by the cost, not refused by the plan
      ASSERT_TRUE(qplan.feasible) << c.name << ": " << qplan.reason;
    Launches launched;
    const auto automatic = run_automatic(q, launched);
    EXPECT_EQ(launched.scan > 0, scans) << c.name << ":" << launched.list;
    if (takes) {
      EXPECT_EQ(launched.split, 2u) << c.name << ":" << launched.list;  // A's slices, B's slices
      EXPECT_GE(launched.sum, 1u) << c.name << ":" << launched.list;
      EXPECT_EQ(launched.other, 0u) << c.name << ":" << launched.list;
    } else {
      EXPECT_EQ(launched.split + launched.sum, 0u) << c.name << ":" << launched.list;
      EXPECT_GE(launched.other, 1u) << c.name << ":" << launched.list;
    }
    expect_bits(run<Kokkos::LayoutLeft>(q, with_schedule(exact)), automatic,
                c.name + ": automatic against the exact dot products", "C");
    if (takes) {
      ExKokkos::OzakiPlan internal_plan;
      expect_bits(automatic, run_ozaki<Kokkos::LayoutLeft>(q, SliceGemm::internal, internal_plan),
                  c.name + ": automatic against the plain slice kernel", "C");
    }
  }
}

// The plan: slices of uniform and normal data at k = 1024 (the figures of docs/level3.md),
// one slice for small integers, refusal with a reason for NaN.
TEST(GemmOzaki, PlanCountsSlicesFromTheData) {
  Rng rng(112);
  auto p = ExKokkosTest::GemmTest::random_problem<double>(16, 16, 1024, false, false, 1.0, 0.0, rng,
                                                          uniform_gen(), normal_gen());
  auto plan = plan_of(p);
  ASSERT_TRUE(plan.feasible);
  EXPECT_EQ(plan.slice_bits, 21);
  EXPECT_GE(plan.slices_a, 3);
  EXPECT_LE(plan.slices_a, 4);
  EXPECT_GE(plan.slices_b, 3);
  EXPECT_LE(plan.slices_b, 5);
  // int8: 7-bit slices, so at least 53 / 7 of them for 53-bit significands.
  auto plan8 = plan_of(p, SliceDigits::int8);
  ASSERT_TRUE(plan8.feasible) << plan8.reason;
  EXPECT_TRUE(plan8.int8);
  EXPECT_EQ(plan8.slice_bits, 7);
  EXPECT_GE(plan8.slices_a, 8);
  EXPECT_LE(plan8.slices_a, 12);
  for (auto& v : p.a) v = std::round(v * 1000);  // integers below 2^10: one slice of 21 bits
  for (auto& v : p.b) v = std::round(v * 100);
  plan = plan_of(p);
  EXPECT_EQ(plan.slices_a, 1);
  EXPECT_EQ(plan.slices_b, 1);
  plan8 = plan_of(p, SliceDigits::int8);  // up to 1000 and about 400: two of 7 bits
  EXPECT_EQ(plan8.slices_a, 2);
  EXPECT_EQ(plan8.slices_b, 2);
  p.b[17] = std::numeric_limits<double>::quiet_NaN();
  plan = plan_of(p);
  EXPECT_FALSE(plan.feasible);
  EXPECT_NE(std::string(plan.reason).find("NaN"), std::string::npos) << plan.reason;
  // Long lines are scanned in chunks of k (64 on devices, 4096 on the host) whose partial results
  // are combined: a NaN or a lowest bit in the last chunk only, a zero line.
  const std::size_t long_k = 9000;
  auto q = ExKokkosTest::GemmTest::random_problem<double>(3, 2, long_k, false, false, 1.0, 0.0, rng,
                                                          uniform_gen(), uniform_gen());
  for (std::size_t i = 0; i < q.m; ++i)
    for (std::size_t l = 0; l < long_k; ++l) q.a[i * long_k + l] = l == 0 ? 0.75 : 0.5;
  for (std::size_t l = 0; l < long_k; ++l) q.a[2 * long_k + l] = 0.0;  // row 2: zero
  q.a[long_k + long_k - 1] = 0.5 + 0x1p-40;  // row 1: its lowest bit in the last chunk
  plan = plan_of(q);
  ASSERT_TRUE(plan.feasible) << plan.reason;
  EXPECT_EQ(plan.slices_a, (40 + plan.slice_bits - 1) / plan.slice_bits);
  check_ozaki(q, q.expected(), "long lines");
  q.a[long_k - 1] = std::numeric_limits<double>::infinity();  // row 0's last chunk
  plan = plan_of(q);
  EXPECT_FALSE(plan.feasible);
  EXPECT_NE(std::string(plan.reason).find("inf"), std::string::npos) << plan.reason;
  // exgemv knows no ozaki schedule.
  Kokkos::View<double**> A("A", 3, 3);
  Kokkos::View<double*> x("x", 3), y("y", 3);
  EXPECT_THROW(ExKokkos::exgemv("N", 1.0, A, x, 0.0, y, with_schedule(ExKokkos::Schedule::ozaki)),
               std::invalid_argument);
}

// int8 slices: a diagonal's sum of min(S, T) k digit products of up to 127^2 each must fit int32
// (2^31 - 1). Every digit 127 (entries +-127, one slice; +-16383, two slices of 127) makes every
// sum the largest the bound allows: k = 133144 with one slice and 66572 with two are the last
// depths that fit (the results must be the oracle's), one more and the int8 plan refuses while
// double slices still serve.
TEST(GemmOzaki, Int8SumsUpToTheInt32Limit) {
  Rng rng(114);
  struct Case {
    double digit;  // every entry +-digit
    int slices;
    std::size_t last_k;  // the largest k with slices k 127^2 <= 2^31 - 1
  };
  for (const Case cs : {Case{127.0, 1, 133144}, Case{16383.0, 2, 66572}})
    for (std::size_t k : {cs.last_k, cs.last_k + 1}) {
      Problem<double> p = ExKokkosTest::GemmTest::random_problem<double>(
          2, 3, k, true, false, 1.0, 0.0, rng, uniform_gen(), uniform_gen());
      // Row 0 and column 0 all positive (the sum k digit^2 itself), the others of random signs.
      for (std::size_t i = 0; i < p.a.size(); ++i)
        p.a[i] = (i % p.m == 0 || (rng() & 1)) ? cs.digit : -cs.digit;
      for (std::size_t i = 0; i < p.b.size(); ++i)
        p.b[i] = (i % p.n == 0 || (rng() & 1)) ? cs.digit : -cs.digit;
      const std::string what = describe(cs.digit) + " k " + std::to_string(k);
      const auto plan = plan_of(p, SliceDigits::int8);
      EXPECT_EQ(plan.slices_a, cs.slices) << what;
      if (k == cs.last_k) {
        ASSERT_TRUE(plan.feasible) << what << ": " << plan.reason;
        check_ozaki(p, p.expected(), what);
      } else {
        EXPECT_FALSE(plan.feasible) << what;
        EXPECT_NE(std::string(plan.reason).find("int32"), std::string::npos) << plan.reason;
        check_ozaki(p, p.expected(), what, false);
      }
    }
}

}  // namespace GemmOzakiSuite
}  // namespace
