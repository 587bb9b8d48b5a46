// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The team and serial forms of exdot, exsum, exasum and exnrm2 (ExKokkos_TeamLevel1.hpp) on
// Kokkos::complex<double> and Kokkos::complex<float> inside a TeamPolicy kernel: on Serial and the
// default host space (and in a GPU build the default execution space), for every team size from 1
// to the widest, vector lengths 1 and 2, two league sizes, sizes 0 to 1000, every generator of the
// support library in both parts (wide ranges, cancellation, ties, NaN and infinities, signed
// zeros), x contiguous, strided and copied into team scratch. Every thread's value, team form and
// serial form, must have the bits of the device-wide routine on the same data and of the MPFR
// oracle (exdot conj(x) . y and exsum each part rounded once, exasum BLAS' sum of |re| + |im|,
// exnrm2 the root of the exact sum of squares).
#include <ExKokkos.hpp>

#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_Complex.hpp"
#include "ExKokkosTest_Views.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace TeamLevel1ComplexSuite {

using ExKokkosTest::describe;
using ExKokkosTest::same_bits;
template <class T>
using C = Kokkos::complex<T>;

// The four results of one vector: exdot(x, y), exsum(x) complex; exasum(x), exnrm2(x) real.
template <class T>
struct Results {
  C<T> dot, sum;
  T asum, nrm2;
};

// Column v of X and Y is vector v; team t reduces vector t % vectors. Each thread writes the team
// forms' values to (t, rank, 0) and the serial forms' to (t, rank, 1) of the two output views.
template <class Space, class T, class XView>
struct Kernel {
  using Member = typename Kokkos::TeamPolicy<Space>::member_type;
  using ScratchVector =
      Kokkos::View<C<T>*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  XView X, Y;
  Kokkos::View<C<T>****, typename Space::memory_space> complex_out;  // (t, rank, form, dot|sum)
  Kokkos::View<T****, typename Space::memory_space> real_out;        // (t, rank, form, asum|nrm2)
  int vectors;
  bool in_scratch;

  template <class V>
  KOKKOS_INLINE_FUNCTION void reduce(const Member& team, const V& x, const V& y) const {
    namespace E = ExKokkos::Experimental;
    const C<T> dot = E::exdot(team, x, y), sum = E::exsum(team, x);
    const T asum = E::exasum(team, x), nrm2 = E::exnrm2(team, x);
    const C<T> s_dot = E::serial_exdot(x, y), s_sum = E::serial_exsum(x);
    const T s_asum = E::serial_exasum(x), s_nrm2 = E::serial_exnrm2(x);
    const int t = team.league_rank(), rank = team.team_rank();
    Kokkos::single(Kokkos::PerThread(team), [&]() {
      complex_out(t, rank, 0, 0) = dot;
      complex_out(t, rank, 0, 1) = sum;
      real_out(t, rank, 0, 0) = asum;
      real_out(t, rank, 0, 1) = nrm2;
      complex_out(t, rank, 1, 0) = s_dot;
      complex_out(t, rank, 1, 1) = s_sum;
      real_out(t, rank, 1, 0) = s_asum;
      real_out(t, rank, 1, 1) = s_nrm2;
    });
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int v = team.league_rank() % vectors;
    const auto x = Kokkos::subview(X, Kokkos::ALL(), v);
    const auto y = Kokkos::subview(Y, Kokkos::ALL(), v);
    if (in_scratch) {
      const int n = static_cast<int>(x.extent(0));
      const ScratchVector sx(team.team_scratch(0), n), sy(team.team_scratch(0), n);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int i) {
        sx(i) = x(i);
        sy(i) = y(i);
      });
      team.team_barrier();
      reduce(team, sx, sy);
    } else {
      reduce(team, x, y);
    }
  }
};

template <class T>
Results<T> oracle(const std::vector<C<T>>& x, const std::vector<C<T>>& y) {
  const auto r = ExKokkosTest::exact_complex_reductions(x, y);
  return {r.dot, r.sum, r.asum, r.nrm2};
}

template <class V>
void expect_bits(const V& got, const V& want, const std::string& what, int& failures) {
  if (!same_bits(got, want) && ++failures <= 10)
    ADD_FAILURE() << what << " = " << describe(got) << ", expected " << describe(want);
}

// `vectors` columns of n elements in Layout on Space's memory.
template <class Space, class T, class Layout>
Kokkos::View<C<T>**, Layout, typename Space::memory_space> matrix(
    const std::vector<std::vector<C<T>>>& columns) {
  const std::size_t n = columns.empty() ? 0 : columns[0].size();
  Kokkos::View<C<T>**, Layout, typename Space::memory_space> m("m", n, columns.size());
  auto h = Kokkos::create_mirror_view(m);
  for (std::size_t j = 0; j < columns.size(); ++j)
    for (std::size_t i = 0; i < n; ++i) h(i, j) = columns[j][i];
  Kokkos::deep_copy(m, h);
  return m;
}

