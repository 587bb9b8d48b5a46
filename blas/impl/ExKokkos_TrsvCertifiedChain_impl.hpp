// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The first launch of extrsv's certified rows (ExKokkos_TrsvCertifiedRows_impl.hpp): the rows of
// a diagonal block solved in chains of W rows within one warp, x broadcast by shuffles.
//
// Why: rounds of four rows a thread with a block barrier each put the division, the certificate
// and a barrier per four rows on the path from row to row. A warp's chain of 32 rows takes the
// division and the certificate off that path and needs no barrier, which makes a row several
// times cheaper, the updates below included (cycle counts: docs/performance.md).
//
//   - rows are owned strided: row = t + team_size m (m < M): the W lanes of a warp own W
//     consecutive rows, so the loads of a column of a column-major T are coalesced; sub-block s
//     (rows W s .. W s + W - 1) belongs to warp s mod (team_size / W), lane l to row W s + l.
//   - the chain of sub-block s: at step k lane k rounds its compensated sum, r = RN(s + c), and
//     divides by its diagonal d with a reciprocal y = RN(1 / d) computed before the chain: q =
//     RN(r y), x = RN(q + (r - q d) y), the remainder r - q d exact by fma (Markstein's correction
//     step); a shuffle broadcasts x_k and the lanes below add -T(row, k) x_k. A lane's sum is
//     final after its turn, so every certificate is checked after the W steps, beside a proper
//     division: x is accepted only where CompensatedSum certifies r = RN(S) and x has the bits of
//     RN(r / d) (Markstein's theorem needs a faithful first quotient, which RN(r y) does not
//     promise; the IEEE division decides). The first lane that fails stops the launch: the rows
//     before it keep their x, and the second launch resumes at it with the exact path.
//   - round s: the warp that solves sub-block s + 1 adds sub-block s's terms to its chain's row
//     only and runs the chain; the others add them to all their rows below, and the warp that
//     solved sub-block s (which skipped its other rows in the round before) also adds sub-block
//     s - 1's. Each update of W terms runs as two compensated sums (even and odd terms) merged
//     once: two dependent chains of additions side by side (CompensatedSum::merge keeps the
//     margin).
//   - what orders the rounds: a warp's rows are only ever read and written by that warp, so a
//     round needs of the others only the x of chain s. With W = 32 on sm_80 and later, the
//     solving warp signals each chain (ExKokkos_ChainSignal_impl.hpp) and a warp waits for the
//     signal of the one chain it reads, running as many rounds behind as its updates take; the
//     next chain waits for nobody's updates but its own warp's. With a team barrier a round
//     (elsewhere) it waits for the slowest warp.
// W is 32 on CUDA for teams of whole warps, else 1 (a chain of one row, x published by the
// barrier): the same code, so the CPU tests run it. x is the definition's bits either way.
#ifndef EXKOKKOS_TRSVCERTIFIEDCHAIN_IMPL_HPP
#define EXKOKKOS_TRSVCERTIFIEDCHAIN_IMPL_HPP

#include <impl/ExKokkos_ChainSignal_impl.hpp>
#include <impl/ExKokkos_WarpPrimitives_impl.hpp>
#include "ExKokkos_TrsvCertifiedPanel_impl.hpp"

namespace ExKokkos {
namespace Impl {

// Rows a thread owns (the block is at most M times the team).
constexpr int certified_rows_per_thread = 4;

KOKKOS_INLINE_FUNCTION bool same_double_bits(double a, double b) {
  return compat::bit_cast<std::uint64_t>(a) == compat::bit_cast<std::uint64_t>(b);
}

// Where the first launch stopped: status(0) is the first row it did not solve (rows when it
// solved them all).
template <class ExecSpace>
struct CertifiedRowsState {
  Kokkos::View<std::int64_t*, typename ExecSpace::memory_space> status;
};

template <class ExecSpace, class Tri, class BView, int W>
struct CertifiedChainDiagonalBlock {
  static_assert(std::is_same<typename BView::non_const_value_type, double>::value,
                "certified rows: doubles only (CompensatedSum)");
  static constexpr int M = certified_rows_per_thread;
  static constexpr int max_team_size = 256;
  using policy_type = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<max_team_size, 1>>;
  using member_type = typename policy_type::member_type;
  Tri tri;
  BView b;
  std::int64_t p, rows;
  bool unit;
  CompensatedParts<ExecSpace> parts;  // the panel's sums of the block's rows, in parts
  std::int64_t panel_parts;           // how many (none for the first block)
  CertifiedRowsState<ExecSpace> state;

