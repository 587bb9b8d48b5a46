// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The reproducible LU inside a user's own kernels, shaped as KokkosBatched's TeamLU / SerialLU and
// TeamSolveLU / SerialSolveLU: one matrix per team (TeamPolicy) or per thread (RangePolicy).
//
//   int info = ExKokkos::TeamGetf2<Member>::invoke(member, A, ipiv);          // A: m x n
//   int info = ExKokkos::TeamGetrs<Member>::invoke(member, "N", LU, ipiv, b); // b: n or n x nrhs
//   int info = ExKokkos::SerialGetf2::invoke(A, ipiv);
//   int info = ExKokkos::SerialGetrs::invoke("T", LU, ipiv, b);
//
// The factors, the pivots, info and the solutions are bit for bit those of exgetf2 and exgetrs on
// the same matrix and right-hand side, on every backend and for every team size: these forms run
// exgetf2's factorization and exgetrs_batched's solve (lapack/impl/ExKokkos_TeamLU_impl.hpp), where
// every entry is one exact expression rounded once, as in exgetrs' substitutions. A and b are the
// user's views or subviews of any layout, in global memory or in team scratch memory; ipiv holds
// min(m, n) integers.
//
// Conventions as exgetf2's: pivots are 0-based (row j was swapped with row ipiv(j) at step j),
// info is LAPACK's (0, or k > 0 when U(k-1, k-1) is exactly zero; the factorization completes).
// Unlike KokkosBatched's LU, these pivot (partial pivoting, as LAPACK).
//
// Bad arguments cannot throw inside a kernel: as in LAPACK, invoke returns -i for its i-th
// argument, counted without the team member, before writing anything:
//   TeamGetf2 / SerialGetf2: -1 an extent of A of 2^31 or more, -2 ipiv not min(m, n) entries;
//   TeamGetrs / SerialGetrs: -1 trans not "N", "T", "C" or "H"; -2 LU not square (or 2^31 rows or
//   more); -3 ipiv not n entries, or a pivot outside [j, n); -4 b not n rows.
// Every thread of a team returns the same value. Wrong ranks and value types are compile errors.
//
// Every thread of the team calls the team forms (they synchronize the team). They begin and end
// with a team barrier: A, ipiv and b may be written by any thread of the team just before the call
// and read by any thread just after. They need no team scratch of their own (scratch_size() is 0).
// To factor a copy of A in team scratch memory (faster on GPUs: the threads of a step then read
// distinct banks), size the team's scratch with team_lu_scratch_size<T>(m, n) per matrix and take
// the copy with team_lu_scratch_matrix:
//
//   struct SolveOnePerTeam {            // policy: TeamPolicy<Space>(batch, team_size)
//     Kokkos::View<double***> A;        //   .set_scratch_size(0, Kokkos::PerTeam(
//     Kokkos::View<int**> ipiv;         //        ExKokkos::team_lu_scratch_size<double>(n, n)))
//     Kokkos::View<double**> B;
//     Kokkos::View<int*> info;
//     KOKKOS_INLINE_FUNCTION void operator()(const Member& member) const {
//       const int s = member.league_rank(), n = A.extent(1);
//       const auto a = Kokkos::subview(A, s, Kokkos::ALL(), Kokkos::ALL());
//       const auto p = Kokkos::subview(ipiv, s, Kokkos::ALL());
//       const auto lu = ExKokkos::team_lu_scratch_matrix<double>(member, n, n);
//       ExKokkos::team_lu_copy(member, a, lu);
//       int r = ExKokkos::TeamGetf2<Member>::invoke(member, lu, p);
//       if (r == 0)
//         r = ExKokkos::TeamGetrs<Member>::invoke(member, "N", lu, p,
//                                                 Kokkos::subview(B, s, Kokkos::ALL()));
//       ExKokkos::team_lu_copy(member, lu, a);  // the factors, if wanted
//       if (member.team_rank() == 0) info(s) = r;
//     }
//   };
//
// Team sizes: any, with a vector length of 1 (TeamPolicy's default: a longer vector would run each
// thread's steps, row swaps included, on every lane of it at once). On the host a team
// of one thread walks rows and columns in vector lanes (the fastest there); on devices 32 threads
// per matrix below n = 64 and 64 from there are exgetf2's defaults. TeamGetrs gives each column of
// b to one thread (a column's components depend on each other in order), so a single right-hand
// side is solved by one thread of the team.
#ifndef EXKOKKOS_TEAMLU_HPP
#define EXKOKKOS_TEAMLU_HPP

