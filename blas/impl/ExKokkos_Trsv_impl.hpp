// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The blocked substitution behind extrsv (ExTRSV of the ExBLAS papers). All eight variants are
// one lower-triangular forward substitution on a relabelled matrix: with q = n-1-i when op(A) is
// upper triangular (reversed order), T(q, r) = op(A)(idx(q), idx(r)) is lower triangular
// (ExKokkos_TrsvOperands_impl.hpp).
//
// Block by block (nb rows, the block size), left-looking:
//   1. panel: for each row q of the block, S_q = sum_{r < p} -T(q, r) x_r by the exgemv
//      schedules (parallel over rows), kept unrounded in a workspace: exact (long accumulators),
//      or as a compensated sum for the certified rows;
//   2. diagonal block, row by row in order: S_q += b_q + sum_{p <= r < q} -T(q, r) x_r, then
//      x_q = RN(RN(S_q) / T(q, q)) (or RN(S_q) with a unit diagonal), RN(S_q) of the exact S_q:
//      one thread on the host (DiagonalBlockFunctor); on devices (doubles) a team whose threads
//      own rows and round them where a compensated sum certifies RN(S_q), solving the others
//      exactly (certified_substitution, whose launches also carry the next block's panel);
//      otherwise a team sharing each row's terms (TeamDiagonalBlockFunctor).
// The residual is the exact sum of b_q and the negated products (negation is exact), so even the
// sign of an exact zero is that of IEEE's b_q - t_q0 x_0 - t_q1 x_1 - ...
// Each x_q is a function of exact quantities only, so every block size, schedule, thread count
// and backend gives the same bits. No team ever waits for another: the blocks are separate
// launches on one execution space instance, which runs them in order.
#ifndef EXKOKKOS_TRSV_IMPL_HPP
#define EXKOKKOS_TRSV_IMPL_HPP

#include "ExKokkos_Gemv_impl.hpp"
#include "ExKokkos_TrsvOperands_impl.hpp"
#include "ExKokkos_TrsvCertifiedRows_impl.hpp"
#include "ExKokkos_TrsvTeamRow_impl.hpp"

#include <ExKokkos_CompensatedSum.hpp>

namespace ExKokkos {
namespace Impl {

// Panel finish (ExKokkos_Finish_impl.hpp): keeps S exactly.
template <class T, class Workspace>
struct KeepExactSum {
  using value_type = T;
  Workspace ws;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, const LongAccumulator& s) const {
    ws(i) = s;
  }
};

// Residual finish (ExKokkos_Finish_impl.hpp): r_q = RN(b_q + S_q) with S_q = sum_r -T(q, r) x_r,
// one rounding.
template <class Tri, class RView, class BView>
struct ResidualFinish {
  using value_type = typename RView::non_const_value_type;
  Tri tri;
  RView r;
  BView b;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t q, const LongAccumulator& s) const {
    const std::int64_t i = tri.index(q);
    LongAccumulator total = s;
    total.add(b(i));
    r(i) = total.round<value_type>();
  }
};

