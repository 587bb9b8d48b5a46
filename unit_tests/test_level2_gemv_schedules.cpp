// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// exgemv against the MPFR oracle, bit for bit, in every layout under every schedule, threads per
// output, league size, early-exit setting and expansion size. Compiled into the executable that
// compiles every expansion size (unit_tests/CMakeLists.txt).
#include <ExKokkos.hpp>

#include <ExKokkosTest_Generators.hpp>

#include "ExKokkosTest_GemvProblem.hpp"
#include "ExKokkosTest_Views.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace GemvSchedulesSuite {

using namespace ExKokkosTest::GemvTest;
using ExKokkosTest::Rng;

std::vector<ExKokkos::Options> host_schedules() {
  std::vector<ExKokkos::Options> all;
  for (auto s : ExKokkosTest::gemv_schedules<Space>()) {
    ExKokkos::Options o;
    o.schedule = s;
    all.push_back(o);
  }
  const int widest = ExKokkosTest::widest_team<Space>();
  for (int t : {std::min(3, widest), widest}) {  // threads per output: 1 to widest
    ExKokkos::Options o;
    o.schedule = ExKokkos::Schedule::output_block;
    o.team_size = t;
    o.league_size = 2;
    o.early_exit = t == 3 ? 1 : 0;
    all.push_back(o);
  }
  ExKokkos::Options team;  // several threads sharing the team accumulator, few teams
  team.schedule = ExKokkos::Schedule::team_per_output;
  team.team_size = ExKokkosTest::widest_team<Space>();  // the largest team here
  team.league_size = 3;
  team.early_exit = 1;
  all.push_back(team);
  ExKokkos::Options small;
  small.expansion_size = 2;
  all.push_back(small);
  ExKokkos::Options large;
  large.expansion_size = 8;
  all.push_back(large);
  return all;
}

std::string options_name(const ExKokkos::Options& o) {
  return "schedule " + std::to_string(static_cast<int>(o.schedule)) + " team " +
         std::to_string(o.team_size) + " league " + std::to_string(o.league_size) + " expansion " +
         std::to_string(o.expansion_size);
}

TEST(Gemv, EveryScheduleGivesTheOracleBits) {
  Rng rng(7);
  for (bool t : {false, true})
    for (auto shape : {std::make_pair(70, 45), std::make_pair(3, 200)}) {
      const auto p = random_problem<double>(shape.first, shape.second, t, 0.7, -0.3, rng);
      for (const auto& o : host_schedules())
        check_all_layouts(p, std::string(t ? "T " : "N ") + options_name(o), o);
    }
}

// The ill-conditioned rows of test_level2_gemv.cpp (the same problems) under output_block (the
// devices' default) with several threads per output, whose blocks certify some outputs and walk
// the others exactly; here, where the host compiles its team schedules.
TEST(Gemv, IllConditionedRowsUnderOutputBlock) {
  Rng rng(11);
  ExKokkos::Options block;
  block.schedule = ExKokkos::Schedule::output_block;
  block.team_size = std::min(4, ExKokkosTest::widest_team<Space>());
  for_each_ill_conditioned_problem(
      rng, [&](const Problem<double>& p, const Problem<double>& q, const std::string& label) {
        check_all_layouts(p, "output_block, " + label, block);
        check_all_layouts(q, "output_block T, " + label, block);
      });
}

}  // namespace GemvSchedulesSuite
}  // namespace
