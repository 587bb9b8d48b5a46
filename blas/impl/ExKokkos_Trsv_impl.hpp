// The blocked substitution behind extrsv (ExTRSV of the ExBLAS papers). All eight variants are
// one lower-triangular forward substitution on a relabelled matrix: with q = n-1-i when op(A) is
// upper triangular (reversed order), T(q, r) = op(A)(idx(q), idx(r)) is lower triangular.
//
// Block by block (nb rows, the block size), left-looking:
//   1. panel: for each row q of the block, S_q = sum_{r < p} -T(q, r) x_r exactly, by the exgemv
//      schedules (parallel over rows), kept unrounded in a workspace of long accumulators;
//   2. diagonal block, row by row in order: S_q += b_q + sum_{p <= r < q} -T(q, r) x_r exactly,
//      then x_q = RN(RN(S_q) / T(q, q)) (or RN(S_q) with a unit diagonal); one thread on the
//      host (DiagonalBlockFunctor), one team sharing each row's terms on devices
//      (TeamDiagonalBlockFunctor).
// The residual is the exact sum of b_q and the negated products (negation is exact), so even the
// sign of an exact zero is that of IEEE's b_q - t_q0 x_0 - t_q1 x_1 - ...
// Each x_q is a function of exact quantities only, so every block size, schedule, thread count
// and backend gives the same bits. No team ever waits for another: the blocks are separate
// launches on one execution space instance, which runs them in order.
#ifndef EXKOKKOS_TRSV_IMPL_HPP
#define EXKOKKOS_TRSV_IMPL_HPP

#include "ExKokkos_Gemv_impl.hpp"

#include <ExKokkos_CompensatedSum.hpp>

namespace ExKokkos {
namespace Impl {

template <class AView, bool Transposed, bool Reversed>
struct TriangleOperand {
  AView A;
  std::int64_t n;
  KOKKOS_INLINE_FUNCTION std::int64_t index(std::int64_t q) const {
    return Reversed ? n - 1 - q : q;
  }
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t q, std::int64_t r) const {
    const std::int64_t i = index(q), j = index(r);
    return Transposed ? A(j, i) : A(i, j);
  }
  bool row_contiguous() const { return !Reversed && A.stride(Transposed ? 0 : 1) == 1; }
};

// Rows p .. p+rows-1 of -T against the solved columns 0 .. p-1 (an exgemv operand).
template <class Tri>
struct PanelOperand {
  Tri tri;
  std::int64_t p, rows;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t i, std::int64_t k) const {
    return -tri(p + i, k);
  }
  std::int64_t outputs() const { return rows; }
  std::int64_t inner() const { return p; }
  bool inner_contiguous() const { return tri.row_contiguous(); }
};

// The whole of row q of -T including its diagonal (-1 when unit), zeros beyond it: the operand
// of the exact residual b - T x.
template <class Tri>
struct FullTriangleOperand {
  Tri tri;
  bool unit;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t q, std::int64_t r) const {
    return r < q ? -tri(q, r) : (r == q ? (unit ? -1.0 : -tri(q, q)) : 0.0);
  }
  std::int64_t outputs() const { return tri.n; }
  std::int64_t inner() const { return tri.n; }
  bool inner_contiguous() const { return tri.row_contiguous(); }
};

// x_r in the relabelled order, read from the vector being solved in place.
template <class Tri, class BView>
struct RelabelledVector {
  Tri tri;
  BView b;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t r) const { return b(tri.index(r)); }
};

// Panel finish: keeps S exactly.
template <class T, class Workspace>
struct KeepExactSum {
  using value_type = T;
  Workspace ws;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, const LongAccumulator& s) const {
    ws(i) = s;
  }
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, const std::uint64_t* normalized,
                                         std::uint32_t flags) const {
    LongAccumulator s;
    s.merge_normalized(normalized, flags);
    ws(i) = s;
  }
};

// Residual finish: r_q = RN(b_q + S_q) with S_q = sum_r -T(q, r) x_r, one rounding.
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
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t q, const std::uint64_t* normalized,
                                         std::uint32_t flags) const {
    LongAccumulator s;
    s.merge_normalized(normalized, flags);
    (*this)(q, s);
  }
};

