// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The device building blocks on real Kokkos backends: many threads depositing concurrently into
// one team accumulator in scratch memory (atomics, interleaved copies), the cross-team merge into
// the league accumulator (atomics again), and the rounding on the device, compared bit for bit
// with the MPFR oracle; and that an exact reduction is one kernel launch.
// Run by ctest with OMP_NUM_THREADS=4 so that the OpenMP team really is concurrent.
#include <ExKokkos.hpp>
#include <ExKokkos_Dot.hpp>
#include <ExKokkos_Sum.hpp>
#include <impl/ExKokkos_ExactReduce_impl.hpp>

#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_LaunchCounter.hpp"
#include "ExKokkosTest_Views.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace TeamAccumulatorSuite {

using ExKokkosTest::describe;
using ExKokkosTest::LaunchCounter;
using ExKokkosTest::same_bits;

using ExKokkos::Impl::RoundInto;

// Every thread of every team deposits its elements straight into its team's accumulator (no
// expansion in front), so that the atomics see the most traffic; the last team to deposit into
// the league accumulator rounds the sum into `result`.
template <class ExecSpace>
struct DirectDeposits {
  using policy_type = Kokkos::TeamPolicy<ExecSpace, ExKokkos::Impl::finishing_launch_bounds>;
  using member_type = typename policy_type::member_type;
  using memory_space = typename ExecSpace::memory_space;
  using result_view = Kokkos::View<double, memory_space>;
  Kokkos::View<const double*, memory_space> a, b;
  bool products;
  RoundInto<double, result_view> finish;
  ExKokkos::Impl::LeagueAccumulator<memory_space> league;
  int copies;

  static std::size_t scratch_size(int copies) {
    return ExKokkos::Impl::TeamAccumulator::scratch_size(copies) +
           sizeof(std::uint64_t) * ExKokkos::Impl::AccumulatorFormat::num_digits;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const ExKokkos::Impl::TeamAccumulator accumulator(team, copies);
    std::uint64_t* merged = static_cast<std::uint64_t*>(team.team_scratch(0).get_shmem(
        sizeof(std::uint64_t) * ExKokkos::Impl::AccumulatorFormat::num_digits));
    accumulator.clear(team);
    ExKokkos::Impl::TeamAccumulator::Sink sink = accumulator.sink_for(team);
    const int n = static_cast<int>(a.extent(0));
    const int teams = team.league_size();
    const int mine = (n - team.league_rank() + teams - 1) / teams;  // elements rank, rank+teams, ..
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, mine), [&](const int k) {
      const int i = team.league_rank() + k * teams;
      if (products)
        sink.add_product(a(i), b(i));
      else
        sink.add(a(i));
    });
    sink.publish();
    team.team_barrier();
    std::uint32_t flags = 0;
    accumulator.reduce(team, merged, flags);
    league.deposit_and_finish(team, merged, flags, finish);
  }
};

template <class ExecSpace>
double run_direct(const std::vector<double>& a, const std::vector<double>& b, bool products,
                  int league_size, int team_size, int copies, int launches = 1) {
  using mem = typename ExecSpace::memory_space;
  Kokkos::View<double*, mem> va("a", a.size()), vb("b", b.size());
  Kokkos::deep_copy(
      va, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
              a.data(), a.size()));
  Kokkos::deep_copy(
      vb, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
              b.data(), b.size()));
  using Functor = DirectDeposits<ExecSpace>;
  const typename Functor::result_view result("r");
  typename Functor::policy_type policy(league_size, team_size);
  policy.set_scratch_size(0, Kokkos::PerTeam(DirectDeposits<ExecSpace>::scratch_size(copies)));
  double first = 0;
  for (int l = 0; l < launches; ++l) {
    // A fresh (zero) league accumulator per launch, as ExKokkos' routines use it.
    const Functor f{
        va,    vb, products, {result}, ExKokkos::Impl::LeagueAccumulator<mem>::zero(ExecSpace()),
        copies};
    Kokkos::deep_copy(result, 12345.0);
    Kokkos::parallel_for("direct_deposits", policy, f);
    double r;
    Kokkos::deep_copy(r, result);
    if (l == 0) first = r;
    EXPECT_TRUE(same_bits(r, first)) << "launch " << l << " differs";
  }
  return first;
}

double oracle(const std::vector<double>& a, const std::vector<double>& b, bool products) {
  ExKokkosTest::ExactSum s;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (products)
      s.add_product(a[i], b[i]);
    else
      s.add(a[i]);
  }
  return s.round_double();
}

template <class ExecSpace>
void check_direct_deposits(int league_size, int team_size, int copies) {
  std::mt19937_64 rng(1000 + league_size * 7 + team_size * 13 + copies);
  for (int trial = 0; trial < 6; ++trial) {
    const std::size_t n = 1 + rng() % 5000;
    std::vector<double> a, b;
    switch (trial % 3) {
      case 0:
        a = ExKokkosTest::full_range(n, rng);
        break;
      case 1:
        a = ExKokkosTest::exact_cancellation(n, rng);
        break;
      default:
        a = ExKokkosTest::lognormal_wide(n, rng);
        break;
    }
    b = ExKokkosTest::full_range(a.size(), rng);
    for (bool products : {false, true}) {
      const double expected = oracle(a, b, products);
      const double got = run_direct<ExecSpace>(a, b, products, league_size, team_size, copies, 2);
      ASSERT_TRUE(same_bits(got, expected))
          << "league " << league_size << " team " << team_size << " copies " << copies
          << (products ? " products" : " sums") << ": got " << describe(got) << ", expected "
          << describe(expected);
    }
  }
}

