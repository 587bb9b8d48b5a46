// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::exabs: R(i) = |X(i)| (KokkosBlas::abs). R and X: rank-1 or rank-2 views of the same
// shape, any layout; R may be X. Real values: exact. Kokkos::complex values: the square root of
// the exact re^2 + im^2, rounded once (ExKokkos_RoundedComplex.hpp), into R of X's complex type
// (imaginary part +0) or of its real type.
//
//   ExKokkos::exabs(space, R, X);   ExKokkos::exabs(R, X);
#ifndef EXKOKKOS_ABS_HPP
#define EXKOKKOS_ABS_HPP

#include "impl/ExKokkos_Elementwise_impl.hpp"

#include <ExKokkos_RoundedComplex.hpp>

namespace ExKokkos {
namespace Impl {

template <class RView, class XView>
struct AbsFunctor {
  using T = typename RView::non_const_value_type;
  using X = typename XView::non_const_value_type;
  RView r;
  XView x;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const {
    if constexpr (is_exact_complex<X>())
      r(i) = T(rounded_complex_abs(X(x(i))));
    else
      r(i) = compat::fabs(T(x(i)));
  }
};

// One element of r = |x| for certified_block (host threads, complex doubles).
template <class RView, class XView>
struct ComplexAbsOp {
  RView r;
  XView x;
  KOKKOS_FORCEINLINE_FUNCTION bool fast(const std::size_t i, double& v) const {
    return rounded_complex_abs_fast(x(i), v);
  }
  KOKKOS_INLINE_FUNCTION double exact(const std::size_t i) const {
    return rounded_complex_abs_exact(Kokkos::complex<double>(x(i)));
  }
  KOKKOS_INLINE_FUNCTION void store(const std::size_t i, const double v) const {
    r(i) = typename RView::non_const_value_type(v);
  }
};

// The entry point, on canonical views of rank 1 or 2.
template <class ExecSpace, class RView, class XView>
void abs_into(const ExecSpace& space, const RView& r, const XView& x) {
  for (std::size_t j = 0; j < num_columns(r); ++j) {
    const auto rj = write_view<ExecSpace>(column(r, j));
    const auto xj = read_view<ExecSpace>(column(x, j));
    using X = typename XView::non_const_value_type;
    if constexpr (is_host_space<ExecSpace>() && std::is_same<X, Kokkos::complex<double>>::value)
      for_each_certified(space, "ExKokkos::exabs", rj.extent(0),
                         ComplexAbsOp<decltype(rj), decltype(xj)>{rj, xj});
    else
      for_each_element(space, "ExKokkos::exabs", rj.extent(0),
                       AbsFunctor<decltype(rj), decltype(xj)>{rj, xj});
  }
}

}  // namespace Impl

template <class ExecSpace, class RView, class XView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1or2_view<RView>() &&
                                      Impl::is_rank1or2_view<XView>(),
                                  int>::type = 0>
void exabs(const ExecSpace& space, const RView& R, const XView& X) {
  Impl::require_accessible<ExecSpace, RView>();
  Impl::require_accessible<ExecSpace, XView>();
  using RT = typename RView::non_const_value_type;
  using XT = typename XView::non_const_value_type;
  static_assert(Impl::is_exact_value<XT>(),
                "ExKokkos::exabs: X must hold double, float or Kokkos::complex of them");
  static_assert(std::is_same<RT, XT>::value || std::is_same<RT, Impl::magnitude_t<XT>>::value,
                "ExKokkos::exabs: R must hold X's value type (or its real type)");
  const Impl::HostCall<ExecSpace> call(space, "ExKokkos::exabs");
  Impl::check_elementwise_extents("ExKokkos::exabs", R, X);
  Impl::abs_into(space, Impl::write_view<ExecSpace>(R), Impl::read_view<ExecSpace>(X));
}

template <class RView, class XView,
          typename std::enable_if<
              Impl::is_rank1or2_view<RView>() && Impl::is_rank1or2_view<XView>(), int>::type = 0>
void exabs(const RView& R, const XView& X) {
  exabs(typename RView::execution_space(), R, X);
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_ABS_HPP