// Rows [p, p + rows) of the substitution on one thread, in order, each by the certify-or-exact
// engine (ExKokkos_CertifyOrExact_impl.hpp): S_q = panel_q + b_q + sum_{p <= r < q} -T(q, r) x_r
// exactly, x_q = RN(RN(S_q) / T(q, q)) (or RN(S_q) with a unit diagonal). `panel` holds each
// row's exact sum over the earlier blocks; nullptr for the first block (and for the LU solves,
// which are one block), where a row's compensated sum is tried first: when its rounding is
// certified it is RN of the exact residual, at a fraction of the cost of a long accumulator per
// row.
template <int N, class Tri, class BView>
struct SerialSubstitution {
  using T = typename BView::non_const_value_type;
  Tri tri;
  BView b;
  bool unit;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t p, std::int64_t rows,
                                         const LongAccumulator* panel) const {
    for (std::int64_t i = 0; i < rows; ++i) {
      const std::int64_t q = p + i;
      const auto finish = round_sum_into<T>([&](std::int64_t, T residual) {
        b(tri.index(q)) = unit ? residual : residual / T(tri(q, q));
      });
      // b_q joins the accumulator, which the exact step thus always rounds (as the team's rows).
      certify_or_exact<N>(
          finish, q, panel == nullptr, [&]() { return compensated_row(p, q); },
          [&](LazyAccumulator& s, double(&slots)[N]) {
            if (panel != nullptr) s.get() = panel[i];
            Expansion<N> e;
            for (std::int64_t r = p; r < q; ++r) add(e, -tri(q, r), b(tri.index(r)), s);
            s.add(b(tri.index(q)));
            for (int u = 0; u < N; ++u) slots[u] = e[u];
          });
    }
  }

  // Row q's residual b_q + sum_{p <= r < q} -T(q, r) x_r as a CompensatedSum (doubles; the engine
  // tries none for floats).
  KOKKOS_INLINE_FUNCTION CompensatedSum compensated_row(std::int64_t p, std::int64_t q) const {
    CompensatedSum c;
    if constexpr (std::is_same<T, double>::value) {
      for (std::int64_t r = p; r < q; ++r) c.add_product(-tri(q, r), b(tri.index(r)));
      c.add(b(tri.index(q)));
    } else {
      (void)p, (void)q;
    }
    return c;
  }

  // Two floats multiply exactly in double; doubles go through TwoProd.
  template <class Sink>
  KOKKOS_INLINE_FUNCTION static void add(Expansion<N>& e, double t, double x, Sink& s) {
    if (std::is_same<T, double>::value)
      e.add_product(t, x, s);
    else
      e.add(t * x, s);
  }
};

// The whole substitution of an n x n triangle on one thread: what the LU solves call inside their
// kernels.
template <int N, class Tri, class BView>
KOKKOS_INLINE_FUNCTION void serial_substitution(const Tri& tri, const BView& b, bool unit) {
  SerialSubstitution<N, Tri, BView>{tri, b, unit}(0, tri.n, nullptr);
}

// The diagonal block of extrsv on one host thread.
template <class Tri, class BView, class Workspace, int N>
struct DiagonalBlockFunctor {
  Tri tri;
  BView b;
  Workspace ws;
  std::int64_t p, rows;
  bool unit, first_block;

  KOKKOS_INLINE_FUNCTION void operator()(const int) const {
    SerialSubstitution<N, Tri, BView>{tri, b, unit}(p, rows, first_block ? nullptr : ws.data());
  }
};

// The diagonal block on a team: what DiagonalBlockFunctor does on one thread, which on a GPU
// keeps a whole block's rows on one thread (with a long accumulator per row in local memory),
// hundreds of times slower than an ordinary trsv. Row by row, in order, each row exactly on the
// team from the block's first column with the panel's exact sum ws(i) (TeamExactRow), as
// DiagonalBlockFunctor does: the same bits. The team barrier after each row publishes x_q (a global
// write) to the threads that read it in the next rows. One team: no team ever waits on another.
//
// Launch bounds: the team runs alone on one multiprocessor, so occupancy does not matter; the
// bounds let a 256-thread team launch whatever the registers of the rounding path, and leave that
// path all 255 registers a thread can have (fewer spills in the once-per-row rounding).
template <class ExecSpace, class Tri, class BView, class Workspace, int N, bool EarlyExit>
struct TeamDiagonalBlockFunctor {
  static constexpr int max_team_size = 256;
  using policy_type = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<max_team_size, 1>>;
  using member_type = typename policy_type::member_type;
  using row_type = TeamExactRow<Tri, BView, N, EarlyExit>;
  row_type row;
  Workspace ws;
  bool first_block;
  int copies;

