// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::exger: A = A + alpha x y^T (KokkosBlas::ger), every element the exact
// a_ij + alpha x_i y_j rounded once (core/ExKokkos_RoundedRankUpdate.hpp), so any partition gives
// the same bits.
//
//   ExKokkos::exger(space, "T", alpha, x, y, A);   // trans "T", or "H" (the same for real values)
//   ExKokkos::exger("T", alpha, x, y, A);
//
// x, y: rank-1 views of A's rows and columns; A: rank-2, any layout, strided subviews; double,
// float or their Kokkos::complex (trans "H": a_ij + alpha x_i conj(y_j); each part rounded once).
// As BLAS, alpha == 0 (or an empty A) returns at once without reading anything. IEEE special values
// follow the exact expression (a NaN in x reaches every element of its row, even where y_j = 0, as
// in KokkosBlas). Mismatched extents, an unknown trans, or A whose memory overlaps x's or y's throw
// std::invalid_argument before anything is written.
#ifndef EXKOKKOS_GER_HPP
#define EXKOKKOS_GER_HPP

#include "impl/ExKokkos_RankUpdate_impl.hpp"

namespace ExKokkos {

template <class ExecSpace, class XView, class YView, class AView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<XView>() &&
                                      Impl::is_rank1_view<YView>() && Impl::is_rank2_view<AView>(),
                                  int>::type = 0>
void exger(const ExecSpace& space, const char trans[], typename AView::const_value_type& alpha,
           const XView& x, const YView& y, const AView& A) {
  Impl::require_accessible<ExecSpace, XView>();
  Impl::require_accessible<ExecSpace, YView>();
  Impl::require_accessible<ExecSpace, AView>();
  const char* routine = "ExKokkos::exger";
  const Impl::HostCall<ExecSpace> call(space, routine);
  const bool conjugate = Impl::check_rank_update(routine, trans, A, x, y);
  Impl::check_rank_update_extents(routine, A, x, y);
  if (alpha == typename AView::non_const_value_type(0) || A.size() == 0) return;
  Impl::rank_update<1>(space, routine, Impl::UpdatedPart::whole, alpha,
                       Impl::write_view<ExecSpace>(A), Impl::read_view<ExecSpace>(x),
                       Impl::read_view<ExecSpace>(y), conjugate);
}

template <class XView, class YView, class AView,
          typename std::enable_if<Impl::is_rank1_view<XView>() && Impl::is_rank1_view<YView>() &&
                                      Impl::is_rank2_view<AView>(),
                                  int>::type = 0>
void exger(const char trans[], typename AView::const_value_type& alpha, const XView& x,
           const YView& y, const AView& A) {
  exger(typename AView::execution_space(), trans, alpha, x, y, A);
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_GER_HPP
