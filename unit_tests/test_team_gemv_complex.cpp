// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The team and serial forms of exgemv (ExKokkos_TeamGemv.hpp) on Kokkos::complex<double> and
// Kokkos::complex<float> inside a TeamPolicy kernel: on Serial and the default host space (and in
// a GPU build the default execution space), for every team size from 1 to the widest, vector
// lengths 1 and 2, trans 'N', 'T' and 'C' (as chars, strings and the tag forms), the coefficient
// set of the complex matrix suites (zeros, purely real or imaginary, huge with tiny), empty, short
// and long inner dimensions, parts from every finite generator, A and x contiguous, strided and
// copied into team scratch. Every output must have the bits of the MPFR oracle and of the
// device-wide exgemv on the same data; with NaN and infinities about, the device-wide routine's.
#include <ExKokkos.hpp>

#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_Complex.hpp"
#include "ExKokkosTest_Views.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace TeamGemvComplexSuite {

using ExKokkosTest::describe;
using ExKokkosTest::same_bits;
template <class T>
using C = Kokkos::complex<T>;
template <class T>
using Dense = std::vector<std::vector<C<T>>>;

enum Where { contiguous, strided, scratch };
const char* const where_names[] = {"contiguous", "strided", "team scratch"};

// Every team computes y = alpha op(A) x + beta y0 into column t of Yteam (team form) and of
// Yserial (serial form, one thread). Odd teams call the tag forms, even teams the functions (trans
// as a char for the team form, as a lower-case string for the serial one).
template <class Space, class T, class AView, class XView>
struct Kernel {
  using Member = typename Kokkos::TeamPolicy<Space>::member_type;
  using ScratchMatrix = Kokkos::View<C<T>**, Kokkos::LayoutLeft,
                                     typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  using ScratchVector =
      Kokkos::View<C<T>*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  AView A;
  XView x;
  Kokkos::View<C<T>*, typename Space::memory_space> y0;
  Kokkos::View<C<T>**, Kokkos::LayoutLeft, typename Space::memory_space> Yteam, Yserial;
  C<T> alpha, beta;
  char trans;
  bool in_scratch;

  template <class AV, class XV, class YV>
  KOKKOS_INLINE_FUNCTION void run(const Member& team, const AV& a, const XV& xv, const YV& yt,
                                  const YV& ys) const {
    using ExKokkos::Experimental::Trans;
    namespace E = ExKokkos::Experimental;
    if (team.league_rank() % 2 == 0) {
      E::exgemv(team, trans, alpha, a, xv, beta, yt);
      const char lower[2] = {char(trans - 'A' + 'a'), 0};
      Kokkos::single(Kokkos::PerTeam(team),
                     [&]() { E::serial_exgemv(lower, alpha, a, xv, beta, ys); });
    } else if (trans == 'N') {
      E::TeamExGemv<Member, Trans::NoTranspose>::invoke(team, alpha, a, xv, beta, yt);
      Kokkos::single(Kokkos::PerTeam(team), [&]() {
        E::SerialExGemv<Trans::NoTranspose>::invoke(alpha, a, xv, beta, ys);
      });
    } else if (trans == 'T') {
      E::TeamExGemv<Member, Trans::Transpose>::invoke(team, alpha, a, xv, beta, yt);
      Kokkos::single(Kokkos::PerTeam(team),
                     [&]() { E::SerialExGemv<Trans::Transpose>::invoke(alpha, a, xv, beta, ys); });
    } else {
      E::TeamExGemv<Member, Trans::ConjTranspose>::invoke(team, alpha, a, xv, beta, yt);
      Kokkos::single(Kokkos::PerTeam(team), [&]() {
        E::SerialExGemv<Trans::ConjTranspose>::invoke(alpha, a, xv, beta, ys);
      });
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int t = team.league_rank();
    const auto yt = Kokkos::subview(Yteam, Kokkos::ALL(), t);
    const auto ys = Kokkos::subview(Yserial, Kokkos::ALL(), t);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, int(y0.extent(0))), [&](const int i) {
      yt(i) = y0(i);
      ys(i) = y0(i);
    });
    team.team_barrier();
    if (in_scratch) {
      const int r = int(A.extent(0)), c = int(A.extent(1)), n = int(x.extent(0));
      const ScratchMatrix sa(team.team_scratch(0), r, c);
      const ScratchVector sx(team.team_scratch(0), n);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, r * c),
                           [&](const int k) { sa(k % r, k / r) = A(k % r, k / r); });
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int k) { sx(k) = x(k); });
      team.team_barrier();
      run(team, sa, sx, yt, ys);
    } else {
      run(team, A, x, yt, ys);
    }
  }
};

