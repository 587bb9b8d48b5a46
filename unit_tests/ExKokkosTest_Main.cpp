// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// GoogleTest main for the ExKokkos suites: Kokkos is initialized once for the whole process
// (command-line options such as --kokkos-num-threads are honoured).
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  return RUN_ALL_TESTS();
}
