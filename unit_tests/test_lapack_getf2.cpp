// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// exgetf2: the factors, pivots and info bit for bit against the definition (left-looking jik LU,
// each entry RN(a - exact sum) or a correctly rounded division, pivot = first largest magnitude)
// evaluated with the MPFR oracle; the batched form equals the unbatched one for every team size;
// singular matrices report LAPACK's info; pivots agree with an ordinary getf2 on well-conditioned
// matrices; and the backward error ||PA - LU|| / ||A|| is never worse than ordinary getf2's.
#include <ExKokkos.hpp>

#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_LuFactors.hpp"
#include "ExKokkosTest_Matrices.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace Getf2Suite {

using ExKokkosTest::describe;
using ExKokkosTest::same_bits;
using Space = Kokkos::DefaultExecutionSpace;
using Rng = std::mt19937_64;

using Factors = ExKokkosTest::LuFactors<double>;
using ExKokkosTest::expect_same_factors;

// The definition, with the MPFR oracle for every exact sum.
Factors defined_getf2(std::vector<double> a, int m, int n) {
  Factors f;
  auto at = [&](int i, int j) -> double& { return a[std::size_t(i) * n + j]; };
  auto update = [&](int i, int j, int count) {
    ExKokkosTest::ExactSum s;
    s.add(at(i, j));
    for (int k = 0; k < count; ++k) s.add_product(-at(i, k), at(k, j));
    at(i, j) = s.round_double();
  };
  for (int j = 0; j < n; ++j) {
    const int top = std::min(j, m);
    for (int i = 1; i < top; ++i) update(i, j, i);
    if (j >= m) continue;
    for (int i = j; i < m; ++i) update(i, j, j);
    int p = j;
    double largest = std::fabs(at(j, j));
    for (int i = j + 1; i < m; ++i) {
      const double v = std::fabs(at(i, j));
      if (v > largest || (std::isnan(largest) && !std::isnan(v))) {
        largest = v;
        p = i;
      }
    }
    f.piv.push_back(p);
    for (int c = 0; c < n; ++c) std::swap(at(j, c), at(p, c));
    if (at(j, j) != 0.0) {
      for (int i = j + 1; i < m; ++i) at(i, j) = at(i, j) / at(j, j);
    } else if (f.info == 0) {
      f.info = j + 1;
    }
  }
  f.lu = a;
  return f;
}

// An ordinary right-looking getf2 in double (LAPACK's loop order), for pivots and accuracy.
Factors ordinary_getf2(std::vector<double> a, int m, int n) {
  Factors f;
  auto at = [&](int i, int j) -> double& { return a[std::size_t(i) * n + j]; };
  for (int j = 0; j < std::min(m, n); ++j) {
    int p = j;
    for (int i = j + 1; i < m; ++i)
      if (std::fabs(at(i, j)) > std::fabs(at(p, j))) p = i;
    f.piv.push_back(p);
    for (int c = 0; c < n; ++c) std::swap(at(j, c), at(p, c));
    if (at(j, j) == 0.0) {
      if (f.info == 0) f.info = j + 1;
      continue;
    }
    for (int i = j + 1; i < m; ++i) at(i, j) /= at(j, j);
    for (int i = j + 1; i < m; ++i)
      for (int c = j + 1; c < n; ++c) at(i, c) -= at(i, j) * at(j, c);
  }
  f.lu = a;
  return f;
}

template <class ViewLayout>
Factors run(const std::vector<double>& a, int m, int n, const ExKokkos::Options& o = {}) {
  return ExKokkosTest::factor_lu<ViewLayout, Space>(a, m, n, [&](const auto& A, const auto& ipiv) {
    return ExKokkos::exgetf2(Space(), A, ipiv, o);
  });
}

std::vector<double> random_matrix(int m, int n, Rng& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> a(std::size_t(m) * n);
  for (auto& v : a) v = u(rng);
  return a;
}

