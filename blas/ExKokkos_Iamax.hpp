// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::exiamax: the index of the first element of largest magnitude, 1-based as
// KokkosBlas::iamax and BLAS' IxAMAX (0 for an empty vector). No rounding happens, and ties go to
// the smallest index whatever the partition, so every backend gives the same index (KokkosBlas'
// parallel join keeps whichever tied index it meets first). NaN as the reference IxAMAX: 1 when
// x(1) is NaN, otherwise NaN elements are passed over; an infinite element is the largest.
// Kokkos::complex values: the element of largest modulus sqrt(re^2 + im^2), as KokkosBlas' (BLAS'
// IzAMAX compares |re| + |im|), compared exactly: moduli that round to the same double are told
// apart by their exact squares. An element with a NaN part is NaN; one with an infinite part is
// infinite.
//
//   auto i = ExKokkos::exiamax(space, x);   ExKokkos::exiamax(space, r, x);   exiamax(x)
//   ExKokkos::exiamax(r, x);                  // r: rank-0 view of an integer type
//   ExKokkos::exiamax(space, R, X);   // rank-2 X: R(j) = exiamax of column j (rank-1 integer R)
#ifndef EXKOKKOS_IAMAX_HPP
#define EXKOKKOS_IAMAX_HPP

#include "impl/ExKokkos_MaxMagnitude_impl.hpp"
#include "impl/ExKokkos_Multivector_impl.hpp"
#include "impl/ExKokkos_ReductionRoutine_impl.hpp"

namespace ExKokkos {
namespace Impl {

// The entry point, on canonical views (common/impl/ExKokkos_CanonicalViews_impl.hpp).
template <class ExecSpace, class RView, class XView>
void iamax_into(const ExecSpace& space, const RView& r, const XView& x) {
  max_magnitude_into<IamaxFinish>(space, r, x, "ExKokkos::exiamax");
}

template <class ExecSpace, class RView, class XView>
void iamax_columns(const ExecSpace& space, const RView& r, const XView& x) {
  const HostCall<ExecSpace> call(space, "ExKokkos::exiamax");
  check_result_length("ExKokkos::exiamax", r, num_columns(x));
  for (std::size_t j = 0; j < r.extent(0); ++j)
    iamax_into(space, element(r, j), read_view<ExecSpace>(column(x, j)));
}

}  // namespace Impl

template <class ExecSpace, class RView, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank0_view<RView>() &&
                                      Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
void exiamax(const ExecSpace& space, const RView& r, const XView& x) {
  Impl::require_accessible<ExecSpace, RView>();
  Impl::require_accessible<ExecSpace, XView>();
  static_assert(Impl::is_exact_value<typename XView::non_const_value_type>(),
                "ExKokkos::exiamax: x must hold double, float or their Kokkos::complex");
  static_assert(std::is_integral<typename RView::value_type>::value,
                "ExKokkos::exiamax: r must hold an integer type (a non-const index)");
  Impl::iamax_into(space, Impl::write_view<ExecSpace>(r), Impl::read_view<ExecSpace>(x));
}

template <class ExecSpace, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
typename XView::size_type exiamax(const ExecSpace& space, const XView& x) {
  Impl::require_accessible<ExecSpace, XView>();
  const auto r =
      Impl::result_view<typename XView::size_type, ExecSpace>(space, "ExKokkos::exiamax");
  exiamax(space, r, x);
  return Impl::fetch_result(space, r);
}

template <class XView, typename std::enable_if<Impl::is_rank1_view<XView>(), int>::type = 0>
typename XView::size_type exiamax(const XView& x) {
  return exiamax(typename XView::execution_space(), x);
}

template <class RView, class XView,
          typename std::enable_if<Impl::is_rank0_view<RView>() && Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
void exiamax(const RView& r, const XView& x) {
  exiamax(typename XView::execution_space(), r, x);
}

// KokkosBlas' multivector form: R(j) = exiamax of column j of the rank-2 X.
template <class ExecSpace, class RView, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<RView>() &&
                                      Impl::is_rank2_view<XView>(),
                                  int>::type = 0>
void exiamax(const ExecSpace& space, const RView& R, const XView& X) {
  Impl::require_accessible<ExecSpace, RView>();
  Impl::require_accessible<ExecSpace, XView>();
  static_assert(Impl::is_exact_value<typename XView::non_const_value_type>(),
                "ExKokkos::exiamax: X must hold double, float or their Kokkos::complex");
  static_assert(!std::is_const<typename RView::value_type>::value,
                "ExKokkos::exiamax: R must not be const");
  static_assert(std::is_integral<typename RView::value_type>::value,
                "ExKokkos::exiamax: R must hold an integer type");
  Impl::iamax_columns(space, Impl::write_view<ExecSpace>(R), Impl::read_view<ExecSpace>(X));
}

template <class RView, class XView,
          typename std::enable_if<Impl::is_rank1_view<RView>() && Impl::is_rank2_view<XView>(),
                                  int>::type = 0>
void exiamax(const RView& R, const XView& X) {
  exiamax(typename XView::execution_space(), R, X);
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_IAMAX_HPP
