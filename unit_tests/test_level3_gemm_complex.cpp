// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// exgemm on Kokkos::complex<double> and Kokkos::complex<float> against the MPFR oracle, bit for
// bit: each part of c_ij is the exact value of Kokkos::complex's formula for
// alpha sum_k op(A)_ik op(B)_kj + beta c_ij, rounded once, op = identity ("N"), transpose ("T")
// or conjugate transpose ("C") for each of A and B. Data from the real suites' generators in every
// part, coefficients from ordinary to purely imaginary, zero, and out of TwoProd's range; the nine
// trans pairs; LayoutLeft, LayoutRight and strided matrices; Kokkos::Serial and the default host
// space (ctest runs it with 1, 2 and 3 threads) under every schedule (the gemm-only ones run as
// automatic) and team, league and expansion sizes, in a GPU build the default execution space
// too; the inner index permuted. Then BLAS' zero rules, special values as the operators give
// them, and wrong arguments refused with C untouched.
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
namespace GemmComplexSuite {

using ExKokkosTest::describe;
using ExKokkosTest::same_bits;
using Host = Kokkos::DefaultHostExecutionSpace;
template <class T>
using C = Kokkos::complex<T>;
template <class T>
using Dense = std::vector<std::vector<C<T>>>;  // d[i][k]

// op(M)(i, k) for a dense M.
template <class T>
C<T> op(char trans, const Dense<T>& m, std::size_t i, std::size_t k) {
  if (trans == 'N') return m[i][k];
  return trans == 'C' ? Kokkos::conj(m[k][i]) : m[k][i];
}

// The oracle of c_ij: part 0 of S is sum re(a) re(b) - im(a) im(b), part 1 sum im(a) re(b) +
// re(a) im(b) (the gemv oracle's one row); alpha == 0 or k == 0 gives RN(beta c) alone, beta ==
// 0 does not read c.
template <class T>
C<T> oracle_entry(char ta, char tb, const Dense<T>& a, const Dense<T>& b, std::size_t i,
                  std::size_t j, std::size_t k, C<T> alpha, C<T> beta, C<T> c) {
  const C<T> zero(T(0), T(0));
  if (alpha == zero || k == 0) {
    if (beta == zero) return zero;
    return ExKokkosTest::exact_combination(std::vector<C<T>>{beta}, std::vector<C<T>>{c});
  }
  std::vector<std::vector<double>> f(2), g(2);
  for (std::size_t l = 0; l < k; ++l) {
    const C<T> x = op(ta, a, i, l), y = op(tb, b, l, j);
    f[0].insert(f[0].end(), {double(x.real()), -double(x.imag())});
    g[0].insert(g[0].end(), {double(y.real()), double(y.imag())});
    f[1].insert(f[1].end(), {double(x.imag()), double(x.real())});
    g[1].insert(g[1].end(), {double(y.real()), double(y.imag())});
  }
  const std::vector<double> cs{double(c.real()), double(c.imag())};
  const bool read_c = beta != zero, to_float = sizeof(T) == sizeof(float);
  const auto part = [&](const std::vector<double>& al, const std::vector<double>& be) {
    return T(ExKokkosTest::exact_scaled_sums(al, f, g, be, cs, read_c, to_float));
  };
  return C<T>(part({alpha.real(), -alpha.imag()}, {beta.real(), -beta.imag()}),
              part({alpha.imag(), alpha.real()}, {beta.imag(), beta.real()}));
}

template <class T, class Layout>
typename ExKokkosTest::HostMatrix<C<T>, Layout>::type matrix_of(const Dense<T>& d,
                                                                std::size_t cols) {
  const auto m = ExKokkosTest::HostMatrix<C<T>, Layout>::make(d.size(), cols);
  for (std::size_t i = 0; i < d.size(); ++i)
    for (std::size_t k = 0; k < cols; ++k) m(i, k) = d[i][k];
  return m;
}

struct Shape {
  std::size_t m, n, k;
};

// One problem: op(A) m x k, op(B) k x n, C m x n, stored as their trans asks.
template <class T>
struct Problem {
  char ta, tb;
  Shape s;
  Dense<T> a, b, c;
  C<T> alpha, beta;
  std::size_t a_cols() const { return ta == 'N' ? s.k : s.m; }
  std::size_t b_cols() const { return tb == 'N' ? s.n : s.k; }
};

template <class T, class Layout, class Space>
Dense<T> run_gemm(const Space& space, const ExKokkos::Options& options, const Problem<T>& p) {
  const auto A = ExKokkosTest::space_copy<Space>(matrix_of<T, Layout>(p.a, p.a_cols()));
  const auto B = ExKokkosTest::space_copy<Space>(matrix_of<T, Layout>(p.b, p.b_cols()));
  const auto Ch = matrix_of<T, Layout>(p.c, p.s.n);
  const auto Cm = ExKokkosTest::space_copy<Space>(Ch);
  const char ta[2] = {p.ta, '\0'}, tb[2] = {p.tb, '\0'};
  ExKokkos::exgemm(space, ta, tb, p.alpha, A, B, p.beta, Cm, options);
  space.fence();
  ExKokkosTest::copy_span(Ch, Cm);
  Dense<T> out(p.s.m, std::vector<C<T>>(p.s.n));
  for (std::size_t i = 0; i < p.s.m; ++i)
    for (std::size_t j = 0; j < p.s.n; ++j) out[i][j] = Ch(i, j);
  return out;
}

template <class T>
Dense<T> oracle(const Problem<T>& p) {
  Dense<T> want(p.s.m, std::vector<C<T>>(p.s.n));
  for (std::size_t i = 0; i < p.s.m; ++i)
    for (std::size_t j = 0; j < p.s.n; ++j)
      want[i][j] = oracle_entry(p.ta, p.tb, p.a, p.b, i, j, p.s.k, p.alpha, p.beta, p.c[i][j]);
  return want;
}

template <class T>
void compare(const Dense<T>& got, const Dense<T>& want, const std::string& what, int& failures) {
  for (std::size_t i = 0; i < want.size(); ++i)
    for (std::size_t j = 0; j < want[i].size(); ++j)
      if (!same_bits(got[i][j], want[i][j]) && ++failures <= 10)
        ADD_FAILURE() << what << ": C(" << i << ", " << j << ") = " << describe(got[i][j])
                      << ", expected " << describe(want[i][j]);
}

template <class T>
Dense<T> dense_from(const ExKokkosTest::NamedSumGenerator& g, std::size_t rows, std::size_t cols,
                    ExKokkosTest::Rng& rng) {
  const auto re = ExKokkosTest::parts_from<T>(g, rows * cols + 1, rng);
  const auto im = ExKokkosTest::parts_from<T>(g, rows * cols + 1, rng);
  Dense<T> d(rows, std::vector<C<T>>(cols));
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t k = 0; k < cols; ++k)
      d[i][k] = C<T>(re[i * cols + k], im[(i * 7 + k * 3) % (rows * cols + 1)]);
  return d;
}

