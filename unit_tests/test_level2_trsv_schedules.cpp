// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// extrsv under every block size and host schedule against the definition (MPFR oracle), and the
// diagonal-block solves (team, certified rows) against the one-thread solve under team sizes,
// accumulator copies, expansion sizes, early exit and block sizes, in double and in float.
// Compiled into the executable that compiles every expansion size (unit_tests/CMakeLists.txt).
#include "ExKokkosTest_Trsv.hpp"

#include <ExKokkosTest_Triangular.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace TrsvSchedulesSuite {

using namespace ExKokkosTest::TrsvTest;
using ExKokkosTest::expect_bits;
using ExKokkosTest::Rng;

TEST(Trsv, EveryBlockSizeAndScheduleGivesTheSameBits) {
  Rng rng(2);
  const std::size_t n = 150;
  for (const Variant& v : all_variants()) {
    const auto a = random_triangle<double>(v, n, rng);
    std::vector<double> b(n);
    std::uniform_real_distribution<double> u(-1, 1);
    for (auto& e : b) e = u(rng);
    const auto expected = defined_solution(v, a, n, b);
    for (const auto& o : trsv_options())
      expect_bits(expected, run<Kokkos::LayoutLeft>(v, a, n, b, o),
                  v.name() + " block " + std::to_string(o.block_size) + " schedule " +
                      std::to_string(static_cast<int>(o.schedule)));
  }
}

TEST(Trsv, TeamDiagonalBlocksGiveTheOneThreadBits) {
  Rng rng(7);
  std::uniform_int_distribution<int> coin(0, 1);
  std::uniform_int_distribution<std::size_t> pick(0, 1 << 20);
  std::uniform_real_distribution<double> u(-1, 1);
  const double inf = std::numeric_limits<double>::infinity();
  for (const Variant& v : all_variants()) {
    const std::size_t n = 90;
    const auto a = random_triangle<double>(v, n, rng);
    std::vector<double> b(n);
    for (auto& e : b) e = u(rng);
    expect_team_blocks_match(v, a, n, b, "random");

    // Signed zeros in A and b; a diagonal of +-0 divides to infinities and NaNs.
    auto z = a;
    for (auto& e : z)
      if (!std::isnan(e) && coin(rng)) e = coin(rng) ? 0.0 : -0.0;
    std::vector<double> bz(n);
    for (auto& e : bz) e = coin(rng) ? 0.0 : -0.0;
    expect_team_blocks_match(v, z, n, bz, "zeros");

    // A few infinities and NaNs in A and b, and entries whose products overflow or underflow.
    auto w = a;
    for (std::size_t k = 0; k < 6; ++k) {
      const std::size_t i = pick(rng) % n, j = pick(rng) % n;
      if (std::isnan(w[i * n + j])) continue;
      const double big[] = {inf, -inf, std::nan(""), 0x1p1000, -0x1p-1060, 0x1p1023};
      w[i * n + j] = big[k];
    }
    auto bw = b;
    bw[pick(rng) % n] = 0x1p1020;
    bw[pick(rng) % n] = -0x1p-1070;
    expect_team_blocks_match(v, w, n, bw, "wide");
    auto bn = b;
    bn[n / 2] = std::nan("");
    bn[n / 3] = -inf;
    expect_team_blocks_match(v, a, n, bn, "inf and NaN in b");
  }
  // Ill-conditioned systems: heavy cancellation in every residual. "U", "T" solves the same
  // system from the transposed (upper) storage.
  for (double cond : {1e10, 1e20, 1e35}) {
    const std::size_t n = 70;
    const auto s = ExKokkosTest::ill_conditioned_lower_triangular(n, cond, rng);
    std::vector<double> at(n * n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) at[j * n + i] = s.a[i * n + j];
    const std::string what = "cond " + std::to_string(cond);
    expect_team_blocks_match(Variant{'L', 'N', 'N'}, s.a, n, s.b, what);
    expect_team_blocks_match(Variant{'U', 'T', 'N'}, at, n, s.b, what);
    ExKokkos::Options refine, team_refine;
    refine.refinement_steps = team_refine.refinement_steps = 3;
    team_refine.schedule = ExKokkos::Schedule::team_per_output;
    team_refine.team_size = ExKokkosTest::widest_team<Space>();
    team_refine.block_size = 16;
    const Variant lower{'L', 'N', 'N'};
    expect_bits(run<Kokkos::LayoutLeft>(lower, s.a, n, s.b, refine),
                run<Kokkos::LayoutLeft>(lower, s.a, n, s.b, team_refine), what + " refined");
  }
}

// The float half of TeamDiagonalBlocksGiveTheOneThreadBits: random triangles rounded to float.
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

}  // namespace TrsvSchedulesSuite
}  // namespace
