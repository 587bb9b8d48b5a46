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
//
// Two steps a pass: step j's products reach column j + 1 first, step j + 1's column and pivot
// are decided, and step j's products reach the row that is then row j + 1; only then does one
// pass add both steps' products to the rest of the trailing matrix (rows and columns past
// j + 1), each sum read and written once for the two (exgetrf's panels, ExKokkos_Getrf_impl.hpp,
// delay products in the same way, nb steps at a time and over the threads; on one core at these
// sizes their extra calls cost more than they save: docs/performance.md). Every sum still takes
// its products in the
// order of k. A pivot's exchange of two rows whose sums lack step j's products is the exchange
// of the right-looking order too: each row carries its own l_ij (column j moves with the row),
// and its step-j product is formed from that after the exchange.
#ifndef EXKOKKOS_GETF2TRAILINGUPDATE_IMPL_HPP
#define EXKOKKOS_GETF2TRAILINGUPDATE_IMPL_HPP

#include "ExKokkos_Getf2_impl.hpp"

#include <ExKokkos_CompensatedRow.hpp>

#include <cstddef>

namespace ExKokkos {
namespace Impl {

// The workspace of host_getf2_trailing_update for an m x n matrix: the three m x n arrays of the
// compensated sums, column j's sums gathered (3 m), two rows of U (2 n), results and flags
// (max(m, n)).
// The three arrays lie 40 doubles more than m n apart: at m n = 1024 (32 x 32) arrays 8 KiB
// apart would make every update's loads and stores of one entry alias in the low 12 address
// bits, which nearly doubles the time of a batched 32 x 32 LU.
KOKKOS_INLINE_FUNCTION std::size_t trailing_update_array_stride(int m, int n) {
  return std::size_t(m) * std::size_t(n) + 40;
}
KOKKOS_INLINE_FUNCTION std::size_t trailing_update_lu_bytes(int m, int n) {
  const std::size_t w = static_cast<std::size_t>(m > n ? m : n);
  return sizeof(double) * (3 * trailing_update_array_stride(m, n) + 3 * std::size_t(m) +
                           2 * std::size_t(n) + w) +
         sizeof(int) * w;
}

// The compensated sums of an m x n matrix's entries: three row-major m x n arrays (heads, error
// sums, magnitudes) trailing_update_array_stride(m, n) apart, a CompensatedRow per row.
struct LuSums {
  double* base;
  std::size_t stride;  // between the arrays
  int n;               // the row length
  KOKKOS_INLINE_FUNCTION CompensatedRow row(int i, int first, int count) const {
    double* const h = base + std::size_t(i) * std::size_t(n) + std::size_t(first);
    return CompensatedRow(h, h + stride, h + 2 * stride, count);
  }
  // Step k's products for row i's sums in columns [first, first + count): -l_ik u_kc, with
  // u_kc = u[c - first] and l_ik = A(i, k).
  template <class AView>
  KOKKOS_INLINE_FUNCTION void add_step(const AView& A, int i, int k, int first, int count,
                                       const double* u) const {
    row(i, first, count).add_products(-double(A(i, k)), u);
  }
  // Exchanges the sums of rows i and p in columns [first, n).
  KOKKOS_INLINE_FUNCTION void swap_rows(int i, int p, int first) const {
    for (int a = 0; a < 3; ++a) {
      double* const ri = base + a * stride + std::size_t(i) * std::size_t(n);
      double* const rp = base + a * stride + std::size_t(p) * std::size_t(n);
      for (int c = first; c < n; ++c) {
        const double t = ri[c];
        ri[c] = rp[c];
        rp[c] = t;
      }
    }
  }
};

// Step j's column in the right-looking order: column j from row j down, whose sums hold the
// products of every k < j (1 + 2 j terms), rounded together, each entry certified or summed
// exactly (lu_update: the entry itself is still a_ij, as it needs); the pivot (row p, returned);
// rows j and p exchanged in A and in the sums right of column j; the column of L divided by the
// pivot, or info set at the first zero pivot. Scratch: column (3 m doubles), result (m), certified
// (m).
template <int N, class AView>
KOKKOS_INLINE_FUNCTION int lu_column_step(const AView& A, const LuSums& sums, int j, double* column,
                                          double* result, int* certified, int& info) {
  const int m = static_cast<int>(A.extent(0)), n = sums.n;
  const int rows = m - j;
  for (int t = 0; t < rows; ++t) {
    const std::size_t at = std::size_t(j + t) * std::size_t(n) + std::size_t(j);
    column[t] = sums.base[at];
    column[m + t] = sums.base[sums.stride + at];
    column[2 * m + t] = sums.base[2 * sums.stride + at];
  }
  CompensatedRow(column, column + m, column + 2 * m, rows).round(1 + 2 * j, result, certified);
  for (int t = 0; t < rows; ++t)
    A(j + t, j) = certified[t] ? result[t] : lu_update<N>(A, j + t, j, j);

  const int p = sequential_pivot(A, j);
  if (p != j) {  // the whole rows, and the sums of their entries right of column j
    for (int c = 0; c < n; ++c) {
      const double t = A(j, c);
      A(j, c) = A(p, c);
      A(p, c) = t;
    }
    sums.swap_rows(j, p, j + 1);
  }
  const double pivot = A(j, j);
  if (pivot != 0.0) {
    for (int i = j + 1; i < m; ++i) A(i, j) = A(i, j) / pivot;
  } else if (info == 0) {
    info = j + 1;
  }
  return p;
}

// Row j of U in columns first .. first + count - 1, whose sums hold the products of every k < j:
// rounded, each entry certified or summed exactly, written to A and to u (count doubles).
template <int N, class AView>
KOKKOS_INLINE_FUNCTION void lu_row_of_u(const AView& A, const LuSums& sums, int j, int first,
                                        int count, double* result, int* certified, double* u) {
  sums.row(j, first, count).round(1 + 2 * j, result, certified);
  for (int t = 0; t < count; ++t) {
    const double v = certified[t] ? result[t] : lu_update<N>(A, j, first + t, j);
    A(j, first + t) = v;
    u[t] = v;
  }
}

// Factors the double matrix A (m x n, any layout) in place; pivots (0-based) to ipiv; returns
// LAPACK's info, as team_getf2. work: trailing_update_lu_bytes(m, n) bytes, suitably aligned.
template <int N, class AView, class PivView>
KOKKOS_INLINE_FUNCTION int host_getf2_trailing_update(const AView& A, const PivView& ipiv,
                                                      void* work) {
  const int m = static_cast<int>(A.extent(0)), n = static_cast<int>(A.extent(1));
  const int w = m > n ? m : n;
  const LuSums sums{static_cast<double*>(work), trailing_update_array_stride(m, n), n};
  double* const column = sums.base + 3 * sums.stride;
  double* const u_row = column + 3 * m;
  double* const u_next = u_row + n;
  double* const result = u_next + n;
  int* const certified = reinterpret_cast<int*>(result + w);
  for (int i = 0; i < m; ++i) sums.row(i, 0, n).start([&](int c) { return double(A(i, c)); });

  int info = 0;
  const int steps = m < n ? m : n;
  for (int j = 0; j < steps;) {
    ipiv(j) = lu_column_step<N>(A, sums, j, column, result, certified, info);
    const int cols = n - j - 1;  // row j of U right of the diagonal
    if (cols == 0) break;        // the last column: nothing trails it
    lu_row_of_u<N>(A, sums, j, j + 1, cols, result, certified, u_row);
    if (j + 1 == steps || cols == 1) {  // one step: its products for the whole trailing matrix
      for (int i = j + 1; i < m; ++i) sums.add_step(A, i, j, j + 1, cols, u_row);
      ++j;
      continue;
    }
    // Two steps (see the top of this file): step j for column j + 1, step j + 1's column, step j
    // for the new row j + 1 and its row of U, then both steps for the rest.
    for (int i = j + 1; i < m; ++i) sums.add_step(A, i, j, j + 1, 1, u_row);
    ipiv(j + 1) = lu_column_step<N>(A, sums, j + 1, column, result, certified, info);
    const int rest = cols - 1;  // columns j + 2 .. n - 1
    sums.add_step(A, j + 1, j, j + 2, rest, u_row + 1);
    lu_row_of_u<N>(A, sums, j + 1, j + 2, rest, result, certified, u_next);
    for (int i = j + 2; i < m; ++i)
      sums.row(i, j + 2, rest)
          .add_products_twice(-double(A(i, j)), u_row + 1, -double(A(i, j + 1)), u_next);
    j += 2;
  }
  return info;
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_GETF2TRAILINGUPDATE_IMPL_HPP
