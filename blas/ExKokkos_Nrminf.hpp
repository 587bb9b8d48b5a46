// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::exnrminf: the infinity norm max_i |x(i)|, exact (no rounding happens) and therefore
// the same bits on every backend and partition. NaN when any element is NaN, as LAPACK's norms
// (KokkosBlas::nrminf compares only, so where a NaN lands in its partition decides whether it
// shows); +inf when an element is infinite and none is NaN; 0 for an empty vector.
// Kokkos::complex values: max_i |x(i)| with |x(i)| the modulus sqrt(re^2 + im^2), as KokkosBlas'
// (not BLAS' |re| + |im|), the largest modulus rounded once into the real type (the largest of
// exabs' values: rounding is monotone); NaN when a part of an element is NaN.
//
//   double m = ExKokkos::exnrminf(space, x);   ExKokkos::exnrminf(space, r, x);   exnrminf(x)
//   ExKokkos::exnrminf(r, x);
//   ExKokkos::exnrminf(space, R, X);   // rank-2 X: R(j) = exnrminf of column j
#ifndef EXKOKKOS_NRMINF_HPP
#define EXKOKKOS_NRMINF_HPP

#include "impl/ExKokkos_MaxMagnitude_impl.hpp"
#include "impl/ExKokkos_Multivector_impl.hpp"
#include "impl/ExKokkos_ReductionRoutine_impl.hpp"

namespace ExKokkos {
namespace Impl {

// The entry point, on canonical views (common/impl/ExKokkos_CanonicalViews_impl.hpp).
template <class ExecSpace, class RView, class XView>
void nrminf_into(const ExecSpace& space, const RView& r, const XView& x) {
  max_magnitude_into<NrminfFinish>(space, r, x, "ExKokkos::exnrminf");
}

template <class ExecSpace, class RView, class XView>
void nrminf_columns(const ExecSpace& space, const RView& r, const XView& x) {
  const HostCall<ExecSpace> call(space, "ExKokkos::exnrminf");
  check_result_length("ExKokkos::exnrminf", r, num_columns(x));
  for (std::size_t j = 0; j < r.extent(0); ++j)
    nrminf_into(space, element(r, j), read_view<ExecSpace>(column(x, j)));
}

}  // namespace Impl

template <class ExecSpace, class RView, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank0_view<RView>() &&
                                      Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
void exnrminf(const ExecSpace& space, const RView& r, const XView& x) {
  Impl::require_accessible<ExecSpace, RView>();
  Impl::require_accessible<ExecSpace, XView>();
  static_assert(Impl::is_exact_value<typename XView::non_const_value_type>(),
                "ExKokkos::exnrminf: x must hold double, float or their Kokkos::complex");
  Impl::nrminf_into(space, Impl::write_view<ExecSpace>(r), Impl::read_view<ExecSpace>(x));
}

template <class ExecSpace, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
Impl::magnitude_t<typename XView::non_const_value_type> exnrminf(const ExecSpace& space,
                                                                 const XView& x) {
  Impl::require_accessible<ExecSpace, XView>();
  const auto r =
      Impl::result_view<Impl::magnitude_t<typename XView::non_const_value_type>, ExecSpace>(
          space, "ExKokkos::exnrminf");
  exnrminf(space, r, x);
  return Impl::fetch_result(space, r);
}

template <class XView, typename std::enable_if<Impl::is_rank1_view<XView>(), int>::type = 0>
Impl::magnitude_t<typename XView::non_const_value_type> exnrminf(const XView& x) {
  return exnrminf(typename XView::execution_space(), x);
}

template <class RView, class XView,
          typename std::enable_if<Impl::is_rank0_view<RView>() && Impl::is_rank1_view<XView>(),
                                  int>::type = 0>
void exnrminf(const RView& r, const XView& x) {
  exnrminf(typename XView::execution_space(), r, x);
}

// KokkosBlas' multivector form: R(j) = exnrminf of column j of the rank-2 X.
template <class ExecSpace, class RView, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1_view<RView>() &&
                                      Impl::is_rank2_view<XView>(),
                                  int>::type = 0>
void exnrminf(const ExecSpace& space, const RView& R, const XView& X) {
  Impl::require_accessible<ExecSpace, RView>();
  Impl::require_accessible<ExecSpace, XView>();
  static_assert(Impl::is_exact_value<typename XView::non_const_value_type>(),
                "ExKokkos::exnrminf: X must hold double, float or their Kokkos::complex");
  static_assert(!std::is_const<typename RView::value_type>::value,
                "ExKokkos::exnrminf: R must not be const");
  Impl::nrminf_columns(space, Impl::write_view<ExecSpace>(R), Impl::read_view<ExecSpace>(X));
}

template <class RView, class XView,
          typename std::enable_if<Impl::is_rank1_view<RView>() && Impl::is_rank2_view<XView>(),
                                  int>::type = 0>
void exnrminf(const RView& R, const XView& X) {
  exnrminf(typename XView::execution_space(), R, X);
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_NRMINF_HPP
