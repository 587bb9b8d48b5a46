// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The multi-level exact reduction behind exsum, exasum, exdot and exnrm2 (ExBLAS, Alg. 5/6):
//   level 1: each thread adds its terms into a floating-point expansion in registers;
//   level 2: expansions spill into long accumulators shared by the team (scratch memory, atomics);
//   level 3: every team adds its normalized accumulator into a global one (integer atomics), and
//            the team that does so last normalizes and rounds it
//            (core/ExKokkos_LeagueAccumulator.hpp says why that is safe without a barrier).
// One kernel launch, no host round trip; the result lands in a rank-0 view.
//
// Terms say what element i adds. A sum-like Terms has `static constexpr bool is_product = false`
// and `double operator()(i)`; a product-like one has is_product = true and
// `void operator()(i, double& a, double& b)` for the exact product a * b. Both declare
// `static constexpr int deposits_per_element`, the terms an element may deposit into the team's
// accumulator besides its expansion's flushes (1 for a sum; 2 for a product: its error term
// too): it sets the accumulators' headroom budget and which expansion sizes are compiled
// (common/impl/ExKokkos_Tuning_impl.hpp). A Finisher receives the
// merged, normalized accumulator on one thread of the last team (LeagueAccumulator::
// deposit_and_finish) and stores the rounded result.
//
// Host backends give each thread a contiguous range, walked W elements at a time through
// ExpansionLanes (vectorized, latency hidden). Device backends stride the team's range over its
// threads (coalesced loads), one Expansion per thread. Both are exact, so both give the same bits.
#ifndef EXKOKKOS_EXACTREDUCE_IMPL_HPP
#define EXKOKKOS_EXACTREDUCE_IMPL_HPP

#include "ExKokkos_LaneWalk_impl.hpp"
#include <impl/ExKokkos_Tuning_impl.hpp>

#include <ExKokkos_Expansion.hpp>
#include <ExKokkos_LeagueAccumulator.hpp>
#include <ExKokkos_LongAccumulator.hpp>
#include <ExKokkos_TeamAccumulator.hpp>
#include <impl/ExKokkos_AccumulatorRounding.hpp>

#include <cstdint>
#include <type_traits>

namespace ExKokkos {
namespace Impl {

template <class ExecSpace, class Terms, class Finisher, int N, bool EarlyExit>
struct ExactReduceFunctor {
  // Launch bounds: the finishing path must not set the registers of the accumulating loop, and
  // sums run four teams a multiprocessor (reduction_teams_per_multiprocessor).
  using policy_type =
      Kokkos::TeamPolicy<ExecSpace, finishing_launch_bounds_for<reduction_teams_per_multiprocessor(
                                        Terms::is_product)>>;
  using member_type = typename policy_type::member_type;
  using memory_space = typename ExecSpace::memory_space;
  // Early exit is a per-thread branch, which lanes cannot take: with it, host threads use the
  // scalar expansion as well.
  static constexpr bool use_lanes = is_host_space<ExecSpace>() && !EarlyExit;

  Terms terms;
  Finisher finish;
  LeagueAccumulator<memory_space> league;
  std::int64_t n;
  std::int64_t per_team;  // elements per team (contiguous blocks)
  int copies;

  // Team scratch: the accumulator's copies, and the row its reduction writes.
  static std::size_t scratch_size(int copies) {
    return TeamAccumulator::scratch_size(copies) +
           sizeof(std::uint64_t) * AccumulatorFormat::num_digits;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const TeamAccumulator accumulator(team, copies);
    std::uint64_t* merged = static_cast<std::uint64_t*>(
        team.team_scratch(0).get_shmem(sizeof(std::uint64_t) * AccumulatorFormat::num_digits));
    accumulator.clear(team);

    const std::int64_t begin = static_cast<std::int64_t>(team.league_rank()) * per_team;
    const std::int64_t end = begin + per_team < n ? begin + per_team : n;
    accumulator.with_sink<is_host_space<ExecSpace>()>(team, [&](auto& sink) {
      accumulate(team, begin, end, sink, std::integral_constant<bool, use_lanes>());
      sink.publish();
    });
    team.team_barrier();

    std::uint32_t flags = 0;
    accumulator.reduce(team, merged, flags);
    league.deposit_and_finish(team, merged, flags, finish);
  }