// A matrix with condition number about `cond`: U diag(s) V^T with random orthogonal-ish
// factors replaced by products of random unit lower and upper triangular matrices (cheap, and
// the singular values spread over [1/cond, 1] make it ill-conditioned).
std::vector<double> ill_conditioned_matrix(int n, double cond, Rng& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> l(n * n, 0.0), r(n * n, 0.0), a(n * n, 0.0);
  for (int i = 0; i < n; ++i) {
    l[i * n + i] = 1.0;
    r[i * n + i] = std::pow(cond, -double(i) / std::max(1, n - 1));
    for (int j = 0; j < i; ++j) l[i * n + j] = u(rng);
    for (int j = i + 1; j < n; ++j) r[i * n + j] = u(rng) * r[i * n + i];
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int k = 0; k < n; ++k) s += l[i * n + k] * r[k * n + j];
      a[i * n + j] = s;
    }
  // Shuffle the rows so that pivoting has work to do.
  for (int i = n - 1; i > 0; --i) {
    const int k = std::uniform_int_distribution<int>(0, i)(rng);
    for (int j = 0; j < n; ++j) std::swap(a[i * n + j], a[k * n + j]);
  }
  return a;
}

// Options under which the team's threads share the entries of each step (each entry one thread's
// exact update: CompensatedSum's certified try, else an expansion), rather than the host's
// default of one thread walking rows and columns in vector lanes. On devices the default does.
ExKokkos::Options shared_entries() {
  ExKokkos::Options o;
  o.team_size = std::min(2, ExKokkosTest::widest_team<Space>());
  return o;
}

// The host's two one-thread schedules: the default (where it fits) is the trailing update
// (every entry's compensated sum kept, right-looking); output_lanes asks for the left-looking
// lanes. Devices ignore the schedule.
ExKokkos::Options with_schedule(ExKokkos::Schedule schedule) {
  ExKokkos::Options o;
  o.schedule = schedule;
  return o;
}

TEST(Getf2, MatchesTheDefinitionBitForBit) {
  Rng rng(1);
  for (auto shape : std::vector<std::pair<int, int>>{
           {1, 1}, {2, 2}, {3, 5}, {5, 3}, {17, 17}, {32, 32}, {40, 25}, {25, 40}, {64, 64}}) {
    const auto a = random_matrix(shape.first, shape.second, rng);
    const auto e = defined_getf2(a, shape.first, shape.second);
    const std::string what = std::to_string(shape.first) + "x" + std::to_string(shape.second);
    expect_same_factors(e, run<Kokkos::LayoutLeft>(a, shape.first, shape.second), what + " Left");
    expect_same_factors(e, run<Kokkos::LayoutRight>(a, shape.first, shape.second), what + " Right");
    expect_same_factors(e, run<Kokkos::LayoutStride>(a, shape.first, shape.second),
                        what + " Stride");
    expect_same_factors(e, run<Kokkos::LayoutRight>(a, shape.first, shape.second, shared_entries()),
                        what + " Right, the entries shared by a team");
    for (auto schedule : {ExKokkos::Schedule::output_lanes, ExKokkos::Schedule::trailing_update})
      expect_same_factors(
          e, run<Kokkos::LayoutLeft>(a, shape.first, shape.second, with_schedule(schedule)),
          what + " Left, schedule " + std::to_string(int(schedule)));
  }
}

TEST(Getf2, IllConditionedMatricesMatchTheDefinition) {
  Rng rng(2);
  for (double cond : {1e2, 1e10, 1e20, 1e30, 1e40}) {
    const int n = 24;
    const auto a = ill_conditioned_matrix(n, cond, rng);
    const auto e = defined_getf2(a, n, n);
    expect_same_factors(e, run<Kokkos::LayoutLeft>(a, n, n), "cond " + describe(cond));
    expect_same_factors(e, run<Kokkos::LayoutLeft>(a, n, n, shared_entries()),
                        "cond " + describe(cond) + ", the entries shared by a team");
    expect_same_factors(
        e, run<Kokkos::LayoutRight>(a, n, n, with_schedule(ExKokkos::Schedule::output_lanes)),
        "cond " + describe(cond) + ", left-looking lanes");
  }
}

