// team_getf2 for double matrices on a team of several threads (devices, and host teams of more
// than one thread), with column j + 1's sums started one step early: the same entries as
// team_getf2 (ExKokkos_Getf2_impl.hpp), each RN of the same exact sum, the same pivots and info.
//
// Why: at step j a team computes the 32 - j entries of column j, then the 31 - j entries of row j
// of U, each a compensated sum of j terms, so at n = 32 about half a warp's lanes idle in every
// phase (the batched 32 x 32 LU took 3.7x cublasDgetrfBatched on the H100, 2026-11-24). Column
// j + 1's sums over its terms k < j need nothing that step j computes (L's columns k < j and U's
// rows k < j are final; rows are only swapped at step j, before this work starts), so the row
// phase of step j also starts them: the idle lanes take them, and column j + 1's phase then adds
// one term per entry and rounds. A sum started early takes exactly the steps lu_update takes
// (a_ij, then the products in order k = 0, 1, ..., the same CompensatedSum operations), so its
// rounding is certified exactly when lu_update's is; a refused one is summed exactly from A as
// lu_update does.
#ifndef EXKOKKOS_GETF2LOOKAHEAD_IMPL_HPP
#define EXKOKKOS_GETF2LOOKAHEAD_IMPL_HPP

#include "ExKokkos_Getf2_impl.hpp"

#include <ExKokkos_CompensatedSum.hpp>

#include <cstddef>

namespace ExKokkos {
namespace Impl {

// Scratch memory of team_getf2_lookahead for m rows: one started sum (head, errors, magnitude)
// per row.
KOKKOS_INLINE_FUNCTION std::size_t lu_lookahead_bytes(int m) {
  return 3 * sizeof(double) * static_cast<std::size_t>(m);
}

// Factors the double matrix A (m x n) in place with the team, as team_getf2 with ExactLuUpdate<N>
// does; state: lu_lookahead_bytes(m) of team scratch memory. Returns info on every thread.
template <int N, class Member, class AView, class PivView>
KOKKOS_INLINE_FUNCTION int team_getf2_lookahead(const Member& team, const AView& A,
                                                const PivView& ipiv, double* state) {
  const int m = static_cast<int>(A.extent(0)), n = static_cast<int>(A.extent(1));
  double* const heads = state;
  double* const errors = state + m;
  double* const magnitudes = state + 2 * m;
  int info = 0;
  const int steps = m < n ? m : n;
  for (int j = 0; j < steps; ++j) {
    // a11 and a21: rows [j, m) of column j. From step 1 on, each row's sum holds a_ij and the
    // terms k < j - 1 (started at step j - 1); the last term k = j - 1 completes it.
    if (j > 0) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, j, m), [&](const int i) {
        CompensatedSum c(heads[i], errors[i], magnitudes[i], 1 + 2 * (j - 1));
        c.add_product(-A(i, j - 1), A(j - 1, j));
        double r;
        A(i, j) = c.round(r) ? r : lu_exact_update<N>(A, i, j, j);
      });
      team.team_barrier();
    }
    const int p = team_pivot(team, A, j);
    Kokkos::single(Kokkos::PerTeam(team), [&]() { ipiv(j) = p; });
    if (p != j) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int c) {
        const double t = A(j, c);
        A(j, c) = A(p, c);
        A(p, c) = t;
      });
    }
    team.team_barrier();
    const double pivot = A(j, j);
    if (pivot != 0.0) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, j + 1, m),
                           [&](const int i) { A(i, j) = A(i, j) / pivot; });
    } else if (info == 0) {
      info = j + 1;
    }
    // Row j of U right of the diagonal (final now that row j is), and the sums of column j + 1
    // for rows (j, m): a_i,j+1 and the terms k < j. Neither reads what the other or the scaling
    // of column j writes (row j's terms k < j; column j + 1's rows below j, columns and rows
    // k < j).
    const int row_entries = n - j - 1;
    const int started = j + 1 < n ? m - j - 1 : 0;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, row_entries + started), [&](const int e) {
      if (e < row_entries) {
        A(j, j + 1 + e) = lu_update<N>(A, j, j + 1 + e, j);
      } else {
        const int i = j + 1 + (e - row_entries);
        CompensatedSum c;
        c.add(A(i, j + 1));
        add_lu_terms(c, A, i, j + 1, j);
        heads[i] = c.head();
        errors[i] = c.errors();
        magnitudes[i] = c.magnitude();
      }
    });
    team.team_barrier();
  }
  return info;
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_GETF2LOOKAHEAD_IMPL_HPP