  static std::size_t scratch_size(int copies) { return row_type::scratch_size(copies); }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const TeamAccumulator accumulator(team, copies);
    std::uint64_t* merged = row_type::merged_digits(team);
    for (std::int64_t i = 0; i < row.rows; ++i)
      row.solve(team, accumulator, merged, i, row.p, first_block ? nullptr : &ws(i), nullptr);
  }
};

template <class ExecSpace>
using TrsvWorkspace = Kokkos::View<LongAccumulator*, typename ExecSpace::memory_space>;

// How the diagonal blocks are solved (and so what the panels keep).
enum class DiagonalSolve {
  one_thread,     // host default: DiagonalBlockFunctor; panels keep exact sums
  team,           // TeamDiagonalBlockFunctor; panels keep exact sums
  certified_rows  // devices' default for doubles: certified_substitution; compensated sums in
                  // parts (CertifiedPanelFunctor)
};

struct TrsvPlan {
  DiagonalSolve diagonal = DiagonalSolve::one_thread;
  LaunchConfig launch;     // the diagonal blocks' team
  std::int64_t block = 0;  // rows per diagonal block
  std::int64_t parts = 0;  // certified_rows: the most parts of a block's panel sums
};

// The diagonal solve and its configuration. On devices: certified rows for doubles unless the
// schedule is team_per_output (the team solve, kept to check it against), or the rows are too
// long for the panels' compensated sums (compensated_max_inner, beyond which every row would be
// refused). On the host one thread solves each block unless the schedule names a device one:
// output_block (certified rows for doubles, else the team) or team_per_output (the team).
// A team takes team_size threads; the team solve's accumulator (and the certified rows' exact
// fallback) receives, per row, at most the panel's sum (fewer deposits than the panel's terms times
// 2 + N plus its threads' flushes) and the block's terms: fewer than n (2 + N) + team_size N
// deposits in all, which must stay within the headroom.
template <class T, class ExecSpace>
TrsvPlan plan_trsv(const ExecSpace& space, const Options& options, std::int64_t n,
                   const char* routine) {
  const bool host = is_host_space<ExecSpace>();
  const Schedule s = options.schedule;
  TrsvPlan plan;
  std::int64_t block = options.block_size > 0 ? options.block_size : (host ? 128 : 256);
  const bool certifies = std::is_same<T, double>::value && n <= compensated_max_inner;
  if (!host)
    plan.diagonal = certifies && s != Schedule::team_per_output ? DiagonalSolve::certified_rows
                                                                : DiagonalSolve::team;
  else if (s == Schedule::output_block)
    plan.diagonal = certifies ? DiagonalSolve::certified_rows : DiagonalSolve::team;
  else if (s == Schedule::team_per_output)
    plan.diagonal = DiagonalSolve::team;
  plan.launch =
      resolve_reduction_config(space, options, block < n ? block : n, 2, routine, Kernels::matrix);
  if (plan.diagonal != DiagonalSolve::one_thread) {
    // (teams above 256 threads on devices: resolve_reduction_config refuses them)
    const LaunchConfig& c = plan.launch;
    const std::int64_t deposits =
        n * (2 + c.expansion_size) + 2 * std::int64_t(c.team_size) * c.expansion_size + 2;
    check_option(deposits < std::int64_t(AccumulatorFormat::deposit_capacity), routine,
                 "extrsv with " + std::to_string(n) + " rows (a team accumulator's headroom)");
  }
  // Checked as asked; a team solve this build does not compile for the host runs as the default
  // one-thread blocks (compiles_team_schedules: the same bits).
  if (!compiles_team_schedules<ExecSpace>()) plan.diagonal = DiagonalSolve::one_thread;
  if (plan.diagonal == DiagonalSolve::certified_rows) {
    // A block of R rows a thread unless asked for fewer; the bits do not depend on it.
    const std::int64_t most = std::int64_t(certified_rows_per_thread) * plan.launch.team_size;
    block = options.block_size > 0 && options.block_size < most ? options.block_size : most;
    plan.parts = certified_panel_most_chunks;  // (the panel between blocks merges the earlier's)
  }
  plan.block = block < n ? block : n;
  return plan;
}

