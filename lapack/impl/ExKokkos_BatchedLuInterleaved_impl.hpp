// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Batched exgetf2 on a host core for small double matrices, lu_interleave of them at a time, one
// in each vector lane: entry (i, c) of the group's matrices is one vector of the workspace.
// host_getf2_trailing_update (ExKokkos_Getf2TrailingUpdate_impl.hpp) factors one matrix and
// vectorizes along its rows, which at n = 8 or 16 are one or two vectors long and shorter at every
// step, so that loop heads, calls and partial vectors take much of its time; here every operation
// is a whole vector whatever the step.
//
// Each lane performs, on its own matrix, exactly the operations of host_getf2_trailing_update:
// every entry's compensated sum starts at a_ic; step k adds -l_ik u_kc to each trailing entry, in
// the order of k; column j (rows j and below) and row j of U (right of column j) are rounded from
// sums holding the products of every k < j (1 + 2 j error terms), each certified by
// CompensatedSum's bound or else summed exactly by lu_update from the final L and U (the entry
// itself still a_ic); the pivot is the first row of largest |a_ij|; rows j and p are exchanged
// whole in A, and right of column j in the sums; the column of L is divided by a nonzero pivot,
// and info records the first zero one. So the factors, pivots and info are those of every other
// schedule, bit for bit.
// A group of fewer than lu_interleave matrices fills its other lanes with identity matrices,
// which are factored and dropped.
#ifndef EXKOKKOS_BATCHEDLUINTERLEAVED_IMPL_HPP
#define EXKOKKOS_BATCHEDLUINTERLEAVED_IMPL_HPP

#include "ExKokkos_Getf2_impl.hpp"

#include <ExKokkos_CompensatedRow.hpp>
#include <ExKokkos_CompensatedSum.hpp>

#include <cstddef>