template <class V>
void expect_bits(const V& got, const V& want, const std::string& what, int& failures) {
  if (!same_bits(got, want) && ++failures <= 10)
    ADD_FAILURE() << what << " = " << describe(got) << ", expected " << describe(want);
}

// One problem on Space with A in Layout (LayoutRight: strided rows of op(A) for 'T' and 'C'), in
// every team configuration: every output of every thread against `want`.
template <class Space, class T, class Layout>
void check_problem(const Dense<T>& a, std::size_t cols, const std::vector<C<T>>& xs,
                   const std::vector<C<T>>& y0s, C<T> alpha, C<T> beta, char trans, Where where,
                   const std::vector<C<T>>& want, const std::string& name, int& failures) {
  using Mem = typename Space::memory_space;
  const std::size_t rows = a.size();  // A is rows x cols (a holds no row when rows is 0)
  Kokkos::View<C<T>**, Layout, Mem> A("A", rows, cols);
  const auto ha = Kokkos::create_mirror_view(A);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t k = 0; k < cols; ++k) ha(i, k) = a[i][k];
  Kokkos::deep_copy(A, ha);
  const auto x = ExKokkosTest::to_view<Space>(xs);
  const auto y0 = ExKokkosTest::to_view<Space>(y0s);
  // The device-wide routine on the same data agrees with the oracle.
  {
    const auto y = ExKokkosTest::to_view<Space>(y0s);
    const char t[2] = {trans, 0};
    ExKokkos::exgemv(Space(), t, alpha, A, x, beta, y);
    const auto got = ExKokkosTest::to_host(y);
    for (std::size_t i = 0; i < want.size(); ++i)
      expect_bits(got[i], want[i], name + " device-wide y(" + std::to_string(i) + ")", failures);
  }
  using K = Kernel<Space, T, decltype(A), decltype(x)>;
  const int widest = ExKokkosTest::widest_team<Space>();
  const std::vector<int> team_sizes =
      widest <= 4 ? std::vector<int>{1, 2, 3, 4} : std::vector<int>{1, 7, 32, widest};
  for (const int vector_length : {1, 2})
    for (const int team_size : team_sizes) {
      if (team_size > widest) continue;
      const int league = 3;
      Kokkos::View<C<T>**, Kokkos::LayoutLeft, Mem> Yteam("Yteam", want.size(), league),
          Yserial("Yserial", want.size(), league);
      Kokkos::TeamPolicy<Space> policy(league, team_size, vector_length);
      if (where == scratch)
        policy.set_scratch_size(0, Kokkos::PerTeam(K::ScratchMatrix::shmem_size(rows, cols) +
                                                   K::ScratchVector::shmem_size(xs.size())));
      Kokkos::parallel_for("team_gemv_complex", policy,
                           K{A, x, y0, Yteam, Yserial, alpha, beta, trans, where == scratch});
      const auto ht = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Yteam);
      const auto hs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Yserial);
      for (int t = 0; t < league; ++t)
        for (std::size_t i = 0; i < want.size(); ++i) {
          const std::string what = name + " " + where_names[where] + " team " +
                                   std::to_string(team_size) + " vector " +
                                   std::to_string(vector_length) + " team " + std::to_string(t) +
                                   " y(" + std::to_string(i) + ")";
          expect_bits(C<T>(ht(i, t)), want[i], what + " team form", failures);
          expect_bits(C<T>(hs(i, t)), want[i], what + " serial form", failures);
        }
    }
}

