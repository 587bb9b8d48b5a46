// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A compressed-row-storage (CRS) sparse matrix in Kokkos views, the 2D Poisson problem with a
// variable coefficient assembled into it, and the sparse matrix-vector product y = A x.
#ifndef EXKOKKOSEXAMPLE_CRSMATRIX_HPP
#define EXKOKKOSEXAMPLE_CRSMATRIX_HPP

#include <Kokkos_Core.hpp>

#include <cmath>
#include <random>
#include <vector>

namespace ExKokkosExample {

// Row i holds values(k), in columns entries(k), for row_map(i) <= k < row_map(i + 1); the columns
// of a row are in increasing order.
template <class MemorySpace>
struct CrsMatrix {
  Kokkos::View<int*, MemorySpace> row_map;
  Kokkos::View<int*, MemorySpace> entries;
  Kokkos::View<double*, MemorySpace> values;
  int num_rows() const { return static_cast<int>(row_map.extent(0)) - 1; }
  int num_entries() const { return static_cast<int>(entries.extent(0)); }
};

// -div(k grad u) = f on the unit square, zero on the boundary, with the 5-point finite-volume
// stencil on an n x n grid of interior points: the coefficient lives on the edges between
// neighbouring points (and between a point and the boundary), so the matrix is symmetric positive
// definite with off-diagonals -k_edge and a diagonal equal to the sum of the four edge
// coefficients. The coefficient is random over two orders of magnitude (10^-1 to 10^1): the
// entries are not small integers, every product and sum rounds, and the condition number grows
// with the contrast, so the rounding errors of the dot products show in the CG iterates.
template <class MemorySpace>
CrsMatrix<MemorySpace> variable_poisson_2d(int n, unsigned long seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> exponent(-1.0, 1.0);
  // kx(i, j): the edge left of point (i, j) (j = n: right of the last one); ky likewise below.
  std::vector<double> kx((n + 1) * n), ky((n + 1) * n);
  for (double& k : kx) k = std::pow(10.0, exponent(rng));
  for (double& k : ky) k = std::pow(10.0, exponent(rng));
  const auto edge_x = [&](int i, int j) { return kx[i * (n + 1) + j]; };
  const auto edge_y = [&](int i, int j) { return ky[j * (n + 1) + i]; };

  const int rows = n * n;
  std::vector<int> row_map(rows + 1, 0), entries;
  std::vector<double> values;
  entries.reserve(5 * rows);
  values.reserve(5 * rows);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const double left = edge_x(i, j), right = edge_x(i, j + 1);
      const double below = edge_y(i, j), above = edge_y(i + 1, j);
      const int p = i * n + j;
      // Columns in increasing order: p - n, p - 1, p, p + 1, p + n.
      if (i > 0) entries.push_back(p - n), values.push_back(-below);
      if (j > 0) entries.push_back(p - 1), values.push_back(-left);
      entries.push_back(p), values.push_back(((left + right) + below) + above);
      if (j + 1 < n) entries.push_back(p + 1), values.push_back(-right);
      if (i + 1 < n) entries.push_back(p + n), values.push_back(-above);
      row_map[p + 1] = static_cast<int>(entries.size());
    }
  }

  CrsMatrix<MemorySpace> A;
  A.row_map = Kokkos::View<int*, MemorySpace>("row_map", row_map.size());
  A.entries = Kokkos::View<int*, MemorySpace>("entries", entries.size());
  A.values = Kokkos::View<double*, MemorySpace>("values", values.size());
  using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
  Kokkos::deep_copy(A.row_map, Kokkos::View<const int*, Kokkos::HostSpace, Unmanaged>(
                                   row_map.data(), row_map.size()));
  Kokkos::deep_copy(A.entries, Kokkos::View<const int*, Kokkos::HostSpace, Unmanaged>(
                                   entries.data(), entries.size()));
  Kokkos::deep_copy(A.values, Kokkos::View<const double*, Kokkos::HostSpace, Unmanaged>(
                                  values.data(), values.size()));
  return A;
}

// y = A x, one thread per row. Each y(row) is summed by one thread, left to right in the row's
// stored order, so it is the same bits for every thread count and schedule: the product is
// deterministic per element without any exact arithmetic. (A SpMV that splits a row over several
// threads, as team-based kernels do for long rows, would need an exact sum there too.)
template <class Matrix, class XView, class YView>
struct SpmvFunctor {
  Matrix A;
  XView x;
  YView y;
  KOKKOS_INLINE_FUNCTION void operator()(const int row) const {
    double sum = 0.0;
    for (int k = A.row_map(row); k < A.row_map(row + 1); ++k) sum += A.values(k) * x(A.entries(k));
    y(row) = sum;
  }
};

template <class ExecSpace, class Matrix, class XView, class YView>
void spmv(const ExecSpace& space, const Matrix& A, const XView& x, const YView& y) {
  Kokkos::parallel_for("ExKokkosExample::spmv",
                       Kokkos::RangePolicy<ExecSpace>(space, 0, A.num_rows()),
                       SpmvFunctor<Matrix, XView, YView>{A, x, y});
}

}  // namespace ExKokkosExample

#endif  // EXKOKKOSEXAMPLE_CRSMATRIX_HPP
