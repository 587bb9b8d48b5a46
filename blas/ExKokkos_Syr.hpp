// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::exsyr: A = A + alpha x x^T on one triangle of a symmetric A (KokkosBlas::syr), every
// updated element the exact a_ij + alpha x_i x_j rounded once
// (core/ExKokkos_RoundedRankUpdate.hpp), so any partition gives the same bits.
//
//   ExKokkos::exsyr(space, "T", "U", alpha, x, A);  // trans "T"/"H", uplo "U"/"L"
//   ExKokkos::exsyr("T", "L", alpha, x, A);
//
// Only the triangle named by uplo (its diagonal included) is read and written. A square, x of
// its order; any layout, strided subviews; double, float or their Kokkos::complex (trans "H":
// a_ij + alpha x_i conj(x_j), alpha taken as given, as KokkosBlas::syr; each part rounded once).
// As BLAS, alpha == 0 (or an
// empty A) returns at once. Mismatched extents, an unknown trans or uplo, or A whose memory
// overlaps x's throw std::invalid_argument before anything is written.
#ifndef EXKOKKOS_SYR_HPP
#define EXKOKKOS_SYR_HPP

#include "impl/ExKokkos_RankUpdate_impl.hpp"

namespace ExKokkos {

template <class ExecSpace, class XView, class AView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<XView>() &&
                                      Impl::is_rank2_view<AView>(),
                                  int>::type = 0>
void exsyr(const ExecSpace& space, const char trans[], const char uplo[],
           typename AView::const_value_type& alpha, const XView& x, const AView& A) {
  Impl::require_accessible<ExecSpace, XView>();
  Impl::require_accessible<ExecSpace, AView>();
  const char* routine = "ExKokkos::exsyr";
  const Impl::HostCall<ExecSpace> call(space, routine);
  const bool conjugate = Impl::check_rank_update(routine, trans, A, x, x);
  const Impl::UpdatedPart part = Impl::check_symmetric_update(routine, uplo, A, x);
  if (alpha == typename AView::non_const_value_type(0) || A.size() == 0) return;
  const auto xc = Impl::read_view<ExecSpace>(x);
  Impl::rank_update<1>(space, routine, part, alpha, Impl::write_view<ExecSpace>(A), xc, xc,
                       conjugate);
}

template <class XView, class AView,
          typename std::enable_if<Impl::is_rank1_view<XView>() && Impl::is_rank2_view<AView>(),
                                  int>::type = 0>
void exsyr(const char trans[], const char uplo[], typename AView::const_value_type& alpha,
           const XView& x, const AView& A) {
  exsyr(typename AView::execution_space(), trans, uplo, alpha, x, A);
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_SYR_HPP
