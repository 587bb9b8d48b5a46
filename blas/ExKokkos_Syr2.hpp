// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::exsyr2: A = A + alpha x y^T + alpha y x^T on one triangle of a symmetric A
// (KokkosBlas::syr2), every updated element the exact a_ij + alpha (x_i y_j + y_i x_j) rounded
// once (core/ExKokkos_RoundedRankUpdate.hpp), so any partition gives the same bits.
//
//   ExKokkos::exsyr2(space, "T", "U", alpha, x, y, A);  // trans "T"/"H", uplo "U"/"L"
//   ExKokkos::exsyr2("T", "L", alpha, x, y, A);
//
// Only the triangle named by uplo (its diagonal included) is read and written. A square, x and y
// of its order; any layout, strided subviews; double, float or their Kokkos::complex (trans "H":
// a_ij + alpha x_i conj(y_j) + conj(alpha) y_i conj(x_j), KokkosBlas::syr2's Hermitian form; each
// part rounded once). As BLAS, alpha == 0 (or an
// empty A) returns at once. Mismatched extents, an unknown trans or uplo, or A whose memory
// overlaps x's or y's throw std::invalid_argument before anything is written.
#ifndef EXKOKKOS_SYR2_HPP
#define EXKOKKOS_SYR2_HPP

#include "impl/ExKokkos_RankUpdate_impl.hpp"

namespace ExKokkos {

template <class ExecSpace, class XView, class YView, class AView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<XView>() &&
                                      Impl::is_rank1_view<YView>() && Impl::is_rank2_view<AView>(),
                                  int>::type = 0>
void exsyr2(const ExecSpace& space, const char trans[], const char uplo[],
            typename AView::const_value_type& alpha, const XView& x, const YView& y,
            const AView& A) {
  Impl::require_accessible<ExecSpace, XView>();
  Impl::require_accessible<ExecSpace, YView>();
  Impl::require_accessible<ExecSpace, AView>();
  const char* routine = "ExKokkos::exsyr2";
  const Impl::HostCall<ExecSpace> call(space, routine);
  const bool conjugate = Impl::check_rank_update(routine, trans, A, x, y);
  const Impl::UpdatedPart part = Impl::check_symmetric_update(routine, uplo, A, x);
  Impl::check_same_extent(routine, x, y);
  if (alpha == typename AView::non_const_value_type(0) || A.size() == 0) return;
  Impl::rank_update<2>(space, routine, part, alpha, Impl::write_view<ExecSpace>(A),
                       Impl::read_view<ExecSpace>(x), Impl::read_view<ExecSpace>(y), conjugate);
}

template <class XView, class YView, class AView,
          typename std::enable_if<Impl::is_rank1_view<XView>() && Impl::is_rank1_view<YView>() &&
                                      Impl::is_rank2_view<AView>(),
                                  int>::type = 0>
void exsyr2(const char trans[], const char uplo[], typename AView::const_value_type& alpha,
            const XView& x, const YView& y, const AView& A) {
  exsyr2(typename AView::execution_space(), trans, uplo, alpha, x, y, A);
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_SYR2_HPP
