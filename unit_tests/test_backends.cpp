// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Every routine gives the same bits on every backend of the build: Kokkos::Serial, the default host
// space (OpenMP) and the default space (CUDA in a GPU build, where this is the check that the GPU
// and the host agree). The same routines under other team, league, expansion and block sizes are
// compared in test_backends_tuning.cpp, which compiles every expansion size.
//
// With EXKOKKOS_BACKENDS_OUT set, the run also writes one digest line per routine to that file, so
// that two builds (say an OpenMP build with Kokkos 3.4 and a CUDA build with Kokkos 4.x) can be
// compared across machines: the files must be identical.
#include "ExKokkosTest_Digest.hpp"
#include "ExKokkosTest_EveryRoutine.hpp"

#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace BackendsSuite {

using ExKokkosTest::digest;
using ExKokkosTest::EveryRoutine::expect_same;
using ExKokkosTest::EveryRoutine::Results;
using ExKokkosTest::EveryRoutine::run_all;

TEST(Backends, EveryRoutineGivesTheSameBitsOnEveryBackend) {
  const Results serial = run_all<Kokkos::Serial>({});
  expect_same(serial, run_all<Kokkos::DefaultHostExecutionSpace>({}),
              "Serial vs default host space");
  expect_same(serial, run_all<Kokkos::DefaultExecutionSpace>({}), "Serial vs default space");
  if (const char* path = std::getenv("EXKOKKOS_BACKENDS_OUT")) {
    std::FILE* out = std::fopen(path, "w");
    ASSERT_NE(out, nullptr) << path;
    for (const auto& entry : serial)
      std::fprintf(out, "%s %016" PRIx64 "\n", entry.first.c_str(), digest(entry.second));
    std::fclose(out);
  }
}

}  // namespace BackendsSuite
}  // namespace