// The panel sums and the diagonal blocks' workspace: exact sums, or compensated ones in parts for
// the certified rows (two: block k's are read while block k + 1's are written), and where their
// first launch stopped.
template <class ExecSpace>
struct TrsvWorkspaces {
  TrsvWorkspace<ExecSpace> exact;
  CompensatedParts<ExecSpace> compensated[2];
  CertifiedRowsState<ExecSpace> stopped;
  TrsvWorkspaces(const ExecSpace& space, const TrsvPlan& plan) {
    const auto rows = static_cast<std::size_t>(plan.block);
    if (plan.diagonal == DiagonalSolve::certified_rows) {
      for (auto& parts : compensated)
        parts = CompensatedParts<ExecSpace>("ExKokkos::extrsv::panel_sums",
                                            static_cast<std::size_t>(plan.parts), rows);
      stopped.status =
          decltype(stopped.status)(Kokkos::view_alloc(space, "ExKokkos::extrsv::stopped_at"), 1);
    } else {
      exact = TrsvWorkspace<ExecSpace>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "ExKokkos::extrsv::workspace"), rows);
    }
  }
};

template <class ExecSpace, class Tri, class BView>
void launch_team_diagonal_block(const ExecSpace& space, const LaunchConfig& c, const Tri& tri,
                                const BView& b, const TrsvWorkspace<ExecSpace>& ws, std::int64_t p,
                                std::int64_t rows, bool unit) {
  using Workspace = TrsvWorkspace<ExecSpace>;
  with_expansion_size<ExecSpace, Kernels::matrix>(c.expansion_size, [&](auto size) {
    constexpr int N = decltype(size)::value;
    auto launch = [&](auto early_exit) {
      using F = TeamDiagonalBlockFunctor<ExecSpace, Tri, BView, Workspace, N,
                                         decltype(early_exit)::value>;
      typename F::policy_type policy(space, 1, c.team_size);
      policy.set_scratch_size(0, Kokkos::PerTeam(F::scratch_size(c.copies)));
      Kokkos::parallel_for("ExKokkos::extrsv::diagonal_block", policy,
                           F{{tri, b, p, rows, unit}, ws, p == 0, c.copies});
    };
    with_early_exit<ExecSpace>(c.early_exit, launch);
  });
}