// One case (columns of x and y) in every configuration: the device-wide routines and every
// thread's team and serial values against the oracle.
template <class Space, class T, class Layout>
void check_case(const std::vector<std::vector<C<T>>>& xs, const std::vector<std::vector<C<T>>>& ys,
                bool in_scratch, const std::string& name, int& failures) {
  const int vectors = static_cast<int>(xs.size());
  const auto X = matrix<Space, T, Layout>(xs);
  const auto Y = matrix<Space, T, Layout>(ys);
  const std::size_t n = X.extent(0);
  std::vector<Results<T>> want(vectors);
  for (int v = 0; v < vectors; ++v) {
    want[v] = oracle(xs[v], ys[v]);
    const auto x = Kokkos::subview(X, Kokkos::ALL(), v);
    const auto y = Kokkos::subview(Y, Kokkos::ALL(), v);
    const std::string what = name + " device-wide ";
    expect_bits(ExKokkos::exdot(Space(), x, y), want[v].dot, what + "exdot", failures);
    expect_bits(ExKokkos::exsum(Space(), x), want[v].sum, what + "exsum", failures);
    expect_bits(ExKokkos::exasum(Space(), x), want[v].asum, what + "exasum", failures);
    expect_bits(ExKokkos::exnrm2(Space(), x), want[v].nrm2, what + "exnrm2", failures);
  }
  using K = Kernel<Space, T, decltype(X)>;
  const int widest = ExKokkosTest::widest_team<Space>();
  const std::vector<int> team_sizes =
      widest <= 4 ? std::vector<int>{1, 2, 3, 4} : std::vector<int>{1, 7, 32, 64, widest};
  for (int vector_length : {1, 2})
    for (int team_size : team_sizes) {
      if (team_size > widest) continue;
      for (int league : {vectors, 2 * vectors + 1}) {
        Kokkos::View<C<T>****, typename Space::memory_space> complex_out("c", league, team_size, 2,
                                                                         2);
        Kokkos::View<T****, typename Space::memory_space> real_out("r", league, team_size, 2, 2);
        Kokkos::TeamPolicy<Space> policy(league, team_size, vector_length);
        if (in_scratch)
          policy.set_scratch_size(0, Kokkos::PerTeam(2 * K::ScratchVector::shmem_size(n) +
                                                     ExKokkos::Experimental::team_scratch_size()));
        Kokkos::parallel_for("team_level1_complex", policy,
                             K{X, Y, complex_out, real_out, vectors, in_scratch});
        const auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), complex_out);
        const auto hr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), real_out);
        for (int t = 0; t < league; ++t)
          for (int rank = 0; rank < team_size; ++rank)
            for (int form = 0; form < 2; ++form) {
              const Results<T>& w = want[t % vectors];
              const std::string what = name + (form == 0 ? " team " : " serial ") + "n " +
                                       std::to_string(n) + " team " + std::to_string(team_size) +
                                       " vector " + std::to_string(vector_length) + " league " +
                                       std::to_string(league) + " thread " + std::to_string(rank);
              expect_bits(C<T>(hc(t, rank, form, 0)), w.dot, what + " exdot", failures);
              expect_bits(C<T>(hc(t, rank, form, 1)), w.sum, what + " exsum", failures);
              expect_bits(T(hr(t, rank, form, 0)), w.asum, what + " exasum", failures);
              expect_bits(T(hr(t, rank, form, 1)), w.nrm2, what + " exnrm2", failures);
            }
      }
    }
}

template <class Space, class T>
void check_all() {
  int failures = 0;
  ExKokkosTest::Rng rng(sizeof(T) == 4 ? 404 : 808);
  for (const std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(17), std::size_t(1000)})
    for (const auto& g : ExKokkosTest::sum_generators()) {
      std::vector<std::vector<C<T>>> xs, ys;
      for (int v = 0; v < 3; ++v) {
        auto x = ExKokkosTest::complexes<T>(g.generate(n, rng), g.generate(n, rng));
        auto y = ExKokkosTest::complexes<T>(g.generate(n, rng), g.generate(n, rng));
        xs.push_back(x);
        ys.push_back(y);
      }
      // Columns of one length (the generators may give a few elements more or fewer).
      std::size_t m = n;
      for (int v = 0; v < 3; ++v) m = std::min({m, xs[v].size(), ys[v].size()});
      for (int v = 0; v < 3; ++v) {
        xs[v].resize(m);
        ys[v].resize(m);
      }
      const std::string name = g.name + " n " + std::to_string(m);
      check_case<Space, T, Kokkos::LayoutLeft>(xs, ys, false, name + " contiguous", failures);
      if (n <= 17) {
        check_case<Space, T, Kokkos::LayoutRight>(xs, ys, false, name + " strided", failures);
        check_case<Space, T, Kokkos::LayoutLeft>(xs, ys, true, name + " team scratch", failures);
      }
    }
  EXPECT_EQ(failures, 0);
}

TEST(TeamLevel1Complex, SerialDouble) {
  check_all<Kokkos::Serial, double>();
}
TEST(TeamLevel1Complex, SerialFloat) {
  check_all<Kokkos::Serial, float>();
}
// The default host space, and in a GPU build the default execution space too.
TEST(TeamLevel1Complex, DefaultSpacesDouble) {
  check_all<Kokkos::DefaultHostExecutionSpace, double>();
  if constexpr (ExKokkosTest::default_space_is_a_device())
    check_all<Kokkos::DefaultExecutionSpace, double>();
}
TEST(TeamLevel1Complex, DefaultSpacesFloat) {
  check_all<Kokkos::DefaultHostExecutionSpace, float>();
  if constexpr (ExKokkosTest::default_space_is_a_device())
    check_all<Kokkos::DefaultExecutionSpace, float>();
}

}  // namespace TeamLevel1ComplexSuite
}  // namespace
