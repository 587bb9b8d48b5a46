// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// exgetf2 for one host core that factors a double matrix alone (Schedule::trailing_update): the
// same entries as team_getf2 (ExKokkos_Getf2_impl.hpp), each RN of the same exact sum, reached in
// the right-looking order. Every entry's certified first try (CompensatedSum) is kept in memory
// from the start, a CompensatedRow per matrix row, and step k adds its products -l_ik u_kc to all
// trailing entries (i, c > k) at once; at step j the sums of column j and of row j of U hold their
// terms k < j, exactly the terms the left-looking team_getf2 sums, in the same order, and are
// rounded. An entry whose rounding is not certified is summed exactly from the final L and U
// (lu_update: its expansion path), as team_getf2 would. So the bits are those of every other
// schedule, team size and backend.
//
// Why: the left-looking host path (lu_update_range_in_lanes) walks the terms of 8 or 16 entries in
// vector lanes: at 32 x 32 a third of the lanes idle on the short columns and rows of the late
// steps, the column steps gather entries of row-major rows, and every chunk pays a rounding.
// Here the rows of the trailing matrix are contiguous vectors and each entry is rounded once.
#ifndef EXKOKKOS_GETF2TRAILINGUPDATE_IMPL_HPP
#define EXKOKKOS_GETF2TRAILINGUPDATE_IMPL_HPP

#include "ExKokkos_Getf2_impl.hpp"

#include <ExKokkos_CompensatedRow.hpp>

#include <cstddef>

namespace ExKokkos {
namespace Impl {

// The workspace of host_getf2_trailing_update for an m x n matrix: the three m x n arrays of the
// compensated sums, column j's sums gathered (3 m), a row of U (n), results and flags (max(m, n)).
// The three arrays lie 40 doubles more than m n apart: at m n = 1024 (32 x 32) arrays 8 KiB
// apart would make every update's loads and stores of one entry alias in the low 12 address
// bits, which nearly doubles the time of a batched 32 x 32 LU.
KOKKOS_INLINE_FUNCTION std::size_t trailing_update_array_stride(int m, int n) {
  return std::size_t(m) * std::size_t(n) + 40;
}
KOKKOS_INLINE_FUNCTION std::size_t trailing_update_lu_bytes(int m, int n) {
  const std::size_t w = static_cast<std::size_t>(m > n ? m : n);
  return sizeof(double) *
             (3 * trailing_update_array_stride(m, n) + 3 * std::size_t(m) + std::size_t(n) + w) +
         sizeof(int) * w;
}

// Factors the double matrix A (m x n, any layout) in place; pivots (0-based) to ipiv; returns
// LAPACK's info, as team_getf2. work: trailing_update_lu_bytes(m, n) bytes, suitably aligned.
template <int N, class AView, class PivView>
KOKKOS_INLINE_FUNCTION int host_getf2_trailing_update(const AView& A, const PivView& ipiv,
                                                      void* work) {
  const int m = static_cast<int>(A.extent(0)), n = static_cast<int>(A.extent(1));
  const std::size_t stride = trailing_update_array_stride(m, n);
  const int w = m > n ? m : n;
  double* const heads = static_cast<double*>(work);
  double* const errors = heads + stride;
  double* const magnitudes = errors + stride;
  double* const column_heads = magnitudes + stride;
  double* const column_errors = column_heads + m;
  double* const column_magnitudes = column_errors + m;
  double* const u_row = column_magnitudes + m;
  double* const result = u_row + n;
  int* const certified = reinterpret_cast<int*>(result + w);
  const auto row_sums = [&](int i, int first) {
    const std::size_t at = std::size_t(i) * std::size_t(n) + std::size_t(first);
    return CompensatedRow(heads + at, errors + at, magnitudes + at, n - first);
  };
  for (int i = 0; i < m; ++i) row_sums(i, 0).start([&](int c) { return double(A(i, c)); });

  int info = 0;
  const int steps = m < n ? m : n;
  for (int j = 0; j < steps; ++j) {
    const int terms = 1 + 2 * j;  // a_ij, then a TwoProd and a TwoSum error per product
    // a11 and a21: column j's sums, gathered from their rows, rounded together.
    const int rows = m - j;
    for (int t = 0; t < rows; ++t) {
      const std::size_t at = std::size_t(j + t) * std::size_t(n) + std::size_t(j);
      column_heads[t] = heads[at];
      column_errors[t] = errors[at];
      column_magnitudes[t] = magnitudes[at];
    }
    CompensatedRow(column_heads, column_errors, column_magnitudes, rows)
        .round(terms, result, certified);
    for (int t = 0; t < rows; ++t)  // an entry not yet written is still a_ij, as lu_update needs
      A(j + t, j) = certified[t] ? result[t] : lu_update<N>(A, j + t, j, j);

    const int p = sequential_pivot(A, j);
    ipiv(j) = p;
    if (p != j) {  // the whole rows, and the sums of their entries right of column j
      for (int c = 0; c < n; ++c) {
        const double t = A(j, c);
        A(j, c) = A(p, c);
        A(p, c) = t;
      }
      const std::size_t rj = std::size_t(j) * std::size_t(n), rp = std::size_t(p) * std::size_t(n);
      double* const arrays[3] = {heads, errors, magnitudes};
      for (double* array : arrays)
        for (int c = j + 1; c < n; ++c) {
          const double t = array[rj + c];
          array[rj + c] = array[rp + c];
          array[rp + c] = t;
        }
    }
    const double pivot = A(j, j);
    if (pivot != 0.0) {
      for (int i = j + 1; i < m; ++i) A(i, j) = A(i, j) / pivot;
    } else if (info == 0) {
      info = j + 1;
    }

    // Row j of U, then step j's products for the trailing matrix.
    const int cols = n - j - 1;
    if (cols == 0) continue;
    row_sums(j, j + 1).round(terms, result, certified);
    for (int t = 0; t < cols; ++t)
      A(j, j + 1 + t) = certified[t] ? result[t] : lu_update<N>(A, j, j + 1 + t, j);
    for (int t = 0; t < cols; ++t) u_row[t] = A(j, j + 1 + t);
    for (int i = j + 1; i < m; ++i) row_sums(i, j + 1).add_products(-double(A(i, j)), u_row);
  }
  return info;
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_GETF2TRAILINGUPDATE_IMPL_HPP
