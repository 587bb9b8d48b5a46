// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The level-1 routines beyond sum, asum, dot and nrm2, against the MPFR oracle bit for bit:
// exnrm2_squared, exnrminf and exiamax (their NaN rules, ties to the smallest index), exabs,
// exfill, exreciprocal, exupdate and exmult, and exaxpby, exaxpy, exscal, exinvscal on rank-2
// views, where every column must also have the bits of the rank-1 routine on that column.
// Double and float; LayoutLeft, LayoutRight and LayoutStride; 0, 1, 7 and 1000 elements (and 0,
// 1, 3 columns); IEEE special values; Kokkos::Serial and the default host space; wrong shapes
// refused before anything is written.
#include <ExKokkos.hpp>

#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_HostMatrix.hpp"
#include "ExKokkosTest_Refusals.hpp"

#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace Level1MoreSuite {

using ExKokkosTest::bytes_of;
using ExKokkosTest::describe;
using ExKokkosTest::expect_refused;
using ExKokkosTest::same_bits;
using Host = Kokkos::DefaultHostExecutionSpace;
template <class T, class Layout>
using Matrix = ExKokkosTest::HostMatrix<T, Layout>;

// A rank-1 host view of v in Layout (LayoutStride: every third element of a larger array).
template <class Layout, class T>
auto vector_of(const std::vector<T>& v) {
  const auto m = Matrix<T, Layout>::make(v.size(), 1);
  for (std::size_t i = 0; i < v.size(); ++i) m(i, 0) = v[i];
  return Kokkos::subview(m, Kokkos::ALL(), 0);
}

template <class T>
std::vector<T> as(const std::vector<double>& v) {
  return std::vector<T>(v.begin(), v.end());
}

using ExKokkosTest::rounded;

template <class T>
void expect_value(T got, T want, const std::string& what, int& failures) {
  if (!same_bits(got, want) && ++failures <= 8)
    ADD_FAILURE() << what << " = " << describe(got) << ", expected " << describe(want);
}

// The vectors the reductions are tried on.
template <class T>
std::vector<std::vector<T>> reduction_inputs() {
  ExKokkosTest::Rng rng(5);
  std::vector<std::vector<T>> out = {{}, {T(-3)}, {T(0.0)}, {T(-0.0)}};
  for (std::size_t n : {7, 1000}) {
    out.push_back(as<T>(ExKokkosTest::uniform(n, rng)));
    out.push_back(as<T>(ExKokkosTest::full_range(n, rng)));
    out.push_back(as<T>(ExKokkosTest::subnormal_only(n, rng)));
    out.push_back(as<T>(ExKokkosTest::nan_inf_mix(n, rng)));
    out.push_back(as<T>(ExKokkosTest::lognormal_wide(n, rng)));
  }
  const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
  // Ties of magnitude at several indices, NaN first, NaN later, NaN only, infinities.
  out.push_back({T(1), T(-5), T(5), T(-5), T(2)});
  out.push_back({T(-5), T(1), T(5), T(2)});
  out.push_back({nan, T(1), T(7), T(-7)});
  out.push_back({T(1), nan, T(7), T(-7), nan});
  out.push_back({nan, nan});
  out.push_back({T(1), -inf, inf, T(3)});
  std::vector<T> late(1000, T(0.5));
  late[999] = T(-0.75);
  late[400] = T(0.75);
  out.push_back(late);
  return out;
}

