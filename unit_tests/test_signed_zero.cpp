// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Exact-zero results keep IEEE's sign on every schedule and host backend: an exact sum is -0 only
// when every term was -0 (docs/design.md, "One correct rounding"), so y = RN(alpha S + beta y) is
// what IEEE arithmetic gives for the same zeros. The data are drawn from {+0, -0, +1, -1}, so that
// most results are exact zeros of either sign (products of zeros, cancelling pairs) and every
// result, zero or not, is a small integer that plain double arithmetic computes exactly: the
// reference is that plain evaluation, with BLAS' conventions (beta == 0 does not read y, alpha ==
// 0 does not read A and x, both zero write +0). Each result is compared bit for bit with the
// reference for every schedule, on Kokkos::Serial and the default host space.
#include <ExKokkos.hpp>
#include "ExKokkosTest_ExpectBits.hpp"
#include "ExKokkosTest_Views.hpp"
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace SignedZeroSuite {

using Matrix = Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace>;
using Vector = Kokkos::View<double*, Kokkos::HostSpace>;

double draw(std::mt19937_64& rng) {
  static const double values[] = {0.0, -0.0, 1.0, -1.0};
  return values[rng() % 4];
}

// Mostly zeros (so that the sums are exact zeros of both signs), some cancelling ones.
double draw_zero_heavy(std::mt19937_64& rng) {
  return rng() % 4 == 0 ? draw(rng) : (rng() % 2 ? 0.0 : -0.0);
}

// IEEE's sum of exact terms in order, from the additive identity -0 (exact: small integers).
double ieee_sum(const std::vector<double>& terms) {
  double s = -0.0;
  for (double t : terms) s += t;
  return s;
}

// y = alpha S + beta y, with BLAS' conventions for zero alpha and beta.
double ieee_update(double alpha, double S, double beta, double y) {
  if (alpha == 0.0) return beta == 0.0 ? 0.0 : beta * y;
  return beta == 0.0 ? alpha * S : alpha * S + beta * y;
}

const double scalars[] = {1.0, -1.0, 0.0, -0.0, 0.5};

template <class Space>
std::vector<ExKokkos::Options> gemv_options() {
  std::vector<ExKokkos::Options> all;
  for (auto s : ExKokkosTest::gemv_schedules<Space>())
    for (int early : {0, 1}) {
      ExKokkos::Options o;
      o.schedule = s;
      o.early_exit = early;
      all.push_back(o);
    }
  ExKokkos::Options team;
  team.schedule = ExKokkos::Schedule::team_per_output;
  team.team_size = ExKokkosTest::widest_team<Space>();
  all.push_back(team);
  return all;
}

template <class Space>
void check_gemv() {
  std::mt19937_64 rng(41);
  for (const char* trans : {"N", "T"})
    for (int m : {1, 2, 5})
      for (int k : {1, 2, 3, 33, 70}) {
        const bool t = trans[0] == 'T';
        Matrix A("A", t ? k : m, t ? m : k);
        Vector x("x", k), y0("y0", m);
        for (std::size_t i = 0; i < A.extent(0); ++i)
          for (std::size_t j = 0; j < A.extent(1); ++j) A(i, j) = draw_zero_heavy(rng);
        for (int j = 0; j < k; ++j) x(j) = draw_zero_heavy(rng);
        for (int i = 0; i < m; ++i) y0(i) = draw(rng);
        for (double alpha : scalars)
          for (double beta : scalars) {
            std::vector<double> expected(m);
            for (int i = 0; i < m; ++i) {
              std::vector<double> terms;
              for (int j = 0; j < k; ++j) terms.push_back((t ? A(j, i) : A(i, j)) * x(j));
              expected[i] = ieee_update(alpha, ieee_sum(terms), beta, y0(i));
            }
            for (const ExKokkos::Options& o : gemv_options<Space>()) {
              Vector y("y", m);
              Kokkos::deep_copy(y, y0);
              ExKokkos::exgemv(Space(), trans, alpha, A, x, beta, y, o);
              ExKokkosTest::expect_bits(expected, ExKokkosTest::to_host(y),
                                        std::string("exgemv ") + trans + " " + std::to_string(m) +
                                            "x" + std::to_string(k) + " alpha " +
                                            std::to_string(alpha) + " beta " +
                                            std::to_string(beta) + " schedule " +
                                            std::to_string(static_cast<int>(o.schedule)),
                                        "y");
            }
          }
      }
}

template <class Space>
void check_gemm() {
  std::mt19937_64 rng(43);
  std::vector<ExKokkos::Schedule> gemm_schedules = ExKokkosTest::schedules<Space>();
  gemm_schedules.push_back(ExKokkos::Schedule::tiles);
  gemm_schedules.push_back(ExKokkos::Schedule::ozaki);
  for (const char* ta : {"N", "T"})
    for (const char* tb : {"N", "T"})
      for (int k : {1, 2, 9}) {
        const int m = 2, n = 3;
        const bool trans_a = ta[0] == 'T', trans_b = tb[0] == 'T';
        Matrix A("A", trans_a ? k : m, trans_a ? m : k), B("B", trans_b ? n : k, trans_b ? k : n);
        Matrix C0("C0", m, n);
        for (std::size_t i = 0; i < A.extent(0); ++i)
          for (std::size_t j = 0; j < A.extent(1); ++j) A(i, j) = draw_zero_heavy(rng);
        for (std::size_t i = 0; i < B.extent(0); ++i)
          for (std::size_t j = 0; j < B.extent(1); ++j) B(i, j) = draw_zero_heavy(rng);
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < n; ++j) C0(i, j) = draw(rng);
        for (double alpha : scalars)
          for (double beta : scalars) {
            std::vector<double> expected;
            for (int j = 0; j < n; ++j)
              for (int i = 0; i < m; ++i) {
                std::vector<double> terms;
                for (int q = 0; q < k; ++q)
                  terms.push_back((trans_a ? A(q, i) : A(i, q)) * (trans_b ? B(j, q) : B(q, j)));
                expected.push_back(ieee_update(alpha, ieee_sum(terms), beta, C0(i, j)));
              }
            for (auto s : gemm_schedules) {
              ExKokkos::Options o;
              o.schedule = s;
              Matrix C("C", m, n);
              Kokkos::deep_copy(C, C0);
              ExKokkos::exgemm(Space(), ta, tb, alpha, A, B, beta, C, o);
              std::vector<double> got;
              for (int j = 0; j < n; ++j)
                for (int i = 0; i < m; ++i) got.push_back(C(i, j));
              ExKokkosTest::expect_bits(expected, got,
                                        std::string("exgemm ") + ta + tb + " k " +
                                            std::to_string(k) + " alpha " + std::to_string(alpha) +
                                            " beta " + std::to_string(beta) + " schedule " +
                                            std::to_string(static_cast<int>(s)),
                                        "C");
            }
          }
      }
}

