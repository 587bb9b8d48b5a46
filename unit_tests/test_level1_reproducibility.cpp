// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Bitwise reproducibility of the level-1 reductions: the same bits on Serial and OpenMP, for
// team sizes 1 to the maximum, league sizes 1 to 4096, every tuning option, and a shuffled input
// (an exact sum does not depend on order), all equal to the MPFR oracle. ctest runs this suite
// with OMP_NUM_THREADS = 1, 2, 3 and 4; each run writes the bits it got to $EXKOKKOS_REPRO_OUT and
// the test repro_compare_thread_counts checks that the four files are identical. The ordinary
// KokkosBlas::dot and a plain parallel_reduce are printed beside them, to show why this matters.
#include <ExKokkos.hpp>

#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_Views.hpp"

#if defined(EXKOKKOS_TEST_HAVE_KOKKOSKERNELS)
#include <KokkosBlas1_dot.hpp>
#endif

#include <gtest/gtest.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace Level1ReproducibilitySuite {

using ExKokkosTest::describe;
using ExKokkosTest::same_bits;
using ExKokkosTest::to_view;

std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, 8);
  return b;
}

struct Case {
  std::string name;
  std::vector<double> x, y;
};

// The five inputs, generated once: the per-case tests, their names and the thread-count test all
// read them.
const std::vector<Case>& cases() {
  static const std::vector<Case> all = [] {
    std::mt19937_64 rng(4242);
    std::vector<Case> out;
    for (const char* g : {"uniform", "lognormal_wide", "full_range", "rounding_ties"}) {
      for (const auto& gen : ExKokkosTest::sum_generators()) {
        if (gen.name != g) continue;
        Case c{gen.name, gen.generate(30011, rng), {}};
        c.y = ExKokkosTest::normal(c.x.size(), rng);
        out.push_back(c);
      }
    }
    auto xy = ExKokkosTest::gen_dot(20000, 1e40, rng);
    out.push_back({"gen_dot_1e40", xy.first, xy.second});
    return out;
  }();
  return all;
}

template <class Space>
int max_team_size() {
  using View = Kokkos::View<double*, typename Space::memory_space>;
  using Result = Kokkos::View<double, typename Space::memory_space>;
  using Functor =
      ExKokkos::Impl::ExactReduceFunctor<Space, ExKokkos::Impl::SumTerms<View>,
                                         ExKokkos::Impl::RoundInto<double, Result>, 2, false>;
  typename Functor::policy_type policy(1, 1);
  policy.set_scratch_size(0, Kokkos::PerTeam(Functor::scratch_size(4)));
  return policy.team_size_max(Functor{}, Kokkos::ParallelForTag());
}

// An ordinary dot product. A free function: nvcc refuses a device lambda whose enclosing function
// is a private member (GoogleTest's TestBody).
template <class View>
double plain_dot(const View& x, const View& y) {
  double plain = 0;
  Kokkos::parallel_reduce(
      "plain", x.extent(0), KOKKOS_LAMBDA(int i, double& acc) { acc += x(i) * y(i); }, plain);
  return plain;
}

// Every routine under every option, on one backend; all must give `expected` bits.
template <class Space>
void check_all_options(const Case& c, const double (&expected)[4]) {
  const auto x = to_view<Space>(c.x), y = to_view<Space>(c.y);
  std::vector<ExKokkos::Options> options;
  const int max_team = max_team_size<Space>();
  for (int team : {1, 2, 3, max_team}) {
    if (team > max_team) continue;
    for (int league : {1, 2, 3, 7, 64, 4096}) {
      // 4096 teams of several threads pass 4096 team barriers per call, which 3 or 4 threads on
      // the 2-core CI machine make slow, for no extra coverage.
      if (league == 4096 && team > 1) continue;
      ExKokkos::Options o;
      o.team_size = team;
      o.league_size = league;
      o.accumulators_per_team = 1 + (league % 4);
      options.push_back(o);
    }
  }
  for (int es : {2, 3, 4, 6, 8})
    for (int early : {0, 1})
      for (int copies : {1, 2, 4}) {
        ExKokkos::Options o;
        o.expansion_size = es;
        o.early_exit = early;
        o.accumulators_per_team = copies;
        o.team_size = copies > 1 ? std::min(2, max_team) : 1;
        options.push_back(o);
      }
  for (const ExKokkos::Options& o : options) {
    const double got[4] = {ExKokkos::exsum(Space(), x, o), ExKokkos::exasum(Space(), x, o),
                           ExKokkos::exdot(Space(), x, y, o), ExKokkos::exnrm2(Space(), x, o)};
    for (int r = 0; r < 4; ++r) {
      ASSERT_TRUE(same_bits(got[r], expected[r]))
          << c.name << " routine " << r << " team " << o.team_size << " league " << o.league_size
          << " expansion " << o.expansion_size << " early " << o.early_exit << " copies "
          << o.accumulators_per_team << ": " << describe(got[r]) << " vs " << describe(expected[r]);
    }
  }
}

// The oracle's correctly rounded sum, asum, dot and nrm2 of a case.
void oracle_results(const Case& c, double (&expected)[4]) {
  ExKokkosTest::ExactSum s, a, d;
  for (std::size_t i = 0; i < c.x.size(); ++i) {
    s.add(c.x[i]);
    a.add(std::fabs(c.x[i]));
    d.add_product(c.x[i], c.y[i]);
  }
  expected[0] = s.round_double();
  expected[1] = a.round_double();
  expected[2] = d.round_double();
  expected[3] = ExKokkosTest::exact_nrm2(c.x);
}