  // Device: the team's range strided over its threads, a few loads ahead (LaneWalk_impl.hpp).
  static constexpr int device_loads_ahead = 4;
  template <class Sink>
  KOKKOS_INLINE_FUNCTION void accumulate(const member_type& team, std::int64_t begin,
                                         std::int64_t end, Sink& sink,
                                         std::false_type /*use_lanes*/) const {
    Expansion<N, EarlyExit> expansion;
    accumulate_strided<device_loads_ahead>(terms, begin + team.team_rank(), end, team.team_size(),
                                           expansion, sink);
    expansion.flush(sink);
  }

  // Host: a contiguous part of the team's range per thread, W elements at a time.
  template <class Sink>
  KOKKOS_INLINE_FUNCTION void accumulate(const member_type& team, std::int64_t begin,
                                         std::int64_t end, Sink& sink,
                                         std::true_type /*use_lanes*/) const {
    const std::int64_t len = end > begin ? end - begin : 0;
    const std::int64_t threads = team.team_size(), rank = team.team_rank();
    const std::int64_t first = begin + len * rank / threads;
    const std::int64_t last = begin + len * (rank + 1) / threads;
    accumulate_with_lanes_or_bins<N>(terms, first, last, sink);
  }
};

// Rounds the merged accumulator to T and stores it in a rank-0 view.
template <class T, class ResultView>
struct RoundInto {
  ResultView result;
  KOKKOS_INLINE_FUNCTION void operator()(const std::uint64_t* digits, std::uint32_t flags) const {
    result() = static_cast<typename ResultView::value_type>(round_normalized<T>(digits, flags));
  }
};

// Stores the merged accumulator itself, unrounded, in a rank-0 view of LongAccumulator: for
// callers that add it to other exact sums before the one rounding (ExKokkos_MPI.hpp).
template <class ResultView>
struct StoreAccumulator {
  ResultView result;
  KOKKOS_INLINE_FUNCTION void operator()(const std::uint64_t* digits, std::uint32_t flags) const {
    LongAccumulator sum;
    sum.merge_normalized(digits, flags);
    result() = sum;
  }
};

template <class ExecSpace, class Terms, class Finisher, int N, bool EarlyExit>
void launch_exact_reduce(const ExecSpace& space, const LaunchConfig& c, const Terms& terms,
                         const Finisher& finish,
                         const LeagueAccumulator<typename ExecSpace::memory_space>& league,
                         std::int64_t n) {
  using Functor = ExactReduceFunctor<ExecSpace, Terms, Finisher, N, EarlyExit>;
  const std::int64_t per_team = (n + c.league_size - 1) / c.league_size;
  Functor f{terms, finish, league, n, per_team, c.copies};
  typename Functor::policy_type policy(space, c.league_size, c.team_size);
  policy.set_scratch_size(0, Kokkos::PerTeam(Functor::scratch_size(c.copies)));
  Kokkos::parallel_for("ExKokkos::exact_reduce", policy, f);
}

// Runs the reduction, and the finisher on its result, in one launch with the expansion size and
// early-exit setting of the configuration.
template <class ExecSpace, class Terms, class Finisher>
void exact_reduce(const ExecSpace& space, const LaunchConfig& c, const Terms& terms,
                  const Finisher& finish, std::int64_t n) {
  const auto league = LeagueAccumulator<typename ExecSpace::memory_space>::zero(space);
  constexpr Kernels kind = level1_kernels(Terms::deposits_per_element);
  with_expansion_size<ExecSpace, kind>(c.expansion_size, [&](auto size) {
    with_early_exit<ExecSpace>(c.early_exit, [&](auto early_exit) {
      launch_exact_reduce<ExecSpace, Terms, Finisher, decltype(size)::value,
                          decltype(early_exit)::value>(space, c, terms, finish, league, n);
    });
  });
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_EXACTREDUCE_IMPL_HPP