// The 1 x 1 cases of the report: one term 0 x -1 = -0, alpha 1, beta 0: -0 on every schedule.
template <class Space>
void check_single_term() {
  Matrix A("A", 1, 1);
  Vector x("x", 1);
  A(0, 0) = 0.0;
  x(0) = -1.0;
  for (const ExKokkos::Options& o : gemv_options<Space>()) {
    Vector y("y", 1);
    y(0) = 7.0;
    ExKokkos::exgemv(Space(), "N", 1.0, A, x, 0.0, y, o);
    EXPECT_TRUE(std::signbit(y(0)) && y(0) == 0.0)
        << "exgemv schedule " << static_cast<int>(o.schedule) << ": " << y(0);
  }
  Matrix B("B", 1, 1), C("C", 1, 1);
  B(0, 0) = -1.0;
  for (const char* ta : {"N", "T"}) {
    C(0, 0) = 7.0;
    ExKokkos::exgemm(Space(), ta, "N", 1.0, A, B, 0.0, C);
    EXPECT_TRUE(std::signbit(C(0, 0)) && C(0, 0) == 0.0) << "exgemm " << ta << ": " << C(0, 0);
  }
}

template <class Space>
void check_level1() {
  std::mt19937_64 rng(47);
  std::vector<ExKokkos::Options> options(1);
  for (int es : {2, 8})
    for (int early : {0, 1}) {
      ExKokkos::Options o;
      o.expansion_size = es;
      o.early_exit = early;
      o.league_size = 3;
      options.push_back(o);
    }
  for (int n : {0, 1, 2, 3, 40, 1000})
    for (int trial = 0; trial < 4; ++trial) {
      std::vector<double> hx(n), hy(n);
      for (int i = 0; i < n; ++i) {
        hx[i] = trial < 2 ? (trial == 0 ? -0.0 : draw_zero_heavy(rng)) : draw(rng);
        hy[i] = trial == 0 ? 1.0 : draw_zero_heavy(rng);
      }
      std::vector<double> products, magnitudes, squares;
      for (int i = 0; i < n; ++i) {
        products.push_back(hx[i] * hy[i]);
        magnitudes.push_back(std::fabs(hx[i]));
        squares.push_back(hx[i] * hx[i]);
      }
      // An empty reduction gives +0, as KokkosBlas does.
      const auto sum_of = [n](const std::vector<double>& t) { return n == 0 ? 0.0 : ieee_sum(t); };
      const double expected[4] = {sum_of(hx), sum_of(magnitudes), sum_of(products),
                                  std::sqrt(sum_of(squares))};
      const auto x = ExKokkosTest::to_view<Space>(hx), y = ExKokkosTest::to_view<Space>(hy);
      for (const ExKokkos::Options& o : options) {
        const double got[4] = {ExKokkos::exsum(Space(), x, o), ExKokkos::exasum(Space(), x, o),
                               ExKokkos::exdot(Space(), x, y, o), ExKokkos::exnrm2(Space(), x, o)};
        for (int r = 0; r < 4; ++r)
          EXPECT_TRUE(ExKokkosTest::same_bits(got[r], expected[r]))
              << "routine " << r << " n " << n << " trial " << trial << " expansion "
              << o.expansion_size << ": " << ExKokkosTest::describe(got[r]) << " vs "
              << ExKokkosTest::describe(expected[r]);
      }
    }
}

