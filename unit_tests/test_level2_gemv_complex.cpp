// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// exgemv on Kokkos::complex<double> and Kokkos::complex<float> against the MPFR oracle, bit for
// bit: each part of y_i is the exact value of Kokkos::complex's formula for alpha S_i + beta y_i
// (S_i = sum_k op(A)_ik x_k exactly, op(A) = A, A^T or, for "C", the conjugate transpose),
// rounded once. Data from the real suites' generators in every part (wide ranges, cancellation,
// ties), coefficients from ordinary to purely real, purely imaginary, zero and out of TwoProd's
// range; outputs built to land on rounding ties after the two parts of S_i cancel in alpha S_i
// (which no compensated certificate can round); every trans, three layouts, Kokkos::Serial and
// the default host space under each schedule, team, league, accumulator and expansion size, and
// with the inner index permuted (ctest runs it with 1, 2 and 3 threads); in a GPU build the
// default execution space as well, under its schedules. Then IEEE special
// values, BLAS' zero rules, and wrong arguments refused with y untouched.
#include <ExKokkos.hpp>

#include <ExKokkosTest_GemvOracle.hpp>
#include <ExKokkosTest_Generators.hpp>

#include "ExKokkosTest_Complex.hpp"
#include "ExKokkosTest_HostMatrix.hpp"
#include "ExKokkosTest_Views.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {
namespace GemvComplexSuite {

using ExKokkosTest::describe;
using ExKokkosTest::same_bits;
using Host = Kokkos::DefaultHostExecutionSpace;
template <class T>
using C = Kokkos::complex<T>;

// A dense host copy: a[i][k] = A(i, k).
template <class T>
using Dense = std::vector<std::vector<C<T>>>;

// The oracle of one output (ExKokkosTest_Complex.hpp).
template <class T>
C<T> oracle_entry(char trans, const Dense<T>& a, std::size_t i, const std::vector<C<T>>& x,
                  C<T> alpha, C<T> beta, C<T> y) {
  return ExKokkosTest::exact_gemv_entry(trans, a, i, x, alpha, beta, y);
}

template <class T, class Layout>
typename ExKokkosTest::HostMatrix<C<T>, Layout>::type matrix_of(const Dense<T>& a,
                                                                std::size_t cols) {
  const auto m = ExKokkosTest::HostMatrix<C<T>, Layout>::make(a.size(), cols);
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t k = 0; k < cols; ++k) m(i, k) = a[i][k];
  return m;
}

// Runs exgemv on `space` with `options`; returns y.
template <class T, class Layout, class Space>
std::vector<C<T>> run_gemv(const Space& space, const ExKokkos::Options& options, char trans,
                           const Dense<T>& a, std::size_t cols, const std::vector<C<T>>& x,
                           C<T> alpha, C<T> beta, const std::vector<C<T>>& y0) {
  const auto A = ExKokkosTest::space_copy<Space>(matrix_of<T, Layout>(a, cols));
  const auto xv = ExKokkosTest::space_copy<Space>(ExKokkosTest::vector_of<Layout>(x));
  const auto yh = ExKokkosTest::vector_of<Layout>(y0);
  const auto yv = ExKokkosTest::space_copy<Space>(yh);
  const char t[2] = {trans, '\0'};
  ExKokkos::exgemv(space, t, alpha, A, xv, beta, yv, options);
  space.fence();
  ExKokkosTest::copy_span(yh, yv);
  std::vector<C<T>> y(y0.size());
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = yh(i);
  return y;
}

template <class T>
std::vector<C<T>> oracle(char trans, const Dense<T>& a, const std::vector<C<T>>& x, C<T> alpha,
                         C<T> beta, const std::vector<C<T>>& y0) {
  std::vector<C<T>> want(y0.size());
  for (std::size_t i = 0; i < y0.size(); ++i)
    want[i] = oracle_entry(trans, a, i, x, alpha, beta, y0[i]);
  return want;
}

template <class T>
void compare(const std::vector<C<T>>& got, const std::vector<C<T>>& want, char trans,
             const std::string& what, int& failures) {
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!same_bits(got[i], want[i]) && ++failures <= 10)
      ADD_FAILURE() << what << " trans " << trans << " y(" << i << ") = " << describe(got[i])
                    << ", expected " << describe(want[i]);
}

