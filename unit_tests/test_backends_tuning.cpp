// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Every routine of ExKokkos under other team, league, expansion and block sizes gives the bits of
// its default options; test_backends compares the default options across backends. Compiled into
// the executable that compiles every expansion size (unit_tests/CMakeLists.txt).
#include "ExKokkosTest_EveryRoutine.hpp"

#include "ExKokkosTest_Views.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace BackendsTuningSuite {

using ExKokkosTest::EveryRoutine::expect_same;
using ExKokkosTest::EveryRoutine::Results;
using ExKokkosTest::EveryRoutine::run_all;
using Space = Kokkos::DefaultExecutionSpace;

// Every routine on the default space with other team sizes (capped at what the backend allows),
// league sizes, accumulator copies, expansion sizes and extrsv block sizes, against its default
// options. test_backends compares the default options on the default space with Kokkos::Serial,
// so each setting here gives Serial's bits too.
TEST(Backends, EveryTeamLeagueAndBlockSizeGivesTheSameBits) {
  const Results reference = run_all<Space>({});
  const int max_team = ExKokkosTest::widest_team<Space>();
  struct Setting {
    int team, league, copies, expansion, block;
  };
  for (const Setting s : {Setting{1, 1, 1, 2, 1}, Setting{2, 3, 2, 3, 7}, Setting{32, 7, 4, 4, 50},
                          Setting{max_team, 64, 8, 8, 64}, Setting{max_team, 0, 0, 6, 1000}}) {
    ExKokkos::Options o;
    o.team_size = std::min(s.team, max_team);
    o.league_size = s.league;
    o.accumulators_per_team = s.copies;
    o.expansion_size = s.expansion;
    o.block_size = s.block;
    expect_same(reference, run_all<Space>(o),
                "team " + std::to_string(o.team_size) + " league " + std::to_string(s.league) +
                    " copies " + std::to_string(s.copies) + " expansion " +
                    std::to_string(s.expansion) + " block " + std::to_string(s.block));
  }
}

}  // namespace BackendsTuningSuite
}  // namespace