template <class T>
T oracle_nrm2_squared(const std::vector<T>& x) {
  ExKokkosTest::ExactSum s;
  for (T v : x) s.add_product(double(v), double(v));
  return rounded<T>(s);
}
template <class T>
T oracle_nrminf(const std::vector<T>& x) {
  T m = 0;
  for (T v : x) {
    if (std::isnan(v)) return std::numeric_limits<T>::quiet_NaN();
    if (std::fabs(v) > m) m = std::fabs(v);
  }
  return m;
}
template <class T>
std::size_t oracle_iamax(const std::vector<T>& x) {  // reference IxAMAX
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

template <class Space, class T, class Layout>
void reductions_on(const std::vector<T>& v, int& failures) {
  const auto x = vector_of<Layout>(v);
  const Space space;
  const std::string n = " (" + std::to_string(v.size()) + " elements)";
  expect_value(ExKokkos::exnrm2_squared(space, x), oracle_nrm2_squared(v), "exnrm2_squared" + n,
               failures);
  expect_value(ExKokkos::exnrminf(space, x), oracle_nrminf(v), "exnrminf" + n, failures);
  EXPECT_EQ(ExKokkos::exiamax(space, x), oracle_iamax(v)) << "exiamax" << n;
  // The rank-0 forms, with and without a space.
  Kokkos::View<T, Kokkos::HostSpace> r("r");
  Kokkos::View<int, Kokkos::HostSpace> i("i");
  ExKokkos::exnrm2_squared(space, r, x);
  space.fence();
  expect_value(r(), oracle_nrm2_squared(v), "exnrm2_squared(r)" + n, failures);
  ExKokkos::exnrminf(r, x);
  Kokkos::fence();
  expect_value(r(), oracle_nrminf(v), "exnrminf(r)" + n, failures);
  ExKokkos::exiamax(space, i, x);
  space.fence();
  EXPECT_EQ(static_cast<std::size_t>(i()), oracle_iamax(v)) << "exiamax(i)" << n;
}

template <class Space, class T>
void reductions() {
  int failures = 0;
  for (const std::vector<T>& v : reduction_inputs<T>()) {
    reductions_on<Space, T, Kokkos::LayoutLeft>(v, failures);
    reductions_on<Space, T, Kokkos::LayoutRight>(v, failures);
    reductions_on<Space, T, Kokkos::LayoutStride>(v, failures);
  }
  EXPECT_EQ(failures, 0);
}

TEST(Level1More, ReductionsSerialDouble) {
  reductions<Kokkos::Serial, double>();
}
TEST(Level1More, ReductionsSerialFloat) {
  reductions<Kokkos::Serial, float>();
}
TEST(Level1More, ReductionsDefaultHostDouble) {
  reductions<Host, double>();
}
TEST(Level1More, ReductionsDefaultHostFloat) {
  reductions<Host, float>();
}

TEST(Level1More, Nrm2SquaredOverflowsOnlyWhenTheExactSumDoes) {
  const std::vector<double> big = {1e200, -1e200};
  // Squares below half the smallest subnormal, each rounding to 0, whose exact sum does not.
  const std::vector<double> small(1000, 1e-162);
  EXPECT_TRUE(same_bits(ExKokkos::exnrm2_squared(vector_of<Kokkos::LayoutLeft>(big)),
                        std::numeric_limits<double>::infinity()));
  const double s = ExKokkos::exnrm2_squared(vector_of<Kokkos::LayoutLeft>(small));
  EXPECT_TRUE(same_bits(s, oracle_nrm2_squared(small))) << describe(s);
  EXPECT_GT(s, 0.0);
}

// IEEE division rounded once, emulated in MPFR with T's precision and exponent range.
template <class T>
T oracle_reciprocal(T x) {
  const bool is_float = std::is_same<T, float>::value;
  const mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
  mpfr_set_emin(is_float ? -148 : -1073);
  mpfr_set_emax(is_float ? 128 : 1024);
  mpfr_t r, v;
  mpfr_init2(r, is_float ? 24 : 53);
  mpfr_init2(v, 53);
  mpfr_set_d(v, double(x), MPFR_RNDN);
  const int t = mpfr_ui_div(r, 1, v, MPFR_RNDN);
  mpfr_subnormalize(r, t, MPFR_RNDN);
  const T out = is_float ? T(mpfr_get_flt(r, MPFR_RNDN)) : T(mpfr_get_d(r, MPFR_RNDN));
  mpfr_clear(r);
  mpfr_clear(v);
  mpfr_set_emin(emin);
  mpfr_set_emax(emax);
  return out;
}

// Elementwise data: column j of a rows x cols matrix from a seed, special values included.
template <class M>
void fill(const M& m, std::uint64_t seed) {
  using T = typename M::non_const_value_type;
  ExKokkosTest::Rng rng(seed);
  for (std::size_t j = 0; j < m.extent(1); ++j) {
    std::vector<double> v = j % 3 == 0   ? ExKokkosTest::uniform(m.extent(0), rng)
                            : j % 3 == 1 ? ExKokkosTest::full_range(m.extent(0), rng)
                                         : ExKokkosTest::nan_inf_mix(m.extent(0), rng);
    v.resize(m.extent(0));
    for (std::size_t i = 0; i < m.extent(0); ++i) m(i, j) = static_cast<T>(v[i]);
  }
}

template <class M>
M copy_of(const M& m) {
  M c = Matrix<typename M::non_const_value_type, typename M::array_layout>::make(m.extent(0),
                                                                                 m.extent(1));
  for (std::size_t i = 0; i < m.extent(0); ++i)
    for (std::size_t j = 0; j < m.extent(1); ++j) c(i, j) = m(i, j);
  return c;
}

template <class T>
T product_sum(const std::vector<std::pair<T, T>>& terms) {
  ExKokkosTest::ExactSum s;
  for (const auto& t : terms) s.add_product(double(t.first), double(t.second));
  return rounded<T>(s);
}

template <class Space, class T, class Layout>
void elementwise(int& failures) {
  const Space space;
  const std::string layout = std::is_same<Layout, Kokkos::LayoutLeft>::value    ? "Left "
                             : std::is_same<Layout, Kokkos::LayoutRight>::value ? "Right "
                                                                                : "Stride ";
  for (std::size_t rows : {0, 1, 7, 1000})
    for (std::size_t cols : {0, 1, 3}) {
      const std::string shape = layout + std::to_string(rows) + "x" + std::to_string(cols);
      const auto X = Matrix<T, Layout>::make(rows, cols);
      const auto Y = Matrix<T, Layout>::make(rows, cols);
      const auto Z = Matrix<T, Layout>::make(rows, cols);
      fill(X, rows + 10 * cols);
      fill(Y, 1 + rows + 10 * cols);
      fill(Z, 2 + rows + 10 * cols);
      const auto R = Matrix<T, Layout>::make(rows, cols);
      const auto at = [&](std::size_t i, std::size_t j) {
        return shape + " (" + std::to_string(i) + ", " + std::to_string(j) + ")";
      };

      ExKokkos::exabs(space, R, X);
      space.fence();
      for (std::size_t j = 0; j < cols; ++j)
        for (std::size_t i = 0; i < rows; ++i)
          expect_value(R(i, j), T(std::fabs(X(i, j))), "exabs " + at(i, j), failures);
      ExKokkos::exreciprocal(space, R, X);
      space.fence();
      for (std::size_t j = 0; j < cols; ++j)
        for (std::size_t i = 0; i < rows; ++i)
          expect_value(R(i, j), oracle_reciprocal(X(i, j)), "exreciprocal " + at(i, j), failures);
      ExKokkos::exfill(space, R, T(-2.5));
      space.fence();
      for (std::size_t j = 0; j < cols; ++j)
        for (std::size_t i = 0; i < rows; ++i)
          expect_value(R(i, j), T(-2.5), "exfill " + at(i, j), failures);

      // exupdate with every pattern of zero coefficients (a zero drops its term).
      const T coefficients[][3] = {{T(0.3), T(-1.7), T(2.1)}, {T(0), T(1.1), T(-0.9)},
                                   {T(1.5), T(0), T(0.25)},   {T(-2), T(3), T(0)},
                                   {T(0), T(0), T(3)},        {T(0), T(0), T(0)}};
      for (const auto& c : coefficients) {
        const auto W = copy_of(Z);
        ExKokkos::exupdate(space, c[0], X, c[1], Y, c[2], W);
        space.fence();
        for (std::size_t j = 0; j < cols; ++j)
          for (std::size_t i = 0; i < rows; ++i) {
            std::vector<std::pair<T, T>> terms;
            if (c[0] != T(0)) terms.push_back({c[0], X(i, j)});
            if (c[1] != T(0)) terms.push_back({c[1], Y(i, j)});
            if (c[2] != T(0)) terms.push_back({c[2], Z(i, j)});
            expect_value(W(i, j), product_sum(terms), "exupdate " + at(i, j), failures);
          }
      }

      // exaxpby and exscal on rank 2: the oracle, and column j's bits from the rank-1 routine.
      {
        const auto W = copy_of(Y);
        ExKokkos::exaxpby(space, T(0.7), X, T(-1.3), W);
        const auto V = copy_of(Y);
        ExKokkos::exscal(space, V, T(-3.1), X);
        space.fence();
        for (std::size_t j = 0; j < cols; ++j) {
          const auto w1 = copy_of(Y);
          const auto w1j = Kokkos::subview(w1, Kokkos::ALL(), j);
          ExKokkos::exaxpby(space, T(0.7), Kokkos::subview(X, Kokkos::ALL(), j), T(-1.3), w1j);
          space.fence();
          for (std::size_t i = 0; i < rows; ++i) {
            expect_value(W(i, j), product_sum<T>({{T(0.7), X(i, j)}, {T(-1.3), Y(i, j)}}),
                         "exaxpby " + at(i, j), failures);
            expect_value(W(i, j), w1j(i), "exaxpby vs rank 1 " + at(i, j), failures);
            expect_value(V(i, j), product_sum<T>({{T(-3.1), X(i, j)}}), "exscal " + at(i, j),
                         failures);
          }
        }
      }
    }
}

template <class Space, class T>
void elementwise_all() {
  int failures = 0;
  elementwise<Space, T, Kokkos::LayoutLeft>(failures);
  elementwise<Space, T, Kokkos::LayoutRight>(failures);
  elementwise<Space, T, Kokkos::LayoutStride>(failures);
  EXPECT_EQ(failures, 0);
}

TEST(Level1More, ElementwiseSerialDouble) {
  elementwise_all<Kokkos::Serial, double>();
}
TEST(Level1More, ElementwiseSerialFloat) {
  elementwise_all<Kokkos::Serial, float>();
}
TEST(Level1More, ElementwiseDefaultHostDouble) {
  elementwise_all<Host, double>();
}
TEST(Level1More, ElementwiseDefaultHostFloat) {
  elementwise_all<Host, float>();
}

// exmult: Y = RN(gamma Y + alpha A .* X), rank 1 and rank 2, every zero pattern of the
// coefficients. The oracle adds alpha * p and alpha * e for a * x = p + e (TwoProd, exact on this
// data: the factors stay within 2^+-100 for double; for float a * x is exact in double).
template <class Space, class T, class Layout>
void mult(int& failures) {
  const Space space;
  for (std::size_t rows : {0, 1, 7, 1000})
    for (std::size_t cols : {1, 3}) {
      const auto X = Matrix<T, Layout>::make(rows, cols);
      const auto Y = Matrix<T, Layout>::make(rows, cols);
      const auto Am = Matrix<T, Layout>::make(rows, 1);
      ExKokkosTest::Rng rng(rows + cols);
      std::uniform_real_distribution<double> u(-1, 1);
      std::uniform_int_distribution<int> e(-100, 100);
      const auto value = [&]() {
        return static_cast<T>(
            std::ldexp(u(rng), std::is_same<T, float>::value ? e(rng) / 4 : e(rng)));
      };
      for (std::size_t i = 0; i < rows; ++i) {
        Am(i, 0) = value();
        for (std::size_t j = 0; j < cols; ++j) {
          X(i, j) = value();
          Y(i, j) = value();
        }
      }
      const auto A = Kokkos::subview(Am, Kokkos::ALL(), 0);
      const T coefficients[][2] = {{T(0.3), T(-1.7)}, {T(0), T(1.1)}, {T(1.5), T(0)}, {T(0), T(0)}};
      for (const auto& c : coefficients) {
        const auto W = copy_of(Y);
        ExKokkos::exmult(space, c[0], W, c[1], A, X);
        space.fence();
        for (std::size_t j = 0; j < cols; ++j)
          for (std::size_t i = 0; i < rows; ++i) {
            ExKokkosTest::ExactSum s;
            if (c[0] != T(0)) s.add_product(double(c[0]), double(Y(i, j)));
            if (c[1] != T(0)) {
              const double a = A(i), x = X(i, j);
              const double p = a * x, err = std::fma(a, x, -p);
              s.add_product(double(c[1]), p);
              s.add_product(double(c[1]), err);
            }
            expect_value(W(i, j), rounded<T>(s), "exmult " + std::to_string(i), failures);
          }
        if (cols == 1) {  // the rank-1 form on the same data
          const auto w = copy_of(Y);
          const auto wv = Kokkos::subview(w, Kokkos::ALL(), 0);
          ExKokkos::exmult(space, c[0], wv, c[1], A, Kokkos::subview(X, Kokkos::ALL(), 0));
          space.fence();
          for (std::size_t i = 0; i < rows; ++i)
            expect_value(wv(i), W(i, 0), "exmult rank 1 " + std::to_string(i), failures);
        }
      }
    }
}

template <class Space, class T>
void mult_all() {
  int failures = 0;
  mult<Space, T, Kokkos::LayoutLeft>(failures);
  mult<Space, T, Kokkos::LayoutRight>(failures);
  mult<Space, T, Kokkos::LayoutStride>(failures);
  EXPECT_EQ(failures, 0);
}

TEST(Level1More, MultSerialDouble) {
  mult_all<Kokkos::Serial, double>();
}
TEST(Level1More, MultSerialFloat) {
  mult_all<Kokkos::Serial, float>();
}
TEST(Level1More, MultDefaultHostDouble) {
  mult_all<Host, double>();
}
TEST(Level1More, MultDefaultHostFloat) {
  mult_all<Host, float>();
}

// A zero coefficient drops its term: NaN in a view that is not read does not propagate.
TEST(Level1More, ZeroCoefficientsDoNotReadTheirViews) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto x = vector_of<Kokkos::LayoutLeft>(std::vector<double>{nan, nan});
  const auto y = vector_of<Kokkos::LayoutLeft>(std::vector<double>{1.5, -2.0});
  auto z = vector_of<Kokkos::LayoutLeft>(std::vector<double>{nan, 4.0});
  ExKokkos::exupdate(0.0, x, 2.0, y, 0.0, z);
  Kokkos::fence();
  EXPECT_TRUE(same_bits(z(0), 3.0));
  EXPECT_TRUE(same_bits(z(1), -4.0));
  auto w = vector_of<Kokkos::LayoutLeft>(std::vector<double>{nan, nan});
  ExKokkos::exmult(0.0, w, 2.0, y, y);
  Kokkos::fence();
  EXPECT_TRUE(same_bits(w(0), 4.5));
  EXPECT_TRUE(same_bits(w(1), 8.0));
  ExKokkos::exmult(-1.0, w, 0.0, x, x);
  Kokkos::fence();
  EXPECT_TRUE(same_bits(w(0), -4.5));
}

