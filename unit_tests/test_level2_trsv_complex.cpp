// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// extrsv and extrsm on Kokkos::complex<double> and Kokkos::complex<float>, against the MPFR oracle
// bit for bit, from the definition: x_i = RN(RN(S_i) / op(A)_ii) with S_i = b_i - sum_j op(A)_ij
// x_j exact, each part of RN(S_i) its exact sum rounded once, and each part of the quotient the
// exact quotient of its exact numerator and |op(A)_ii|^2 rounded once (RN(S_i) with a unit
// diagonal). The twelve variants (uplo L/U, trans N/T/C, diag N/U) with the unread triangle
// (and a unit diagonal) holding NaN; three layouts of A, strided b; sizes 0 to 150, across
// several diagonal blocks; Serial and the default host space (ctest: 1 to 3 threads) under every
// schedule, block, team, league and expansion size, and in a GPU build the default execution
// space; refinement against the oracle's own refinement (exact residual, solve, one addition a
// part); zero and NaN diagonals; extrsm on both sides (side R with trans "C" solves with conj(A))
// with a complex alpha; refused arguments.
#include <ExKokkos.hpp>

#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_Complex.hpp"
#include "ExKokkosTest_HostMatrix.hpp"
#include "ExKokkosTest_Views.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {
namespace TrsvComplexSuite {

using ExKokkosTest::describe;
using ExKokkosTest::ExactSum;
using ExKokkosTest::rounded;
using ExKokkosTest::same_bits;
using Host = Kokkos::DefaultHostExecutionSpace;
template <class T>
using C = Kokkos::complex<T>;
template <class T>
using Dense = std::vector<std::vector<C<T>>>;  // a[i][j]

// trans 'K' (the oracle's only): conj(A), not transposed, as extrsm's side R solves with for "C".
struct Variant {
  char uplo, trans, diag;
  bool lower_op() const { return (uplo == 'L') == (trans == 'N' || trans == 'K'); }
  std::string name() const { return std::string(1, uplo) + trans + diag; }
};

std::vector<Variant> all_variants() {
  std::vector<Variant> v;
  for (char u : {'L', 'U'})
    for (char t : {'N', 'T', 'C'})
      for (char d : {'N', 'U'}) v.push_back({u, t, d});
  return v;
}

// The parts of op(A)(i, j).
template <class T>
void op_parts(const Dense<T>& a, char trans, std::size_t i, std::size_t j, double& re, double& im) {
  const bool transposed = trans == 'T' || trans == 'C';
  const C<T> v = transposed ? a[j][i] : a[i][j];
  re = v.real();
  im = (trans == 'C' || trans == 'K') ? -double(v.imag()) : double(v.imag());
}

// The definition, with the oracle (shares no code with ExKokkos).
template <class T>
std::vector<C<T>> defined_solution(const Variant& v, const Dense<T>& a, std::vector<C<T>> b) {
  const auto op = [&](std::size_t i, std::size_t j, double& re, double& im) {
    op_parts(a, v.trans, i, j, re, im);
  };
  ExKokkosTest::exact_complex_substitution(op, b.size(), b, v.lower_op(), v.diag == 'U');
  return b;
}

// The refinement, with the oracle: r = RN(b - op(A) x) part by part from exact sums, d the
// defined solution for r, x = x + d (one IEEE addition a part), until x stops changing.
template <class T>
std::vector<C<T>> refined_solution(const Variant& v, const Dense<T>& a, const std::vector<C<T>>& b,
                                   int most, int& steps) {
  const std::size_t n = b.size();
  std::vector<C<T>> x = defined_solution(v, a, b);
  steps = 0;
  while (steps < most) {
    std::vector<C<T>> r(n);
    for (std::size_t i = 0; i < n; ++i) {
      ExactSum re, im;
      re.add(b[i].real());
      im.add(b[i].imag());
      for (std::size_t j = 0; j < n; ++j) {
        if (v.lower_op() ? j > i : j < i) continue;
        double tr = 1.0, ti = 0.0;
        if (j != i || v.diag == 'N') op_parts(a, v.trans, i, j, tr, ti);
        re.add_product(-tr, x[j].real());
        re.add_product(ti, x[j].imag());
        im.add_product(-ti, x[j].real());
        im.add_product(-tr, x[j].imag());
      }
      r[i] = C<T>(rounded<T>(re), rounded<T>(im));
    }
    const std::vector<C<T>> d = defined_solution(v, a, r);
    bool changed = false;
    for (std::size_t i = 0; i < n; ++i) {
      const C<T> updated(x[i].real() + d[i].real(), x[i].imag() + d[i].imag());
      if (!(updated == x[i])) changed = true;
      x[i] = updated;
    }
    ++steps;
    if (!changed) break;
  }
  return x;
}

// A triangle for variant v: diagonal of modulus in [1, 2) at a random angle, off-diagonal parts
// U[-1, 1) 2^e / n with e in [-spread, spread]; the other triangle, and the diagonal when unit,
// hold NaN (never read).
template <class T>
Dense<T> random_triangle(const Variant& v, std::size_t n, int spread, ExKokkosTest::Rng& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_int_distribution<int> e(-spread, spread);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  Dense<T> a(n, std::vector<C<T>>(n, C<T>(nan, nan)));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) {
        if (v.diag == 'N') {
          const double r = 1.5 + 0.5 * u(rng), angle = 3.14159 * u(rng);
          a[i][j] = C<T>(T(r * std::cos(angle)), T(r * std::sin(angle)));
        }
      } else if (v.uplo == 'L' ? j < i : j > i) {
        a[i][j] = C<T>(T(std::ldexp(u(rng), e(rng)) / double(n)),
                       T(std::ldexp(u(rng), e(rng)) / double(n)));
      }
    }
  return a;
}

