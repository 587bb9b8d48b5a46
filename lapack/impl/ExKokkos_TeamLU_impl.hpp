// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The LU inside a user's kernel (lapack/ExKokkos_TeamLU.hpp): the argument checks that take the
// place of exceptions there, the entry update a team or a lone thread uses, and the solve of one
// or several right-hand sides. The factorization is team_getf2 (ExKokkos_Getf2_impl.hpp), the
// code behind exgetf2, and the solve serial_getrs (ExKokkos_Getrs_impl.hpp), the code behind
// exgetrs_batched, whose components are those of exgetrs' substitutions (extrsv's definition):
// every entry of the factors and every component of a solution is the same exact expression
// rounded once, so a call from a user's kernel gives the bits of the host-level routines.
#ifndef EXKOKKOS_TEAMLU_IMPL_HPP
#define EXKOKKOS_TEAMLU_IMPL_HPP

#include "ExKokkos_BatchedGetf2_impl.hpp"
#include "ExKokkos_Getf2_impl.hpp"
#include "ExKokkos_Getrs_impl.hpp"

#include <impl/ExKokkos_DeviceTraits_impl.hpp>
#include <impl/ExKokkos_Tuning_impl.hpp>

#include <climits>
#include <cstddef>
#include <type_traits>

namespace ExKokkos {
namespace Impl {

// The execution space whose defaults a lone thread takes (the serial forms have no team member to
// name it): the device's in a device pass, the host's otherwise.
template <bool Device>
struct PassSpace {
  using type = Kokkos::DefaultHostExecutionSpace;
};
template <>
struct PassSpace<true> {
  using type = Kokkos::DefaultExecutionSpace;
};

// The defaults of the LU on ExecSpace: its expansion size, and the entry update of the
// factorization (on the host with the vector lanes for a team of one thread: ExactLuUpdate).
// Neither changes a bit. Constants of a class, not calls in the kernels' code: device code may not
// call the host's constexpr functions.
template <class ExecSpace>
struct LuDefaults {
  static constexpr int expansion_size = lu_default_expansion_size<ExecSpace>();
  using Update = ExactLuUpdate<expansion_size, is_host_space<ExecSpace>()>;
};

KOKKOS_INLINE_FUNCTION constexpr bool fits_int(std::size_t extent) {
  return extent <= std::size_t(INT_MAX);
}

// LAPACK's convention for a bad argument, which a kernel cannot throw: -i for the i-th argument
// of invoke (not counting the team member), 0 when all are good. getf2: A (1: an extent of 2^31
// or more, as the LU indexes with int), ipiv (2: not min(m, n) entries).
template <class AView, class PivView>
KOKKOS_INLINE_FUNCTION int getf2_argument_error(const AView& A, const PivView& ipiv) {
  if (!fits_int(A.extent(0)) || !fits_int(A.extent(1))) return -1;
  const std::size_t k = A.extent(0) < A.extent(1) ? A.extent(0) : A.extent(1);
  if (ipiv.extent(0) != k) return -2;
  return 0;
}

// trans: lu_no_trans for "N", lu_trans for "T", lu_conj_trans for "C" or "H" (the conjugate
// transpose, which is "T" for real values), either case; -1 otherwise (exgetrs' parse_lu_trans,
// which throws).
KOKKOS_INLINE_FUNCTION int kernel_trans(const char trans[]) {
  if (trans == nullptr) return -1;
  switch (trans[0]) {
    case 'N':
    case 'n':
      return lu_no_trans;
    case 'T':
    case 't':
      return lu_trans;
    case 'C':
    case 'c':
    case 'H':
    case 'h':
      return lu_conj_trans;
    default:
      return -1;
  }
}

template <class BView>
KOKKOS_INLINE_FUNCTION std::size_t column_count(const BView& B) {
  if constexpr (static_cast<int>(BView::rank) == 1) {
    (void)B;
    return 1;
  } else {
    return B.extent(1);
  }
}
template <class BView>
KOKKOS_INLINE_FUNCTION auto column_of(const BView& B, int c) {
  if constexpr (static_cast<int>(BView::rank) == 1) {
    (void)c;
    return B;
  } else {
    return Kokkos::subview(B, Kokkos::ALL(), c);
  }
}

// getrs: trans (1: not "N", "T", "C" or "H"), LU (2: not square, or an extent of 2^31 or more),
// ipiv (3: not n entries, or a pivot outside [j, n): exgetf2 swaps row j with a row at or below it,
// and any other value would make the swaps read and write outside B), B (4: not n rows, or 2^31
// columns or more). The pivots are read by every thread that asks, n integer comparisons next to
// the solve's n^2 exact terms; so every thread of a team returns the same code.
template <class LUView, class PivView, class BView>
KOKKOS_INLINE_FUNCTION int getrs_argument_error(int trans, const LUView& LU, const PivView& ipiv,
                                                const BView& B) {
  if (trans < 0) return -1;
  if (LU.extent(0) != LU.extent(1) || !fits_int(LU.extent(0))) return -2;
  if (ipiv.extent(0) != LU.extent(0)) return -3;
  const int n = static_cast<int>(LU.extent(0));
  for (int j = 0; j < n; ++j) {
    const auto p = ipiv(j);
    if (p < j || p >= n) return -3;
  }
  if (B.extent(0) != LU.extent(0) || !fits_int(column_count(B))) return -4;
  return 0;
}

// Solves op(A) X = B with the factors, the team's threads taking whole columns of B (one thread
// solves each: a column's components depend on each other in order). Begins and ends with a team
// barrier, so B and the factors may be written by any thread of the team before and read by any
// after.
template <int N, class Member, class LUView, class PivView, class BView>
KOKKOS_INLINE_FUNCTION int team_getrs(const Member& member, const char trans[], const LUView& LU,
                                      const PivView& ipiv, const BView& B) {
  const int t = kernel_trans(trans);
  const int error = getrs_argument_error(t, LU, ipiv, B);
  if (error != 0) return error;
  if (LU.extent(0) == 0) return 0;
  member.team_barrier();
  team_for(member, 0, static_cast<int>(column_count(B)),
           [&](const int c) { serial_getrs<N>(t, LU, ipiv, column_of(B, c)); });
  member.team_barrier();
  return 0;
}

// The team scratch a copy of an m x n matrix of T takes in the layout of the staged batched LU
// (LuStaging: row-major, odd row stride), rounded up to the 8 bytes that Kokkos' scratch
// allocations are aligned to, so that the sizes of several allocations add up.
template <class T>
KOKKOS_INLINE_FUNCTION constexpr std::size_t lu_staging_bytes(int m, int n) {
  return (sizeof(T) * std::size_t(m) * std::size_t(LuStaging::row_stride(n)) + 7) / 8 * 8;
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_TEAMLU_IMPL_HPP
