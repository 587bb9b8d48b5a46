// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Solves with LU factors from exgetf2, for one thread of a team (batched) or around extrsv
// (unbatched). Both evaluate the same definition, x_q = RN(RN(b_q - sum_r t_qr x_r) / t_qq) with
// the sum exact, so a batched solve equals the unbatched one bit for bit.
//   trans N: A = P^T L U, so x = U^-1 L^-1 P b (swaps in order, then forward, then back);
//   trans T: A^T = U^T L^T P, so x = P^T L^-T U^-T b (forward with U^T, back with L^T, then the
//            swaps in reverse order).
#ifndef EXKOKKOS_GETRS_IMPL_HPP
#define EXKOKKOS_GETRS_IMPL_HPP

#include <impl/ExKokkos_Trsv_impl.hpp>

namespace ExKokkos {
namespace Impl {

template <class BView, class PivView>
KOKKOS_INLINE_FUNCTION void apply_row_swaps(const BView& b, const PivView& ipiv, bool reverse) {
  const int n = static_cast<int>(ipiv.extent(0));
  for (int s = 0; s < n; ++s) {
    const int j = reverse ? n - 1 - s : s;
    const int p = ipiv(j);
    if (p != j) {
      const auto t = b(j);
      b(j) = b(p);
      b(p) = t;
    }
  }
}

// The whole solve with the LU factors on one thread: the row swaps, then blas' serial_substitution
// (blas/impl/ExKokkos_Trsv_impl.hpp) on each triangle.
template <int N, class AView, class PivView, class BView>
KOKKOS_INLINE_FUNCTION void serial_getrs(bool transposed, const AView& LU, const PivView& ipiv,
                                         const BView& b) {
  if (!transposed) {
    apply_row_swaps(b, ipiv, false);
    serial_substitution<N>(triangle_operand(LU, false, false), b, true);  // L, unit, forward
    serial_substitution<N>(triangle_operand(LU, false, true), b, false);  // U, backward
  } else {
    serial_substitution<N>(triangle_operand(LU, true, false), b, false);  // U^T, lower: forward
    serial_substitution<N>(triangle_operand(LU, true, true), b, true);    // L^T, unit: backward
    apply_row_swaps(b, ipiv, true);
  }
}

// r(i) = RN(b(i) - sum_j A(i, j) x(j)), exact before the one rounding; rows over the team.
template <int N, class Member, class AView, class XView, class BView, class RView>
KOKKOS_INLINE_FUNCTION void team_residual(const Member& team, const AView& A, const XView& x,
                                          const BView& b, const RView& r) {
  using T = typename RView::non_const_value_type;
  const int n = static_cast<int>(A.extent(0));
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int i) {
    LongAccumulator s;
    Expansion<N> e;
    for (int j = 0; j < n; ++j) {
      if (std::is_same<T, double>::value)
        e.add_product(-double(A(i, j)), double(x(j)), s);
      else
        e.add(-double(A(i, j)) * double(x(j)), s);
    }
    e.flush(s);
    s.add(b(i));
    r(i) = s.round<T>();
  });
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_GETRS_IMPL_HPP