// extrsv of b on `space` with A in Layout and b strided: the solution and the steps returned.
template <class T, class Layout, class Space>
std::vector<C<T>> run(const Space& space, const Variant& v, const Dense<T>& a,
                      const std::vector<C<T>>& b, const ExKokkos::Options& options,
                      int* steps = nullptr) {
  const std::size_t n = b.size();
  auto host_a = ExKokkosTest::HostMatrix<C<T>, Layout>::make(n, n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) host_a(i, j) = a[i][j];
  const auto A = ExKokkosTest::space_copy<Space>(host_a);
  const auto x = ExKokkosTest::space_copy<Space>(ExKokkosTest::vector_of<Kokkos::LayoutStride>(b));
  const char uplo[2] = {v.uplo, 0}, trans[2] = {v.trans, 0}, diag[2] = {v.diag, 0};
  const int s = ExKokkos::extrsv(space, uplo, trans, diag, A, x, options);
  if (steps != nullptr) *steps = s;
  return ExKokkosTest::to_host(x);
}

template <class T>
void compare(const std::vector<C<T>>& got, const std::vector<C<T>>& want, const std::string& what,
             int& failures) {
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!same_bits(got[i], want[i]) && ++failures <= 10)
      ADD_FAILURE() << what << ": x(" << i << ") = " << describe(got[i]) << ", expected "
                    << describe(want[i]);
}

// b's parts from a generator (finite ones), or spread over 2^+-spread.
template <class T>
std::vector<C<T>> rhs_from(const ExKokkosTest::NamedSumGenerator& g, std::size_t n,
                           ExKokkosTest::Rng& rng) {
  const auto re = ExKokkosTest::parts_from<T>(g, n, rng),
             im = ExKokkosTest::parts_from<T>(g, n, rng);
  std::vector<C<T>> b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = C<T>(re[i], im[i]);
  return b;
}

