// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// exgemm against the MPFR oracle, bit for bit, under every schedule, team and league size,
// accumulator count, expansion size and early-exit setting, and the tiles schedule's fallback on
// tiles with special values. Compiled into test_tuning_suites, the executable that compiles every
// expansion size, as one translation unit with test_level2_reproducibility (the same exgemm
// kernels).
#include <ExKokkos.hpp>

#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_ExpectBits.hpp"
#include "ExKokkosTest_GemmProblem.hpp"
#include "ExKokkosTest_Matrices.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace GemmSchedulesSuite {

using namespace ExKokkosTest::GemmTest;
using ExKokkosTest::describe;
using ExKokkosTest::Rng;
using ExKokkosTest::same_bits;

// The tiles schedule with tiles of 4 x 1 to 32 x 1 elements and more (team sizes 1 to the largest
// here; 3 threads make 12 x 1 tiles), panels 1 to 100 deep, expansions of 2 (which spill often,
// exercising the fallback) to 8 slots, one team or many.
std::vector<ExKokkos::Options> tiles_options() {
  std::vector<ExKokkos::Options> all;
  // The widest team: the threads on the host, 64 on devices (whose concurrency counts every
  // thread of the GPU, 270336 on an H100, and whose teams take at most 256).
  const int largest = ExKokkosTest::widest_team<Space>();
  for (int team : {1, 2, 3, largest})
    for (int panel : {0, 1, 5, 100}) {
      if (team > largest) continue;
      ExKokkos::Options o;
      o.schedule = ExKokkos::Schedule::tiles;
      o.team_size = team;
      o.block_size = panel;
      o.league_size = panel == 5 ? 1 : 0;
      o.expansion_size = panel == 1 ? 2 : (panel == 100 ? 8 : 0);
      all.push_back(o);
    }
  return all;
}

TEST(Gemm, EveryScheduleAndTeamSizeGivesTheOracleBits) {
  Rng rng(7);
  std::vector<ExKokkos::Options> all;
  for (auto s : {ExKokkos::Schedule::automatic, ExKokkos::Schedule::output_lanes,
                 ExKokkos::Schedule::inner_lanes, ExKokkos::Schedule::team_per_output}) {
    const bool host_schedule =
        s == ExKokkos::Schedule::output_lanes || s == ExKokkos::Schedule::inner_lanes;
    if (host_schedule && !ExKokkos::Impl::is_host_space<Space>()) continue;  // refused there
    ExKokkos::Options o;
    o.schedule = s;
    all.push_back(o);
  }
  const int widest = ExKokkosTest::widest_team<Space>();  // 1 when the suite runs on one thread
  for (int team : {std::min(2, widest), widest})
    for (int league : {1, 3, 1000}) {
      ExKokkos::Options o;
      o.schedule = ExKokkos::Schedule::team_per_output;
      o.team_size = team;
      o.league_size = league;
      o.early_exit = league == 3 ? 1 : 0;
      o.accumulators_per_team = league == 1000 ? 3 : 0;
      all.push_back(o);
    }
  for (int size : {2, 4, 8}) {
    ExKokkos::Options o;
    o.expansion_size = size;
    all.push_back(o);
  }
  for (ExKokkos::Options o : tiles_options()) all.push_back(o);
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      const auto p = random_problem<double>(37, 11, 70, ta, tb, 0.7, -0.3, rng);
      const auto e = p.expected();
      for (std::size_t i = 0; i < all.size(); ++i)
        check_layouts(p, e, shape_name(37, 11, 70, ta, tb) + " options " + std::to_string(i),
                      all[i]);
    }
}

// NaN and inf in some tiles only: those tiles go through the fallback, the others not.
TEST(Gemm, TilesWithSpecialValuesFallBackExactly) {
  Rng rng(15);
  auto p = random_problem<double>(70, 9, 33, false, false, 1.5, 0.5, rng);
  p.a[3 * p.k + 4] = std::numeric_limits<double>::quiet_NaN();
  p.a[50 * p.k + 7] = std::numeric_limits<double>::infinity();
  p.b[2 * p.n + 8] = 0x1p-1070;  // an underflowing product in column 8
  const auto e = expected_with_specials(p);
  for (ExKokkos::Options o : tiles_options()) {
    const auto c = run<Kokkos::LayoutLeft>(p, "N", "N", o);
    ASSERT_EQ(c.size(), e.size());
    for (std::size_t i = 0; i < c.size(); ++i)
      EXPECT_TRUE(same_bits(c[i], e[i]) || (std::isnan(c[i]) && std::isnan(e[i])))
          << "C(" << i / p.n << ", " << i % p.n << ") = " << describe(c[i]) << ", expected "
          << describe(e[i]) << ", team " << o.team_size << " panel " << o.block_size;
  }
}

}  // namespace GemmSchedulesSuite
}  // namespace
