// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// exgetrf on a host execution space and a double matrix: the right-looking schedule of
// host_getf2_trailing_update (ExKokkos_Getf2TrailingUpdate_impl.hpp) in panels of nb columns, with
// the trailing matrix updated by the space's threads, a tile of it at a time.
//
// Every entry keeps its compensated sum (a CompensatedRow per matrix row, 24 bytes an entry) from
// the start, and every step k adds its products -l_ik u_kc to the sums of the entries it reaches,
// in the order of k, as host_getf2_trailing_update does. Blocking only delays some of those
// additions: when an entry is rounded (column j's at step j, row j of U at step j), its sum holds
// exactly the products of every k < j, no more and no fewer:
// - in the panel (columns j0 <= c < j0 + nb), step k's products reach every row below k at once;
// - right of the panel, row k's sums (k in the panel) take the products of the panel's earlier
//   steps just before row k of U is rounded, a tile of columns at a time; the rows below the panel
//   take all nb steps' products after the panel, tile by tile (each tile of sums stays in cache
//   for nb steps instead of being read from memory at every step).
// A row swap at step j exchanges the whole rows of A and of the sums right of column j; both rows
// lie at or below j, so both sums hold the same steps' products when they are exchanged.
// Each rounding is certified (CompensatedSum's bound, with the 1 + 2 j terms of its j products)
// or replaced by lu_update's exact sum of the final L and U (the entry itself is still a_ij, as it
// needs), so every entry is RN of the same exact expression as in exgetf2, and the factors, the
// pivots and info are exgetf2's bits whatever nb, the tile width or the number of threads.
#ifndef EXKOKKOS_GETRF_IMPL_HPP
#define EXKOKKOS_GETRF_IMPL_HPP

#include "ExKokkos_Getf2TrailingUpdate_impl.hpp"
#include "ExKokkos_Getf2_impl.hpp"

#include <ExKokkos_CompensatedRow.hpp>

#include <cstddef>
#include <cstdint>