// Every variant, size and layout, with right-hand sides from every finite generator, against the
// definition; on Serial and the default host space.
template <class T>
void against_the_oracle(std::uint64_t seed) {
  ExKokkosTest::Rng rng(seed);
  int failures = 0;
  const auto generators = ExKokkosTest::sum_generators();
  for (const std::size_t n :
       {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(17), std::size_t(150)}) {
    for (const Variant& v : all_variants()) {
      const Dense<T> a = random_triangle<T>(v, n, sizeof(T) == 4 ? 10 : 30, rng);
      std::size_t used = 0;
      for (const auto& g : generators) {
        if (!ExKokkosTest::finite_generator(g)) continue;
        // Every generator at the small sizes, a few at the largest (the oracle is O(n^2) MPFR).
        if (n >= 150 && used++ % 4 != 0) continue;
        const auto b = rhs_from<T>(g, n, rng);
        const auto want = defined_solution(v, a, b);
        const std::string what = v.name() + " n = " + std::to_string(n) + " " + g.name;
        compare(run<T, Kokkos::LayoutLeft>(Host(), v, a, b, {}), want, what + " LayoutLeft",
                failures);
        compare(run<T, Kokkos::LayoutRight>(Kokkos::Serial(), v, a, b, {}), want,
                what + " LayoutRight Serial", failures);
        compare(run<T, Kokkos::LayoutStride>(Host(), v, a, b, {}), want, what + " LayoutStride",
                failures);
        if constexpr (ExKokkosTest::default_space_is_a_device())
          compare(run<T, Kokkos::LayoutLeft>(Kokkos::DefaultExecutionSpace(), v, a, b, {}), want,
                  what + " default space", failures);
      }
    }
  }
  EXPECT_EQ(failures, 0);
}

TEST(TrsvComplex, DoubleAgainstTheOracle) {
  against_the_oracle<double>(71);
}
TEST(TrsvComplex, FloatAgainstTheOracle) {
  against_the_oracle<float>(72);
}

// Every schedule with block sizes from one row to more than n, team sizes from one thread to the
// widest, league sizes 1 to 200 and expansion sizes 2 to 8 gives the definition's bits, on the
// default host space and Serial, and in a GPU build on the default execution space.
template <class T>
void schedules_and_blocks(std::uint64_t seed) {
  ExKokkosTest::Rng rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int spread = sizeof(T) == 4 ? 12 : 30;
  const std::size_t n = 70;
  const int widest = ExKokkosTest::widest_team<Host>();
  struct Setting {
    int block, team, league, expansion;
  };
  const std::vector<Setting> settings{{0, 0, 0, 0},       {1, 1, 1, 2},         {3, 2, 3, 3},
                                      {16, widest, 7, 4}, {64, widest, 200, 8}, {200, 1, 64, 6}};
  int failures = 0;
  for (const char trans : {'N', 'C'}) {
    for (const char uplo : {'L', 'U'}) {
      const Variant v{uplo, trans, 'N'};
      const Dense<T> a = random_triangle<T>(v, n, spread, rng);
      std::vector<C<T>> b(n);
      for (auto& e : b)
        e = C<T>(T(std::ldexp(u(rng), int(spread * u(rng)))), T(std::ldexp(u(rng), 2)));
      const auto want = defined_solution(v, a, b);
      for (const auto schedule : ExKokkosTest::gemv_schedules<Host>())
        for (const Setting& s : settings) {
          ExKokkos::Options o;
          o.schedule = schedule;
          o.block_size = s.block;
          o.team_size = std::min(s.team, widest);
          o.league_size = s.league;
          o.expansion_size = s.expansion;
          const std::string what = v.name() + " schedule " + std::to_string(int(schedule)) +
                                   " block " + std::to_string(s.block) + " team " +
                                   std::to_string(o.team_size) + " league " +
                                   std::to_string(s.league);
          compare(run<T, Kokkos::LayoutLeft>(Host(), v, a, b, o), want, what, failures);
          o.team_size = std::min(o.team_size, ExKokkosTest::widest_team<Kokkos::Serial>());
          compare(run<T, Kokkos::LayoutRight>(Kokkos::Serial(), v, a, b, o), want, what + " Serial",
                  failures);
        }
      if constexpr (ExKokkosTest::default_space_is_a_device()) {
        using Device = Kokkos::DefaultExecutionSpace;
        for (const auto schedule : ExKokkosTest::gemv_schedules<Device>())
          for (const Setting& s : settings) {
            ExKokkos::Options o;
            o.schedule = schedule;
            o.block_size = s.block;
            o.team_size = std::min(s.team, ExKokkosTest::widest_team<Device>());
            o.league_size = s.league;
            o.expansion_size = s.expansion;
            compare(run<T, Kokkos::LayoutLeft>(Device(), v, a, b, o), want,
                    v.name() + " default space, schedule " + std::to_string(int(schedule)) +
                        " block " + std::to_string(s.block),
                    failures);
          }
      }
    }
  }
  EXPECT_EQ(failures, 0);
}