template <class T>
Problem<T> make_problem(char ta, char tb, Shape s, const ExKokkosTest::NamedSumGenerator& g,
                        C<T> alpha, C<T> beta, ExKokkosTest::Rng& rng) {
  Problem<T> p{ta, tb, s, {}, {}, {}, alpha, beta};
  p.a = ta == 'N' ? dense_from<T>(g, s.m, s.k, rng) : dense_from<T>(g, s.k, s.m, rng);
  p.b = tb == 'N' ? dense_from<T>(g, s.k, s.n, rng) : dense_from<T>(g, s.n, s.k, rng);
  p.c = dense_from<T>(g, s.m, s.n, rng);
  return p;
}

template <class T>
void oracle_sweep(int& failures) {
  ExKokkosTest::Rng rng(5003);
  const std::vector<Shape> shapes{{0, 3, 2}, {3, 0, 2}, {2, 3, 0},
                                  {1, 1, 1}, {5, 4, 7}, {9, 2, 13}};
  const auto coeff = ExKokkosTest::matrix_coefficients<T>();
  std::size_t c = 0;
  for (const auto& g : ExKokkosTest::sum_generators()) {
    if (!ExKokkosTest::finite_generator(g)) continue;
    for (const Shape& s : shapes)
      for (const char ta : {'N', 'T', 'C'})
        for (const char tb : {'N', 'T', 'C'}) {
          const C<T> alpha = coeff[c % coeff.size()], beta = coeff[(c * 3 + 1) % coeff.size()];
          ++c;
          const auto p = make_problem<T>(ta, tb, s, g, alpha, beta, rng);
          const auto want = oracle(p);
          const std::string what = g.name + " " + ta + tb + " " + std::to_string(s.m) + "x" +
                                   std::to_string(s.n) + "x" + std::to_string(s.k) + " alpha " +
                                   describe(alpha) + " beta " + describe(beta);
          compare(run_gemm<T, Kokkos::LayoutLeft>(Host(), {}, p), want, what, failures);
          compare(run_gemm<T, Kokkos::LayoutRight>(Kokkos::Serial(), {}, p), want,
                  what + " (Serial, LayoutRight)", failures);
          compare(run_gemm<T, Kokkos::LayoutStride>(Host(), {}, p), want, what + " (strided)",
                  failures);
          if constexpr (ExKokkosTest::default_space_is_a_device()) {
            compare(run_gemm<T, Kokkos::LayoutLeft>(Kokkos::DefaultExecutionSpace(), {}, p), want,
                    what + " (default space)", failures);
            compare(run_gemm<T, Kokkos::LayoutStride>(Kokkos::DefaultExecutionSpace(), {}, p), want,
                    what + " (default space, strided)", failures);
          }
        }
  }
}