namespace ExKokkos {
namespace Impl {

// Matrices per group: a vector of doubles of the host's widest registers (AVX-512).
constexpr int lu_interleave = 8;

// The workspace of one group of m x n matrices: four arrays of m n vectors (the entries, the
// heads, the error sums and the magnitudes of their sums; entry (i, c) of lane l at (i n + c)
// lu_interleave + l), a row of U (n vectors), and the lanes' info. The arrays lie 40 doubles
// more than their length apart, so that the same entry of two arrays does not share its low 12
// address bits (see trailing_update_array_stride).
KOKKOS_INLINE_FUNCTION std::size_t lu_interleaved_array_stride(int m, int n) {
  return std::size_t(m) * std::size_t(n) * lu_interleave + 40;
}
KOKKOS_INLINE_FUNCTION std::size_t lu_interleaved_bytes(int m, int n) {
  return sizeof(double) * (4 * lu_interleaved_array_stride(m, n) + std::size_t(n) * lu_interleave) +
         sizeof(int) * lu_interleave;
}

// Factors matrices first .. first + lanes - 1 of A (batch x m x n, doubles, lanes at most
// lu_interleave) in place; pivots (0-based) to ipiv, LAPACK's info to info. work:
// lu_interleaved_bytes(m, n) bytes, aligned for doubles. Out of line and with the host's widest
// vectors: every loop over the lanes is one vector operation.
template <int N, class AView, class PivView, class InfoView>
EXKOKKOS_HOST_WIDE_VECTORS KOKKOS_INLINE_FUNCTION void host_getf2_interleaved(
    const AView& A, const PivView& ipiv, const InfoView& info, int first, int lanes, void* work) {
  constexpr int W = lu_interleave;
  const int m = static_cast<int>(A.extent(1)), n = static_cast<int>(A.extent(2));
  const std::size_t stride = lu_interleaved_array_stride(m, n);
  double* const a = static_cast<double*>(work);  // the entries: L, U and those not reached yet
  double* const s = a + stride;
  double* const c = s + stride;
  double* const magnitude = c + stride;
  double* const u = magnitude + stride;  // row j of U, column by column
  int* const lane_info = reinterpret_cast<int*>(u + std::size_t(n) * W);
  const auto at = [&](int i, int col) { return (std::size_t(i) * std::size_t(n) + col) * W; };
  // Lane l's matrix as a view of the entries, for lu_update.
  using LaneMatrix = Kokkos::View<double**, Kokkos::LayoutStride, Kokkos::HostSpace,
                                  Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const auto lane_matrix = [&](int l) {
    return LaneMatrix(a + l, Kokkos::LayoutStride(m, std::size_t(n) * W, n, W));
  };

  for (int l = 0; l < W; ++l) {
    lane_info[l] = 0;
    for (int i = 0; i < m; ++i)
      for (int col = 0; col < n; ++col)
        a[at(i, col) + l] = l < lanes ? double(A(first + l, i, col)) : (i == col ? 1.0 : 0.0);
  }
  for (std::size_t e = 0; e < std::size_t(m) * std::size_t(n) * W; ++e) {  // CompensatedRow::start
    s[e] = a[e];
    c[e] = 0.0;
    magnitude[e] = compat::fabs(a[e]);
  }

  // Entry (i, col) of every lane rounded from its sum, with `terms` error terms: certified, or
  // lu_update's exact sum of the first j terms of row i times column col.
  const auto round_entry = [&](int i, int col, int j, int terms) {
    const std::size_t e = at(i, col);
    double r[W];
    int ok[W];
    int certified = 0;
    for (int l = 0; l < W; ++l) {
      ok[l] = certified_compensated(s[e + l], c[e + l], magnitude[e + l], terms, r[l]);
      certified += ok[l];
    }
    if (certified == W) {
      for (int l = 0; l < W; ++l) a[e + l] = r[l];
    } else {
      for (int l = 0; l < W; ++l) a[e + l] = ok[l] ? r[l] : lu_update<N>(lane_matrix(l), i, col, j);
    }
  };

  // (No step has more error terms than compensated_max_terms: the caller's sizes are small.)
  const int steps = m < n ? m : n;
  for (int j = 0; j < steps; ++j) {
    const int terms = 1 + 2 * j;
    for (int i = j; i < m; ++i) round_entry(i, j, j, terms);
    // The pivot: the first row of largest magnitude (a NaN never is larger). The row index is
    // kept as a double beside the magnitude, so that the search is one vector per row.
    double largest[W], row[W];
    for (int l = 0; l < W; ++l) {
      largest[l] = -1.0;
      row[l] = double(j);
    }
    for (int i = j; i < m; ++i)
      for (int l = 0; l < W; ++l) {
        const double v = compat::fabs(a[at(i, j) + l]);
        const bool larger = v > largest[l];
        largest[l] = larger ? v : largest[l];
        row[l] = larger ? double(i) : row[l];
      }
    // Rows j and p exchanged: the whole rows of A, the sums right of column j (those of columns
    // up to j are read by no later step).
    for (int l = 0; l < W; ++l) {
      const int p = static_cast<int>(row[l]);
      if (l < lanes) ipiv(first + l, j) = p;
      if (p == j) continue;
      const auto swap = [&](double* v, int col) {
        const double t = v[at(j, col) + l];
        v[at(j, col) + l] = v[at(p, col) + l];
        v[at(p, col) + l] = t;
      };
      for (int col = 0; col < n; ++col) swap(a, col);
      for (int col = j + 1; col < n; ++col) {
        swap(s, col);
        swap(c, col);
        swap(magnitude, col);
      }
    }
    double pivot[W];
    for (int l = 0; l < W; ++l) {
      pivot[l] = a[at(j, j) + l];
      if (!(pivot[l] != 0.0) && lane_info[l] == 0) lane_info[l] = j + 1;
    }
    for (int i = j + 1; i < m; ++i)
      for (int l = 0; l < W; ++l) {
        const double q = a[at(i, j) + l] / pivot[l];  // a zero pivot's quotient is dropped
        a[at(i, j) + l] = pivot[l] != 0.0 ? q : a[at(i, j) + l];
      }
    // Row j of U, then step j's products -l_ij u_jc for the trailing sums.
    for (int col = j + 1; col < n; ++col) {
      round_entry(j, col, j, terms);
      for (int l = 0; l < W; ++l) u[std::size_t(col) * W + l] = a[at(j, col) + l];
    }
    for (int i = j + 1; i < m; ++i) {
      double l_ij[W];
      for (int l = 0; l < W; ++l) l_ij[l] = -a[at(i, j) + l];
      for (int col = j + 1; col < n; ++col) {
        const std::size_t e = at(i, col);
        for (int l = 0; l < W; ++l)
          CompensatedRow::add_product_to(l_ij[l], u[std::size_t(col) * W + l], s[e + l], c[e + l],
                                         magnitude[e + l]);
      }
    }
  }

  for (int l = 0; l < lanes; ++l) {
    for (int i = 0; i < m; ++i)
      for (int col = 0; col < n; ++col) A(first + l, i, col) = a[at(i, col) + l];
    info(first + l) = lane_info[l];
  }
}

// One team of one thread a group of lu_interleave matrices, its workspace in level-1 scratch
// memory.
template <int N, class ExecSpace, class AView, class PivView, class InfoView>
struct BatchedGetf2InterleavedFunctor {
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  AView A;        // batch x m x n
  PivView ipiv;   // batch x min(m, n)
  InfoView info;  // batch

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int batch = static_cast<int>(A.extent(0));
    const int first = team.league_rank() * lu_interleave;
    const int lanes = batch - first < lu_interleave ? batch - first : lu_interleave;
    const int m = static_cast<int>(A.extent(1)), n = static_cast<int>(A.extent(2));
    void* const work = team.team_scratch(1).get_shmem(lu_interleaved_bytes(m, n));
    host_getf2_interleaved<N>(A, ipiv, info, first, lanes, work);
  }
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_BATCHEDLUINTERLEAVED_IMPL_HPP