TEST(TrsvComplex, EveryScheduleBlockTeamAndLeagueSizeGivesTheSameBitsDouble) {
  schedules_and_blocks<double>(81);
}
TEST(TrsvComplex, EveryScheduleBlockTeamAndLeagueSizeGivesTheSameBitsFloat) {
  schedules_and_blocks<float>(82);
}

// Refinement: the oracle's own refinement, bit for bit, and the same number of steps, with
// triangles ill-conditioned enough (large off-diagonal parts) that the steps change x.
template <class T>
void refinement() {
  ExKokkosTest::Rng rng(sizeof(T) == 4 ? 91 : 92);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int failures = 0, corrected = 0;  // cases where a step changed x
  for (const Variant& v : all_variants()) {
    const std::size_t n = 40;
    Dense<T> a = random_triangle<T>(v, n, 2, rng);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        if (i != j && (v.uplo == 'L' ? j < i : j > i)) a[i][j] = a[i][j] * T(double(n) * 4);
    std::vector<C<T>> b(n);
    for (auto& e : b) e = C<T>(T(u(rng)), T(u(rng)));
    for (const int most : {1, 3}) {
      int want_steps = 0, got_steps = -1, serial_steps = -1;
      const auto want = refined_solution(v, a, b, most, want_steps);
      ExKokkos::Options o;
      o.refinement_steps = most;
      const std::string what = v.name() + " refinement " + std::to_string(most);
      compare(run<T, Kokkos::LayoutLeft>(Host(), v, a, b, o, &got_steps), want, what, failures);
      o.block_size = 7;
      compare(run<T, Kokkos::LayoutRight>(Kokkos::Serial(), v, a, b, o, &serial_steps), want,
              what + " Serial block 7", failures);
      EXPECT_EQ(got_steps, want_steps) << what;
      if (want_steps > 1) ++corrected;
      EXPECT_EQ(serial_steps, want_steps) << what;
      if constexpr (ExKokkosTest::default_space_is_a_device()) {
        int device_steps = -1;
        compare(
            run<T, Kokkos::LayoutLeft>(Kokkos::DefaultExecutionSpace(), v, a, b, o, &device_steps),
            want, what + " default space", failures);
        EXPECT_EQ(device_steps, want_steps) << what;
      }
    }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(corrected, 0) << "no refinement step changed x: the triangles test nothing";
}

TEST(TrsvComplex, RefinementIsTheOraclesRefinement) {
  refinement<double>();
  refinement<float>();
}

// IEEE special values: a zero diagonal gives RN(S) / 0 part by part (+-inf or NaN, as the exact
// numerators' N / +0), a NaN in b spreads along the solve, an infinite b likewise; the oracle's
// definition says each, with the same exact quotient rules.
template <class T>
void special_values() {
  ExKokkosTest::Rng rng(5);
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  int failures = 0;
  for (const Variant& v : {Variant{'L', 'N', 'N'}, Variant{'U', 'C', 'N'}}) {
    const std::size_t n = 6;
    Dense<T> a = random_triangle<T>(v, n, 2, rng);
    std::vector<C<T>> b(n, C<T>(T(1), T(-0.5)));
    const std::size_t first = v.lower_op() ? 2 : n - 3;
    a[first][first] = C<T>(T(0), T(0));
    for (const auto& special : {C<T>(T(1), T(-0.5)), C<T>(nan, T(0)), C<T>(T(0), inf),
                                C<T>(T(-0.0), T(0)), C<T>(T(0), T(-0.0))}) {
      auto bs = b;
      bs[v.lower_op() ? 1 : n - 2] = special;
      const auto want = defined_solution(v, a, bs);
      compare(run<T, Kokkos::LayoutLeft>(Host(), v, a, bs, {}), want,
              v.name() + " zero diagonal, b with " + describe(special), failures);
      compare(run<T, Kokkos::LayoutLeft>(Kokkos::Serial(), v, a, bs, {}), want,
              v.name() + " zero diagonal, Serial, b with " + describe(special), failures);
    }
  }
  EXPECT_EQ(failures, 0);
}

TEST(TrsvComplex, SpecialValuesFollowTheExactQuotient) {
  special_values<double>();
  special_values<float>();
}

// extrsm: side L solves each column of B, side R each row (X op(A) = alpha B is
// op(A)^T x = alpha b: trans "N" -> "T", "T" -> "N", "C" -> conj(A)), each right-hand side
// RN(alpha b) part by part (exscal's) then the definition.
template <class T>
void trsm() {
  ExKokkosTest::Rng rng(6);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int failures = 0;
  const C<T> alpha(T(0.75), T(-1.25));
  const std::size_t n = 9, m = 4;
  for (const char side : {'L', 'R'})
    for (const Variant& v : all_variants()) {
      const Dense<T> a = random_triangle<T>(v, n, 3, rng);
      const std::size_t rows = side == 'L' ? n : m, cols = side == 'L' ? m : n;
      Kokkos::View<C<T>**, Kokkos::LayoutLeft, Kokkos::HostSpace> A("A", n, n), B("B", rows, cols);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) A(i, j) = a[i][j];
      for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < cols; ++j) B(i, j) = C<T>(T(u(rng)), T(u(rng)));
      std::vector<std::vector<C<T>>> want(side == 'L' ? cols : rows);
      Variant w = v;
      if (side == 'R') w.trans = v.trans == 'N' ? 'T' : (v.trans == 'T' ? 'N' : 'K');
      for (std::size_t r = 0; r < want.size(); ++r) {
        std::vector<C<T>> rhs(n);
        for (std::size_t k = 0; k < n; ++k) {
          const C<T> e = side == 'L' ? B(k, r) : B(r, k);
          rhs[k] = ExKokkosTest::exact_combination<T>({alpha}, {e});
        }
        want[r] = defined_solution(w, a, rhs);
      }
      const char s[2] = {side, 0}, uplo[2] = {v.uplo, 0}, trans[2] = {v.trans, 0},
                 diag[2] = {v.diag, 0};
      ExKokkos::extrsm(Host(), s, uplo, trans, diag, alpha, A, B);
      for (std::size_t r = 0; r < want.size(); ++r) {
        std::vector<C<T>> got(n);
        for (std::size_t k = 0; k < n; ++k) got[k] = side == 'L' ? B(k, r) : B(r, k);
        compare(got, want[r], std::string("extrsm side ") + side + " " + v.name(), failures);
      }
    }
  EXPECT_EQ(failures, 0);
}