TEST(Getf2, BatchedEqualsUnbatchedForEveryTeamSize) {
  Rng rng(3);
  const int batch = 37, m = 20, n = 16;
  Kokkos::View<double***, Kokkos::LayoutRight, Space::memory_space> A("A", batch, m, n);
  Kokkos::View<int**, Space::memory_space> ipiv("ipiv", batch, n);
  Kokkos::View<int*, Space::memory_space> info("info", batch);
  std::vector<std::vector<double>> mats;
  auto hA = Kokkos::create_mirror(A);  // a copy even on the host: A is factored repeatedly
  for (int b = 0; b < batch; ++b) {
    mats.push_back(random_matrix(m, n, rng));
    if (b % 5 == 4)  // some singular ones: a zero column
      for (int i = 0; i < m; ++i) mats.back()[i * n + 3] = 0.0;
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) hA(b, i, j) = mats.back()[i * n + j];
  }
  // 2: in place, the left-looking lanes on the host; 3: the host's trailing update one matrix
  // at a time (the default there, for teams of one, takes eight matrices at a time).
  for (int staged : {0, 1, 2, 3})
    for (int team : {1, 2, 32, ExKokkosTest::widest_team<Space>()}) {
      if (team > ExKokkosTest::widest_team<Space>()) continue;
      Kokkos::deep_copy(A, hA);
      ExKokkos::Options o;
      o.team_size = team;
      o.stage_in_scratch = staged == 1;
      if (staged == 2) o.schedule = ExKokkos::Schedule::output_lanes;
      if (staged == 3) o.schedule = ExKokkos::Schedule::trailing_update;
      ExKokkos::exgetf2_batched(Space(), A, ipiv, info, o);
      auto rA = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A);
      auto rp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ipiv);
      auto ri = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), info);
      for (int b = 0; b < batch; ++b) {
        const Factors single = run<Kokkos::LayoutLeft>(mats[b], m, n);
        Factors batched;
        batched.info = ri(b);
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < n; ++j) batched.lu.push_back(rA(b, i, j));
        for (int j = 0; j < n; ++j) batched.piv.push_back(rp(b, j));
        expect_same_factors(single, batched,
                            "matrix " + std::to_string(b) + " team size " + std::to_string(team) +
                                (staged == 1   ? " in scratch"
                                 : staged == 2 ? " lanes"
                                 : staged == 3 ? " trailing update"
                                               : " in place"));
        if (b % 5 == 4) EXPECT_GT(ri(b), 0);
      }
    }
}

// The host's batched default for small matrices, eight at a time in vector lanes
// (host_getf2_interleaved), against the definition: shapes square and not, batches that fill the last
// group of eight or not, and matrices that make its lanes disagree: uniform ones; ones whose last
// row repeats the first, with l = 1 there and 0 in the rows between, so that the last row's
// trailing sums are exactly zero from step 1 on (the certified try refuses a zero sum: those
// entries take lu_update's exact sum) and a pivot is zero; entries of exponents -60 to 60;
// ill-conditioned ones; a NaN, an infinity. The one-matrix trailing update must agree too.
TEST(Getf2, BatchedInVectorLanesMatchesTheDefinition) {
  Rng rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_int_distribution<int> exponent(-60, 60);
  for (auto shape : std::vector<std::pair<int, int>>{
           {1, 1}, {2, 2}, {3, 3}, {5, 9}, {9, 5}, {8, 8}, {13, 13}, {16, 16}, {20, 20}, {20, 7}})
    for (int batch : {8, 13}) {
      const int m = shape.first, n = shape.second, k = std::min(m, n);
      if (std::is_same<Space::memory_space, Kokkos::HostSpace>::value)  // the path under test
        EXPECT_TRUE((ExKokkos::Impl::lu_interleaved<Space, double>(ExKokkos::Options(), batch, m, n)));
      Kokkos::View<double***, Kokkos::LayoutRight, Space::memory_space> A("A", batch, m, n);
      Kokkos::View<int**, Space::memory_space> ipiv("ipiv", batch, k);
      Kokkos::View<int*, Space::memory_space> info("info", batch);
      std::vector<std::vector<double>> mats;
      auto hA = Kokkos::create_mirror(A);
      for (int b = 0; b < batch; ++b) {
        std::vector<double> a = (b % 5 == 3 && m == n && m > 1)
                                    ? ill_conditioned_matrix(n, 1e12, rng)
                                    : random_matrix(m, n, rng);
        if (b % 5 == 1 && m > 1) {  // column 0 is e_0 + e_(m-1), the last row the first's
          a[0] = 1.0;
          for (int i = 1; i < m - 1; ++i) a[std::size_t(i) * n] = 0.0;
          for (int j = 0; j < n; ++j) a[std::size_t(m - 1) * n + j] = a[j];
        }
        if (b % 5 == 2)
          for (auto& v : a) v = std::ldexp(u(rng), exponent(rng));
        if (b == 4) a[a.size() / 2] = std::nan("");
        if (b == 9) a[0] = -std::numeric_limits<double>::infinity();
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < n; ++j) hA(b, i, j) = a[std::size_t(i) * n + j];
        mats.push_back(a);
      }
      for (auto schedule : {ExKokkos::Schedule::automatic, ExKokkos::Schedule::trailing_update}) {
        Kokkos::deep_copy(A, hA);
        ExKokkos::Options o;
        o.schedule = schedule;
        ExKokkos::exgetf2_batched(Space(), A, ipiv, info, o);
        auto rA = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A);
        auto rp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ipiv);
        auto ri = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), info);
        for (int b = 0; b < batch; ++b) {
          Factors batched;
          batched.info = ri(b);
          for (int i = 0; i < m; ++i)
            for (int j = 0; j < n; ++j) batched.lu.push_back(rA(b, i, j));
          for (int j = 0; j < k; ++j) batched.piv.push_back(rp(b, j));
          expect_same_factors(defined_getf2(mats[b], m, n), batched,
                              std::to_string(m) + "x" + std::to_string(n) + " batch " +
                                  std::to_string(batch) + " matrix " + std::to_string(b) +
                                  " schedule " + std::to_string(int(schedule)));
        }
      }
    }
}