#include "impl/ExKokkos_TeamLU_impl.hpp"

#include <impl/ExKokkos_ViewTraits_impl.hpp>

#include <cstddef>
#include <type_traits>

namespace ExKokkos {

namespace Impl {

template <class AView, class PivView>
KOKKOS_INLINE_FUNCTION constexpr void require_getf2_views() {
  static_assert(Kokkos::is_view<AView>::value && Kokkos::is_view<PivView>::value,
                "ExKokkos::TeamGetf2 / SerialGetf2: A and ipiv must be Kokkos views");
  static_assert(static_cast<int>(AView::rank) == 2 && static_cast<int>(PivView::rank) == 1,
                "ExKokkos::TeamGetf2 / SerialGetf2: A must be rank 2 and ipiv rank 1");
  static_assert(
      is_exact_value<typename AView::non_const_value_type>(),
      "ExKokkos::TeamGetf2 / SerialGetf2: A must hold double, float or their Kokkos::complex");
  static_assert(std::is_integral<typename PivView::non_const_value_type>::value,
                "ExKokkos::TeamGetf2 / SerialGetf2: ipiv must hold integers");
}

template <class LUView, class PivView, class BView>
KOKKOS_INLINE_FUNCTION constexpr void require_getrs_views() {
  static_assert(Kokkos::is_view<LUView>::value && Kokkos::is_view<PivView>::value &&
                    Kokkos::is_view<BView>::value,
                "ExKokkos::TeamGetrs / SerialGetrs: LU, ipiv and B must be Kokkos views");
  static_assert(static_cast<int>(LUView::rank) == 2 && static_cast<int>(PivView::rank) == 1 &&
                    (static_cast<int>(BView::rank) == 1 || static_cast<int>(BView::rank) == 2),
                "ExKokkos::TeamGetrs / SerialGetrs: LU rank 2, ipiv rank 1, B rank 1 or 2");
  static_assert(is_exact_value<typename LUView::non_const_value_type>() &&
                    std::is_same<typename LUView::non_const_value_type,
                                 typename BView::non_const_value_type>::value,
                "ExKokkos::TeamGetrs / SerialGetrs: LU and B must both hold double, float or their "
                "Kokkos::complex (the same)");
  static_assert(std::is_integral<typename PivView::non_const_value_type>::value,
                "ExKokkos::TeamGetrs / SerialGetrs: ipiv must hold integers");
}

}  // namespace Impl

// LU with partial pivoting of one m x n matrix by the calling team.
template <class MemberType>
struct TeamGetf2 {
  template <class AViewType, class PivViewType>
  KOKKOS_INLINE_FUNCTION static int invoke(const MemberType& member, const AViewType& A,
                                           const PivViewType& ipiv) {
    Impl::require_getf2_views<AViewType, PivViewType>();
    using Space = typename MemberType::execution_space;
    const int error = Impl::getf2_argument_error(A, ipiv);
    if (error != 0) return error;
    if (A.extent(0) == 0 || A.extent(1) == 0) return 0;
    member.team_barrier();
    return Impl::team_getf2(member, A, ipiv,
                            typename Impl::LuDefaults<Space>::Update());  // ends in a barrier
  }
  // The team scratch (bytes, either level) the call itself needs: none, it factors A in place.
  KOKKOS_INLINE_FUNCTION static constexpr std::size_t scratch_size(int /*m*/, int /*n*/) {
    return 0;
  }
};

// LU with partial pivoting of one m x n matrix by the calling thread alone (in a RangePolicy
// kernel, or one thread of a team).
struct SerialGetf2 {
  template <class AViewType, class PivViewType>
  KOKKOS_INLINE_FUNCTION static int invoke(const AViewType& A, const PivViewType& ipiv) {
    Impl::require_getf2_views<AViewType, PivViewType>();
    using Space = typename Impl::PassSpace<Impl::in_device_pass()>::type;
    const int error = Impl::getf2_argument_error(A, ipiv);
    if (error != 0) return error;
    if (A.extent(0) == 0 || A.extent(1) == 0) return 0;
    return Impl::team_getf2(Impl::OneThread(), A, ipiv, typename Impl::LuDefaults<Space>::Update());
  }
};

// Solves op(A) X = B with the factors of TeamGetf2 (or exgetf2): trans "N", "T" or "C" ("H" is
// "C", the conjugate transpose; "T" for real values), B rank 1 (one right-hand side) or rank 2
// (n x nrhs, the team's threads taking whole columns), overwritten by the solution.
template <class MemberType>
struct TeamGetrs {
  template <class LUViewType, class PivViewType, class BViewType>
  KOKKOS_INLINE_FUNCTION static int invoke(const MemberType& member, const char trans[],
                                           const LUViewType& LU, const PivViewType& ipiv,
                                           const BViewType& B) {
    Impl::require_getrs_views<LUViewType, PivViewType, BViewType>();
    using Space = typename MemberType::execution_space;
    return Impl::team_getrs<Impl::LuDefaults<Space>::expansion_size>(member, trans, LU, ipiv, B);
  }
  // The team scratch (bytes, either level) the call itself needs: none.
  KOKKOS_INLINE_FUNCTION static constexpr std::size_t scratch_size(int /*n*/) { return 0; }
};

// The same solve by the calling thread alone.
struct SerialGetrs {
  template <class LUViewType, class PivViewType, class BViewType>
  KOKKOS_INLINE_FUNCTION static int invoke(const char trans[], const LUViewType& LU,
                                           const PivViewType& ipiv, const BViewType& B) {
    Impl::require_getrs_views<LUViewType, PivViewType, BViewType>();
    using Space = typename Impl::PassSpace<Impl::in_device_pass()>::type;
    return Impl::team_getrs<Impl::LuDefaults<Space>::expansion_size>(Impl::OneThread(), trans, LU,
                                                                     ipiv, B);
  }
};

// The bytes of team scratch (level 0 or 1) for one copy of an m x n matrix of T made by
// team_lu_scratch_matrix; a multiple of 8, so that the sizes of several copies add up.
template <class T>
KOKKOS_INLINE_FUNCTION constexpr std::size_t team_lu_scratch_size(int m, int n) {
  return Impl::lu_staging_bytes<T>(m, n);
}

template <class T, class MemberType>
using TeamLuScratchMatrix = Kokkos::View<T**, Kokkos::LayoutStride,
                                         typename MemberType::execution_space::scratch_memory_space,
                                         Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

// An m x n matrix of T in the team's scratch memory of the given level (team_lu_scratch_size<T>(m,
// n) bytes of it), row-major with an odd row stride: the layout exgetf2_batched factors in on
// devices. Every thread of the team must call it, in the same order as the team's other scratch
// allocations.
template <class T, class MemberType>
KOKKOS_INLINE_FUNCTION TeamLuScratchMatrix<T, MemberType> team_lu_scratch_matrix(
    const MemberType& member, int m, int n, int level = 0) {
  const int ld = Impl::LuStaging::row_stride(n);
  return TeamLuScratchMatrix<T, MemberType>(
      static_cast<T*>(member.team_scratch(level).get_shmem(team_lu_scratch_size<T>(m, n))),
      Kokkos::LayoutStride(m, ld, n, 1));
}

// to = from (both m x n) with the whole team, then a team barrier. The copy of exgetf2_batched's
// staging: consecutive threads take consecutive entries of a row.
template <class MemberType, class FromView, class ToView>
KOKKOS_INLINE_FUNCTION void team_lu_copy(const MemberType& member, const FromView& from,
                                         const ToView& to) {
  if (from.extent(0) > 0 && from.extent(1) > 0) Impl::copy_matrix(member, from, to);
  member.team_barrier();
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_TEAMLU_HPP
