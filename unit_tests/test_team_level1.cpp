// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The team and serial forms of exsum, exasum, exdot and exnrm2 (ExKokkos_TeamLevel1.hpp) inside a
// TeamPolicy kernel: on Serial and the default host space, for every team size from 1 to the
// widest, vector lengths 1 and 2, two league sizes, sizes 0 to 4099, easy and hard data (every
// generator of the support library: wide exponent ranges, cancellation, ties, subnormals,
// NaN/Inf, signed zeros), double and float, x contiguous, strided and copied into team scratch.
// Every thread's value (team form and serial form) must have the bits of the device-wide routine
// on the same data and of the MPFR oracle.
#include <ExKokkos.hpp>

#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_Views.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace TeamLevel1Suite {

using ExKokkosTest::same_bits;

enum Routine { sum_routine, asum_routine, dot_routine, nrm2_routine };
const char* const routine_names[] = {"exsum", "exasum", "exdot", "exnrm2"};
// Where the kernel reads x (and y) from.
enum Where { contiguous, strided, scratch };
const char* const where_names[] = {"contiguous", "strided", "team scratch"};

// Column v of X and Y is vector v; team t reduces vector t % vectors. Each thread writes the team
// form's value to out(t, rank, 0) and the serial form's to out(t, rank, 1).
template <class Space, class T, class XView>
struct Kernel {
  using Member = typename Kokkos::TeamPolicy<Space>::member_type;
  using ScratchVector =
      Kokkos::View<T*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  XView X, Y;
  Kokkos::View<int*, typename Space::memory_space> length;  // of each vector (column)
  Kokkos::View<T***, typename Space::memory_space> out;
  int routine, vectors;
  bool in_scratch;

  template <class V>
  KOKKOS_INLINE_FUNCTION T reduce_team(const Member& team, const V& x, const V& y) const {
    switch (routine) {
      case sum_routine:
        return ExKokkos::Experimental::exsum(team, x);
      case asum_routine:
        return ExKokkos::Experimental::exasum(team, x);
      case dot_routine:
        return ExKokkos::Experimental::exdot(team, x, y);
      default:
        return ExKokkos::Experimental::exnrm2(team, x);
    }
  }
  template <class V>
  KOKKOS_INLINE_FUNCTION T reduce_serial(const V& x, const V& y) const {
    switch (routine) {
      case sum_routine:
        return ExKokkos::Experimental::serial_exsum(x);
      case asum_routine:
        return ExKokkos::Experimental::serial_exasum(x);
      case dot_routine:
        return ExKokkos::Experimental::serial_exdot(x, y);
      default:
        return ExKokkos::Experimental::serial_exnrm2(x);
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int t = team.league_rank(), rank = team.team_rank();
    const Kokkos::pair<int, int> used(0, length(t % vectors));
    const auto x = Kokkos::subview(X, used, t % vectors);
    const auto y = Kokkos::subview(Y, used, t % vectors);
    T team_value, serial_value;
    if (in_scratch) {
      const int n = static_cast<int>(x.extent(0));
      const ScratchVector sx(team.team_scratch(0), n), sy(team.team_scratch(0), n);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int i) {
        sx(i) = x(i);
        sy(i) = y(i);
      });
      team.team_barrier();
      team_value = reduce_team(team, sx, sy);
      serial_value = reduce_serial(sx, sy);
    } else {
      team_value = reduce_team(team, x, y);
      serial_value = reduce_serial(x, y);
    }
    Kokkos::single(Kokkos::PerThread(team), [&]() {
      out(t, rank, 0) = team_value;
      out(t, rank, 1) = serial_value;
    });
  }
};

template <class T>
T oracle(Routine r, const std::vector<T>& x, const std::vector<T>& y) {
  switch (r) {
    case sum_routine:
      return ExKokkosTest::exact_sum(x);
    case asum_routine: {
      std::vector<T> a(x.size());
      for (std::size_t i = 0; i < x.size(); ++i) a[i] = std::fabs(x[i]);
      return ExKokkosTest::exact_sum(a);
    }
    case dot_routine:
      return ExKokkosTest::exact_dot(x, y);
    default:
      return ExKokkosTest::exact_nrm2(x);
  }
}

template <class Space, class V>
typename V::non_const_value_type device_wide(Routine r, const V& x, const V& y) {
  switch (r) {
    case sum_routine:
      return ExKokkos::exsum(Space(), x);
    case asum_routine:
      return ExKokkos::exasum(Space(), x);
    case dot_routine:
      return ExKokkos::exdot(Space(), x, y);
    default:
      return ExKokkos::exnrm2(Space(), x);
  }
}

// The data of one case: `vectors` columns of x (and y), on the host. The generators give about
// the size asked for, so the columns' lengths differ a little.
template <class T>
struct Case {
  std::string name;
  std::vector<std::vector<T>> x, y;
};

template <class T>
std::vector<T> as(const std::vector<double>& v) {
  return std::vector<T>(v.begin(), v.end());
}

template <class Space, class T, class Layout>
Kokkos::View<T**, Layout, typename Space::memory_space> matrix(
    const std::vector<std::vector<T>>& columns) {
  std::size_t n = 0;
  const std::size_t v = columns.size();
  for (const auto& c : columns) n = std::max(n, c.size());
  Kokkos::View<T**, Layout, typename Space::memory_space> m("m", n, v);
  auto h = Kokkos::create_mirror_view(m);
  for (std::size_t j = 0; j < v; ++j)
    for (std::size_t i = 0; i < columns[j].size(); ++i) h(i, j) = columns[j][i];
  Kokkos::deep_copy(m, h);
  return m;
}