TEST(TrsvComplex, TrsmSolvesEachRightHandSide) {
  trsm<double>();
  trsm<float>();
}

// Refused arguments throw std::invalid_argument before anything is written; trans "H" is "C".
TEST(TrsvComplex, RefusedArgumentsWriteNothingAndHIsC) {
  using Z = C<double>;
  ExKokkosTest::Rng rng(8);
  const Variant v{'L', 'C', 'N'};
  const Dense<double> a = random_triangle<double>(v, 5, 2, rng);
  Kokkos::View<Z**, Kokkos::HostSpace> A("A", 5, 5), wide("wide", 5, 6);
  for (std::size_t i = 0; i < 5; ++i)
    for (std::size_t j = 0; j < 5; ++j) A(i, j) = a[i][j];
  Kokkos::View<Z*, Kokkos::HostSpace> b("b", 5), short_b("short", 4);
  for (std::size_t i = 0; i < 5; ++i) b(i) = Z(double(i) + 1, -0.5);
  const auto before = ExKokkosTest::to_host(b);
  EXPECT_THROW(ExKokkos::extrsv("L", "X", "N", A, b), std::invalid_argument);
  EXPECT_THROW(ExKokkos::extrsv("L", "N", "N", wide, b), std::invalid_argument);
  EXPECT_THROW(ExKokkos::extrsv("L", "N", "N", A, short_b), std::invalid_argument);
  ExKokkos::Options bad;
  bad.block_size = -1;
  EXPECT_THROW(ExKokkos::extrsv("L", "N", "N", A, b, bad), std::invalid_argument);
  int failures = 0;
  compare(ExKokkosTest::to_host(b), before, "b after refused calls", failures);
  ExKokkos::extrsv("L", "H", "N", A, b);
  compare(ExKokkosTest::to_host(b), defined_solution(v, a, before), "trans H", failures);
  EXPECT_EQ(failures, 0);
}

}  // namespace TrsvComplexSuite
}  // namespace