  // x of each row of the block; two chains' staged entries; a chain's stop (the row it stopped
  // at, or rows), written by the chain only and read by the others after the round's barrier or
  // the chain's signal (with one slot for all, a later chain could set it while a warp still
  // reads it for an earlier round, once warps run rounds apart: a race); a chain's
  // signal.
  static constexpr int staged = 2 * W * W + W;  // doubles a chain's entries take (stage_chain)
  static std::size_t scratch_size(std::int64_t rows) {
    const auto chains = static_cast<std::size_t>((rows + W - 1) / W);
    return sizeof(double) * (static_cast<std::size_t>(rows) + 2 * staged) +
           sizeof(std::int64_t) * 2 * chains;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    auto& shmem = team.team_scratch(0);
    double* xs = static_cast<double*>(shmem.get_shmem(sizeof(double) * rows));
    double* stage = static_cast<double*>(shmem.get_shmem(sizeof(double) * 2 * staged));
    const int subs = static_cast<int>((rows + W - 1) / W);  // (a block has at most M T rows)
    std::int64_t* stop = static_cast<std::int64_t*>(shmem.get_shmem(sizeof(std::int64_t) * subs));
    std::int64_t* solved =  // chain c's signal: solved + c
        static_cast<std::int64_t*>(shmem.get_shmem(sizeof(std::int64_t) * subs));
    constexpr bool signals = W > 1 && chain_signals;
    const int t = team.team_rank(), T = team.team_size();
    const int lane = t % W, warp = t / W, warps = T / W;
    for (int c = t; c < subs; c += T) {
      stop[c] = rows;
      if constexpr (signals) chain_signal_init(solved + c, W);
    }
    CompensatedSum sum[M];
    start_sums(sum, t, T);
    // The entries of the first two chains, staged while the sums start.
    for (int c = 0; c < 2 && c < subs; ++c)
      if (warp == c % warps) stage_chain(stage, c, lane);
    team.team_barrier();
    if (warp == 0) {
      solve_chain(sum, stage, xs, stop, 0, lane, warps);
      if constexpr (signals) chain_signal_arrive(solved);
    }
    if constexpr (!signals) team.team_barrier();
    for (int s = 0; s + 1 < subs; ++s) {
      const int next = s + 1;
      if constexpr (signals) chain_signal_wait(solved + s);  // (chain s's x and stop)
      if (stop[s] != rows) break;
      if (warp == next % warps) {
        // With one warp its other rows get sub-block s's terms now (there is no other round to
        // defer them to).
        if (warps == 1) {
          const int mine = static_cast<int>(next / warps);
          EXKOKKOS_DEVICE_UNROLL
          for (int m = 0; m < M; ++m) {
            const std::int64_t i = t + std::int64_t(T) * m;
            if (m > mine && i < rows) add_terms(sum[m], i, s, xs);
          }
        }
        solve_chain(sum, stage, xs, stop + next, next, lane, warps);
        if constexpr (signals) chain_signal_arrive(solved + next);
        if (warps == 1) prefetch_round(next, t, T);
      } else {  // (the prefetches shared by the other warps, ahead of their loads)
        prefetch_round(next, warp < next % warps ? t : t - W, T - W);
        const bool owes = s >= 1 && warp == s % warps;  // (warps > 1 here)
        EXKOKKOS_DEVICE_UNROLL
        for (int m = 0; m < M; ++m) {
          const std::int64_t i = t + std::int64_t(T) * m;
          if (i >= W * next && i < rows) {
            if (owes) add_terms(sum[m], i, s - 1, xs);
            add_terms(sum[m], i, s, xs);
          }
        }
      }
      // The chain after next staged by its warp, whose work for this round is done (the solver's
      // own when there is one warp).
      if (s + 2 < subs && warp == (s + 2) % warps) stage_chain(stage, s + 2, lane);
      if constexpr (!signals) team.team_barrier();
    }
    if constexpr (signals) team.team_barrier();  // (every chain's stop final)
    if (t == 0) {
      std::int64_t first = rows;  // (at most one chain stops)
      for (int c = 0; c < subs; ++c) first = stop[c] < first ? stop[c] : first;
      state.status(0) = first;
    }
  }

