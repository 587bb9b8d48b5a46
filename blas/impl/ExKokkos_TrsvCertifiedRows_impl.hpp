// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// extrsv's diagonal block with certified rows: the devices' default for doubles.
//
// The team diagonal block (TeamDiagonalBlockFunctor) pays, for every row, a chain of clearing a
// team accumulator, a barrier, reducing it and rounding it on one thread, rows one after the
// other: two orders of magnitude slower than an ordinary trsv. Here the rows wait for nothing
// but x:
//   - the panel (columns before the block) gives each row a compensated sum instead of an exact
//     one (Dot2 of Ogita, Rump and Oishi; CompensatedSum, whose margin holds for any order of
//     additions and merges), in parts (ExKokkos_TrsvCertifiedPanel_impl.hpp) merged here;
//   - a first launch (CertifiedChainDiagonalBlock, ExKokkos_TrsvCertifiedChain_impl.hpp) solves
//     the rows in chains of a warp's width, rounding each row where CompensatedSum certifies that
//     the rounding is RN(S_k) of the exact residual, x_k = RN(RN(S_k) / T(k, k)), the
//     definition, and stops at the first row it cannot certify;
//   - where the certificate refuses (cancellation beyond the margin, zero residuals, whose sign
//     needs the exact sum, NaN, infinities, the ends of the range), row k must be summed exactly
//     (TeamExactRow, on the whole team, from column 0, as every exact path). That code, inlined,
//     takes the chain's registers, so a second launch (below), made after every first one,
//     resumes from the row the first stopped at, or returns at once when the first one finished:
//     thread t owns group t, the R consecutive rows tR .. tR + R - 1 of the block, their sums in
//     registers, rebuilt from the panel's parts and the x solved before; in round g the owner of
//     group g solves its rows one after the other on its own, the team solves the refused ones
//     exactly, a barrier publishes the group's R values, and every thread below adds their R
//     terms to each of its rows. x_k is the same bits either way.
//
// Launch bounds: one team, alone on a multiprocessor: every register a thread can have.
#ifndef EXKOKKOS_TRSVCERTIFIEDROWS_IMPL_HPP
#define EXKOKKOS_TRSVCERTIFIEDROWS_IMPL_HPP

#include "ExKokkos_TrsvCertifiedChain_impl.hpp"
#include "ExKokkos_TrsvCertifiedPanel_impl.hpp"
#include "ExKokkos_TrsvTeamRow_impl.hpp"

namespace ExKokkos {
namespace Impl {

template <class ExecSpace, class Tri, class BView>
struct CertifiedRowsResume {
  static_assert(std::is_same<typename BView::non_const_value_type, double>::value,
                "certified rows: doubles only (CompensatedSum)");
  static constexpr int R = certified_rows_per_thread;
  static constexpr int max_team_size = 256;
  using policy_type = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<max_team_size, 1>>;
  using member_type = typename policy_type::member_type;
  using row_type = TeamExactRow<Tri, BView, 4, true>;
  using Entries = double[R][R];
  row_type row;                       // tri, b, the block (p, rows), unit
  CompensatedParts<ExecSpace> parts;  // the panel's sums of the block's rows, in parts
  std::int64_t panel_parts;           // how many (none for the first block)
  CertifiedRowsState<ExecSpace> state;
  int copies;

  // x of each row of the block and whether its sum was refused, then TeamExactRow's.
  static std::size_t scratch_size(int copies, std::int64_t rows) {
    const auto n = static_cast<std::size_t>(rows);
    return sizeof(double) * n + (sizeof(int) * n + 7) / 8 * 8 + row_type::scratch_size(copies);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    auto& shmem = team.team_scratch(0);
    double* xs = static_cast<double*>(shmem.get_shmem(sizeof(double) * row.rows));
    int* refused =
        static_cast<int*>(shmem.get_shmem((sizeof(int) * std::size_t(row.rows) + 7) / 8 * 8));
    resume(team, xs, refused);
  }

