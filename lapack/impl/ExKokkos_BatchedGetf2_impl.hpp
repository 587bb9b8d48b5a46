// Batched exgetf2's functor: one team per matrix, factored in place, in a copy in team scratch
// memory (devices), or on the host by one thread with the trailing-update schedule.
#ifndef EXKOKKOS_BATCHEDGETF2_IMPL_HPP
#define EXKOKKOS_BATCHEDGETF2_IMPL_HPP

#include "ExKokkos_Getf2Lookahead_impl.hpp"
#include "ExKokkos_Getf2TrailingUpdate_impl.hpp"
#include "ExKokkos_Getf2_impl.hpp"

#include <cstddef>
#include <type_traits>

namespace ExKokkos {
namespace Impl {

// How batched exgetf2 reaches a matrix: in place in the view, or copied into team scratch
// memory, factored there and copied back (devices, where a column of the matrix is otherwise read
// from global memory for every entry of every step). The scratch copy is row-major with an odd
// row stride, so the threads of a column step, each reading its own row, hit distinct banks.
// On the host, a team of one thread may instead keep every entry's compensated sum in level-1
// scratch memory (trailing_update: host_getf2_trailing_update).
// A team of several threads factoring a double matrix starts column j + 1's sums during step j
// (lookahead: team_getf2_lookahead), in level-0 scratch memory after the copy.
struct LuStaging {
  int ld = 0;                    // 0: in place; else the scratch copy's row stride
  bool trailing_update = false;  // host, double, teams of one: the right-looking schedule
  bool lookahead = false;        // double, teams of several threads
  KOKKOS_INLINE_FUNCTION static int row_stride(int n) { return n % 2 == 0 ? n + 1 : n; }
  template <class T>
  KOKKOS_INLINE_FUNCTION std::size_t bytes(int m) const {
    return sizeof(T) * std::size_t(m) * std::size_t(ld);
  }
  // Level-0 scratch memory a team takes: the copy, then the started sums.
  template <class T>
  KOKKOS_INLINE_FUNCTION std::size_t level0_bytes(int m) const {
    return bytes<T>(m) + (lookahead ? lu_lookahead_bytes(m) : 0);
  }
};

template <int N, bool Staged, class ExecSpace, class AView, class PivView, class InfoView>
struct BatchedGetf2Functor {
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using T = typename AView::non_const_value_type;
  using ScratchMatrix =
      Kokkos::View<T**, Kokkos::LayoutStride, typename ExecSpace::scratch_memory_space,
                   Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  AView A;        // batch x m x n
  PivView ipiv;   // batch x min(m, n)
  InfoView info;  // batch
  LuStaging staging;

  // team_getf2, or its look-ahead form (after the copy in level-0 scratch memory, if any).
  template <class MView, class PView>
  KOKKOS_INLINE_FUNCTION int factor(const member_type& team, const MView& M, const PView& piv,
                                    int m) const {
    if constexpr (std::is_same<T, double>::value) {
      if (staging.lookahead) {
        double* state = static_cast<double*>(team.team_scratch(0).get_shmem(lu_lookahead_bytes(m)));
        return team_getf2_lookahead<N>(team, M, piv, state);
      }
    }
    return team_getf2(team, M, piv, ExactLuUpdate<N, is_host_space<ExecSpace>()>());
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int b = team.league_rank();
    const auto a = Kokkos::subview(A, b, Kokkos::ALL(), Kokkos::ALL());
    const auto piv = Kokkos::subview(ipiv, b, Kokkos::ALL());
    int result;
    if constexpr (Staged) {
      const int m = static_cast<int>(a.extent(0)), n = static_cast<int>(a.extent(1));
      const ScratchMatrix s(static_cast<T*>(team.team_scratch(0).get_shmem(staging.bytes<T>(m))),
                            Kokkos::LayoutStride(m, staging.ld, n, 1));
      // Consecutive threads take consecutive entries of a row: coalesced for LayoutRight batches.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, m * n),
                           [&](const int e) { s(e / n, e % n) = a(e / n, e % n); });
      team.team_barrier();
      result = factor(team, s, piv, m);  // ends with a barrier
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, m * n),
                           [&](const int e) { a(e / n, e % n) = s(e / n, e % n); });
    } else {
      // A host-only function: compiled for host spaces only (a device kernel never reaches it).
      if constexpr (is_host_space<ExecSpace>() && std::is_same<T, double>::value) {
        if (staging.trailing_update && team.team_size() == 1) {
          const int m = static_cast<int>(a.extent(0)), n = static_cast<int>(a.extent(1));
          void* work = team.team_scratch(1).get_shmem(trailing_update_lu_bytes(m, n));
          info(b) = host_getf2_trailing_update<N>(a, piv, work);
          return;
        }
      }
      result = factor(team, a, piv, static_cast<int>(a.extent(0)));
    }
    Kokkos::single(Kokkos::PerTeam(team), [&]() { info(b) = result; });
  }
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_BATCHEDGETF2_IMPL_HPP