  // The thread's rows' sums: the panel's parts merged, and b. Part by part for all the rows at
  // once, four parts' loads in flight (a row's parts one after another would wait on a load
  // each, and the chains' start would take a tenth of the block's launch).
  // Merging in order of parts, the same tree as merged_parts: CompensatedSum's margin holds for
  // any tree anyway. Rows past the block read the last row's parts and are cleared after.
  KOKKOS_INLINE_FUNCTION void start_sums(CompensatedSum (&sum)[M], int t, int T) const {
    std::int64_t row[M];
    EXKOKKOS_DEVICE_UNROLL
    for (int m = 0; m < M; ++m) {
      const std::int64_t i = t + std::int64_t(T) * m;
      row[m] = i < rows ? i : rows - 1;
    }
    if (panel_parts > 0) {
      EXKOKKOS_DEVICE_UNROLL
      for (int m = 0; m < M; ++m) sum[m] = parts.get(0, row[m]);
      EXKOKKOS_DEVICE_UNROLL_BY(4)
      for (std::int64_t j = 1; j < panel_parts; ++j) {
        EXKOKKOS_DEVICE_UNROLL
        for (int m = 0; m < M; ++m) sum[m].merge(parts.get(j, row[m]));
      }
    }
    for (int m = 0; m < M; ++m) {
      if (t + std::int64_t(T) * m < rows)
        sum[m].add(b(tri.index(p + row[m])));
      else
        sum[m] = CompensatedSum();
    }
  }

  // The entries that round s's updates read (sub-block s's columns, the rows below sub-block
  // s + 1), asked into the L2 cache a round ahead, a cache line (16 rows of a column-major T) a
  // thread at a time: otherwise the updating warps' loads of them come from memory (long
  // scoreboard stalls), and a warp late with its updates is late for the next chain it solves (with
  // a barrier a round, for every next chain). Also chain s + 1's own entries (its lower triangle,
  // within the block): with the entries before it, which are among the former, stage_chain loads
  // them at the end of the same round (round s - 1), after the warp's updates. A hint on CUDA
  // only (with chains of one row the loop would be wasted work on the host).
  KOKKOS_INLINE_FUNCTION void prefetch_round(int s, int t, int T) const {
    if constexpr (W > 1) {
      constexpr int line = 16;
      const std::int64_t first = std::int64_t(W) * (s + 1);
      if (first >= rows) return;
      const int pieces = static_cast<int>((rows - first + line - 1) / line);
      const int own = W / line;  // chain s + 1's rows
      for (int j = t; j < W * (pieces + own); j += T) {
        const int piece = j / W, k = j % W;
        if (piece < pieces)
          compat::prefetch_l2(tri.address(p + first + line * piece, p + W * s + k));
        else if (first + line * (piece - pieces) < rows && k < line * (piece - pieces + 1) &&
                 first + k < rows)  // (rows first + 16 h .. : columns up to their diagonal)
          compat::prefetch_l2(tri.address(p + first + line * (piece - pieces), p + first + k));
      }
    } else {
      (void)s, (void)t, (void)T;
    }
  }

  // What a lane's chain reads of T, staged in team scratch by its warp two rounds ahead (at the
  // end of its work in the round before the one before it solves): the row's entries in the
  // chain's own columns (k < lane), in the sub-block before it (added just before the chain), and
  // its diagonal, at stage[(c mod 2) staged + ...], lane-contiguous. The block's entries lie
  // beyond the L2 cache, so they must be loaded ahead; held in registers a whole cycle of rounds
  // ahead they would take half of the 255 registers for the whole loop and leave nothing for the
  // next block's panel in the same kernel (CertifiedChainWithPanel), which would spill.
  KOKKOS_INLINE_FUNCTION void stage_chain(double* stage, int c, int lane) const {
    const std::int64_t i = std::int64_t(W) * c + lane, q = p + i;
    const bool active = i < rows;
    double* chain_stage = stage + (c % 2) * staged;
    EXKOKKOS_DEVICE_UNROLL
    for (int k = 0; k < W; ++k) {
      chain_stage[k * W + lane] = active && k < lane ? tri(q, p + W * c + k) : 0.0;
      chain_stage[W * W + k * W + lane] = active && c >= 1 ? tri(q, p + W * (c - 1) + k) : 0.0;
    }
    chain_stage[2 * W * W + lane] = active && !unit ? tri(q, q) : 1.0;
  }