// One test a case, so that a run can be spread over processes (compute-sanitizer's racecheck of
// all five cases' GPU part in one process is long).
class Level1Reproducibility : public ::testing::TestWithParam<int> {};

TEST_P(Level1Reproducibility, EveryBackendOptionAndOrderGivesTheOracleBits) {
  const Case& c = cases()[GetParam()];
  double expected[4];
  oracle_results(c, expected);
  check_all_options<Kokkos::Serial>(c, expected);
  check_all_options<Kokkos::DefaultHostExecutionSpace>(c, expected);
  check_all_options<Kokkos::DefaultExecutionSpace>(c, expected);

  // A shuffled input (x and y permuted together) gives the same bits.
  std::mt19937_64 rng(7);
  std::vector<std::size_t> perm(c.x.size());
  for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  Case shuffled{c.name + " shuffled", c.x, c.y};
  for (std::size_t i = 0; i < perm.size(); ++i) {
    shuffled.x[i] = c.x[perm[i]];
    shuffled.y[i] = c.y[perm[i]];
  }
  check_all_options<Kokkos::DefaultExecutionSpace>(shuffled, expected);

  // What ordinary reductions do with the same data (no assertion: they differ).
  const auto x = to_view<Kokkos::DefaultExecutionSpace>(c.x),
             y = to_view<Kokkos::DefaultExecutionSpace>(c.y);
  const auto xs = to_view<Kokkos::DefaultExecutionSpace>(shuffled.x),
             ys = to_view<Kokkos::DefaultExecutionSpace>(shuffled.y);
  const double plain = plain_dot(x, y), plain_shuffled = plain_dot(xs, ys);
  double blas = std::nan(""), blas_shuffled = std::nan("");
#if defined(EXKOKKOS_TEST_HAVE_KOKKOSKERNELS)
  blas = KokkosBlas::dot(x, y);
  blas_shuffled = KokkosBlas::dot(xs, ys);
#endif
  std::printf(
      "%-24s exdot %-24a KokkosBlas::dot %-24a (shuffled %-24a) parallel_reduce %-24a "
      "(shuffled %a)\n",
      c.name.c_str(), expected[2], blas, blas_shuffled, plain, plain_shuffled);
}

INSTANTIATE_TEST_SUITE_P(Cases, Level1Reproducibility,
                         ::testing::Range(0, static_cast<int>(cases().size())),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return cases()[info.param].name;
                         });

// The bits of the default calls (exsum, exasum, exdot, exnrm2, the multivector exdot,
// exnrm2_squared, exnrminf, exiamax), written to $EXKOKKOS_REPRO_OUT for the comparison across
// OpenMP thread counts that ctest runs after this binary (repro_compare_thread_counts).
TEST(Level1ThreadCounts, DefaultCallsGiveTheOracleBits) {
  std::FILE* out = nullptr;
  if (const char* path = std::getenv("EXKOKKOS_REPRO_OUT")) out = std::fopen(path, "w");
  for (const Case& c : cases()) {
    double expected[4];
    oracle_results(c, expected);
    const auto x = to_view<Kokkos::DefaultExecutionSpace>(c.x),
               y = to_view<Kokkos::DefaultExecutionSpace>(c.y);
    const double got[4] = {ExKokkos::exsum(x), ExKokkos::exasum(x), ExKokkos::exdot(x, y),
                           ExKokkos::exnrm2(x)};
    for (int r = 0; r < 4; ++r)
      EXPECT_TRUE(same_bits(got[r], expected[r]))
          << c.name << " routine " << r << ": " << describe(got[r]) << " vs "
          << describe(expected[r]);
    if (out)
      std::fprintf(out, "%s %016" PRIx64 " %016" PRIx64 " %016" PRIx64 " %016" PRIx64 "\n",
                   c.name.c_str(), bits(got[0]), bits(got[1]), bits(got[2]), bits(got[3]));
    // The multivector form and the other reductions, default calls too: R = (x.y, y.x) from
    // X = [x y], Y = [y x] (each column's exact dot product, the same value both ways), the sum of
    // squares, the largest magnitude and its index.
    using Memory = Kokkos::DefaultExecutionSpace::memory_space;
    const std::size_t n = c.x.size();
    Kokkos::View<double**, Kokkos::LayoutLeft, Memory> X("X", n, 2), Y("Y", n, 2);
    Kokkos::View<double*, Memory> R("R", 2);
    const auto hX = Kokkos::create_mirror_view(X), hY = Kokkos::create_mirror_view(Y);
    for (std::size_t i = 0; i < n; ++i) {
      hX(i, 0) = hY(i, 1) = c.x[i];
      hX(i, 1) = hY(i, 0) = c.y[i];
    }
    Kokkos::deep_copy(X, hX);
    Kokkos::deep_copy(Y, hY);
    ExKokkos::exdot(R, X, Y);
    const auto hR = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), R);
    for (int j = 0; j < 2; ++j)
      EXPECT_TRUE(same_bits(hR(j), expected[2]))
          << c.name << " multivector column " << j << ": " << describe(hR(j)) << " vs "
          << describe(expected[2]);
    const double squares = ExKokkos::exnrm2_squared(x), largest = ExKokkos::exnrminf(x);
    const auto index = static_cast<unsigned long long>(ExKokkos::exiamax(x));
    if (out)
      std::fprintf(out,
                   "%s more %016" PRIx64 " %016" PRIx64 " %016" PRIx64 " %016" PRIx64 " %llu\n",
                   c.name.c_str(), bits(hR(0)), bits(hR(1)), bits(squares), bits(largest), index);
  }
  if (out) std::fclose(out);
}

}  // namespace Level1ReproducibilitySuite
}  // namespace