// Runs exgemv on `space` with `options` and compares every output with the oracle.
template <class T, class Layout, class Space>
void check_gemv(const Space& space, const ExKokkos::Options& options, char trans, const Dense<T>& a,
                std::size_t cols, const std::vector<C<T>>& x, C<T> alpha, C<T> beta,
                const std::vector<C<T>>& y0, const std::string& what, int& failures) {
  compare(run_gemv<T, Layout>(space, options, trans, a, cols, x, alpha, beta, y0),
          oracle(trans, a, x, alpha, beta, y0), trans, what, failures);
}

template <class T>
void oracle_sweep(int& failures) {
  ExKokkosTest::Rng rng(4711);
  const std::vector<std::pair<std::size_t, std::size_t>> shapes{{0, 3},  {3, 0},  {1, 1},  {5, 7},
                                                                {40, 3}, {3, 40}, {33, 17}};
  const auto coeff = ExKokkosTest::matrix_coefficients<T>();
  std::size_t c = 0;
  for (const auto& g : ExKokkosTest::sum_generators()) {
    if (!ExKokkosTest::finite_generator(g)) continue;
    for (const auto& [m, n] : shapes) {
      for (const char trans : {'N', 'T', 'C'}) {
        const std::size_t rows = trans == 'N' ? m : n, cols = trans == 'N' ? n : m;
        const auto re = ExKokkosTest::parts_from<T>(g, rows * cols + 1, rng);
        const auto im = ExKokkosTest::parts_from<T>(g, rows * cols + 1, rng);
        Dense<T> a(rows, std::vector<C<T>>(cols));
        for (std::size_t i = 0; i < rows; ++i)
          for (std::size_t k = 0; k < cols; ++k)
            a[i][k] = C<T>(re[i * cols + k], im[(i * 7 + k * 3) % (rows * cols + 1)]);
        const auto xr = ExKokkosTest::parts_from<T>(g, n + 1, rng),
                   xi = ExKokkosTest::parts_from<T>(g, n + 1, rng);
        const auto yr = ExKokkosTest::parts_from<T>(g, m + 1, rng),
                   yi = ExKokkosTest::parts_from<T>(g, m + 1, rng);
        std::vector<C<T>> x(n), y(m);
        for (std::size_t k = 0; k < n; ++k) x[k] = C<T>(xr[k], xi[k]);
        for (std::size_t i = 0; i < m; ++i) y[i] = C<T>(yr[i], yi[i]);
        const C<T> alpha = coeff[c % coeff.size()], beta = coeff[(c * 3 + 1) % coeff.size()];
        ++c;
        const std::string what = g.name + " " + std::to_string(m) + "x" + std::to_string(n) +
                                 " alpha " + describe(alpha) + " beta " + describe(beta);
        check_gemv<T, Kokkos::LayoutLeft>(Host(), {}, trans, a, cols, x, alpha, beta, y, what,
                                          failures);
        check_gemv<T, Kokkos::LayoutRight>(Kokkos::Serial(), {}, trans, a, cols, x, alpha, beta, y,
                                           what + " (Serial, LayoutRight)", failures);
        check_gemv<T, Kokkos::LayoutStride>(Host(), {}, trans, a, cols, x, alpha, beta, y,
                                            what + " (strided)", failures);
        if constexpr (ExKokkosTest::default_space_is_a_device()) {
          check_gemv<T, Kokkos::LayoutLeft>(Kokkos::DefaultExecutionSpace(), {}, trans, a, cols, x,
                                            alpha, beta, y, what + " (default space)", failures);
          check_gemv<T, Kokkos::LayoutStride>(Kokkos::DefaultExecutionSpace(), {}, trans, a, cols,
                                              x, alpha, beta, y, what + " (default space, strided)",
                                              failures);
        }
      }
    }
  }
}

TEST(GemvComplex, EveryPartIsTheExactValueRoundedOnceDouble) {
  int failures = 0;
  oracle_sweep<double>(failures);
  EXPECT_EQ(failures, 0);
}

TEST(GemvComplex, EveryPartIsTheExactValueRoundedOnceFloat) {
  int failures = 0;
  oracle_sweep<float>(failures);
  EXPECT_EQ(failures, 0);
}

