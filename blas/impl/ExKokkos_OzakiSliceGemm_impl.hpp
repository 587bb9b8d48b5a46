// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The Ozaki schedule's plain slice GEMM (ExKokkos_GemmOzaki_impl.hpp describes the method): a
// Kokkos kernel for the product of the double slices on every backend, used where no vendor GEMM
// is configured (ExKokkos_OzakiVendorGemm_impl.hpp) and by the tests as the vendors' reference.
#ifndef EXKOKKOS_OZAKISLICEGEMM_IMPL_HPP
#define EXKOKKOS_OZAKISLICEGEMM_IMPL_HPP

#include <ExKokkos_Compat.hpp>
#include <impl/ExKokkos_DeviceTraits_impl.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace ExKokkos {
namespace Impl {

// The plain slice GEMM, P = A B, for builds without Kokkos Kernels (any backend): a team per
// 32 x 32 tile of P, panels of 32 of A and B and the tile itself in scratch memory. Exact on
// slices for the reason given at the top of
// ExKokkos_GemmOzaki_impl.hpp (every partial sum is an integer below 2^53), so its
// summation order does not matter.
template <class ExecSpace, class AV, class BV, class PV>
struct SliceGemmFunctor {
  static constexpr int tile = 32;
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  AV A;
  BV B;
  PV P;
  std::int64_t rows, cols, depth, tiles_m, tiles;

  static std::size_t scratch_size() { return sizeof(double) * 3 * tile * tile; }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    double* a = static_cast<double*>(team.team_scratch(0).get_shmem(sizeof(double) * tile * tile));
    double* b = static_cast<double*>(team.team_scratch(0).get_shmem(sizeof(double) * tile * tile));
    double* c = static_cast<double*>(team.team_scratch(0).get_shmem(sizeof(double) * tile * tile));
    for (std::int64_t t = team.league_rank(); t < tiles; t += team.league_size()) {
      const std::int64_t i0 = (t % tiles_m) * tile, j0 = (t / tiles_m) * tile;
      team.team_barrier();  // the previous tile is written out
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile * tile),
                           [&](const int q) { c[q] = 0.0; });
      for (std::int64_t k0 = 0; k0 < depth; k0 += tile) {
        const int kb = static_cast<int>(depth - k0 < tile ? depth - k0 : tile);
        team.team_barrier();  // the previous panels are no longer read
        // a(r, kk) column by column, b(kk, c) column by column; zeros past the edges.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile * kb), [&](const int q) {
          const std::int64_t i = i0 + q % tile;
          a[q] = i < rows ? A(i, k0 + q / tile) : 0.0;
        });
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile * kb), [&](const int q) {
          const std::int64_t j = j0 + q / kb;
          b[q] = j < cols ? B(k0 + q % kb, j) : 0.0;
        });
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile * tile), [&](const int q) {
          const double* a_row = a + q % tile;
          const double* b_col = b + (q / tile) * kb;
          double sum = c[q];
          for (int kk = 0; kk < kb; ++kk) sum += a_row[kk * tile] * b_col[kk];
          c[q] = sum;
        });
      }
      team.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile * tile), [&](const int q) {
        const std::int64_t i = i0 + q % tile, j = j0 + q / tile;
        if (i < rows && j < cols) P(i, j) = c[q];
      });
    }
  }
};

template <class ExecSpace, class AV, class BV, class PV>
void slice_gemm_internal(const ExecSpace& space, const AV& A, const BV& B, const PV& P) {
  using F = SliceGemmFunctor<ExecSpace, AV, BV, PV>;
  const std::int64_t rows = static_cast<std::int64_t>(P.extent(0));
  const std::int64_t cols = static_cast<std::int64_t>(P.extent(1));
  const std::int64_t tiles_m = (rows + F::tile - 1) / F::tile;
  const std::int64_t tiles = tiles_m * ((cols + F::tile - 1) / F::tile);
  const bool host = is_host_space<ExecSpace>();
  const int league = static_cast<int>(
      std::min<std::int64_t>(tiles, host ? 4 * compat::concurrency(space) : tiles));
  Kokkos::TeamPolicy<ExecSpace> policy(space, league, host ? 1 : 64);
  policy.set_scratch_size(0, Kokkos::PerTeam(F::scratch_size()));
  Kokkos::parallel_for(
      "ExKokkos::exgemm ozaki slices", policy,
      F{A, B, P, rows, cols, static_cast<std::int64_t>(A.extent(1)), tiles_m, tiles});
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_OZAKISLICEGEMM_IMPL_HPP