template <class ExecSpace>
int max_team_size() {
  typename DirectDeposits<ExecSpace>::policy_type policy(1, 1);
  policy.set_scratch_size(0, Kokkos::PerTeam(ExKokkos::Impl::TeamAccumulator::scratch_size(8)));
  return policy.team_size_max(DirectDeposits<ExecSpace>{}, Kokkos::ParallelForTag());
}

#if defined(KOKKOS_ENABLE_OPENMP)
TEST(TeamAccumulator, OpenMPThreadsDepositConcurrentlyIntoOneTeam) {
  const int team = max_team_size<Kokkos::OpenMP>();
  EXPECT_GE(team, 2) << "run with OMP_NUM_THREADS >= 2 to exercise concurrency";
  for (int copies : {1, 2, 3, 8}) check_direct_deposits<Kokkos::OpenMP>(1, team, copies);
}

TEST(TeamAccumulator, OpenMPManyTeamsMergeExactly) {
  const int team = max_team_size<Kokkos::OpenMP>();
  for (int league : {2, 3, 17, 256, 4096}) check_direct_deposits<Kokkos::OpenMP>(league, team, 2);
  check_direct_deposits<Kokkos::OpenMP>(64, 1, 1);
}
#endif

TEST(TeamAccumulator, DefaultExecutionSpace) {
  check_direct_deposits<Kokkos::DefaultExecutionSpace>(7, 1, 1);
  check_direct_deposits<Kokkos::DefaultExecutionSpace>(
      1, max_team_size<Kokkos::DefaultExecutionSpace>(), 4);
}

TEST(TeamAccumulator, Serial) {
  check_direct_deposits<Kokkos::Serial>(1, 1, 1);
  check_direct_deposits<Kokkos::Serial>(33, 1, 3);
}

// The full multi-level path (expansions in front of the team accumulators) through exsum and
// exdot, for every tuning setting, on the default execution space.
TEST(TeamAccumulator, ExpansionsInFrontGiveTheOracleBits) {
  using Space = Kokkos::DefaultExecutionSpace;
  std::mt19937_64 rng(77);
  const std::vector<double> x = ExKokkosTest::full_range(20000, rng);
  const std::vector<double> y = ExKokkosTest::lognormal_wide(20000, rng);
  Kokkos::View<double*, Space::memory_space> vx("x", x.size()), vy("y", y.size());
  Kokkos::deep_copy(
      vx, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
              x.data(), x.size()));
  Kokkos::deep_copy(
      vy, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
              y.data(), y.size()));
  const double sum_expected = oracle(x, x, false);
  const double dot_expected = oracle(x, y, true);
  for (int n_exp : {2, 3, 4, 6, 8}) {
    for (int early : {0, 1}) {
      for (int league : {1, 5, 64}) {
        ExKokkos::Options o;
        o.expansion_size = n_exp;
        o.early_exit = early;
        o.league_size = league;
        o.team_size = 1;
        EXPECT_TRUE(same_bits(ExKokkos::exsum(Space(), vx, o), sum_expected));
        EXPECT_TRUE(same_bits(ExKokkos::exdot(Space(), vx, vy, o), dot_expected));
      }
    }
  }
}

// The multi-level reduction, its merge and its rounding are one kernel launch: no
// clearing kernel, no separate rounding launch, for the rank-0 view form and the scalar form.
TEST(TeamAccumulator, ExactReductionIsOneLaunch) {
  using Space = Kokkos::DefaultExecutionSpace;
  const std::int64_t n = 100000;
  Kokkos::View<double*, Space::memory_space> x("x", n), y("y", n);
  Kokkos::deep_copy(x, 0.1);
  Kokkos::deep_copy(y, 3.0);
  const Kokkos::View<double, Space::memory_space> r("r");
  ExKokkos::exdot(Space(), r, x, y);  // first call: whatever is set up once (per GPU stream)
  Space().fence();
  if (!LaunchCounter::callbacks_active<Space>())
    GTEST_SKIP() << "Kokkos' tool callbacks are not active here";
  for (int form = 0; form < 5; ++form) {
    const LaunchCounter counter;
    switch (form) {
      case 0:
        ExKokkos::exdot(Space(), r, x, y);
        break;
      case 1:
        ExKokkos::exsum(Space(), r, x);
        break;
      case 2:
        ExKokkos::exnrm2(Space(), r, x);
        break;
      case 3:
        (void)ExKokkos::exdot(Space(), x, y);
        break;
      default:
        (void)ExKokkos::exasum(Space(), x);
        break;
    }
    Space().fence();
    EXPECT_EQ(counter.size(), 1u) << "form " << form << ":" << counter.list();
  }
}

}  // namespace TeamAccumulatorSuite
}  // namespace
