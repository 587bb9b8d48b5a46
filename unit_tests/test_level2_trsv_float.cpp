// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// extrsv in float: every variant against the definition evaluated with the MPFR oracle, and the
// diagonal-block schedules against the default solve bit for bit. A file of its own because float
// instantiates all of extrsv's kernels again (ExKokkosTest_Trsv.hpp says why that matters).
#include "ExKokkosTest_Trsv.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace {

using namespace ExKokkosTest::TrsvTest;
using ExKokkosTest::expect_bits;
using ExKokkosTest::Rng;

TEST(Trsv, Float) {
  Rng rng(3);
  for (const Variant& v : all_variants()) {
    const std::size_t n = 70;
    const auto a = random_triangle<float>(v, n, rng);
    std::vector<float> b(n);
    std::uniform_real_distribution<float> u(-1, 1);
    for (auto& e : b) e = u(rng);
    ExKokkos::Options o;
    o.block_size = 16;
    expect_bits(defined_solution(v, a, n, b), run<Kokkos::LayoutLeft>(v, a, n, b, o),
                "float " + v.name());
  }
}

// The float half of TeamDiagonalBlocksGiveTheOneThreadBits (test_level2_trsv.cpp): random
// triangles rounded to float.
TEST(Trsv, TeamDiagonalBlocksGiveTheOneThreadBitsInFloat) {
  Rng rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (const Variant& v : all_variants()) {
    const std::size_t n = 90;
    const auto a = random_triangle<double>(v, n, rng);
    std::vector<double> b(n);
    for (auto& e : b) e = u(rng);
    std::vector<float> af(n * n), bf(n);
    for (std::size_t k = 0; k < n * n; ++k) af[k] = float(a[k]);
    for (std::size_t k = 0; k < n; ++k) bf[k] = float(b[k]);
    expect_team_blocks_match(v, af, n, bf, "float");
  }
}

}  // namespace