namespace ExKokkos {
namespace Impl {

// Columns per tile of the parallel updates: three tiles of sums (6 KiB) stay in the level-1 cache
// while the panel's nb steps go over them.
constexpr int lu_tile_columns = 256;
// The widest panel (block_size): a row's factors of a panel are copied to the stack.
constexpr int max_panel_columns = 512;

// Starts row i's sums at the entries of A.
template <class AView>
struct LuStartSums {
  AView A;
  LuSums sums;
  KOKKOS_INLINE_FUNCTION void operator()(int i) const {
    sums.row(i, 0, sums.n).start([&](int c) { return double(A(i, c)); });
  }
};

// Step j's products for the panel's columns right of j (count of them, from column j + 1):
// row i's sums there take -l_ij u_jc.
template <class AView>
struct LuPanelStep {
  AView A;
  LuSums sums;
  const double* u_row;
  int j, count;
  KOKKOS_INLINE_FUNCTION void operator()(int i) const {
    sums.add_step(A, i, j, j + 1, count, u_row);
  }
};

// Rows j0 .. j1 - 1 of U right of the panel (columns first .. n - 1), one tile of columns per
// call: row k's sums are rounded (those of every k' < k are in them), written to A and to u (row
// k - j0, row stride ldu, column c - first), and step k's products go to the panel's rows below k.
template <int N, class AView>
struct LuPanelRowsOfU {
  AView A;
  LuSums sums;
  double* u;
  std::size_t ldu;
  int j0, j1, first;
  KOKKOS_INLINE_FUNCTION void operator()(int tile) const {
    const int n = static_cast<int>(A.extent(1));
    const int c0 = first + tile * lu_tile_columns;
    const int w = n - c0 < lu_tile_columns ? n - c0 : lu_tile_columns;
    double result[lu_tile_columns];
    int certified[lu_tile_columns];
    for (int k = j0; k < j1; ++k) {
      double* const u_k = u + std::size_t(k - j0) * ldu + std::size_t(c0 - first);
      lu_row_of_u<N>(A, sums, k, c0, w, result, certified, u_k);
      for (int i = k + 1; i < j1; ++i) sums.add_step(A, i, k, c0, w, u_k);
    }
  }
};

// The trailing matrix below and right of the panel: the sums of row first_row + r, one tile of
// columns, take the products of the panel's steps j0 .. j1 - 1 in order. Consecutive indices
// walk the rows of one tile, so a thread's share of u (nb rows of a tile) stays in cache.
template <class AView>
struct LuTrailingTiles {
  AView A;
  LuSums sums;
  const double* u;
  std::size_t ldu;
  int j0, j1, first_row, rows, first;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t index) const {
    const int n = static_cast<int>(A.extent(1));
    const int tile = static_cast<int>(index / rows), i = first_row + static_cast<int>(index % rows);
    const int c0 = first + tile * lu_tile_columns;
    const int w = n - c0 < lu_tile_columns ? n - c0 : lu_tile_columns;
    double a[max_panel_columns];
    for (int k = j0; k < j1; ++k) a[k - j0] = -double(A(i, k));
    sums.row(i, c0, w).add_product_steps(a, j1 - j0, u + std::size_t(c0 - first), ldu);
  }
};

// The workspace of host_getrf_blocked for an m x n matrix, in doubles: the sums, column j's sums
// gathered (3 m), the results of a rounding (m) and its flags (m ints, in m doubles' space), a
// panel's rows of U right of it (nb n) and a row of U in the panel (nb).
inline std::size_t blocked_lu_doubles(int m, int n, int nb) {
  return 3 * trailing_update_array_stride(m, n) + 5 * std::size_t(m) +
         std::size_t(nb) * std::size_t(n) + std::size_t(nb);
}

// Factors the double matrix A (m x n, any layout, memory the host space reaches) in place with
// panels of nb columns; pivots (0-based) to ipiv; returns LAPACK's info. work:
// blocked_lu_doubles(m, n, nb) doubles.
template <int N, class ExecSpace, class AView, class PivView>
int host_getrf_blocked(const ExecSpace& space, const AView& A, const PivView& ipiv, int nb,
                       double* work) {
  const int m = static_cast<int>(A.extent(0)), n = static_cast<int>(A.extent(1));
  const LuSums sums{work, trailing_update_array_stride(m, n), n};
  double* const column = work + 3 * sums.stride;
  double* const result = column + 3 * m;
  int* const certified = reinterpret_cast<int*>(result + m);
  double* const u = result + 2 * std::size_t(m);  // nb rows of U right of the panel
  double* const u_row = u + std::size_t(nb) * std::size_t(n);
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int>>;
  Kokkos::parallel_for("ExKokkos::exgetrf::start", Range(space, 0, m), LuStartSums<AView>{A, sums});
  space.fence();

  int info = 0;
  const int steps = m < n ? m : n;
  for (int j0 = 0; j0 < steps; j0 += nb) {
    const int j1 = steps - j0 < nb ? steps : j0 + nb;
    for (int j = j0; j < j1; ++j) {
      ipiv(j) = lu_column_step<N>(A, sums, j, column, result, certified, info);
      // Row j of U in the panel, then step j's products for the panel's columns right of j.
      const int count = j1 - j - 1;
      if (count == 0) continue;
      lu_row_of_u<N>(A, sums, j, j + 1, count, result, certified, u_row);
      Kokkos::parallel_for("ExKokkos::exgetrf::panel", Range(space, j + 1, m),
                           LuPanelStep<AView>{A, sums, u_row, j, count});
      space.fence();
    }
    // Right of the panel: its rows of U, then the trailing matrix.
    const int first = j1, right = n - j1;
    if (right <= 0) continue;
    const int tiles = (right + lu_tile_columns - 1) / lu_tile_columns;
    Kokkos::parallel_for("ExKokkos::exgetrf::rows_of_u", Range(space, 0, tiles),
                         LuPanelRowsOfU<N, AView>{A, sums, u, std::size_t(right), j0, j1, first});
    space.fence();
    const int below = m - j1;
    if (below <= 0) continue;
    Kokkos::parallel_for(
        "ExKokkos::exgetrf::trailing",
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(
            space, 0, std::int64_t(tiles) * below),
        LuTrailingTiles<AView>{A, sums, u, std::size_t(right), j0, j1, j1, below, first});
    space.fence();
  }
  return info;
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_GETRF_IMPL_HPP