template <class Space>
void refusals() {
  using M = Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  using V = Kokkos::View<double*, Kokkos::HostSpace>;
  M X("X", 5, 3), Y("Y", 5, 3), rows("rows", 4, 3), cols("cols", 5, 2);
  V x("x", 5), y("y", 5), a4("a4", 4), x4("x4", 4);
  Kokkos::deep_copy(X, 1.0);
  Kokkos::deep_copy(Y, 2.0);
  Kokkos::deep_copy(y, 3.0);
  const Space s;
  expect_refused(
      "exabs rows", [&] { ExKokkos::exabs(s, Y, rows); }, Y, rows);
  expect_refused(
      "exabs columns", [&] { ExKokkos::exabs(s, Y, cols); }, Y, cols);
  expect_refused(
      "exreciprocal columns", [&] { ExKokkos::exreciprocal(s, cols, X); }, cols, X);
  expect_refused(
      "exupdate x", [&] { ExKokkos::exupdate(s, 1.0, cols, 1.0, X, 1.0, Y); }, Y);
  expect_refused(
      "exupdate y", [&] { ExKokkos::exupdate(s, 1.0, X, 1.0, rows, 1.0, Y); }, Y);
  expect_refused(
      "exupdate rank 1", [&] { ExKokkos::exupdate(s, 1.0, x, 1.0, x4, 1.0, y); }, y);
  expect_refused(
      "exmult A", [&] { ExKokkos::exmult(s, 1.0, Y, 1.0, a4, X); }, Y);
  expect_refused(
      "exmult X", [&] { ExKokkos::exmult(s, 1.0, Y, 1.0, x, cols); }, Y);
  expect_refused(
      "exmult rank 1", [&] { ExKokkos::exmult(s, 1.0, y, 1.0, x, x4); }, y);
  expect_refused(
      "exaxpby columns", [&] { ExKokkos::exaxpby(s, 1.0, cols, 1.0, Y); }, Y);
  expect_refused(
      "exaxpy rows", [&] { ExKokkos::exaxpy(s, 1.0, rows, Y); }, Y);
  expect_refused(
      "exscal columns", [&] { ExKokkos::exscal(s, Y, 2.0, cols); }, Y);
  expect_refused(
      "exinvscal rows", [&] { ExKokkos::exinvscal(s, Y, 2.0, rows); }, Y);
}

TEST(Level1More, WrongShapesAreRefusedBeforeWriting) {
  refusals<Kokkos::Serial>();
  refusals<Host>();
}

}  // namespace Level1MoreSuite
}  // namespace
