// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Solves with LU factors from exgetf2, for one thread of a team (batched) or around extrsv
// (unbatched). Both evaluate the same definition, x_q = RN(RN(b_q - sum_r t_qr x_r) / t_qq) with
// the sum exact, so a batched solve equals the unbatched one bit for bit.
//   trans N: A = P^T L U, so x = U^-1 L^-1 P b (swaps in order, then forward, then back);
//   trans T: A^T = U^T L^T P, so x = P^T L^-T U^-T b (forward with U^T, back with L^T, then the
//            swaps in reverse order).
#ifndef EXKOKKOS_GETRS_IMPL_HPP
#define EXKOKKOS_GETRS_IMPL_HPP

#include "ExKokkos_ComplexLu_impl.hpp"

#include <impl/ExKokkos_ComplexTrsv_impl.hpp>
#include <impl/ExKokkos_Trsv_impl.hpp>
#include <impl/ExKokkos_ViewTraits_impl.hpp>

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

// trans as the solves take it: 0 "N", 1 "T", 2 "C" or "H" (the conjugate transpose; "T" for real
// values).
enum LuTrans : int { lu_no_trans = 0, lu_trans = 1, lu_conj_trans = 2 };

// The whole solve with the LU factors on one thread: the row swaps, then blas' serial substitution
// (blas/impl/ExKokkos_Trsv_impl.hpp, ExKokkos_ComplexTrsv_impl.hpp) on each triangle.
template <int N, class AView, class PivView, class BView>
KOKKOS_INLINE_FUNCTION void serial_getrs(int trans, const AView& LU, const PivView& ipiv,
                                         const BView& b) {
  const bool transposed = trans != lu_no_trans;
  // The triangles: L (unit) forward then U backward, or U^T forward then L^T (unit) backward;
  // reversed: op(triangle) upper, solved from the last row.
  const auto solve = [&](bool upper, bool unit) {
    const bool reversed = upper != transposed;
    if constexpr (is_exact_complex<typename BView::non_const_value_type>()) {
      using Real = magnitude_t<typename AView::non_const_value_type>;
      complex_serial_substitution<N>(
          ComplexTriangle<Real>::make(LU, transposed, trans == lu_conj_trans, reversed), b, unit);
    } else {
      serial_substitution<N>(triangle_operand(LU, transposed, reversed), b, unit);
    }
  };
  if (!transposed) {
    apply_row_swaps(b, ipiv, false);
    solve(false, true);  // L, unit
    solve(true, false);  // U
  } else {
    solve(true, false);  // U^T
    solve(false, true);  // L^T, unit
    apply_row_swaps(b, ipiv, true);
  }
}

// r(i) = RN(b(i) - sum_j A(i, j) x(j)), exact before the one rounding (each part of a complex
// r(i)); rows over the team.
template <int N, class Member, class AView, class XView, class BView, class RView>
KOKKOS_INLINE_FUNCTION void team_residual(const Member& team, const AView& A, const XView& x,
                                          const BView& b, const RView& r) {
  using V = typename RView::non_const_value_type;
  using T = magnitude_t<V>;
  constexpr int parts = is_exact_complex<V>() ? 2 : 1;
  const int n = static_cast<int>(A.extent(0));
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int i) {
    T rounded[parts];
    for (int part = 0; part < parts; ++part) {
      LongAccumulator s;
      Expansion<N> e;
      const auto add = [&](double f, double v) {
        if (std::is_same<T, double>::value)
          e.add_product(f, v, s);
        else
          e.add(f * v, s);  // two floats: exact in double
      };
      for (int j = 0; j < n; ++j) {
        if constexpr (parts == 2)
          negated_product_terms(A(i, j), x(j), part, add);
        else
          add(-double(A(i, j)), double(x(j)));
      }
      e.flush(s);
      if constexpr (parts == 2)
        s.add(part == 0 ? b(i).real() : b(i).imag());
      else
        s.add(b(i));
      rounded[part] = s.round<T>();
    }
    if constexpr (parts == 2)
      r(i) = V(rounded[0], rounded[1]);
    else
      r(i) = rounded[0];
  });
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_GETRS_IMPL_HPP