TEST(GemmComplex, EveryPartIsTheExactValueRoundedOnceDouble) {
  int failures = 0;
  oracle_sweep<double>(failures);
  EXPECT_EQ(failures, 0);
}

TEST(GemmComplex, EveryPartIsTheExactValueRoundedOnceFloat) {
  int failures = 0;
  oracle_sweep<float>(failures);
  EXPECT_EQ(failures, 0);
}

// Every schedule (tiles and ozaki run as automatic), under team sizes from one thread to the
// widest, league sizes from one team to more teams than outputs and every expansion size, gives
// the oracle's bits; so does the inner index permuted (the columns of op(A) and the rows of op(B)
// moved together). Wide exponents in A's real parts and B's imaginary parts.
template <class T>
void schedules_and_tuning(std::uint64_t seed) {
  ExKokkosTest::Rng rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int spread = sizeof(T) == sizeof(float) ? 12 : 30;
  const auto wide = [&](int range) { return T(std::ldexp(u(rng), int(range * u(rng)))); };
  const Shape s{21, 6, 40};
  const int widest = ExKokkosTest::widest_team<Host>();
  struct Setting {
    int team, league, expansion;
  };
  const std::vector<Setting> settings{{0, 0, 0}, {1, 1, 2}, {2, 3, 3}, {widest, 200, 8}};
  for (const char ta : {'N', 'T', 'C'})
    for (const char tb : {'N', 'C'}) {
      Problem<T> p{ta, tb, s, {}, {}, {}, C<T>(T(1.5), T(-2)), C<T>(T(0.5), T(0.25))};
      p.a.assign(ta == 'N' ? s.m : s.k, std::vector<C<T>>(ta == 'N' ? s.k : s.m));
      p.b.assign(tb == 'N' ? s.k : s.n, std::vector<C<T>>(tb == 'N' ? s.n : s.k));
      p.c.assign(s.m, std::vector<C<T>>(s.n));
      for (auto& row : p.a)
        for (auto& e : row) e = C<T>(wide(spread), wide(2));
      for (auto& row : p.b)
        for (auto& e : row) e = C<T>(wide(2), wide(spread));
      for (auto& row : p.c)
        for (auto& e : row) e = C<T>(wide(2), wide(2));
      const auto want = oracle(p);
      int failures = 0;
      for (const auto schedule :
           {ExKokkos::Schedule::automatic, ExKokkos::Schedule::output_lanes,
            ExKokkos::Schedule::inner_lanes, ExKokkos::Schedule::team_per_output,
            ExKokkos::Schedule::tiles, ExKokkos::Schedule::ozaki}) {
        for (const Setting& st : settings) {
          ExKokkos::Options o;
          o.schedule = schedule;
          o.team_size = std::min(st.team, widest);
          o.league_size = st.league;
          o.expansion_size = st.expansion;
          const std::string what =
              std::string(1, ta) + tb + " schedule " + std::to_string(int(schedule)) + " team " +
              std::to_string(o.team_size) + " league " + std::to_string(st.league) + " expansion " +
              std::to_string(st.expansion);
          compare(run_gemm<T, Kokkos::LayoutLeft>(Host(), o, p), want, what, failures);
          o.team_size = std::min(o.team_size, ExKokkosTest::widest_team<Kokkos::Serial>());
          compare(run_gemm<T, Kokkos::LayoutRight>(Kokkos::Serial(), o, p), want, what + " Serial",
                  failures);
        }
      }
      if constexpr (ExKokkosTest::default_space_is_a_device()) {
        using Device = Kokkos::DefaultExecutionSpace;
        const int device_widest = ExKokkosTest::widest_team<Device>();
        for (const auto schedule : ExKokkosTest::schedules<Device>())
          for (const Setting& st : settings) {
            ExKokkos::Options o;
            o.schedule = schedule;
            o.team_size = std::min(st.team == widest ? device_widest : st.team, device_widest);
            o.league_size = st.league;
            o.expansion_size = st.expansion;
            compare(run_gemm<T, Kokkos::LayoutLeft>(Device(), o, p), want,
                    std::string(1, ta) + tb + " default space, schedule " +
                        std::to_string(int(schedule)) + " team " + std::to_string(o.team_size),
                    failures);
          }
      }
      // The inner index permuted.
      std::vector<std::size_t> perm(s.k);
      std::iota(perm.begin(), perm.end(), std::size_t(0));
      std::shuffle(perm.begin(), perm.end(), rng);
      Problem<T> q = p;
      for (std::size_t l = 0; l < s.k; ++l) {
        for (std::size_t i = 0; i < s.m; ++i) {
          if (ta == 'N')
            q.a[i][l] = p.a[i][perm[l]];
          else
            q.a[l][i] = p.a[perm[l]][i];
        }
        for (std::size_t j = 0; j < s.n; ++j) {
          if (tb == 'N')
            q.b[l][j] = p.b[perm[l]][j];
          else
            q.b[j][l] = p.b[j][perm[l]];
        }
      }
      compare(run_gemm<T, Kokkos::LayoutLeft>(Host(), {}, q), want,
              std::string(1, ta) + tb + " inner index permuted", failures);
      EXPECT_EQ(failures, 0) << ta << tb;
    }
}