// Rows whose two sum parts agree, so that with alpha = s (1 + i) re(alpha S) = s (re S - im S)
// cancels to the small designed difference d, and beta y puts the exact value on a tie (or just
// beside one) between two doubles: the compensated parts carry an uncertainty, so only the exact
// pass can round these (the tie to even).
TEST(GemvComplex, TiesAfterTheSumPartsCancel) {
  ExKokkosTest::Rng rng(991);
  std::uniform_int_distribution<int> exponent(-40, 40);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int failures = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = 2 + std::size_t(trial % 37);
    Dense<double> a(1, std::vector<C<double>>(n));
    std::vector<C<double>> x(n);
    for (std::size_t k = 0; k + 1 < n; ++k) {
      const double v = std::ldexp(u(rng), exponent(rng));
      a[0][k] = C<double>(v, v);  // equal parts: re S and im S agree on these terms
      x[k] = C<double>(std::ldexp(u(rng), exponent(rng)), 0.0);
    }
    const double s = std::ldexp(1.0, exponent(rng));
    const int half_ulp = -53 + (trial % 5) - 2;  // the difference d: a tie or a bit beside it
    a[0][n - 1] = C<double>(std::ldexp(1.0, half_ulp), 0.0);
    x[n - 1] = C<double>(1.0, 0.0);
    // y: the value whose half ulp d is; beta = 1 / s keeps beta y beside s d.
    const std::vector<C<double>> y{C<double>(std::ldexp(1.0 + (trial % 3) * 0x1p-52, 0), 0.5)};
    const C<double> alpha(s, s), beta(s, 0.0);
    for (const char trans : {'N', 'T', 'C'}) {
      Dense<double> at = a;
      if (trans != 'N') {
        at.assign(n, std::vector<C<double>>(1));
        for (std::size_t k = 0; k < n; ++k)
          at[k][0] = trans == 'C' ? Kokkos::conj(a[0][k]) : a[0][k];
      }
      check_gemv<double, Kokkos::LayoutLeft>(Host(), {}, trans, at, trans == 'N' ? n : 1, x, alpha,
                                             beta, y, "tie trial " + std::to_string(trial),
                                             failures);
    }
  }
  EXPECT_EQ(failures, 0);
}