template <class Tri, class BView, class Workspace, int N>
struct DiagonalBlockFunctor {
  using T = typename BView::non_const_value_type;
  Tri tri;
  BView b;
  Workspace ws;
  std::int64_t p, rows;
  bool unit, first_block;

  KOKKOS_INLINE_FUNCTION void operator()(const int) const {
    for (std::int64_t i = 0; i < rows; ++i) {
      const std::int64_t q = p + i;
      if (first_block && certified_row(q)) continue;
      LongAccumulator s;
      if (!first_block) s = ws(i);
      Expansion<N> e;
      for (std::int64_t r = p; r < q; ++r) add(e, -tri(q, r), b(tri.index(r)), s);
      e.flush(s);
      s.add(b(tri.index(q)));
      const T residual = s.round<T>();
      b(tri.index(q)) = unit ? residual : residual / T(tri(q, q));
    }
  }

  // Row q without a panel sum (the first block, and the LU solves, which are one block): the
  // residual from CompensatedSum when its rounding is certified (RN of the exact residual, as
  // below, at a fraction of the cost of a long accumulator per row); false leaves the row to the
  // exact sum below.
  KOKKOS_INLINE_FUNCTION bool certified_row(std::int64_t q) const {
    if constexpr (std::is_same<T, double>::value) {
      CompensatedSum c;
      for (std::int64_t r = p; r < q; ++r) c.add_product(-tri(q, r), b(tri.index(r)));
      c.add(b(tri.index(q)));
      double residual;
      if (!c.round(residual)) return false;
      b(tri.index(q)) = unit ? residual : residual / T(tri(q, q));
      return true;
    } else {
      (void)q;
      return false;
    }
  }

  // Two floats multiply exactly in double; doubles go through TwoProd.
  KOKKOS_INLINE_FUNCTION static void add(Expansion<N>& e, double t, double x, LongAccumulator& s) {
    if (std::is_same<T, double>::value)
      e.add_product(t, x, s);
    else
      e.add(t * x, s);
  }
};

// The diagonal block on a team: what DiagonalBlockFunctor does on one thread, which on a GPU
// kept a whole block's rows on one thread (with a long accumulator per row in local memory) and
// ran 762 times slower than cuBLAS. Row by row, in order: the team's threads stride the terms
// -T(q, r) x_r, p <= r < q, with an expansion each (products exact by TwoProd, sums by TwoSum),
// flushed into a team accumulator in scratch memory with integer atomics (exact, so the order of
// the deposits does not matter); the panel's exact sum ws(i) and b_q join it there. One thread
// rounds the exact residual once and divides, as DiagonalBlockFunctor does: x_q depends only on
// the exact sum and the flags (the OR of the terms' classes: the same however the terms are
// split), so both give the same bits, signed zeros, infinities and NaNs included. The team
// barrier after each row publishes x_q (a global write) to the threads that read it in the next
// rows. One team: no team ever waits on another.
//
// Launch bounds: the team runs alone on one multiprocessor, so occupancy does not matter; the
// bounds let a 256-thread team launch whatever the registers of the rounding path, and leave that
// path all 255 registers a thread can have (fewer spills in the once-per-row rounding).
template <class ExecSpace, class Tri, class BView, class Workspace, int N, bool EarlyExit>
struct TeamDiagonalBlockFunctor {
  static constexpr int max_team_size = 256;
  using policy_type = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<max_team_size, 1>>;
  using member_type = typename policy_type::member_type;
  using T = typename BView::non_const_value_type;
  using terms_type =
      RowTerms<PanelOperand<Tri>, RelabelledVector<Tri, BView>, std::is_same<T, double>::value>;
  using is_product = std::integral_constant<bool, terms_type::is_product>;
  Tri tri;
  BView b;
  Workspace ws;
  std::int64_t p, rows;
  bool unit, first_block;
  int copies;