TEST(GemmComplex, EveryScheduleTeamAndLeagueSizeGivesTheSameBitsDouble) {
  schedules_and_tuning<double>(31);
}

TEST(GemmComplex, EveryScheduleTeamAndLeagueSizeGivesTheSameBitsFloat) {
  schedules_and_tuning<float>(32);
}

// IEEE special values: each part as Kokkos::complex's operators give it on the same formula (a
// NaN where they give a NaN, the same infinity, else a finite value); BLAS' zero rules.
TEST(GemmComplex, SpecialValuesAndZeroRules) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  using M = Kokkos::View<C<double>**, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  M A("A", 2, 2), B("B", 2, 2), Cm("C", 2, 2);
  const auto reset = [&]() {
    A(0, 0) = C<double>(1, 2);
    A(0, 1) = C<double>(-3, 0.5);
    A(1, 0) = C<double>(0.25, -1);
    A(1, 1) = C<double>(2, 2);
    B(0, 0) = C<double>(1, -1);
    B(0, 1) = C<double>(0.5, 4);
    B(1, 0) = C<double>(-2, 0);
    B(1, 1) = C<double>(0, 3);
    Cm(0, 0) = C<double>(1, 1);
    Cm(0, 1) = C<double>(-1, 2);
    Cm(1, 0) = C<double>(0.5, 0);
    Cm(1, 1) = C<double>(3, -1);
  };
  const auto same = [](double got, double w) {
    return std::isnan(w) ? std::isnan(got) : std::isinf(w) ? got == w : std::isfinite(got);
  };
  const auto check = [&](const char* ta, const char* tb, C<double> alpha, C<double> beta,
                         const std::string& what) {
    const auto opm = [](const M& m, char t, int i, int k) {
      return t == 'N' ? C<double>(m(i, k)) : t == 'C' ? Kokkos::conj(C<double>(m(k, i))) : m(k, i);
    };
    C<double> want[2][2];
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) {
        C<double> s(0, 0);
        for (int l = 0; l < 2; ++l) s += opm(A, ta[0], i, l) * opm(B, tb[0], l, j);
        want[i][j] = beta == C<double>(0, 0) ? alpha * s : alpha * s + beta * C<double>(Cm(i, j));
      }
    ExKokkos::exgemm(Host(), ta, tb, alpha, A, B, beta, Cm);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        EXPECT_TRUE(same(Cm(i, j).real(), want[i][j].real()) &&
                    same(Cm(i, j).imag(), want[i][j].imag()))
            << what << ": C(" << i << ", " << j << ") = " << describe(C<double>(Cm(i, j)))
            << ", the operators give " << describe(want[i][j]);
  };
  for (const char* t : {"N", "T", "C"}) {
    reset();  // a NaN in A and an infinity in B
    A(0, 1) = C<double>(nan, 0);
    B(1, 1) = C<double>(inf, 0);
    check(t, "N", C<double>(1, 0), C<double>(1, 0), std::string("NaN in A, inf in B, ") + t);
    reset();  // infinite and NaN parts of C with beta != 0
    Cm(0, 0) = C<double>(inf, 0);
    Cm(1, 1) = C<double>(1, nan);
    check("N", t, C<double>(1, 1), C<double>(0.5, 0), std::string("inf/NaN C, ") + t);
    reset();  // an infinite alpha with finite sums
    check(t, t, C<double>(0, inf), C<double>(1, 0), std::string("alpha 0 + inf i, ") + t);
  }
  reset();  // beta == 0: C's NaN is not read
  Cm(0, 0) = C<double>(nan, nan);
  check("N", "N", C<double>(1, 0), C<double>(0, 0), "beta 0");
  reset();  // alpha == 0: A's and B's NaN are not read; C = beta C exactly
  A(0, 0) = C<double>(nan, 0);
  B(0, 0) = C<double>(0, nan);
  ExKokkos::exgemm(Host(), "C", "T", C<double>(0, 0), A, B, C<double>(0, 2), Cm);
  EXPECT_TRUE(same_bits(C<double>(Cm(0, 0)), C<double>(-2, 2))) << describe(C<double>(Cm(0, 0)));
  EXPECT_TRUE(same_bits(C<double>(Cm(1, 1)), C<double>(2, 6))) << describe(C<double>(Cm(1, 1)));
}