// Every schedule, under team sizes from one thread to the widest the host allows, league sizes
// from one team to more teams than outputs, 1 to 8 long accumulators per team and every expansion
// size, gives the oracle's bits, on the default host space and on Serial; so does the inner index
// permuted (the columns of op(A) and the elements of x moved together). A's real parts and x's
// imaginary parts spread over 2^+-30 (float: 2^+-12), so that the four part sums of a row differ
// widely in size.
template <class T>
void schedules_and_tuning(std::uint64_t seed) {
  ExKokkosTest::Rng rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int spread = sizeof(T) == sizeof(float) ? 12 : 30;
  const auto wide = [&](int range) { return T(std::ldexp(u(rng), int(range * u(rng)))); };
  const std::size_t m = 45, n = 70;
  const int widest = ExKokkosTest::widest_team<Host>();
  struct Setting {
    int team, league, copies, expansion;
  };
  const std::vector<Setting> settings{{0, 0, 0, 0},      {1, 1, 1, 2},        {2, 3, 2, 3},
                                      {widest, 7, 4, 4}, {widest, 200, 8, 8}, {1, 64, 0, 6}};
  for (const char trans : {'N', 'T', 'C'}) {
    const std::size_t rows = trans == 'N' ? m : n, cols = trans == 'N' ? n : m;
    Dense<T> a(rows, std::vector<C<T>>(cols));
    for (auto& row : a)
      for (auto& e : row) e = C<T>(wide(spread), wide(2));
    std::vector<C<T>> x(n), y(m);
    for (auto& v : x) v = C<T>(wide(2), wide(spread));
    for (auto& v : y) v = C<T>(wide(2), wide(2));
    const C<T> alpha(T(1.5), T(-2)), beta(T(0.5), T(0.25));
    const auto want = oracle(trans, a, x, alpha, beta, y);
    int failures = 0;
    for (const auto schedule :
         {ExKokkos::Schedule::automatic, ExKokkos::Schedule::output_lanes,
          ExKokkos::Schedule::inner_lanes, ExKokkos::Schedule::team_per_output,
          ExKokkos::Schedule::output_block}) {
      for (const Setting& s : settings) {
        ExKokkos::Options o;
        o.schedule = schedule;
        o.team_size = std::min(s.team, widest);
        o.league_size = s.league;
        o.accumulators_per_team = s.copies;
        o.expansion_size = s.expansion;
        const std::string what = "schedule " + std::to_string(int(schedule)) + " team " +
                                 std::to_string(o.team_size) + " league " +
                                 std::to_string(s.league) + " copies " + std::to_string(s.copies) +
                                 " expansion " + std::to_string(s.expansion);
        compare(run_gemv<T, Kokkos::LayoutLeft>(Host(), o, trans, a, cols, x, alpha, beta, y), want,
                trans, what, failures);
        o.team_size = std::min(o.team_size, ExKokkosTest::widest_team<Kokkos::Serial>());
        compare(run_gemv<T, Kokkos::LayoutRight>(Kokkos::Serial(), o, trans, a, cols, x, alpha,
                                                 beta, y),
                want, trans, what + " Serial", failures);
      }
    }
    // The default execution space where it is a device: its schedules, team sizes up to a few
    // warps.
    if constexpr (ExKokkosTest::default_space_is_a_device()) {
      using Device = Kokkos::DefaultExecutionSpace;
      const int device_widest = ExKokkosTest::widest_team<Device>();
      for (const auto schedule : ExKokkosTest::gemv_schedules<Device>())
        for (const Setting& s : settings) {
          ExKokkos::Options o;
          o.schedule = schedule;
          o.team_size = std::min(s.team == widest ? device_widest : s.team, device_widest);
          o.league_size = s.league;
          o.accumulators_per_team = s.copies;
          o.expansion_size = s.expansion;
          compare(run_gemv<T, Kokkos::LayoutLeft>(Device(), o, trans, a, cols, x, alpha, beta, y),
                  want, trans,
                  "default space, schedule " + std::to_string(int(schedule)) + " team " +
                      std::to_string(o.team_size),
                  failures);
        }
    }
    // The inner index permuted.
    std::vector<std::size_t> perm(n);
    std::iota(perm.begin(), perm.end(), std::size_t(0));
    std::shuffle(perm.begin(), perm.end(), rng);
    Dense<T> pa = a;
    std::vector<C<T>> px(n);
    for (std::size_t k = 0; k < n; ++k) {
      px[k] = x[perm[k]];
      for (std::size_t i = 0; i < m; ++i) {
        if (trans == 'N')
          pa[i][k] = a[i][perm[k]];
        else
          pa[k][i] = a[perm[k]][i];
      }
    }
    compare(run_gemv<T, Kokkos::LayoutLeft>(Host(), {}, trans, pa, cols, px, alpha, beta, y), want,
            trans, "inner index permuted", failures);
    EXPECT_EQ(failures, 0) << "trans " << trans;
  }
}

TEST(GemvComplex, EveryScheduleTeamAndLeagueSizeGivesTheSameBitsDouble) {
  schedules_and_tuning<double>(17);
}

TEST(GemvComplex, EveryScheduleTeamAndLeagueSizeGivesTheSameBitsFloat) {
  schedules_and_tuning<float>(18);
}