// The certified rows, block by block: a first launch that solves the block's chains and stops
// at a refused row (chains of a warp's width where the team is whole warps on CUDA, else of one
// row), with the next block's panel over the columns before this block beside it
// (CertifiedChainWithPanel); one that resumes from the stop with the exact path (or returns at
// once); the next block's panel over this block's columns, which merges the earlier panel's
// parts into its own. Block k's panel sums are parts 0 .. parts - 1 of workspace k mod 2.
template <class ExecSpace, class Tri, class BView>
void certified_substitution(const ExecSpace& space, const TrsvPlan& plan, const Tri& tri,
                            const BView& b, const TrsvWorkspaces<ExecSpace>& ws, bool unit) {
  if constexpr (std::is_same<typename BView::non_const_value_type, double>::value) {
    const std::int64_t n = tri.n, nb = plan.block;
    const int team = plan.launch.team_size;
    std::int64_t parts = 0;  // block k's panel sums
    for (std::int64_t p = 0, k = 0; p < n; p += nb, ++k) {
      const std::int64_t rows = n - p < nb ? n - p : nb, next = p + rows;
      const std::int64_t next_rows = n - next < nb ? n - next : nb;  // (0 after the last block)
      const CompensatedParts<ExecSpace>& mine = ws.compensated[k % 2];
      const CompensatedParts<ExecSpace>& theirs = ws.compensated[(k + 1) % 2];
      // The next block's panel over the columns before this block, in the chains' launch.
      const bool early = next_rows > 0 && p > 0;
      const CertifiedPanelShape before = early ? certified_panel_shape(space, p, next_rows, team)
                                               : CertifiedPanelShape{1, 0, 0, 0};  // (no teams)
      const CertifiedPanelFunctor<ExecSpace, Tri, BView> panel{tri, b, theirs, next,  next_rows,
                                                               0,   p, false,  before};
      auto chain = [&](auto width) {
        using F = CertifiedChainWithPanel<ExecSpace, Tri, BView, decltype(width)::value>;
        const std::int64_t teams = 1 + before.slices * before.chunks;
        typename F::policy_type policy(space, static_cast<int>(teams), team);
        policy.set_scratch_size(0, Kokkos::PerTeam(F::scratch_size(rows, team)));
        Kokkos::parallel_for("ExKokkos::extrsv::certified_chain", policy,
                             F{{tri, b, p, rows, unit, mine, parts, ws.stopped}, panel});
      };
      if constexpr (!is_host_space<ExecSpace>()) {
        if (certified_chain_width<ExecSpace>(team) == 32)
          chain(std::integral_constant<int, 32>());
        else
          chain(std::integral_constant<int, 1>());
      } else {
        chain(std::integral_constant<int, 1>());
      }
      using F = CertifiedRowsResume<ExecSpace, Tri, BView>;
      typename F::policy_type policy(space, 1, team);
      policy.set_scratch_size(0, Kokkos::PerTeam(F::scratch_size(plan.launch.copies, rows)));
      Kokkos::parallel_for("ExKokkos::extrsv::certified_rows", policy,
                           F{{tri, b, p, rows, unit}, mine, parts, ws.stopped, plan.launch.copies});
      if (next_rows > 0) {  // the next block's panel over this block's columns
        constexpr int panel_team = certified_panel_team_size<ExecSpace>();
        const CertifiedPanelShape own =
            certified_panel_shape(space, rows, next_rows, panel_team, 8);
        using P = CertifiedPanelFunctor<ExecSpace, Tri, BView>;
        typename P::policy_type panel_policy(space, static_cast<int>(own.slices * own.chunks),
                                             panel_team);
        panel_policy.set_scratch_size(0, Kokkos::PerTeam(P::scratch_size(panel_team)));
        Kokkos::parallel_for("ExKokkos::extrsv::certified_panel", panel_policy,
                             P{tri, b, theirs, next, next_rows, p, next, true, own, before.chunks});
        parts = own.chunks;
      }
    }
  }
}

template <class ExecSpace, class Tri, class BView>
void launch_diagonal_block(const ExecSpace& space, const TrsvPlan& plan, const Tri& tri,
                           const BView& b, const TrsvWorkspaces<ExecSpace>& ws, std::int64_t p,
                           std::int64_t rows, bool unit) {
  if constexpr (is_host_space<ExecSpace>()) {  // the one-thread solve is a host loop
    if (plan.diagonal == DiagonalSolve::one_thread || !compiles_team_schedules<ExecSpace>()) {
      with_expansion_size<ExecSpace, Kernels::matrix>(plan.launch.expansion_size, [&](auto size) {
        using F = DiagonalBlockFunctor<Tri, BView, TrsvWorkspace<ExecSpace>, decltype(size)::value>;
        Kokkos::parallel_for("ExKokkos::extrsv::diagonal_block",
                             Kokkos::RangePolicy<ExecSpace>(space, 0, 1),
                             F{tri, b, ws.exact, p, rows, unit, p == 0});
      });
      return;
    }
  }
  if constexpr (compiles_team_schedules<ExecSpace>())
    launch_team_diagonal_block(space, plan.launch, tri, b, ws.exact, p, rows, unit);
}