// "H" is "C": the conjugate transpose.
TEST(GemmComplex, HIsTheConjugateTranspose) {
  ExKokkosTest::Rng rng(77);
  const auto generators = ExKokkosTest::sum_generators();
  const auto& g = generators.front();
  const auto p =
      make_problem<double>('C', 'C', Shape{4, 3, 5}, g, C<double>(0.5, 2), C<double>(1, -1), rng);
  const auto want = oracle(p);
  using M = Kokkos::View<C<double>**, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  const M A = matrix_of<double, Kokkos::LayoutLeft>(p.a, p.a_cols());
  const M B = matrix_of<double, Kokkos::LayoutLeft>(p.b, p.b_cols());
  const M Cm = matrix_of<double, Kokkos::LayoutLeft>(p.c, p.s.n);
  ExKokkos::exgemm(Host(), "h", "H", p.alpha, A, B, p.beta, Cm);
  Dense<double> got(p.s.m, std::vector<C<double>>(p.s.n));
  for (std::size_t i = 0; i < p.s.m; ++i)
    for (std::size_t j = 0; j < p.s.n; ++j) got[i][j] = Cm(i, j);
  int failures = 0;
  compare(got, want, "HH", failures);
  EXPECT_EQ(failures, 0);
}

TEST(GemmComplex, BadArgumentsWriteNothing) {
  using M = Kokkos::View<C<double>**, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  M A("A", 3, 4), B("B", 4, 2), Cm("C", 3, 2);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j) Cm(i, j) = C<double>(i + 0.5, -j);
  const auto expect_refused = [&](auto call, const std::string& what) {
    try {
      call();
      ADD_FAILURE() << what << ": no exception";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("ExKokkos::exgemm"), std::string::npos) << e.what();
    }
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 2; ++j)
        EXPECT_TRUE(same_bits(C<double>(Cm(i, j)), C<double>(i + 0.5, -j))) << what;
  };
  const C<double> one(1, 0);
  expect_refused([&]() { ExKokkos::exgemm(Host(), "C", "N", one, A, B, one, Cm); },
                 "C N: A^H is 4 x 3");
  expect_refused([&]() { ExKokkos::exgemm(Host(), "N", "C", one, A, B, one, Cm); },
                 "N C: B^H is 2 x 4");
  expect_refused([&]() { ExKokkos::exgemm(Host(), "N", "Q", one, A, B, one, Cm); }, "trans Q");
  expect_refused([&]() { ExKokkos::exgemm(Host(), "N", "N", one, A, B, one, A); }, "C aliasing A");
  ExKokkos::Options o;
  o.expansion_size = 5;
  expect_refused([&]() { ExKokkos::exgemm(Host(), "N", "N", one, A, B, one, Cm, o); },
                 "expansion size 5");
}

}  // namespace GemmComplexSuite
}  // namespace
