// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// KokkosBlas' multivector reductions against the MPFR oracle, bit for bit: exdot (both operands
// rank 2, or one rank 1 or of one column and paired with every column of the other), exasum,
// exnrm2, exsum, exnrm2_squared, exnrminf and exiamax with a rank-2 X and a rank-1 R of one
// entry per column. Every R(j) equals the oracle's value for column j and has the bits of the
// rank-1 routine on that column. Double and float; LayoutLeft, LayoutRight and LayoutStride
// operands (a strided R too); 0, 1, 7 and 1000 rows, 0, 1 and 3 columns, each column drawn from
// another generator (cancellation, ties, the whole range, NaN and infinities); Kokkos::Serial and
// the default host space, several launch configurations; wrong extents refused before anything
// is written.
#include <ExKokkos.hpp>

#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_HostMatrix.hpp"
#include "ExKokkosTest_Refusals.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace Level1MultivectorSuite {

using ExKokkosTest::bytes_of;
using ExKokkosTest::describe;
using ExKokkosTest::expect_refused;
using ExKokkosTest::same_bits;
using Host = Kokkos::DefaultHostExecutionSpace;
template <class T, class Layout>
using Matrix = ExKokkosTest::HostMatrix<T, Layout>;

// Column j's data: a different generator for every column.
std::vector<double> column_data(std::size_t rows, std::size_t j, ExKokkosTest::Rng& rng) {
  switch (j % 4) {
    case 0:
      return ExKokkosTest::uniform(rows, rng);
    case 1:
      return rows >= 2 ? ExKokkosTest::cancellation_to_tiny(rows, rng)
                       : ExKokkosTest::lognormal_wide(rows, rng);
    case 2:
      return rows >= 2 ? ExKokkosTest::rounding_ties(rows, rng)
                       : ExKokkosTest::full_range(rows, rng);
    default:
      return ExKokkosTest::nan_inf_mix(rows, rng);
  }
}

template <class M>
void fill(const M& m, std::size_t seed) {
  using T = typename M::non_const_value_type;
  ExKokkosTest::Rng rng(seed);
  for (std::size_t j = 0; j < m.extent(1); ++j) {
    std::vector<double> v = column_data(m.extent(0), j, rng);
    v.resize(m.extent(0));  // generators may return a few more
    for (std::size_t i = 0; i < m.extent(0); ++i) m(i, j) = static_cast<T>(v[i]);
  }
}

template <class T, class M>
std::vector<T> column_of(const M& m, std::size_t j) {
  std::vector<T> out(m.extent(0));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = m(i, j);
  return out;
}

using ExKokkosTest::rounded;

// The oracles, on one column.
template <class T>
T oracle_dot(const std::vector<T>& x, const std::vector<T>& y) {
  ExKokkosTest::ExactSum s;
  for (std::size_t i = 0; i < x.size(); ++i) s.add_product(double(x[i]), double(y[i]));
  return rounded<T>(s);
}
template <class T>
T oracle_sum(const std::vector<T>& x) {
  ExKokkosTest::ExactSum s;
  for (T v : x) s.add(double(v));
  return rounded<T>(s);
}
template <class T>
T oracle_asum(const std::vector<T>& x) {
  ExKokkosTest::ExactSum s;
  for (T v : x) s.add(std::fabs(double(v)));
  return rounded<T>(s);
}
template <class T>
T oracle_nrm2_squared(const std::vector<T>& x) {
  ExKokkosTest::ExactSum s;
  for (T v : x) s.add_product(double(v), double(v));
  return rounded<T>(s);
}
template <class T>
T oracle_nrm2(const std::vector<T>& x) {
  return ExKokkosTest::exact_nrm2(x);
}
// max |x(i)|; NaN when any element is NaN; 0 when empty.
template <class T>
T oracle_nrminf(const std::vector<T>& x) {
  T m = 0;
  for (T v : x) {
    if (std::isnan(v)) return std::numeric_limits<T>::quiet_NaN();
    if (std::fabs(v) > m) m = std::fabs(v);
  }
  return m;
}
// Reference BLAS IxAMAX, 1-based; 0 when empty.
template <class T>
std::size_t oracle_iamax(const std::vector<T>& x) {
  if (x.empty()) return 0;
  std::size_t best = 1;
  T m = std::fabs(x[0]);
  for (std::size_t i = 1; i < x.size(); ++i)
    if (std::fabs(x[i]) > m) {
      m = std::fabs(x[i]);
      best = i + 1;
    }
  return best;
}

template <class T>
void expect_value(T got, T want, const std::string& what, int& failures) {
  if (!same_bits(got, want) && ++failures <= 8)
    ADD_FAILURE() << what << " = " << describe(got) << ", expected " << describe(want);
}

