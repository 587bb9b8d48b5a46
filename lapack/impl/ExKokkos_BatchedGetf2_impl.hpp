// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Batched exgetf2's functor: one team per matrix, factored in place, in a copy in team scratch
// memory (devices), or on the host by one thread with the trailing-update schedule.
#ifndef EXKOKKOS_BATCHEDGETF2_IMPL_HPP
#define EXKOKKOS_BATCHEDGETF2_IMPL_HPP

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
struct LuStaging {
  int ld = 0;                    // 0: in place; else the scratch copy's row stride
  bool trailing_update = false;  // host, double, teams of one: the right-looking schedule
  KOKKOS_INLINE_FUNCTION static constexpr int row_stride(int n) { return n % 2 == 0 ? n + 1 : n; }
  template <class T>
  KOKKOS_INLINE_FUNCTION std::size_t bytes(int m) const {
    return sizeof(T) * std::size_t(m) * std::size_t(ld);
  }
};

// to = from (both m x n, n > 0) with the team: thread r copies the entries r, r + t, r + 2t, ... of
// the row-major order (t threads), so consecutive threads take consecutive entries of a row,
// coalesced for LayoutRight batches. Each thread steps its (row, column) by addition: the division
// and remainder by n of every entry's index (a TeamThreadRange over m n entries) cost about 40
// instructions an entry on a GPU, a noticeable share of a small factorization (figures:
// docs/performance.md).
template <class Member, class From, class To>
KOKKOS_INLINE_FUNCTION void copy_matrix(const Member& team, const From& from, const To& to) {
  const int m = static_cast<int>(from.extent(0)), n = static_cast<int>(from.extent(1));
  const int t = team.team_size(), r = team.team_rank();
  const int row_step = t / n, column_step = t % n;
  int i = r / n, c = r % n;
  while (i < m) {
    to(i, c) = from(i, c);
    i += row_step;
    c += column_step;
    if (c >= n) {
      c -= n;
      ++i;
    }
  }
}

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

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int b = team.league_rank();
    const auto a = Kokkos::subview(A, b, Kokkos::ALL(), Kokkos::ALL());
    const auto piv = Kokkos::subview(ipiv, b, Kokkos::ALL());
    const ExactLuUpdate<N, is_host_space<ExecSpace>()> update;
    int result;
    if constexpr (Staged) {
      const int m = static_cast<int>(a.extent(0)), n = static_cast<int>(a.extent(1));
      const ScratchMatrix s(static_cast<T*>(team.team_scratch(0).get_shmem(staging.bytes<T>(m))),
                            Kokkos::LayoutStride(m, staging.ld, n, 1));
      copy_matrix(team, a, s);
      team.team_barrier();
      result = team_getf2(team, s, piv, update);  // ends with a barrier
      copy_matrix(team, s, a);
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
      result = team_getf2(team, a, piv, update);
    }
    Kokkos::single(Kokkos::PerTeam(team), [&]() { info(b) = result; });
  }
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_BATCHEDGETF2_IMPL_HPP