TEST(Getf2, SingularAndSpecialMatrices) {
  // info: the first exactly zero pivot, 1-based; the factorization completes.
  std::vector<double> a = {1, 2, 3, 2, 4, 6, 1, 1, 1};  // second row = 2 x first
  auto f = run<Kokkos::LayoutLeft>(a, 3, 3);
  expect_same_factors(defined_getf2(a, 3, 3), f, "rank 2");
  EXPECT_EQ(f.info, 3);
  std::vector<double> z = {0, 1, 0, 2};  // zero first column
  f = run<Kokkos::LayoutLeft>(z, 2, 2);
  EXPECT_EQ(f.info, 1);
  expect_same_factors(defined_getf2(z, 2, 2), f, "zero column");
  std::vector<double> s = {std::nan(""), 1, 2, std::numeric_limits<double>::infinity()};
  f = run<Kokkos::LayoutLeft>(s, 2, 2);
  expect_same_factors(defined_getf2(s, 2, 2), f, "NaN and Inf");
  EXPECT_EQ(f.piv[0], 1);  // 2 beats NaN
  // 0 x 0, 0 x n: nothing to do.
  Kokkos::View<double**, Space::memory_space> e("e", 0, 0), e2("e2", 0, 3);
  Kokkos::View<int*, Space::memory_space> p0("p", 0);
  EXPECT_EQ(ExKokkos::exgetf2(Space(), e, p0), 0);
  EXPECT_EQ(ExKokkos::exgetf2(Space(), e2, p0), 0);
  // Wrong pivot extent.
  Kokkos::View<double**, Space::memory_space> A("A", 3, 3);
  Kokkos::View<int*, Space::memory_space> p2("p", 2);
  EXPECT_THROW(ExKokkos::exgetf2(Space(), A, p2), std::invalid_argument);
  // Devices: more threads per matrix than the launch bounds allow is refused, not launched.
  if (!Kokkos::SpaceAccessibility<Kokkos::HostSpace, Space::memory_space>::accessible) {
    Kokkos::View<int*, Space::memory_space> p3("p", 3);
    ExKokkos::Options wide;
    wide.team_size = 65;
    EXPECT_THROW(ExKokkos::exgetf2(Space(), A, p3, wide), std::invalid_argument);
  }
}

