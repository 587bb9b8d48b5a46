// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// One row of extrsv's substitution solved exactly by a team: x_q = RN(RN(S_q) / T(q, q)) (or
// RN(S_q) with a unit diagonal), S_q = b_q + sum_{from <= r < q} -T(q, r) x_r plus, optionally,
// the exact sum of the columns before `from` (a panel's long accumulator).
//
// The team's threads stride the terms with an expansion each (products exact by TwoProd, sums by
// TwoSum), flushed into a team accumulator in scratch memory with integer atomics (exact, so the
// order of the deposits does not matter); b_q and the panel's sum join it there. One thread rounds
// the exact residual once and divides: x_q depends only on the exact sum and the flags (the OR of
// the terms' classes, the same however the terms are split), so every team size, block size and
// backend gives the same bits, signed zeros, infinities and NaNs included.
//
// Used by the team diagonal block (every row, from the block's first column, with the panel's
// exact sum) and by the certified rows (only the rows whose compensated sum is refused, from
// column 0).
#ifndef EXKOKKOS_TRSVTEAMROW_IMPL_HPP
#define EXKOKKOS_TRSVTEAMROW_IMPL_HPP

#include "ExKokkos_Gemv_impl.hpp"
#include "ExKokkos_TrsvOperands_impl.hpp"

#include <ExKokkos_TeamAccumulator.hpp>

namespace ExKokkos {
namespace Impl {

template <class Tri, class BView, int N, bool EarlyExit>
struct TeamExactRow {
  using T = typename BView::non_const_value_type;
  using terms_type =
      RowTerms<PanelOperand<Tri>, RelabelledVector<Tri, BView>, std::is_same<T, double>::value>;
  Tri tri;
  BView b;
  std::int64_t p, rows;  // the diagonal block: rows p .. p + rows - 1
  bool unit;

  // The team accumulator's copies and the digits its reduction writes (level-0 scratch, taken in
  // this order by TeamAccumulator's constructor and `merged_digits`).
  static std::size_t scratch_size(int copies) {
    return TeamAccumulator::scratch_size(copies) +
           sizeof(std::uint64_t) * AccumulatorFormat::num_digits;
  }
  template <class Member>
  KOKKOS_INLINE_FUNCTION static std::uint64_t* merged_digits(const Member& team) {
    return static_cast<std::uint64_t*>(
        team.team_scratch(0).get_shmem(sizeof(std::uint64_t) * AccumulatorFormat::num_digits));
  }

  // Row p + i from column `from` (with `panel`, the exact sum of the columns before it, unless
  // null). Every thread of the team calls it; x_q is in b (and in *keep unless null) for every
  // thread when it returns.
  template <class Member>
  KOKKOS_INLINE_FUNCTION void solve(const Member& team, const TeamAccumulator& accumulator,
                                    std::uint64_t* merged, std::int64_t i, std::int64_t from,
                                    const LongAccumulator* panel, double* keep) const {
    const std::int64_t q = p + i;
    accumulator.clear(team);
    if (panel) accumulator.merge(team, panel->digits(), panel->flags());
    accumulator.with_sink<is_host_space<typename Member::execution_space>()>(
        team, [&](auto& sink) { accumulate(team, i, from, sink); });
    team.team_barrier();
    std::uint32_t flags = 0;
    accumulator.reduce(team, merged, flags);
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      const T residual = round_normalized<T>(merged, flags);
      const T x = unit ? residual : residual / T(tri(q, q));
      b(tri.index(q)) = x;
      if (keep) *keep = x;
    });
    team.team_barrier();
  }

  // Row i's terms from column `from` strided over the team, and b_q (thread 0). An expansion that
  // received nothing but -0 is not flushed: its -0 head would only say "a term was added", which
  // b_q says anyway.
  template <class Member, class Sink>
  KOKKOS_INLINE_FUNCTION void accumulate(const Member& team, std::int64_t i, std::int64_t from,
                                         Sink& sink) const {
    const std::int64_t q = p + i;
    const terms_type terms{PanelOperand<Tri>{tri, p, rows}, RelabelledVector<Tri, BView>{tri, b},
                           i};
    Expansion<N, EarlyExit> expansion;
    accumulate_strided<4>(terms, from + team.team_rank(), q, team.team_size(), expansion, sink);
    if (team.team_rank() == 0) sink.add(double(b(tri.index(q))));
    if (!expansion.empty()) expansion.flush(sink);
    sink.publish();
  }
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_TRSVTEAMROW_IMPL_HPP
