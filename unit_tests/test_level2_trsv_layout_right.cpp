// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// extrsv in Kokkos::LayoutRight: every variant against the definition evaluated with the MPFR
// oracle, on the data test_level2_trsv.cpp solves in LayoutLeft. A file of its own because each
// layout instantiates all of extrsv's device kernels (ExKokkosTest_Trsv.hpp says why that matters).
#include "ExKokkosTest_Trsv.hpp"

#include <gtest/gtest.h>

namespace {

using namespace ExKokkosTest::TrsvTest;

TEST(Trsv, AllVariantsMatchTheDefinitionInLayoutRight) {
  expect_all_variants_match_definition<Kokkos::LayoutRight>(1);
}

}  // namespace