// The LU: u11 = RN(a11 - l10 u01) of [[1, a01], [a10, a11]] for every sign of the zeros
// (l10 = a10 / 1), as IEEE computes it, on every host schedule; and 3 x 3 matrices of signed zeros
// and ones compared bit for bit across the schedules.
template <class Space>
void check_lu() {
  std::vector<ExKokkos::Options> options;
  for (auto s : {ExKokkos::Schedule::automatic, ExKokkos::Schedule::output_lanes,
                 ExKokkos::Schedule::trailing_update})
    for (int stage : {0, 1}) {
      ExKokkos::Options o;
      o.schedule = s;
      o.stage_in_scratch = stage;
      options.push_back(o);
    }
  ExKokkos::Options team;
  team.team_size = std::min(2, ExKokkosTest::widest_team<Space>());
  options.push_back(team);
  for (double a01 : {0.0, -0.0, 1.0})
    for (double a10 : {0.0, -0.0, 1.0, -1.0})
      for (double a11 : {0.0, -0.0, 1.0, -1.0}) {
        const double l10 = a10 / 1.0;
        const double u11 = a11 - l10 * a01;
        for (const ExKokkos::Options& o : options) {
          Matrix A("A", 2, 2);
          Kokkos::View<int*, Kokkos::HostSpace> p("p", 2);
          A(0, 0) = 1.0;
          A(0, 1) = a01;
          A(1, 0) = a10;
          A(1, 1) = a11;
          ExKokkos::exgetf2(Space(), A, p, o);
          EXPECT_TRUE(ExKokkosTest::same_bits(A(1, 0), l10) &&
                      ExKokkosTest::same_bits(A(1, 1), u11))
              << "a01 " << a01 << " a10 " << a10 << " a11 " << a11 << " schedule "
              << static_cast<int>(o.schedule) << ": l10 " << ExKokkosTest::describe(A(1, 0))
              << " u11 " << ExKokkosTest::describe(A(1, 1)) << ", expected "
              << ExKokkosTest::describe(u11);
        }
      }
  std::mt19937_64 rng(53);
  for (int trial = 0; trial < 40; ++trial) {
    Matrix A0("A0", 3, 3);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) A0(i, j) = i == j ? (rng() % 2 ? 1.0 : -1.0) : draw(rng);
    std::vector<double> first;
    for (const ExKokkos::Options& o : options) {
      Matrix A("A", 3, 3);
      Kokkos::deep_copy(A, A0);
      Kokkos::View<int*, Kokkos::HostSpace> p("p", 3);
      ExKokkos::exgetf2(Space(), A, p, o);
      std::vector<double> got;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) got.push_back(A(i, j));
      if (first.empty())
        first = got;
      else
        ExKokkosTest::expect_bits(first, got,
                                  "exgetf2 trial " + std::to_string(trial) + " schedule " +
                                      std::to_string(static_cast<int>(o.schedule)),
                                  "A");
    }
  }
}

template <class Space>
void check_all() {
  check_single_term<Space>();
  check_level1<Space>();
  check_gemv<Space>();
  check_gemm<Space>();
  check_lu<Space>();
}

TEST(SignedZero, SerialFollowsIeeeOnEverySchedule) {
  check_all<Kokkos::Serial>();
}

TEST(SignedZero, DefaultHostSpaceFollowsIeeeOnEverySchedule) {
  check_all<Kokkos::DefaultHostExecutionSpace>();
}

}  // namespace SignedZeroSuite
}  // namespace