  // Sub-block c's chain on this warp: the lane's sum (row W c + lane, register sum[c / warps])
  // gets sub-block c - 1's terms and the chain runs.
  KOKKOS_INLINE_FUNCTION void solve_chain(CompensatedSum (&sum)[M], const double* stage, double* xs,
                                          std::int64_t* stop, int c, int lane, int warps) const {
    const double* chain_stage = stage + (c % 2) * staged;
    const int mine = c / warps;
    CompensatedSum current = sum[0];
    EXKOKKOS_DEVICE_UNROLL
    for (int m = 1; m < M; ++m)  // (a select, not an indexed array: sum stays in registers)
      if (m == mine) current = sum[m];
    if (c >= 1 && std::int64_t(W) * c + lane < rows) {
      double before[W];
      EXKOKKOS_DEVICE_UNROLL
      for (int k = 0; k < W; ++k) before[k] = chain_stage[W * W + k * W + lane];
      add_terms(current, before, c - 1, xs);
    }
    chain(current, chain_stage, xs, stop, c, lane);
    EXKOKKOS_DEVICE_UNROLL
    for (int m = 0; m < M; ++m)
      if (m == mine) sum[m] = current;
  }

  // Sub-block s's terms -T(i, k) x_k added to row i's sum: even and odd k in two sums, merged.
  KOKKOS_INLINE_FUNCTION void add_terms(CompensatedSum& sum, std::int64_t i, std::int64_t s,
                                        const double* xs) const {
    double a[W];
    EXKOKKOS_DEVICE_UNROLL
    for (int k = 0; k < W; ++k) a[k] = tri(p + i, p + W * s + k);
    add_terms(sum, a, s, xs);
  }

  KOKKOS_INLINE_FUNCTION void add_terms(CompensatedSum& sum, const double (&a)[W], std::int64_t s,
                                        const double* xs) const {
    const std::int64_t k0 = W * s;
    if constexpr (W == 1) {
      sum.add_product(a[0], -xs[k0]);
    } else {
      CompensatedSum odd;
      EXKOKKOS_DEVICE_UNROLL
      for (int k = 0; k < W; k += 2) {
        sum.add_product(a[k], -xs[k0 + k]);
        odd.add_product(a[k + 1], -xs[k0 + k + 1]);
      }
      sum.merge(odd);
    }
  }

  // The chain of sub-block s on the warp; lane's sum is that of row W s + lane, complete for every
  // column before the sub-block. Publishes x of the rows before the first failed lane (in xs and
  // b), and that row in *stop.
  KOKKOS_INLINE_FUNCTION void chain(CompensatedSum& sum, const double* chain_stage, double* xs,
                                    std::int64_t* stop, std::int64_t s, int lane) const {
    const std::int64_t i = W * s + lane, q = p + i;
    const bool active = i < rows;
    const double d = chain_stage[2 * W * W + lane];  // (1 for a unit diagonal: then x = r)
    const double y = 1.0 / d;                        // (ahead of the chain)
    double x = 0.0;
    // Unrolled by four, not whole: the whole loop's 32 copies of the step compile to 504 shuffles
    // and a branch around each lane's update (BSSY / BSYNC); four copies a pass keep 32 shuffles,
    // and the update, computed by every lane and kept by a select where lane > k, has no
    // branch.
    EXKOKKOS_DEVICE_UNROLL_BY(4)
    for (int k = 0; k < W; ++k) {
      // Every lane forms its quotient and lane k's is broadcast: no divergent branch before the
      // shuffle (the other lanes' quotients cost the warp no extra instruction).
      const double r = sum.head() + sum.errors();
      const double quotient = r * y;
      const double remainder = compat::fma(-quotient, d, r);  // exact for a faithful quotient
      const double candidate = compat::fma(remainder, y, quotient);
      if (lane == k) x = candidate;
      const double xk = chain_broadcast<W>(candidate, k);
      CompensatedSum updated = sum;
      updated.add_product(chain_stage[k * W + lane], -xk);
      if (lane > k) sum = updated;
    }
    // With d = 1 the steps give x = r but for r = -0 (x = +0) and r = +-inf (x = NaN): sums that
    // round refuses (a zero, an infinity).
    double r = 0.0;
    const bool accepted = !active || (sum.round(r) && same_double_bits(x, r / d));
    const int failed = chain_first_failed<W>(!accepted);
    if (active && lane < failed) {
      xs[i] = x;
      b(tri.index(q)) = x;
    }
    if (lane == failed) *stop = i;  // (failed < W: an active lane)
  }
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_TRSVCERTIFIEDCHAIN_IMPL_HPP