  // T(p + hR + m, p + gR + u), m, u < R: group h's rows against group g's columns (zero where
  // there is no entry below the diagonal).
  KOKKOS_INLINE_FUNCTION void load(Entries& a, std::int64_t h, std::int64_t g) const {
    for (int m = 0; m < R; ++m)
      for (int u = 0; u < R; ++u) {
        const std::int64_t i = h * R + m, k = g * R + u;
        double v = 0.0;  // (a predicated load: the value is not used here)
        if (k < i && i < row.rows) v = row.tri(row.p + i, row.p + k);
        a[m][u] = v;
      }
  }

  // Group h's sums where the first launch stopped at row `start`: the panel's parts, b and the
  // terms of the block's columns before min(start, g0 R) (g0: the group of `start`, whose own
  // earlier rows' terms its owner adds as it solves them), with x from b; the diagonal.
  KOKKOS_INLINE_FUNCTION void start_group(CompensatedSum (&sum)[R], double (&diagonal)[R],
                                          std::int64_t h, std::int64_t start) const {
    const std::int64_t g0 = start / R, end = h == g0 ? start : g0 * R;
    for (int m = 0; m < R; ++m) {
      const std::int64_t i = h * R + m;
      diagonal[m] = 1.0;
      if (i < row.rows) {
        const std::int64_t q = row.p + i;
        if (panel_parts > 0) sum[m] = merged_parts(parts, panel_parts, i);
        sum[m].add(row.b(row.tri.index(q)));
        for (std::int64_t k = 0; k < end && k < i; ++k)
          sum[m].add_product(row.tri(q, row.p + k), -row.b(row.tri.index(row.p + k)));
        if (!row.unit) diagonal[m] = row.tri(q, q);
      }
    }
  }

  // Group g's terms (columns gR .. gR + R - 1, x in xs) added to this thread's rows; a holds the
  // entries (zero beyond the block's rows).
  KOKKOS_INLINE_FUNCTION void add_group(CompensatedSum (&sum)[R], const Entries& a,
                                        const double* xs, std::int64_t g) const {
    for (int u = 0; u < R; ++u)
      if (g * R + u < row.rows) {
        const double x = -xs[g * R + u];
        for (int m = 0; m < R; ++m) sum[m].add_product(a[m][u], x);  // (R chains side by side)
      }
  }

  // The owner's rows from `from` to the end of group g, in order, up to the first one whose
  // rounding is refused (marked in `refused`; the caller stops there). own holds the group's
  // entries against its own columns. Every row is computed before any certificate is known, each
  // x's term added to the later rows at once, so that the chain from row to row is a product, a
  // compensated addition and a division, the certificates beside it. After a refused row, the
  // terms of its x and of the later ones are taken out again (added negated: exactly, so the
  // sums stand for the same exact values, under a margin that only grows) and nothing of them is
  // published.
  KOKKOS_INLINE_FUNCTION void solve_own_rows(CompensatedSum (&sum)[R], const double (&diagonal)[R],
                                             const Entries& own, double* xs, int* refused,
                                             std::int64_t g, std::int64_t from) const {
    const std::int64_t k0 = g * R;
    double x[R];
    bool active[R], certified[R];
    for (int m = 0; m < R; ++m) {  // (unrolled: sum[m], x[m] and own[.][m] stay in registers)
      const std::int64_t k = k0 + m;
      active[m] = k >= from && k < row.rows;
      const double r = sum[m].head() + sum[m].errors();
      x[m] = row.unit ? r : r / diagonal[m];
      double rounded;
      certified[m] = (sum[m].terms() <= compensated_max_terms) &
                     certified_compensated(sum[m].head(), sum[m].errors(), sum[m].magnitude(),
                                           sum[m].terms(), rounded);
      if (active[m])
        for (int n = m + 1; n < R; ++n) sum[n].add_product(own[n][m], -x[m]);
    }
    bool refusal = false;
    for (int m = 0; m < R; ++m) {
      if (!active[m]) continue;
      const std::int64_t k = k0 + m;
      if (!refusal) {
        refused[k] = certified[m] ? 0 : 1;
        if (certified[m]) {
          xs[k] = x[m];
          row.b(row.tri.index(row.p + k)) = x[m];
        }
      }
      refusal = refusal || !certified[m];
      if (refusal)  // (rare) this x's terms out of the later rows again
        for (int n = m + 1; n < R; ++n) sum[n].add_product(own[n][m], x[m]);
    }
  }