// The pivot rule (first index of the largest magnitude, a NaN never larger than a number, the
// diagonal when the column is all NaN) on columns made to test it, for every team size and with the
// matrix in place or in scratch memory: the threads of a team search a column together. A crafted
// column of length L is column k of an m x (k + 3) matrix, m = k + L, whose first k columns are the
// identity's (no pivoting, l_ik = 0 below the identity, so column k reaches step k with its values,
// up to the signs of zeros, which the definition computes the same way); its four values lie spread
// over the L rows, NaN between them. Devices search a column of up to 32 rows within one warp and
// longer ones with team reductions: lengths 4 (at steps 0 and 40), 32, 33 and 40 take both.
TEST(Getf2, PivotRuleForEveryTeamSizeAndStaging) {
  const double nan = std::nan(""), inf = std::numeric_limits<double>::infinity();
  const std::vector<std::vector<double>> columns = {
      {nan, -0.0, 0.0, nan},  // the first zero after a NaN
      {nan, nan, nan, nan},   // no number: the diagonal
      {1, -3, 3, -3},         // ties: the first
      {2, nan, -inf, inf},    // infinities tie too
      {-0.0, 0.0, -0.0, 0.0}  // all zero: info, the diagonal
  };
  struct Placement {
    int k, length;
  };
  for (const Placement at :
       {Placement{0, 4}, Placement{40, 4}, Placement{8, 32}, Placement{8, 33}, Placement{2, 40}}) {
    const int k = at.k, m = k + at.length, n = k + 3;
    for (const auto& col : columns) {
      std::vector<double> a(std::size_t(m) * n, 0.0);
      for (int i = 0; i < m; ++i) {
        for (int j = 0; j < k; ++j) a[i * n + j] = i == j ? 1.0 : 0.0;
        a[i * n + k] = i < k ? 0.5 : nan;
        a[i * n + k + 1] = 1.0 + i;
        a[i * n + k + 2] = i % 2 ? -0.5 : 2.0;
      }
      for (int q = 0; q < 4; ++q) a[(k + q * (at.length - 1) / 3) * n + k] = col[q];
      const Factors defined = defined_getf2(a, m, n);
      for (int staged : {0, 1, 2})  // 2: in place, the left-looking lanes on the host
        for (int team : {1, 2, 3, 32, ExKokkosTest::widest_team<Space>()}) {
          if (team > ExKokkosTest::widest_team<Space>()) continue;
          ExKokkos::Options o;
          o.team_size = team;
          o.stage_in_scratch = staged == 1;
          if (staged == 2) o.schedule = ExKokkos::Schedule::output_lanes;
          expect_same_factors(defined, run<Kokkos::LayoutRight>(a, m, n, o),
                              "column " + describe(col[0]) + "... of " + std::to_string(at.length) +
                                  " rows at step " + std::to_string(k) + ", team " +
                                  std::to_string(team) +
                                  (staged == 1   ? " in scratch"
                                   : staged == 2 ? " lanes"
                                                 : " in place"));
        }
    }
  }
}

// ||P A - L U||_max / ||A||_max, each entry of P A - L U summed exactly (the MPFR oracle) and
// rounded once.
double backward_error(const std::vector<double>& a, const Factors& f, int n) {
  std::vector<double> pa = a;
  for (int j = 0; j < n; ++j)
    for (int c = 0; c < n; ++c) std::swap(pa[j * n + c], pa[f.piv[j] * n + c]);
  double err = 0, norm = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      ExKokkosTest::ExactSum s;
      s.add(pa[i * n + j]);
      for (int k = 0; k <= std::min(i, j); ++k)
        s.add_product(-(k == i ? 1.0 : f.lu[i * n + k]), f.lu[k * n + j]);
      err = std::max(err, std::fabs(s.round_double()));
      norm = std::max(norm, std::fabs(a[i * n + j]));
    }
  return err / norm;
}

TEST(Getf2, PivotsAndAccuracyBesideOrdinaryGetf2) {
  Rng rng(4);
  for (int trial = 0; trial < 10; ++trial) {
    const int n = 30;
    const auto a = random_matrix(n, n, rng);
    const Factors ex = run<Kokkos::LayoutLeft>(a, n, n), plain = ordinary_getf2(a, n, n);
    EXPECT_EQ(ex.piv, plain.piv) << "trial " << trial;
    EXPECT_LE(backward_error(a, ex, n), backward_error(a, plain, n) * 1.0000001)
        << "trial " << trial;
  }
  std::printf("%8s %14s %14s\n", "cond", "ordinary", "exgetf2");
  for (double cond : {1e2, 1e10, 1e20, 1e30, 1e40}) {
    const int n = 24;
    const auto a = ill_conditioned_matrix(n, cond, rng);
    const Factors ex = run<Kokkos::LayoutLeft>(a, n, n), plain = ordinary_getf2(a, n, n);
    const double plain_error = backward_error(a, plain, n), ex_error = backward_error(a, ex, n);
    std::printf("%8.0e %14.3e %14.3e\n", cond, plain_error, ex_error);
    EXPECT_LE(ex_error, plain_error) << "cond " << describe(cond);
  }
}

}  // namespace Getf2Suite
}  // namespace