template <class Space, class T, class Layout>
void reductions(const ExKokkos::Options& options) {
  const std::string layout = std::is_same<Layout, Kokkos::LayoutLeft>::value    ? "Left"
                             : std::is_same<Layout, Kokkos::LayoutRight>::value ? "Right"
                                                                                : "Stride";
  int failures = 0;
  for (std::size_t rows : {0, 1, 7, 1000})
    for (std::size_t cols : {0, 1, 3}) {
      const auto X = Matrix<T, Layout>::make(rows, cols);
      const auto Y = Matrix<T, Layout>::make(rows, cols);
      fill(X, 100 * rows + cols);
      fill(Y, 7 + 100 * rows + cols);
      // R: contiguous, and a strided row of a matrix (entries 2 apart).
      Kokkos::View<T*, Kokkos::HostSpace> R("R", cols);
      Kokkos::View<T**, Kokkos::LayoutLeft, Kokkos::HostSpace> R2("R2", 2, cols);
      const auto Rs = Kokkos::subview(R2, 1, Kokkos::ALL());
      Kokkos::View<std::size_t*, Kokkos::HostSpace> I("I", cols);
      const std::string where =
          layout + " " + std::to_string(rows) + "x" + std::to_string(cols) + " column ";
      const Space space;

      ExKokkos::exdot(space, R, X, Y, options);
      ExKokkos::exasum(space, Rs, X, options);
      space.fence();
      for (std::size_t j = 0; j < cols; ++j) {
        const auto xj = Kokkos::subview(X, Kokkos::ALL(), j);
        const auto yj = Kokkos::subview(Y, Kokkos::ALL(), j);
        const std::vector<T> x = column_of<T>(X, j), y = column_of<T>(Y, j);
        const std::string c = where + std::to_string(j);
        expect_value(R(j), oracle_dot(x, y), "exdot " + c, failures);
        expect_value(R(j), ExKokkos::exdot(space, xj, yj, options), "exdot vs rank 1 " + c,
                     failures);
        expect_value(Rs(j), oracle_asum(x), "exasum " + c, failures);
        expect_value(Rs(j), ExKokkos::exasum(space, xj, options), "exasum vs rank 1 " + c,
                     failures);
      }
      ExKokkos::exnrm2(space, R, X, options);
      ExKokkos::exsum(space, Rs, X, options);
      space.fence();
      for (std::size_t j = 0; j < cols; ++j) {
        const auto xj = Kokkos::subview(X, Kokkos::ALL(), j);
        const std::vector<T> x = column_of<T>(X, j);
        const std::string c = where + std::to_string(j);
        expect_value(R(j), oracle_nrm2(x), "exnrm2 " + c, failures);
        expect_value(R(j), ExKokkos::exnrm2(space, xj, options), "exnrm2 vs rank 1 " + c, failures);
        expect_value(Rs(j), oracle_sum(x), "exsum " + c, failures);
        expect_value(Rs(j), ExKokkos::exsum(space, xj, options), "exsum vs rank 1 " + c, failures);
      }
      ExKokkos::exnrm2_squared(space, R, X, options);
      ExKokkos::exnrminf(space, Rs, X);
      ExKokkos::exiamax(space, I, X);
      space.fence();
      for (std::size_t j = 0; j < cols; ++j) {
        const auto xj = Kokkos::subview(X, Kokkos::ALL(), j);
        const std::vector<T> x = column_of<T>(X, j);
        const std::string c = where + std::to_string(j);
        expect_value(R(j), oracle_nrm2_squared(x), "exnrm2_squared " + c, failures);
        expect_value(R(j), ExKokkos::exnrm2_squared(space, xj, options),
                     "exnrm2_squared vs rank 1 " + c, failures);
        expect_value(Rs(j), oracle_nrminf(x), "exnrminf " + c, failures);
        expect_value(Rs(j), ExKokkos::exnrminf(space, xj), "exnrminf vs rank 1 " + c, failures);
        EXPECT_EQ(I(j), oracle_iamax(x)) << "exiamax " << c;
        EXPECT_EQ(I(j), ExKokkos::exiamax(space, xj)) << "exiamax vs rank 1 " << c;
      }
    }
  EXPECT_EQ(failures, 0);
}

template <class Space>
std::vector<ExKokkos::Options> configurations() {
  ExKokkos::Options plain, one_thread, many_teams;
  one_thread.team_size = 1;
  many_teams.league_size = 5;
  return {plain, one_thread, many_teams};
}

template <class Space, class T>
void all_layouts() {
  for (const ExKokkos::Options& o : configurations<Space>()) {
    reductions<Space, T, Kokkos::LayoutLeft>(o);
    reductions<Space, T, Kokkos::LayoutRight>(o);
    reductions<Space, T, Kokkos::LayoutStride>(o);
  }
}