// IEEE special values: where a NaN or an infinity takes part, each part is what Kokkos::complex's
// operators give on the same formula (a finite part stays finite: its value is the oracle's
// business, checked above). Note that 0 * inf is NaN, so alpha = 1 + 0i times an infinite S, or
// beta = 1 + 0i times an infinite y, has NaN parts, as the operators give. And BLAS' rules: beta
// == 0 does not read y; alpha == 0 reads neither A nor x.
TEST(GemvComplex, SpecialValuesFollowIeee) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  using V = Kokkos::View<C<double>*, Kokkos::HostSpace>;
  using M = Kokkos::View<C<double>**, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  M A("A", 2, 2);
  V x("x", 2), y("y", 2);
  const auto reset = [&]() {
    A(0, 0) = C<double>(1, 2);
    A(0, 1) = C<double>(-3, 0.5);
    A(1, 0) = C<double>(0.25, -1);
    A(1, 1) = C<double>(2, 2);
    x(0) = C<double>(1, -1);
    x(1) = C<double>(0.5, 4);
    y(0) = C<double>(nan, nan);
    y(1) = C<double>(inf, -inf);
  };
  // exgemv against the operators' evaluation of alpha op(A) x + beta y, part by part.
  const auto check = [&](const char* trans, C<double> alpha, C<double> beta,
                         const std::string& what) {
    std::vector<C<double>> want(2);
    for (int i = 0; i < 2; ++i) {
      C<double> s(0, 0);
      for (int k = 0; k < 2; ++k) {
        const C<double> a = trans[0] == 'N' ? A(i, k) : A(k, i);
        s += (trans[0] == 'C' ? Kokkos::conj(a) : a) * C<double>(x(k));
      }
      want[i] = beta == C<double>(0, 0) ? alpha * s : alpha * s + beta * C<double>(y(i));
    }
    ExKokkos::exgemv(Host(), trans, alpha, A, x, beta, y);
    const auto same = [](double got, double w) {
      return std::isnan(w) ? std::isnan(got) : std::isinf(w) ? got == w : std::isfinite(got);
    };
    for (int i = 0; i < 2; ++i)
      EXPECT_TRUE(same(y(i).real(), want[i].real()) && same(y(i).imag(), want[i].imag()))
          << what << ": y(" << i << ") = " << describe(C<double>(y(i))) << ", the operators give "
          << describe(want[i]);
  };
  reset();  // beta == 0: y's NaN and infinities are not read
  check("N", C<double>(1, 0), C<double>(0, 0), "beta 0");
  reset();  // alpha == 0: A's NaN is not read; y = beta y exactly
  A(0, 0) = C<double>(nan, 0);
  y(0) = C<double>(1, 2);
  y(1) = C<double>(3, -1);
  ExKokkos::exgemv(Host(), "N", C<double>(0, 0), A, x, C<double>(2, 0), y);
  EXPECT_TRUE(same_bits(C<double>(y(0)), C<double>(2, 4))) << describe(C<double>(y(0)));
  EXPECT_TRUE(same_bits(C<double>(y(1)), C<double>(6, -2))) << describe(C<double>(y(1)));
  reset();  // a NaN in A reaches both parts of its row's S
  A(0, 1) = C<double>(nan, 0);
  y(0) = y(1) = C<double>(1, 1);
  check("N", C<double>(1, 0), C<double>(1, 0), "NaN in A");
  for (const char* trans : {"N", "T", "C"}) {
    reset();  // an infinity in x: infinite and NaN parts of S, alpha's zero part meets them
    x(0) = C<double>(inf, 0);
    y(0) = y(1) = C<double>(1, 1);
    check(trans, C<double>(1, 0), C<double>(1, 0), std::string("inf in x, ") + trans);
    reset();  // an infinite alpha with finite S
    y(0) = y(1) = C<double>(0, 0);
    check(trans, C<double>(0, inf), C<double>(1, 0), std::string("alpha 0 + inf i, ") + trans);
    reset();  // infinite and NaN parts of y with beta != 0
    y(1) = C<double>(1, nan);
    check(trans, C<double>(1, 1), C<double>(0.5, 0), std::string("inf/NaN y, ") + trans);
    reset();  // an infinite beta with finite y
    y(0) = C<double>(1, 0);
    y(1) = C<double>(0, -2);
    check(trans, C<double>(1, 1), C<double>(-inf, 0), std::string("beta -inf, ") + trans);
  }
}

// Wrong extents and trans throw std::invalid_argument naming the routine before y is written.
TEST(GemvComplex, BadArgumentsWriteNothing) {
  using V = Kokkos::View<C<double>*, Kokkos::HostSpace>;
  using M = Kokkos::View<C<double>**, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  M A("A", 3, 4);
  V x("x", 3), y("y", 3);
  for (int i = 0; i < 3; ++i) y(i) = C<double>(i + 0.5, -i);
  const auto expect_refused = [&](auto call, const std::string& what) {
    try {
      call();
      ADD_FAILURE() << what << ": no exception";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("ExKokkos::exgemv"), std::string::npos) << e.what();
    }
    for (int i = 0; i < 3; ++i)
      EXPECT_TRUE(same_bits(C<double>(y(i)), C<double>(i + 0.5, -i))) << what;
  };
  expect_refused(
      [&]() { ExKokkos::exgemv(Host(), "N", C<double>(1, 0), A, x, C<double>(0, 0), y); },
      "N with x of 3 for A 3 x 4");
  expect_refused(
      [&]() { ExKokkos::exgemv(Host(), "C", C<double>(1, 0), A, x, C<double>(1, 0), y); },
      "C with y of 3 for A^H 4 x 3");
  V x4("x4", 4);
  expect_refused(
      [&]() { ExKokkos::exgemv(Host(), "Q", C<double>(1, 0), A, x4, C<double>(1, 0), y); },
      "trans Q");
}

}  // namespace GemvComplexSuite
}  // namespace