template <class Space, class T>
void check_all() {
  int failures = 0;
  ExKokkosTest::Rng rng(sizeof(T) == 4 ? 61 : 62);
  const auto coefficients = ExKokkosTest::matrix_coefficients<T>();
  const auto generators = ExKokkosTest::sum_generators();
  struct Shape {
    std::size_t m, n;  // op(A) is m x n
  };
  std::size_t g_index = 0, c_index = 0;
  for (const Shape s : {Shape{3, 0}, Shape{0, 4}, Shape{5, 7}, Shape{33, 70}, Shape{9, 1000}})
    for (const char trans : {'N', 'T', 'C'}) {
      // The next finite generator for this problem's parts.
      const ExKokkosTest::NamedSumGenerator* g = nullptr;
      while (g == nullptr || !ExKokkosTest::finite_generator(*g))
        g = &generators[g_index++ % generators.size()];
      const std::size_t rows = trans == 'N' ? s.m : s.n, cols = trans == 'N' ? s.n : s.m;
      Dense<T> a(rows, std::vector<C<T>>(cols));
      const auto re = ExKokkosTest::parts_from<T>(*g, rows * cols + 1, rng);
      const auto im = ExKokkosTest::parts_from<T>(*g, rows * cols + 1, rng);
      for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t k = 0; k < cols; ++k)
          a[i][k] = C<T>(re[i * cols + k], im[(i * cols + k + 7) % (rows * cols + 1)]);
      const auto xr = ExKokkosTest::parts_from<T>(*g, s.n + 1, rng);
      const auto xi = ExKokkosTest::parts_from<T>(*g, s.n + 1, rng);
      std::vector<C<T>> x(s.n), y0(s.m);
      for (std::size_t k = 0; k < s.n; ++k) x[k] = C<T>(xr[k], xi[k]);
      for (std::size_t i = 0; i < s.m; ++i) y0[i] = C<T>(T(0.5 + i), T(-0.25 * i));
      for (int pick = 0; pick < 2; ++pick) {
        const C<T> alpha = coefficients[c_index++ % coefficients.size()];
        const C<T> beta = coefficients[(c_index * 5 + 3) % coefficients.size()];
        std::vector<C<T>> want(s.m);
        for (std::size_t i = 0; i < s.m; ++i)
          want[i] = ExKokkosTest::exact_gemv_entry(trans, a, i, x, alpha, beta, y0[i]);
        const std::string name = g->name + " " + std::to_string(s.m) + "x" + std::to_string(s.n) +
                                 " trans " + trans + " alpha " + describe(alpha) + " beta " +
                                 describe(beta);
        check_problem<Space, T, Kokkos::LayoutLeft>(a, cols, x, y0, alpha, beta, trans, contiguous,
                                                    want, name, failures);
        if (s.m * s.n <= 1000) {
          check_problem<Space, T, Kokkos::LayoutRight>(a, cols, x, y0, alpha, beta, trans, strided,
                                                       want, name, failures);
          check_problem<Space, T, Kokkos::LayoutLeft>(a, cols, x, y0, alpha, beta, trans, scratch,
                                                      want, name, failures);
        }
      }
    }
  EXPECT_EQ(failures, 0);
}

// NaN and infinities in A, x and y: each output the device-wide routine's (the oracle's business
// is the finite values; test_level2_gemv_complex checks the device-wide special values).
template <class Space, class T>
void check_special_values() {
  int failures = 0;
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  Dense<T> a{{C<T>(inf, 0), C<T>(1, 2)}, {C<T>(1, nan), C<T>(0, 0)}, {C<T>(2, -1), C<T>(3, inf)}};
  const std::vector<C<T>> x{C<T>(1, 0), C<T>(0, -inf)};
  const std::vector<C<T>> y0{C<T>(nan, 1), C<T>(1, 1), C<T>(-inf, 0)};
  for (const char trans : {'N'}) {
    const auto y = ExKokkosTest::to_view<Space>(y0);
    const auto ha = ExKokkosTest::HostMatrix<C<T>, Kokkos::LayoutLeft>::make(3, 2);
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t k = 0; k < 2; ++k) ha(i, k) = a[i][k];
    const auto A = ExKokkosTest::space_copy<Space>(ha);
    const auto xv = ExKokkosTest::to_view<Space>(x);
    ExKokkos::exgemv(Space(), "N", C<T>(1.5, -1), A, xv, C<T>(0.5, 0), y);
    const auto want = ExKokkosTest::to_host(y);
    check_problem<Space, T, Kokkos::LayoutLeft>(a, 2, x, y0, C<T>(1.5, -1), C<T>(0.5, 0), trans,
                                                contiguous, want, "special values", failures);
  }
  EXPECT_EQ(failures, 0);
}

TEST(TeamGemvComplex, SerialSpace) {
  check_all<Kokkos::Serial, double>();
  check_all<Kokkos::Serial, float>();
}

// The default host space, and in a GPU build the default execution space too.
TEST(TeamGemvComplex, DefaultSpaces) {
  check_all<Kokkos::DefaultHostExecutionSpace, double>();
  check_all<Kokkos::DefaultHostExecutionSpace, float>();
  if constexpr (ExKokkosTest::default_space_is_a_device()) {
    check_all<Kokkos::DefaultExecutionSpace, double>();
    check_all<Kokkos::DefaultExecutionSpace, float>();
  }
}

TEST(TeamGemvComplex, SpecialValuesAsTheDeviceWideRoutine) {
  check_special_values<Kokkos::DefaultHostExecutionSpace, double>();
  check_special_values<Kokkos::Serial, float>();
}

}  // namespace TeamGemvComplexSuite
}  // namespace
