// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// GoogleTest main for the ExKokkos suites: Kokkos is initialized once for the whole process
// (command-line options such as --kokkos-num-threads are honoured).
//
// ctest runs several suites as the same executable with a --gtest_filter each
// (unit_tests/CMakeLists.txt). A filter that selects no test would pass without testing
// anything, so a run with a filter fails when it selects none.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  const int result = RUN_ALL_TESTS();
  const std::string filter = GTEST_FLAG_GET(filter);
  if (filter != "*" && ::testing::UnitTest::GetInstance()->test_to_run_count() == 0) {
    std::fprintf(stderr, "--gtest_filter=%s selects no test\n", filter.c_str());
    return 1;
  }
  return result;
}
