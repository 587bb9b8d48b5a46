// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::ExactSum as a Kokkos reducer inside user lambdas: range policies (several chunk
// sizes), team policies with nested TeamThreadRange reductions, sums and exact products, on
// Serial, OpenMP and the default space, bit for bit against the MPFR oracle.
#include <ExKokkos.hpp>

#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_Views.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace {

using ExKokkos::LongAccumulator;
using ExKokkosTest::describe;
using ExKokkosTest::same_bits;
using ExKokkosTest::to_view;

// sum_i x_i + x_i * y_i, exactly.
double oracle(const std::vector<double>& x, const std::vector<double>& y) {
  ExKokkosTest::ExactSum s;
  for (std::size_t i = 0; i < x.size(); ++i) {
    s.add(x[i]);
    s.add_product(x[i], y[i]);
  }
  return s.round_double();
}

template <class Space>
double range_reduce(const std::vector<double>& hx, const std::vector<double>& hy, int chunk) {
  const auto x = to_view<Space>(hx), y = to_view<Space>(hy);
  LongAccumulator acc;
  Kokkos::RangePolicy<Space> policy(0, hx.size());
  if (chunk > 0) policy.set_chunk_size(chunk);
  Kokkos::parallel_reduce(
      "exact_range", policy,
      KOKKOS_LAMBDA(const int i, LongAccumulator& a) {
        a.add(x(i));
        a.add_product(x(i), y(i));
      },
      ExKokkos::ExactSum<>(acc));
  return acc.round();
}

template <class Space>
void check_range(const std::vector<double>& x, const std::vector<double>& y, const char* what) {
  const double expected = oracle(x, y);
  for (int chunk : {0, 1, 7, 1000}) {
    const double got = range_reduce<Space>(x, y, chunk);
    ASSERT_TRUE(same_bits(got, expected)) << what << " n=" << x.size() << " chunk " << chunk << ": "
                                          << describe(got) << " vs " << describe(expected);
  }
}

TEST(ExactSumReducer, RangePolicyOnEveryBackend) {
  std::mt19937_64 rng(31);
  for (const auto& g : ExKokkosTest::sum_generators()) {
    for (std::size_t n : {0, 1, 17, 1000, 100000}) {
      const std::vector<double> x = g.generate(n, rng);
      const std::vector<double> y = ExKokkosTest::full_range(x.size(), rng);
      check_range<Kokkos::Serial>(x, y, g.name.c_str());
      check_range<Kokkos::DefaultHostExecutionSpace>(x, y, g.name.c_str());
      check_range<Kokkos::DefaultExecutionSpace>(x, y, g.name.c_str());
    }
  }
}

// One exact sum per team over its row, through a nested TeamThreadRange reduction, and an exact
// total over the teams; league and team sizes must not change a bit.
template <class Space>
void check_team(const std::vector<double>& hx, int rows, int league, int team_size) {
  using Policy = Kokkos::TeamPolicy<Space>;
  const int cols = static_cast<int>(hx.size()) / rows;
  const auto x = to_view<Space>(hx);
  Kokkos::View<double*, typename Space::memory_space> row_sums("row_sums", rows);
  LongAccumulator total;
  Kokkos::parallel_reduce(
      "exact_team", Policy(league, team_size),
      KOKKOS_LAMBDA(const typename Policy::member_type& team, LongAccumulator& t) {
        for (int r = team.league_rank(); r < rows; r += team.league_size()) {
          LongAccumulator row;
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(team, cols),
              [&](const int j, LongAccumulator& a) { a.add(x(r * cols + j)); },
              ExKokkos::ExactSum<Space>(row));
          Kokkos::single(Kokkos::PerTeam(team), [&]() {
            row_sums(r) = row.round();
            t.merge(row);
          });
        }
      },
      ExKokkos::ExactSum<>(total));
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), row_sums);
  for (int r = 0; r < rows; ++r) {
    const std::vector<double> row(hx.begin() + r * cols, hx.begin() + (r + 1) * cols);
    ASSERT_TRUE(same_bits(h(r), ExKokkosTest::exact_sum(row)))
        << "row " << r << " league " << league << " team " << team_size;
  }
  const std::vector<double> all(hx.begin(), hx.begin() + rows * cols);
  ASSERT_TRUE(same_bits(total.round(), ExKokkosTest::exact_sum(all)))
      << "total, league " << league << " team " << team_size;
}

TEST(ExactSumReducer, TeamPolicyWithNestedTeamThreadRange) {
  std::mt19937_64 rng(32);
  const std::vector<double> x = ExKokkosTest::lognormal_wide(64 * 200, rng);
  const std::vector<double> c = ExKokkosTest::exact_cancellation(64 * 200, rng);
  // A host backend's team has at most as many threads as the backend (Serial's, one: it aborts
  // on a larger request, and Serial is the default host space of a Serial + CUDA build). Teams of
  // three, not two: the host backends' team reduction buffer (512 bytes a thread) holds the
  // reducer's 1064-byte value from three threads on (docs/accumulators.md).
  const auto fits = [](auto space, int team) {
    return !ExKokkos::Impl::is_host_space<decltype(space)>() || team <= space.concurrency();
  };
  for (int league : {1, 3, 64}) {
    for (int team : {1, 3}) {
      if (fits(Kokkos::DefaultHostExecutionSpace(), team))
        check_team<Kokkos::DefaultHostExecutionSpace>(x, 64, league, team);
      if (fits(Kokkos::DefaultExecutionSpace(), team))
        check_team<Kokkos::DefaultExecutionSpace>(c, 64, league, team);
    }
  }
  check_team<Kokkos::Serial>(x, 64, 5, 1);
}

TEST(ExactSumReducer, NanAndInfinityPropagate) {
  std::vector<double> x = {1.0, std::numeric_limits<double>::infinity(), 2.0};
  std::vector<double> y = {1.0, 0.0, 1.0};  // inf * 0 in the products: NaN
  EXPECT_TRUE(std::isnan(range_reduce<Kokkos::DefaultExecutionSpace>(x, y, 0)));
  y[1] = 1.0;
  EXPECT_TRUE(same_bits(range_reduce<Kokkos::DefaultExecutionSpace>(x, y, 0),
                        std::numeric_limits<double>::infinity()));
}

// The reducer's reduction of x. A free function, not the test body: nvcc refuses a device lambda
// whose enclosing function is a private member (GoogleTest's TestBody).
template <class View>
void exact_reduce(const View& x, LongAccumulator& acc) {
  Kokkos::parallel_reduce(
      "exact", x.extent(0), KOKKOS_LAMBDA(const int i, LongAccumulator& a) { a.add(x(i)); },
      ExKokkos::ExactSum<>(acc));
}

// 10^7 terms through the reducer and through exsum: the same bits. (Its cost beside a plain
// parallel_reduce of doubles is measured by perf_tests/bench_level1: exact_sum_reducer against
// parallel_reduce_sum.)
TEST(ExactSumReducer, GivesExsumsBitsOnTenMillionTerms) {
  std::mt19937_64 rng(33);
  const std::size_t n = 10000000;
  const auto x = to_view<Kokkos::DefaultExecutionSpace>(ExKokkosTest::uniform(n, rng));
  LongAccumulator acc;
  exact_reduce(x, acc);
  EXPECT_TRUE(same_bits(acc.round(), ExKokkos::exsum(x)));
}

}  // namespace