  // The first row of group g from `from` on that the owner refused, or the group's end.
  KOKKOS_INLINE_FUNCTION std::int64_t first_refused(const int* refused, std::int64_t g,
                                                    std::int64_t from) const {
    const std::int64_t end = (g + 1) * R < row.rows ? (g + 1) * R : row.rows;
    std::int64_t k = from;
    while (k < end && !refused[k]) ++k;
    return k;
  }

  // The second launch: from the row the first one stopped at, group g owned by thread g, every
  // refused row solved exactly on the team.
  KOKKOS_INLINE_FUNCTION void resume(const member_type& team, double* xs, int* refused) const {
    const std::int64_t start = state.status(0), rows = row.rows;
    if (start >= rows) return;  // (the same for the whole team)
    const TeamAccumulator accumulator(team, copies);
    std::uint64_t* merged = row_type::merged_digits(team);
    const int t = team.team_rank();
    const std::int64_t groups = (rows + R - 1) / R, g0 = start / R, mine = t;
    CompensatedSum sum[R];
    double diagonal[R];
    if (mine >= g0) start_group(sum, diagonal, mine, start);
    for (std::int64_t k = g0 * R + t; k < start; k += team.team_size())  // g0's solved rows
      xs[k] = row.b(row.tri.index(row.p + k));
    Entries own, a;
    load(own, mine, mine);
    for (std::int64_t g = g0; g < groups; ++g) {
      std::int64_t from = g == g0 ? start : g * R;
      for (;;) {
        if (t == g) solve_own_rows(sum, diagonal, own, xs, refused, g, from);
        team.team_barrier();
        const std::int64_t k = first_refused(refused, g, from);
        if (k == ((g + 1) * R < rows ? (g + 1) * R : rows)) break;
        row.solve(team, accumulator, merged, k, 0, nullptr, xs + k);
        if (t == g) {  // x_k's term in the owner's later rows
          const int m = static_cast<int>(k - g * R);
          for (int u = 0; u < R; ++u)
            if (u == m)
              for (int n = u + 1; n < R; ++n) sum[n].add_product(own[n][u], -xs[k]);
        }
        from = k + 1;
      }
      if (mine > g) {
        load(a, mine, g);
        add_group(sum, a, xs, g);
      }
    }
  }
};

// The first launch of a diagonal block with the next block's panel over the columns before this
// block beside it: team 0 solves the block's chains, teams 1 .. the panel's (its parts in the other
// of two workspaces). Neither needs the other's results: the panel's columns were solved before
// this launch. The panel (memory-bound, on every multiprocessor) thus leaves the path of the
// solve, which runs on one multiprocessor; only the previous block's
// own columns are left to a small panel after it. Both parts share the chain's launch bounds (one
// team a multiprocessor, 255 registers), which the streaming panel does not need but does not
// mind (eight loads in flight a thread).
template <class ExecSpace, class Tri, class BView, int W>
struct CertifiedChainWithPanel {
  using chain_type = CertifiedChainDiagonalBlock<ExecSpace, Tri, BView, W>;
  using panel_type = CertifiedPanelFunctor<ExecSpace, Tri, BView>;
  using policy_type = typename chain_type::policy_type;
  using member_type = typename policy_type::member_type;
  chain_type chain;
  panel_type panel;  // (panel.shape.slices * panel.shape.chunks teams; none for the last block)

  static std::size_t scratch_size(std::int64_t rows, int team_size) {
    const std::size_t a = chain_type::scratch_size(rows), b = panel_type::scratch_size(team_size);
    return a > b ? a : b;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    if (team.league_rank() == 0)
      chain(team);
    else
      panel.run(team, team.league_rank() - 1);
  }
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_TRSVCERTIFIEDROWS_IMPL_HPP