// The panel of block p: each row's sum over the solved columns, exact (by the exgemv schedules),
// or compensated in parts for the certified rows (CertifiedPanelFunctor).
template <class T, class ExecSpace, class Tri, class BView>
void launch_panel(const ExecSpace& space, const TrsvPlan& plan, const Tri& tri, const BView& b,
                  const Options& options, const TrsvWorkspaces<ExecSpace>& ws, std::int64_t p,
                  std::int64_t rows, const char* routine) {
  const PanelOperand<Tri> panel{tri, p, rows};
  const GemvConfig c =
      resolve_gemv_config(space, options, panel, std::is_same<T, double>::value, routine);
  launch_gemv(space, c, panel, RelabelledVector<Tri, BView>{tri, b},
              KeepExactSum<T, TrsvWorkspace<ExecSpace>>{ws.exact});
}

template <class T, class ExecSpace, class Tri, class BView>
void blocked_substitution(const ExecSpace& space, const Tri& tri, const BView& b, bool unit,
                          const Options& options, const TrsvPlan& plan,
                          const TrsvWorkspaces<ExecSpace>& ws, const char* routine) {
  if constexpr (compiles_team_schedules<ExecSpace>())
    if (plan.diagonal == DiagonalSolve::certified_rows)
      return certified_substitution(space, plan, tri, b, ws, unit);
  const std::int64_t n = tri.n, nb = plan.block;
  for (std::int64_t p = 0; p < n; p += nb) {
    const std::int64_t rows = n - p < nb ? n - p : nb;
    if (p > 0) launch_panel<T>(space, plan, tri, b, options, ws, p, rows, routine);
    launch_diagonal_block(space, plan, tri, b, ws, p, rows, unit);
  }
}

// Counts the elements where x + d differs from x, and stores RN(x + d) in x.
template <class XView, class DView>
struct ApplyCorrection {
  XView x;
  DView d;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, std::int64_t& changed) const {
    const auto updated = x(i) + d(i);   // one IEEE addition: correctly rounded
    if (!(updated == x(i))) ++changed;  // NaN counts as a change, but ends no loop early either
    x(i) = updated;
  }
};

// Solves in place, then refines up to options.refinement_steps times (ExBLAS, Alg. 6):
// r = RN(b - T x) with an exact residual, d = T^-1 r, x = RN(x + d), until x stops changing.
// Returns the number of refinement steps taken.
template <class ExecSpace, class Tri, class BView>
int solve_triangular(const ExecSpace& space, const Tri& tri, const BView& b, bool unit,
                     const Options& options, const char* routine) {
  using T = typename BView::non_const_value_type;
  const std::int64_t n = tri.n;
  const TrsvPlan plan = plan_trsv<T>(space, options, n, routine);
  const TrsvWorkspaces<ExecSpace> ws(space, plan);
  Kokkos::View<T*, typename ExecSpace::memory_space> original, correction_memory;
  // d is solved for as b's type (a view assignment of rank 1 keeps the pointer and converts any
  // layout), so that the substitution of b and of d share one instantiation of every kernel.
  BView correction;
  if (options.refinement_steps > 0) {
    original = decltype(original)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "b"), n);
    correction_memory =
        decltype(correction_memory)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "d"), n);
    correction = correction_memory;
    Kokkos::deep_copy(space, original, b);
  }
  blocked_substitution<T>(space, tri, b, unit, options, plan, ws, routine);
  int steps = 0;
  while (steps < options.refinement_steps) {
    const FullTriangleOperand<Tri> full{tri, unit};
    const GemvConfig c =
        resolve_gemv_config(space, options, full, std::is_same<T, double>::value, routine);
    launch_gemv(
        space, c, full, RelabelledVector<Tri, BView>{tri, b},
        ResidualFinish<Tri, decltype(correction), decltype(original)>{tri, correction, original});
    blocked_substitution<T>(space, tri, correction, unit, options, plan, ws, routine);
    std::int64_t changed = 0;
    Kokkos::parallel_reduce("ExKokkos::extrsv::refine", Kokkos::RangePolicy<ExecSpace>(space, 0, n),
                            ApplyCorrection<BView, decltype(correction)>{b, correction}, changed);
    ++steps;
    if (changed == 0) break;
  }
  return steps;
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_TRSV_IMPL_HPP