  static std::size_t scratch_size(int copies) {
    return TeamAccumulator::scratch_size(copies) +
           sizeof(std::uint64_t) * AccumulatorFormat::num_digits;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const TeamAccumulator accumulator(team, copies);
    std::uint64_t* merged = static_cast<std::uint64_t*>(
        team.team_scratch(0).get_shmem(sizeof(std::uint64_t) * AccumulatorFormat::num_digits));
    for (std::int64_t i = 0; i < rows; ++i) {
      const std::int64_t q = p + i;
      accumulator.clear(team);
      if (!first_block) accumulator.merge(team, ws(i).digits(), ws(i).flags());
      if (team.team_size() == 1) {
        TeamAccumulator::ExclusiveSink sink = accumulator.exclusive_sink();
        accumulate(team, i, sink);
      } else {
        TeamAccumulator::Sink sink = accumulator.sink_for(team);
        accumulate(team, i, sink);
      }
      team.team_barrier();
      std::uint32_t flags = 0;
      accumulator.reduce(team, merged, flags);
      Kokkos::single(Kokkos::PerTeam(team), [&]() {
        const T residual = round_normalized<T>(merged, flags);
        b(tri.index(q)) = unit ? residual : residual / T(tri(q, q));
      });
      team.team_barrier();
    }
  }

  // Row i's terms strided over the team, and b_q (thread 0). An expansion that received nothing
  // but -0 is not flushed: its -0 head would only say "a term was added", which b_q says anyway.
  template <class Sink>
  KOKKOS_INLINE_FUNCTION void accumulate(const member_type& team, std::int64_t i,
                                         Sink& sink) const {
    const std::int64_t q = p + i;
    const terms_type terms{PanelOperand<Tri>{tri, p, rows}, RelabelledVector<Tri, BView>{tri, b},
                           i};
    Expansion<N, EarlyExit> expansion;
    accumulate_strided<4>(terms, p + team.team_rank(), q, team.team_size(), expansion, sink,
                          is_product());
    if (team.team_rank() == 0) sink.add(double(b(tri.index(q))));
    if (!expansion.empty()) expansion.flush(sink);
    sink.publish();
  }
};

template <class ExecSpace>
using TrsvWorkspace = Kokkos::View<LongAccumulator*, typename ExecSpace::memory_space>;

// The diagonal block on a team: the default on devices; on the host only when asked for with the
// team schedules (the host tests use it to check the device path bit for bit).
template <class ExecSpace, class Tri, class BView>
void launch_team_diagonal_block(const ExecSpace& space, const LaunchConfig& c, const Tri& tri,
                                const BView& b, const TrsvWorkspace<ExecSpace>& ws, std::int64_t p,
                                std::int64_t rows, bool unit) {
  using Workspace = TrsvWorkspace<ExecSpace>;
  with_expansion_size(c.expansion_size, [&](auto size) {
    constexpr int N = decltype(size)::value;
    auto launch = [&](auto early_exit) {
      using F = TeamDiagonalBlockFunctor<ExecSpace, Tri, BView, Workspace, N,
                                         decltype(early_exit)::value>;
      typename F::policy_type policy(space, 1, c.team_size);
      policy.set_scratch_size(0, Kokkos::PerTeam(F::scratch_size(c.copies)));
      Kokkos::parallel_for("ExKokkos::extrsv::diagonal_block", policy,
                           F{tri, b, ws, p, rows, unit, p == 0, c.copies});
    };
    if (c.early_exit)
      launch(std::true_type());
    else
      launch(std::false_type());
  });
}

template <class ExecSpace, class Tri, class BView>
void launch_diagonal_block(const ExecSpace& space, const LaunchConfig& c, bool on_team,
                           const Tri& tri, const BView& b, const TrsvWorkspace<ExecSpace>& ws,
                           std::int64_t p, std::int64_t rows, bool unit, std::true_type /*host*/) {
  if (on_team) return launch_team_diagonal_block(space, c, tri, b, ws, p, rows, unit);
  with_expansion_size(c.expansion_size, [&](auto size) {
    using F = DiagonalBlockFunctor<Tri, BView, TrsvWorkspace<ExecSpace>, decltype(size)::value>;
    Kokkos::parallel_for("ExKokkos::extrsv::diagonal_block",
                         Kokkos::RangePolicy<ExecSpace>(space, 0, 1),
                         F{tri, b, ws, p, rows, unit, p == 0});
  });
}