// Runs one routine on one case in every configuration and compares every value.
template <class Space, class T, class Layout>
void check_case(Routine r, const Case<T>& c, Where where) {
  const int vectors = static_cast<int>(c.x.size());
  const auto X = matrix<Space, T, Layout>(c.x);
  const auto Y = matrix<Space, T, Layout>(c.y);
  const std::size_t n = X.extent(0);
  Kokkos::View<int*, typename Space::memory_space> length("length", vectors);
  const auto hl = Kokkos::create_mirror_view(length);
  std::vector<T> expected(vectors);
  for (int v = 0; v < vectors; ++v) {
    hl(v) = static_cast<int>(c.x[v].size());
    expected[v] = oracle<T>(r, c.x[v], c.y[v]);
    const Kokkos::pair<int, int> used(0, hl(v));
    const auto x = Kokkos::subview(X, used, v);
    const auto y = Kokkos::subview(Y, used, v);
    const T wide = device_wide<Space>(r, x, y);
    ASSERT_TRUE(same_bits(wide, expected[v]))
        << routine_names[r] << " device-wide vs oracle, " << c.name << " n " << n << ": " << wide
        << " vs " << expected[v];
  }
  Kokkos::deep_copy(length, hl);
  using K = Kernel<Space, T, decltype(X)>;
  const int widest = ExKokkosTest::widest_team<Space>();
  for (int vector_length : {1, 2}) {
    for (int team_size = 1; team_size <= widest; ++team_size) {
      for (int league : {vectors, 2 * vectors + 1}) {
        // One league size for the strided and scratch views (the same kernel code).
        if (where != contiguous && league == vectors) continue;
        Kokkos::View<T***, typename Space::memory_space> out("out", league, team_size, 2);
        Kokkos::TeamPolicy<Space> policy(league, team_size, vector_length);
        if (where == scratch)
          policy.set_scratch_size(0, Kokkos::PerTeam(2 * K::ScratchVector::shmem_size(n) +
                                                     ExKokkos::Experimental::team_scratch_size()));
        Kokkos::parallel_for("team_level1", policy,
                             K{X, Y, length, out, r, vectors, where == scratch});
        const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
        for (int t = 0; t < league; ++t)
          for (int rank = 0; rank < team_size; ++rank)
            for (int form = 0; form < 2; ++form)
              ASSERT_TRUE(same_bits(h(t, rank, form), expected[t % vectors]))
                  << routine_names[r] << (form == 0 ? " team" : " serial") << " form, "
                  << where_names[where] << ", " << c.name << " n " << n << " team " << team_size
                  << " vector " << vector_length << " league " << league << " thread " << rank
                  << ": " << h(t, rank, form) << " vs " << expected[t % vectors];
      }
    }
  }
}

template <class T>
std::vector<Case<T>> cases(Routine r, std::size_t n) {
  std::vector<Case<T>> out;
  constexpr int vectors = 3;
  ExKokkosTest::Rng rng(1234 + n);
  if (r == dot_routine) {
    for (const auto& g : ExKokkosTest::product_generators()) {
      Case<T> c{g.name, {}, {}};
      for (int v = 0; v < vectors; ++v) {
        const auto p = g.generate(n, rng);
        c.x.push_back(as<T>(p.first));
        c.y.push_back(as<T>(p.second));
      }
      out.push_back(c);
    }
  }
  for (const auto& g : ExKokkosTest::sum_generators()) {
    Case<T> c{g.name, {}, {}};
    for (int v = 0; v < vectors; ++v) {
      const auto x = g.generate(n, rng);
      c.x.push_back(as<T>(x));
      c.y.push_back(as<T>(ExKokkosTest::shuffled(x, rng)));
    }
    out.push_back(c);
  }
  return out;
}

template <class Space, class T>
void check_all(Where where) {
  for (Routine r : {sum_routine, asum_routine, dot_routine, nrm2_routine})
    for (std::size_t n : {0, 1, 2, 17, 1000, 4099}) {
      // Strided and scratch views: every generator, but not every size (the kernel's loops are
      // the same for all views; what differs is how an element is found).
      if (where != contiguous && (n == 1 || n == 2 || n == 4099)) continue;
      for (const auto& c : cases<T>(r, n)) {
        if (where == strided)
          check_case<Space, T, Kokkos::LayoutRight>(r, c, where);
        else
          check_case<Space, T, Kokkos::LayoutLeft>(r, c, where);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
}

TEST(TeamLevel1, SerialDouble) {
  for (Where w : {contiguous, strided, scratch}) check_all<Kokkos::Serial, double>(w);
}
TEST(TeamLevel1, SerialFloat) {
  for (Where w : {contiguous, strided, scratch}) check_all<Kokkos::Serial, float>(w);
}
TEST(TeamLevel1, DefaultHostSpaceDouble) {
  for (Where w : {contiguous, strided, scratch})
    check_all<Kokkos::DefaultHostExecutionSpace, double>(w);
}
TEST(TeamLevel1, DefaultHostSpaceFloat) {
  for (Where w : {contiguous, strided, scratch})
    check_all<Kokkos::DefaultHostExecutionSpace, float>(w);
}

// Mismatched extents cannot throw inside a kernel: the call aborts, naming the routine.
TEST(TeamLevel1DeathTest, DotOfDifferentExtentsAborts) {
  ::testing::FLAGS_gtest_death_test_style = "threadsafe";
  const Kokkos::View<double*, Kokkos::HostSpace> x("x", 4), y("y", 5);
  EXPECT_DEATH(ExKokkos::Experimental::serial_exdot(x, y), "exdot");
}

}  // namespace TeamLevel1Suite
}  // namespace