TEST(Level1Multivector, SerialDouble) {
  all_layouts<Kokkos::Serial, double>();
}
TEST(Level1Multivector, SerialFloat) {
  all_layouts<Kokkos::Serial, float>();
}
TEST(Level1Multivector, DefaultHostDouble) {
  all_layouts<Host, double>();
}
TEST(Level1Multivector, DefaultHostFloat) {
  all_layouts<Host, float>();
}

// exdot pairs a rank-1 operand, or one of a single column, with every column of the other.
TEST(Level1Multivector, DotPairsOneColumnWithEveryColumn) {
  const std::size_t rows = 500, cols = 4;
  const auto X = Matrix<double, Kokkos::LayoutRight>::make(rows, cols);
  const auto one = Matrix<double, Kokkos::LayoutLeft>::make(rows, 1);
  fill(X, 1);
  fill(one, 2);
  const auto y = Kokkos::subview(one, Kokkos::ALL(), 0);
  Kokkos::View<double*, Kokkos::HostSpace> R1("R1", cols), R2("R2", cols), R3("R3", cols),
      R4("R4", cols);
  ExKokkos::exdot(R1, X, y);    // rank-2 X, rank-1 y
  ExKokkos::exdot(R2, y, X);    // rank-1 x, rank-2 Y
  ExKokkos::exdot(R3, X, one);  // rank-2 X, Y of one column
  ExKokkos::exdot(Host(), R4, one, X);
  Kokkos::fence();
  for (std::size_t j = 0; j < cols; ++j) {
    const double want = oracle_dot(column_of<double>(X, j), column_of<double>(one, 0));
    EXPECT_TRUE(same_bits(R1(j), want)) << j;
    EXPECT_TRUE(same_bits(R2(j), want)) << j;
    EXPECT_TRUE(same_bits(R3(j), want)) << j;
    EXPECT_TRUE(same_bits(R4(j), want)) << j;
  }
}

template <class Space>
void refusals() {
  using M = Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  using V = Kokkos::View<double*, Kokkos::HostSpace>;
  M X("X", 5, 3), Y("Y", 5, 3), Yrows("Yrows", 4, 3), Ycols("Ycols", 5, 2), none("none", 5, 0);
  Kokkos::deep_copy(X, 1.0);
  V R("R", 3), Rshort("Rshort", 2), Rlong("Rlong", 4), y4("y4", 4), R0("R0", 0);
  Kokkos::deep_copy(R, -7.0);
  Kokkos::deep_copy(Rshort, -7.0);
  Kokkos::deep_copy(Rlong, -7.0);
  Kokkos::View<std::size_t*, Kokkos::HostSpace> Ishort("Ishort", 2);
  const Space s;
  ExKokkos::Options bad;
  bad.expansion_size = 5;
  expect_refused(
      "exdot rows", [&] { ExKokkos::exdot(s, R, X, Yrows); }, R, X, Yrows);
  expect_refused(
      "exdot columns", [&] { ExKokkos::exdot(s, R, X, Ycols); }, R, X, Ycols);
  expect_refused(
      "exdot rank-1 rows", [&] { ExKokkos::exdot(s, R, X, y4); }, R, X, y4);
  expect_refused(
      "exdot R short", [&] { ExKokkos::exdot(s, Rshort, X, Y); }, Rshort, X, Y);
  expect_refused(
      "exdot R long", [&] { ExKokkos::exdot(s, Rlong, X, Y); }, Rlong, X, Y);
  expect_refused(
      "exdot options", [&] { ExKokkos::exdot(s, R, X, Y, bad); }, R, X, Y);
  expect_refused(
      "exdot options, no columns", [&] { ExKokkos::exdot(s, R0, none, none, bad); }, R0);
  expect_refused(
      "exasum R short", [&] { ExKokkos::exasum(s, Rshort, X); }, Rshort, X);
  expect_refused(
      "exasum options", [&] { ExKokkos::exasum(s, R, X, bad); }, R, X);
  expect_refused(
      "exnrm2 R long", [&] { ExKokkos::exnrm2(s, Rlong, X); }, Rlong, X);
  expect_refused(
      "exsum R short", [&] { ExKokkos::exsum(s, Rshort, X); }, Rshort, X);
  expect_refused(
      "exnrm2_squared R short", [&] { ExKokkos::exnrm2_squared(s, Rshort, X); }, Rshort, X);
  expect_refused(
      "exnrminf R long", [&] { ExKokkos::exnrminf(s, Rlong, X); }, Rlong, X);
  expect_refused(
      "exiamax R short", [&] { ExKokkos::exiamax(s, Ishort, X); }, Ishort, X);
}

TEST(Level1Multivector, WrongExtentsAndOptionsAreRefusedBeforeWriting) {
  refusals<Kokkos::Serial>();
  refusals<Host>();
}

}  // namespace Level1MultivectorSuite
}  // namespace