template <class ExecSpace, class Tri, class BView>
void launch_diagonal_block(const ExecSpace& space, const LaunchConfig& c, bool /*on_team*/,
                           const Tri& tri, const BView& b, const TrsvWorkspace<ExecSpace>& ws,
                           std::int64_t p, std::int64_t rows, bool unit, std::false_type /*host*/) {
  launch_team_diagonal_block(space, c, tri, b, ws, p, rows, unit);
}

// The diagonal blocks' launch configuration. A team (the default on devices, or the schedules
// team_per_output and output_block on the host) takes team_size threads and accumulators_per_team
// copies; its accumulator receives, per row, the panel's sum (its deposits, fewer than the
// panel's terms times 2 + N plus its threads' flushes) and the block's terms: fewer than
// n (2 + N) + team_size N deposits in all, which must stay within the headroom.
template <class ExecSpace>
LaunchConfig resolve_diagonal_config(const ExecSpace& space, const Options& options, std::int64_t n,
                                     std::int64_t rows, bool& on_team, const char* routine) {
  const bool host = is_host_space<ExecSpace>();
  on_team = !host || options.schedule == Schedule::team_per_output ||
            options.schedule == Schedule::output_block;
  const LaunchConfig c = resolve_reduction_config(space, options, rows, 2, routine);
  if (on_team) {  // (teams above 256 threads on devices: resolve_reduction_config refuses them)
    const std::int64_t deposits =
        n * (2 + c.expansion_size) + 2 * std::int64_t(c.team_size) * c.expansion_size + 2;
    check_option(deposits < std::int64_t(AccumulatorFormat::deposit_capacity), routine,
                 "extrsv with " + std::to_string(n) + " rows (a team accumulator's headroom)");
  }
  return c;
}

template <class T, class ExecSpace, class Tri, class BView>
void blocked_substitution(const ExecSpace& space, const Tri& tri, const BView& b, bool unit,
                          const Options& options, const TrsvWorkspace<ExecSpace>& ws,
                          const char* routine) {
  using Workspace = TrsvWorkspace<ExecSpace>;
  const std::int64_t n = tri.n, nb = static_cast<std::int64_t>(ws.extent(0));
  using host_tag = std::integral_constant<bool, is_host_space<ExecSpace>()>;
  for (std::int64_t p = 0; p < n; p += nb) {
    const std::int64_t rows = n - p < nb ? n - p : nb;
    if (p > 0) {
      const PanelOperand<Tri> panel{tri, p, rows};
      const GemvConfig c =
          resolve_gemv_config(space, options, panel, std::is_same<T, double>::value, routine);
      launch_gemv(space, c, panel, RelabelledVector<Tri, BView>{tri, b},
                  KeepExactSum<T, Workspace>{ws}, host_tag());
    }
    bool on_team = false;
    const LaunchConfig c = resolve_diagonal_config(space, options, n, rows, on_team, routine);
    launch_diagonal_block(space, c, on_team, tri, b, ws, p, rows, unit, host_tag());
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
  const bool host = is_host_space<ExecSpace>();
  const std::int64_t block = options.block_size > 0 ? options.block_size : (host ? 128 : 256);
  const TrsvWorkspace<ExecSpace> ws(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "ExKokkos::extrsv::workspace"),
      static_cast<std::size_t>(block < n ? block : n));
  Kokkos::View<T*, typename ExecSpace::memory_space> original, correction;
  if (options.refinement_steps > 0) {
    original = decltype(original)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "b"), n);
    correction = decltype(correction)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "d"), n);
    Kokkos::deep_copy(space, original, b);
  }
  blocked_substitution<T>(space, tri, b, unit, options, ws, routine);
  int steps = 0;
  while (steps < options.refinement_steps) {
    const FullTriangleOperand<Tri> full{tri, unit};
    const GemvConfig c =
        resolve_gemv_config(space, options, full, std::is_same<T, double>::value, routine);
    launch_gemv(
        space, c, full, RelabelledVector<Tri, BView>{tri, b},
        ResidualFinish<Tri, decltype(correction), decltype(original)>{tri, correction, original},
        std::integral_constant<bool, is_host_space<ExecSpace>()>());
    blocked_substitution<T>(space, tri, correction, unit, options, ws, routine);
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
